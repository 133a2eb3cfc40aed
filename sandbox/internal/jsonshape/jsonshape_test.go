package jsonshape

import (
	"encoding/json"
	"reflect"
	"testing"
)

type fields struct {
	Plain    string          `json:"plain"`
	Optional *string         `json:"optional,omitempty"`
	Maybe    *string         `json:"maybe"`
	Tagged   []string        `json:"tagged,omitempty" nullable:"true"`
	Raw      json.RawMessage `json:"raw"`
	Any      any             `json:"any,omitempty"`
	Typed    json.RawMessage `json:"typed" ref:"Typed"`
	TypedAny any             `json:"typedAny" ref:"A,B"`
}

func TestNullableFollowsTheDocumentRule(t *testing.T) {
	want := map[string]bool{"Plain": false, "Optional": false, "Maybe": true, "Tagged": true, "Raw": true, "Any": true,
		"Typed": false, "TypedAny": false}
	ft := reflect.TypeOf(fields{})
	for i := range ft.NumField() {
		f := ft.Field(i)
		if got := Nullable(f); got != want[f.Name] {
			t.Errorf("Nullable(%s) = %v, want %v", f.Name, got, want[f.Name])
		}
	}
}

func TestCheckNamesTheFirstNullInKeyOrder(t *testing.T) {
	var v struct {
		B string `json:"b"`
		A struct {
			Z []int `json:"z"`
		} `json:"a"`
	}
	body := []byte(`{"b":null,"a":{"z":[1,null]}}`)
	if p := Check(body, &v); p == nil || p.Pointer != "/a/z/1" {
		t.Fatalf("Check = %+v, want /a/z/1", p)
	}
	if p := Check([]byte(`{"a":{"z":[1]},"b":"null"}`), &v); p != nil {
		t.Fatalf("Check refused a body without null: %+v", p)
	}
	if p := Check([]byte(` null `), &v); p == nil || p.Pointer != "" || p.Message != "must be a JSON object, not null" {
		t.Fatalf("Check(null) = %+v", p)
	}
}
