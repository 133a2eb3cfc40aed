package scenario

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
)

// SchemaID is where the sandbox serves the schema; editors may fetch it
// from a running sandbox.
const SchemaID = "/_sandbox/scenario.schema.json"

// JSONSchema returns the JSON Schema (draft 2020-12) of scenario files,
// made from the scenario types and their tags: every key with its type,
// description and default, the fixed sets of values, the required keys,
// and for each kind of event the keys its with takes. The output is the
// same bytes every time; docs/scenario.schema.json is a copy.
func JSONSchema() []byte {
	defs := map[string]obj{}
	root := structSchema(reflect.TypeFor[Scenario](), defs)
	head := obj{
		{"$schema", "https://json-schema.org/draft/2020-12/schema"},
		{"title", "slash-sandbox scenario"},
		{"description", "A scenario file of slash-sandbox: the world it declares. See docs/scenarios.md."},
	}
	names := make([]string, 0, len(defs))
	for name := range defs {
		names = append(names, name)
	}
	slices.Sort(names)
	all := obj{}
	for _, name := range names {
		all = append(all, kv{name, defs[name]})
	}
	out, err := json.MarshalIndent(append(append(head, root...), kv{"$defs", all}), "", "  ")
	if err != nil {
		panic("scenario: the schema does not encode: " + err.Error())
	}
	return append(out, '\n')
}

// structSchema is the schema of one scenario type; the types it holds go
// to defs.
func structSchema(t reflect.Type, defs map[string]obj) obj {
	props := obj{}
	var required []string
	for _, f := range shapeOf(t).fields {
		props = append(props, kv{f.key, fieldSchema(f, defs)})
		if f.required {
			required = append(required, f.key)
		}
	}
	s := obj{{"type", "object"}, {"additionalProperties", false}, {"properties", props}}
	if len(required) > 0 {
		s = append(s, kv{"required", required})
	}
	if t == reflect.TypeFor[Event]() {
		s = append(s, kv{"allOf", eventSchemas()})
	}
	return s
}

func fieldSchema(f field, defs map[string]obj) obj {
	s := typeSchema(f.typ, defs)
	if f.typ.Kind() == reflect.Slice && f.ref != "" {
		s = obj{{"type", "array"}, {"items", obj{{"type", "string"}}}}
	}
	switch {
	case len(f.enum) > 0 && f.typ.Kind() == reflect.Slice:
		s = obj{{"type", "array"}, {"items", obj{{"type", "string"}, {"enum", f.enum}}}}
	case len(f.enum) > 0:
		s = append(s, kv{"enum", f.enum})
	}
	if len(f.types) > 0 {
		s = obj{{"type", f.types}}
	}
	if f.required && f.typ.Kind() == reflect.Slice {
		s = append(s, kv{"minItems", 1})
	}
	desc := f.doc
	if f.unset != "" {
		desc += " Default: " + f.unset + "."
	}
	s = append(obj{{"description", desc}}, s...)
	if f.def != "" {
		s = append(s, kv{"default", typedDefault(deref(f.typ).Kind(), f.def)})
	}
	return s
}

func typeSchema(t reflect.Type, defs map[string]obj) obj {
	t = deref(t)
	switch t.Kind() {
	case reflect.String:
		return obj{{"type", "string"}}
	case reflect.Bool:
		return obj{{"type", "boolean"}}
	case reflect.Int, reflect.Int64:
		return obj{{"type", "integer"}}
	case reflect.Float64:
		return obj{{"type", "number"}}
	case reflect.Map:
		return obj{{"type", "object"}}
	case reflect.Slice:
		return obj{{"type", "array"}, {"items", typeSchema(t.Elem(), defs)}}
	case reflect.Struct:
		if _, ok := defs[t.Name()]; !ok {
			defs[t.Name()] = nil // taken, while its fields are made
			defs[t.Name()] = structSchema(t, defs)
		}
		return obj{{"$ref", "#/$defs/" + t.Name()}}
	}
	return obj{}
}

// typedDefault is a default tag as a value of its key's type.
func typedDefault(k reflect.Kind, def string) any {
	switch k {
	case reflect.Bool:
		b, _ := strconv.ParseBool(def)
		return b
	case reflect.Int, reflect.Int64:
		n, _ := strconv.ParseInt(def, 10, 64)
		return n
	}
	return def
}

// eventSchemas says, for each kind of event, which keys its with takes.
func eventSchemas() []obj {
	var out []obj
	for _, k := range eventKinds {
		props := obj{}
		var required []string
		for _, key := range k.with {
			p := obj{{"description", key.doc}, {"type", "string"}}
			if len(key.enum) > 0 {
				p = append(p, kv{"enum", key.enum})
			}
			props = append(props, kv{key.key, p})
			if key.required {
				required = append(required, key.key)
			}
		}
		with := obj{{"type", "object"}, {"additionalProperties", false}, {"properties", props}}
		if len(required) > 0 {
			with = append(with, kv{"required", required})
		}
		then := obj{{"properties", obj{{"with", with}}}}
		if len(required) > 0 {
			then = append(then, kv{"required", []string{"with"}})
		}
		out = append(out, obj{
			{"if", obj{{"properties", obj{{"kind", obj{{"const", k.kind}}}}}, {"required", []string{"kind"}}}},
			{"then", then},
		})
	}
	return out
}

// obj is a JSON object whose keys keep their order.
type obj []kv

type kv struct {
	key   string
	value any
}

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
