package drift

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Kinds of difference.
const (
	// KindUnknownField: production sent a property the schema does not name.
	KindUnknownField = "unknown_field"
	// KindMissingField: production left out a property the schema requires.
	KindMissingField = "missing_field"
	// KindUnknownEnum: production sent a value outside the schema's enum.
	KindUnknownEnum = "unknown_enum_value"
	// KindType: production sent another JSON type.
	KindType = "type"
	// KindFormat: a string that is not the schema's date or date-time.
	KindFormat = "format"
	// KindStatus: another status than the sandbox answers.
	KindStatus = "status"
	// KindBody: a body that is not the JSON the schema describes at all.
	KindBody = "body"
)

// finding is one difference inside a JSON value.
type finding struct {
	pointer, kind, production, sandbox string
}

// checker checks JSON values against the schemas of one document, strictly:
// an object schema that lists properties allows no other property unless
// its additionalProperties is a schema (or true).
type checker struct {
	schemas map[string]any
}

// check checks v against schema s; at is v's JSON pointer.
func (c *checker) check(s map[string]any, v any, at string) []finding {
	s = c.resolve(s)
	if s == nil {
		return nil
	}
	var out []finding
	for _, sub := range list(s["allOf"]) {
		out = append(out, c.check(asSchema(sub), v, at)...)
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		if alts := list(s[key]); len(alts) > 0 {
			out = append(out, c.alternatives(alts, v, at)...)
		}
	}
	if f, ok := c.typed(s, v, at); !ok {
		return append(out, f)
	}
	if enum, ok := s["enum"].([]any); ok && !inEnum(enum, v) {
		return append(out, finding{at, KindUnknownEnum, show(v), "one of " + enumText(enum)})
	}
	switch x := v.(type) {
	case map[string]any:
		out = append(out, c.object(s, x, at)...)
	case []any:
		if items := asSchema(s["items"]); items != nil {
			for i, e := range x {
				out = append(out, c.check(items, e, fmt.Sprintf("%s/%d", at, i))...)
			}
		}
	case string:
		if f, ok := checkFormat(s, x, at); !ok {
			out = append(out, f)
		}
	}
	return out
}

// resolve follows $ref to the named component.
func (c *checker) resolve(s map[string]any) map[string]any {
	for range 32 {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		s = asSchema(c.schemas[strings.TrimPrefix(ref, "#/components/schemas/")])
		if s == nil {
			return nil
		}
	}
	return nil
}

// alternatives checks v against oneOf or anyOf: no finding when one
// alternative takes v, else the findings of the alternative closest to it.
func (c *checker) alternatives(alts []any, v any, at string) []finding {
	var best []finding
	for i, alt := range alts {
		f := c.check(asSchema(alt), v, at)
		if len(f) == 0 {
			return nil
		}
		if i == 0 || len(f) < len(best) {
			best = f
		}
	}
	return best
}

// typed checks v's JSON type against the schema's type (a name or a list).
func (c *checker) typed(s map[string]any, v any, at string) (finding, bool) {
	var want []string
	switch t := s["type"].(type) {
	case string:
		want = []string{t}
	case []any:
		for _, x := range t {
			if name, ok := x.(string); ok {
				want = append(want, name)
			}
		}
	}
	if len(want) == 0 {
		return finding{}, true
	}
	got := jsonType(v)
	for _, w := range want {
		if w == got || (w == "number" && got == "integer") {
			return finding{}, true
		}
	}
	return finding{at, KindType, show(v) + " (" + got + ")", strings.Join(want, " or ")}, false
}

// object checks an object's properties: required ones present, none
// unknown, each against its schema.
func (c *checker) object(s map[string]any, v map[string]any, at string) []finding {
	props := asSchema(s["properties"])
	var out []finding
	for _, r := range list(s["required"]) {
		name, _ := r.(string)
		if _, ok := v[name]; !ok && name != "" {
			out = append(out, finding{at + "/" + escape(name), KindMissingField, "(absent)", "required property"})
		}
	}
	extra, open := s["additionalProperties"]
	for _, name := range sortedNames(v) {
		where := at + "/" + escape(name)
		if p, ok := props[name]; ok {
			out = append(out, c.check(asSchema(p), v[name], where)...)
			continue
		}
		switch x := extra.(type) {
		case map[string]any:
			out = append(out, c.check(x, v[name], where)...)
		case bool:
			if !x {
				out = append(out, finding{where, KindUnknownField, show(v[name]), "no such property"})
			}
		default:
			if !open && props != nil {
				out = append(out, finding{where, KindUnknownField, show(v[name]), "no such property"})
			}
		}
	}
	return out
}

// checkFormat checks the string formats the contract relies on: date-time
// and date.
func checkFormat(s map[string]any, v, at string) (finding, bool) {
	layout := ""
	switch s["format"] {
	case "date-time":
		layout = time.RFC3339Nano
	case "date":
		layout = time.DateOnly
	default:
		return finding{}, true
	}
	if _, err := time.Parse(layout, v); err != nil {
		return finding{at, KindFormat, show(v), s["format"].(string)}, false
	}
	return finding{}, true
}

// jsonType is the JSON Schema type name of a decoded value (numbers decoded
// as json.Number).
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case json.Number:
		if _, err := x.Int64(); err == nil {
			return "integer"
		}
		if f, err := x.Float64(); err == nil && f == float64(int64(f)) && !strings.ContainsAny(string(x), "eE") {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func inEnum(enum []any, v any) bool {
	for _, e := range enum {
		if fmt.Sprint(e) == fmt.Sprint(v) && jsonType(e) == jsonType(v) ||
			(e == nil && v == nil) {
			return true
		}
	}
	return false
}

func enumText(enum []any) string {
	parts := make([]string, len(enum))
	for i, e := range enum {
		if e == nil {
			parts[i] = "null"
		} else {
			parts[i] = fmt.Sprint(e)
		}
	}
	return strings.Join(parts, ", ")
}

// show is a value as production sent it, shortened.
func show(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(raw) > 80 {
		return string(raw[:77]) + "…"
	}
	return string(raw)
}

// escape is a property name as a JSON pointer token.
func escape(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}

func asSchema(v any) map[string]any {
	s, _ := v.(map[string]any)
	return s
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

func sortedNames(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }
