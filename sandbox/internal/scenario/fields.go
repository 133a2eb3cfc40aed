package scenario

import (
	"reflect"
	"strings"
	"sync"
)

// field is one key of a scenario type, read from its tags (see types.go).
type field struct {
	key      string
	index    int
	typ      reflect.Type
	doc      string
	enum     []string
	required bool
	def      string // the value an absent key stands for
	unset    string // what an absent key means otherwise
	ref      string // the kind of thing the value names by id
	types    []string
}

// shape is the keys of one scenario type, in declaration order.
type shape struct {
	fields []field
	byKey  map[string]*field
	keys   []string
}

var shapes sync.Map // reflect.Type → *shape

// shapeOf reads a type's keys once.
func shapeOf(t reflect.Type) *shape {
	if s, ok := shapes.Load(t); ok {
		return s.(*shape)
	}
	s := &shape{byKey: map[string]*field{}}
	for i := range t.NumField() {
		sf := t.Field(i)
		key := sf.Tag.Get("yaml")
		if key == "" || key == "-" || !sf.IsExported() {
			continue
		}
		f := field{key: key, index: i, typ: sf.Type, doc: sf.Tag.Get("doc"), required: sf.Tag.Get("required") == "true",
			def: sf.Tag.Get("default"), unset: sf.Tag.Get("unset"), ref: sf.Tag.Get("ref")}
		if e := sf.Tag.Get("enum"); e != "" {
			f.enum = strings.Split(e, ",")
		}
		if ts := sf.Tag.Get("types"); ts != "" {
			f.types = strings.Split(ts, ",")
		}
		if t == reflect.TypeFor[Event]() && key == "kind" {
			f.enum = EventKinds()
		}
		s.fields = append(s.fields, f)
		s.keys = append(s.keys, key)
	}
	for i := range s.fields {
		s.byKey[s.fields[i].key] = &s.fields[i]
	}
	shapes.Store(t, s)
	return s
}

// deref is a type without its pointer.
func deref(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer {
		return t.Elem()
	}
	return t
}

// kindName says what a Go type holds in the scenario's own words.
func kindName(t reflect.Type) string {
	switch deref(t).Kind() {
	case reflect.String:
		return "text"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	case reflect.Slice:
		return "a list"
	case reflect.Struct, reflect.Map:
		return "a mapping"
	}
	return "a value"
}
