package openapi

import (
	"encoding/json"
	"reflect"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
)

// Struct tags the generator reads besides json:
//
//	enum:"a,b,c"       the allowed values
//	format:"date-time" the string format
//	doc:"..."          the property's description
//	nullable:"true"    the value may be null
//	ref:"Name"         the value is the named component (for a field whose Go
//	                   type says less, such as any or json.RawMessage);
//	                   "A,B" is one of several, "[]Name" an array of them
//
// A field with omitempty is optional; every other field is required. A
// pointer without omitempty may be null. Structs do not allow other
// properties. Request decoding refuses null by the same rule
// (jsonshape.Nullable).

var (
	timeType = reflect.TypeOf(time.Time{})
	rawType  = reflect.TypeOf(json.RawMessage{})
)

// generator turns Go types into schemas, collecting the named components
// of its registry that they use.
type generator struct {
	reg        *Registry
	components map[string]Schema
}

func newGenerator(reg *Registry) *generator {
	return &generator{reg: reg, components: map[string]Schema{}}
}

// schemaOf returns the schema of a Go value (or the value itself when it is
// already a Schema; nil gives nil).
func (g *generator) schemaOf(v any) Schema {
	switch s := v.(type) {
	case nil:
		return nil
	case Schema:
		return g.expand(s)
	}
	return g.typeSchema(reflect.TypeOf(v))
}

// expand walks a hand-written schema and generates the components it names
// by Go value ("$go" keys hold a Go value to describe).
func (g *generator) expand(s Schema) Schema {
	if v, ok := s["$go"]; ok {
		return g.schemaOf(v)
	}
	if ref, ok := s["$ref"].(string); ok {
		g.component(strings.TrimPrefix(ref, "#/components/schemas/"))
	}
	out := Schema{}
	for k, v := range s {
		switch x := v.(type) {
		case Schema:
			out[k] = g.expand(x)
		case []Schema:
			list := make([]any, len(x))
			for i := range x {
				list[i] = g.expand(x[i])
			}
			out[k] = list
		case []any:
			list := make([]any, len(x))
			for i := range x {
				if sub, ok := x[i].(Schema); ok {
					list[i] = g.expand(sub)
				} else {
					list[i] = x[i]
				}
			}
			out[k] = list
		case map[string]Schema:
			m := Schema{}
			for name, sub := range x {
				m[name] = g.expand(sub)
			}
			out[k] = m
		default:
			out[k] = v
		}
	}
	return out
}

// component makes sure a named component is generated.
func (g *generator) component(name string) {
	if _, done := g.components[name]; done {
		return
	}
	v, ok := g.reg.named[name]
	if !ok {
		return
	}
	g.components[name] = Schema{} // placeholder against recursion
	if s, ok := v.(Schema); ok {
		g.components[name] = g.expand(s)
		return
	}
	g.components[name] = g.structural(reflect.TypeOf(v))
}

func (g *generator) typeSchema(t reflect.Type) Schema {
	name, named := g.reg.components[t]
	if named {
		g.component(name)
		return Ref(name)
	}
	return g.structural(t)
}

func (g *generator) structural(t reflect.Type) Schema {
	switch {
	case t == timeType:
		return Schema{"type": "string", "format": "date-time"}
	case t == rawType:
		return Schema{}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.typeSchema(t.Elem())
	case reflect.String:
		return Schema{"type": "string"}
	case reflect.Bool:
		return Schema{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Schema{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return Schema{"type": "number"}
	case reflect.Slice, reflect.Array:
		return Schema{"type": "array", "items": g.typeSchema(t.Elem())}
	case reflect.Map:
		return Schema{"type": "object", "additionalProperties": g.typeSchema(t.Elem())}
	case reflect.Struct:
		return g.object(t)
	}
	return Schema{}
}

// object describes a struct: its JSON properties, embedded structs
// flattened.
func (g *generator) object(t reflect.Type) Schema {
	props := Schema{}
	var required []string
	g.fields(t, props, &required)
	s := Schema{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func (g *generator) fields(t reflect.Type, props Schema, required *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				g.fields(ft, props, required)
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		props[name] = g.field(f)
		optional := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
		if !optional {
			*required = append(*required, name)
		}
	}
}

func (g *generator) field(f reflect.StructField) Schema {
	var s Schema
	if ref := f.Tag.Get("ref"); ref != "" {
		s = g.refSchema(ref)
	} else {
		s = g.typeSchema(f.Type)
	}
	constraint := Schema{}
	if enum := f.Tag.Get("enum"); enum != "" {
		values := []any{}
		for _, v := range strings.Split(enum, ",") {
			values = append(values, v)
		}
		constraint["enum"] = values
	}
	if format := f.Tag.Get("format"); format != "" {
		constraint["format"] = format
	}
	if len(constraint) > 0 {
		if s["type"] == "array" {
			s = merge(s, Schema{"items": merge(s["items"].(Schema), constraint)})
		} else {
			s = merge(s, constraint)
		}
	}
	if doc := f.Tag.Get("doc"); doc != "" {
		s = merge(s, Schema{"description": doc})
	}
	if jsonshape.Marked(f) {
		s = Nullable(s)
	}
	return s
}

// refSchema is the schema a ref tag names: a component, one of several,
// or ("[]" first) an array of them.
func (g *generator) refSchema(tag string) Schema {
	if elem, ok := strings.CutPrefix(tag, "[]"); ok {
		return Schema{"type": "array", "items": g.refSchema(elem)}
	}
	names := strings.Split(tag, ",")
	refs := make([]any, len(names))
	for i, name := range names {
		g.component(name)
		refs[i] = Ref(name)
	}
	if len(refs) == 1 {
		return refs[0].(Schema)
	}
	return Schema{"oneOf": refs}
}

// merge adds keys to a schema; a $ref is wrapped in allOf first so its
// siblings keep their meaning in every tool.
func merge(s, extra Schema) Schema {
	if _, ok := s["$ref"]; ok {
		s = Schema{"allOf": []any{s}}
	} else {
		c := Schema{}
		for k, v := range s {
			c[k] = v
		}
		s = c
	}
	for k, v := range extra {
		s[k] = v
	}
	return s
}

// Nullable lets a schema also accept null, the OpenAPI 3.1 way.
func Nullable(s Schema) Schema {
	if t, ok := s["type"].(string); ok {
		c := merge(s, nil)
		c["type"] = []any{t, "null"}
		if enum, ok := c["enum"].([]any); ok {
			c["enum"] = append(append([]any{}, enum...), nil)
		}
		return c
	}
	return Schema{"anyOf": []any{s, Schema{"type": "null"}}}
}
