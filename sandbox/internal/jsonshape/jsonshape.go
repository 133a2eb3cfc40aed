package jsonshape

import (
	"bytes"
	"encoding/json"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// Problem is where a value does not have its type's shape. Pointer is a
// JSON pointer relative to the value checked ("" for the value itself).
type Problem struct {
	Pointer string
	Message string
}

var (
	rawType         = reflect.TypeOf(json.RawMessage{})
	unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
)

// Nullable reports whether a struct field takes null: a field Marked
// nullable, or an Untyped one that no ref tag narrows (its schema allows any
// value, so its reader decides what null means).
func Nullable(f reflect.StructField) bool {
	return Marked(f) || (Untyped(f.Type) && f.Tag.Get("ref") == "")
}

// Marked reports a field marked nullable: a nullable:"true" tag, or a
// pointer without omitempty.
func Marked(f reflect.StructField) bool {
	_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	return f.Tag.Get("nullable") == "true" ||
		(f.Type.Kind() == reflect.Pointer && !strings.Contains(opts, "omitempty"))
}

// Untyped reports a type that takes any JSON value: an interface or
// json.RawMessage.
func Untyped(t reflect.Type) bool {
	return t == rawType || t.Kind() == reflect.Interface
}

// Check checks JSON that decoded without error into the value v points
// to: first its top-level kind, then every null inside it (in key order).
// It returns nil when the shape is right or v is not a pointer.
func Check(body []byte, v any) *Problem {
	if p := CheckKind(body, v); p != nil {
		return p
	}
	t := reflect.TypeOf(v)
	if t == nil || t.Kind() != reflect.Pointer || !bytes.Contains(body, []byte("null")) {
		return nil
	}
	var doc any
	if json.Unmarshal(body, &doc) != nil {
		return nil
	}
	return nulls(doc, t.Elem(), "")
}

// CheckKind refuses JSON whose top-level type is not the one the value v
// points to decodes from.
func CheckKind(body []byte, v any) *Problem {
	t := reflect.TypeOf(v)
	trimmed := bytes.TrimSpace(body)
	if t == nil || t.Kind() != reflect.Pointer || len(trimmed) == 0 {
		return nil
	}
	want := jsonKind(deref(t.Elem()))
	if got := KindName(trimmed[0]); want != "" && got != want {
		return &Problem{Message: "must be a JSON " + want + ", not " + got}
	}
	return nil
}

// opaque reports a type whose JSON this package does not look into: one
// that takes any value or reads its own.
func opaque(t reflect.Type) bool {
	return Untyped(t) || reflect.PointerTo(t).Implements(unmarshalerType)
}

// jsonKind is the JSON type a Go type decodes from; "" when it takes any
// (or its own) value.
func jsonKind(t reflect.Type) string {
	if opaque(t) {
		return ""
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8,
		reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "number"
	}
	return ""
}

// KindName names the JSON type of a value starting with c.
func KindName(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// nulls walks a decoded JSON value beside the Go type it decodes into and
// names the first null the type does not take. Values of another JSON type
// are the decoder's to refuse.
func nulls(v any, t reflect.Type, at string) *Problem {
	t = deref(t)
	if opaque(t) {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		if obj, ok := v.(map[string]any); ok {
			return structNulls(obj, t, at)
		}
	case reflect.Map:
		if obj, ok := v.(map[string]any); ok {
			for _, k := range sortedKeys(obj) {
				if p := itemNull(obj[k], t.Elem(), at+"/"+escape(k)); p != nil {
					return p
				}
			}
		}
	case reflect.Slice, reflect.Array:
		if list, ok := v.([]any); ok {
			for i, item := range list {
				if p := itemNull(item, t.Elem(), at+"/"+strconv.Itoa(i)); p != nil {
					return p
				}
			}
		}
	}
	return nil
}

// itemNull checks an array item or a map value: null only where the item
// type takes any value.
func itemNull(v any, t reflect.Type, at string) *Problem {
	if v == nil {
		if Untyped(t) {
			return nil
		}
		return &Problem{Pointer: at, Message: "must not be null"}
	}
	return nulls(v, t, at)
}

// structNulls checks the properties of an object decoded into a struct.
// Properties the struct does not have are the decoder's to refuse.
func structNulls(obj map[string]any, t reflect.Type, at string) *Problem {
	fields := jsonFields(t)
	for _, k := range sortedKeys(obj) {
		f, ok := fieldFor(fields, k)
		if !ok {
			continue
		}
		where := at + "/" + escape(k)
		if obj[k] == nil {
			if Nullable(f) {
				continue
			}
			return &Problem{Pointer: where, Message: "must not be null"}
		}
		if p := nulls(obj[k], f.Type, where); p != nil {
			return p
		}
	}
	return nil
}

// jsonFields are a struct's properties by JSON name, embedded structs
// flattened (an outer field wins over an embedded one of the same name).
func jsonFields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if ft := deref(f.Type); f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			for n, inner := range jsonFields(ft) {
				if _, taken := out[n]; !taken {
					out[n] = inner
				}
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f
	}
	return out
}

// fieldFor finds the field a property decodes into the way encoding/json
// does: the exact name, else one equal ignoring case.
func fieldFor(fields map[string]reflect.StructField, key string) (reflect.StructField, bool) {
	if f, ok := fields[key]; ok {
		return f, true
	}
	for name, f := range fields {
		if strings.EqualFold(name, key) {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// escape escapes a JSON pointer token (RFC 6901).
func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
