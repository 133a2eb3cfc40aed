package openapi

import (
	"encoding/json"
	"reflect"
	"testing"
)

type refTagged struct {
	One    json.RawMessage `json:"one" ref:"RefA"`
	Either any             `json:"either" ref:"RefA,RefB"`
	Many   json.RawMessage `json:"many,omitempty" ref:"[]RefB"`
	Maybe  *struct{}       `json:"maybe" ref:"RefB"`
}

func TestRefTag(t *testing.T) {
	reg := NewRegistry()
	reg.Component("RefA", Schema{"type": "string"})
	reg.Component("RefB", Schema{"type": "integer"})
	g := newGenerator(reg)
	props := g.structural(reflect.TypeOf(refTagged{}))["properties"].(Schema)
	cases := []struct {
		field string
		want  Schema
	}{
		{"one", Ref("RefA")},
		{"either", Schema{"oneOf": []any{Ref("RefA"), Ref("RefB")}}},
		{"many", Schema{"type": "array", "items": Ref("RefB")}},
		{"maybe", Schema{"anyOf": []any{Ref("RefB"), Schema{"type": "null"}}}},
	}
	for _, c := range cases {
		t.Run(c.field, func(t *testing.T) {
			if got := props[c.field]; !reflect.DeepEqual(got, c.want) {
				t.Fatalf("schema = %v, want %v", got, c.want)
			}
		})
	}
	for _, name := range []string{"RefA", "RefB"} {
		if g.components[name] == nil {
			t.Errorf("component %s was not generated", name)
		}
	}
}

type sample struct {
	ID     string            `json:"id"`
	Status string            `json:"status" enum:"open,closed"`
	Tags   []string          `json:"tags,omitempty" enum:"x,y"`
	When   *string           `json:"when"`
	Extra  map[string]string `json:"extra,omitempty"`
	//lint:ignore U1000 the test checks that an unexported field does not become a property
	internal int
}

func TestGeneratedSchemas(t *testing.T) {
	g := newGenerator(NewRegistry())
	s := g.schemaOf(sample{})
	if got := s["required"]; len(got.([]string)) != 3 {
		t.Fatalf("required = %v, want id, status, when", got)
	}
	props := s["properties"].(Schema)
	if _, ok := props["internal"]; ok {
		t.Fatal("an unexported field became a property")
	}
	if got := props["tags"].(Schema)["items"].(Schema)["enum"]; len(got.([]any)) != 2 {
		t.Fatalf("tags items enum = %v", got)
	}
	if got := props["when"].(Schema)["type"]; len(got.([]any)) != 2 {
		t.Fatalf("a pointer without omitempty must be nullable: %v", got)
	}
}
