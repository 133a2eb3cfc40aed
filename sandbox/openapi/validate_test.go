package openapi

import (
	"strings"
	"testing"
)

func mustDecode(t *testing.T, s string) any {
	t.Helper()
	v, err := Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestValidatorKeywords(t *testing.T) {
	doc := mustDecode(t, `{"components":{"schemas":{
		"Money":{"type":"object","required":["amountCents"],"properties":{"amountCents":{"type":"integer"}},"additionalProperties":false},
		"Pet":{"oneOf":[{"type":"object","required":["cat"]},{"type":"object","required":["dog"]}]},
		"Legacy":{"$ref":"#/components/schemas/Money","nullable":true}}}}`).(map[string]any)
	v := NewValidator(doc)
	cases := []struct {
		name, schema, value, problem string
	}{
		{"ref ok", `{"$ref":"#/components/schemas/Money"}`, `{"amountCents":5}`, ""},
		{"integer refuses a fraction", `{"$ref":"#/components/schemas/Money"}`, `{"amountCents":5.5}`, "is number, want integer"},
		{"required", `{"$ref":"#/components/schemas/Money"}`, `{}`, `lacks required property "amountCents"`},
		{"additional property", `{"$ref":"#/components/schemas/Money"}`, `{"amountCents":1,"x":1}`, `property "x" is not allowed`},
		{"nullable beside ref", `{"$ref":"#/components/schemas/Legacy"}`, `null`, ""},
		{"null without nullable", `{"$ref":"#/components/schemas/Money"}`, `null`, "is null, want object"},
		{"3.1 type list", `{"type":["string","null"]}`, `null`, ""},
		{"enum", `{"type":"string","enum":["a","b"]}`, `"c"`, "is not one of"},
		{"oneOf none", `{"$ref":"#/components/schemas/Pet"}`, `{"fish":1}`, "matches none of oneOf"},
		{"oneOf two", `{"$ref":"#/components/schemas/Pet"}`, `{"cat":1,"dog":1}`, "matches 2 of oneOf"},
		{"anyOf", `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `true`, "matches none of anyOf"},
		{"allOf", `{"allOf":[{"type":"object","required":["a"]},{"type":"object","required":["b"]}]}`, `{"a":1}`, `lacks required property "b"`},
		{"items", `{"type":"array","items":{"type":"string"}}`, `["a",1]`, "/1: is integer, want string"},
		{"date-time", `{"type":"string","format":"date-time"}`, `"yesterday"`, "is not a date-time"},
		{"date", `{"type":"string","format":"date"}`, `"2026-06-15"`, ""},
		{"pattern", `{"type":"string","pattern":"^le_"}`, `"x"`, "does not match"},
		{"map values", `{"type":"object","additionalProperties":{"type":"string"}}`, `{"a":1}`, "/a: is integer"},
		{"maxLength", `{"type":"string","maxLength":2}`, `"abc"`, "longer than"},
		{"minimum", `{"type":"number","minimum":0}`, `-1`, "below the minimum"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(v.Validate(mustDecode(t, c.schema), mustDecode(t, c.value)), "; ")
			if c.problem == "" && got != "" {
				t.Fatalf("problems %q, want none", got)
			}
			if !strings.Contains(got, c.problem) {
				t.Fatalf("problems %q, want one containing %q", got, c.problem)
			}
		})
	}
}

func TestOperationPrefersLiteralPaths(t *testing.T) {
	doc := mustDecode(t, `{"paths":{"/invoice/{invoiceId}":{"get":{"operationId":"a"}},"/invoice/settings":{"get":{"operationId":"b"}}}}`).(map[string]any)
	v := NewValidator(doc)
	for path, want := range map[string]string{"/invoice/settings": "b", "/invoice/inv_1": "a"} {
		_, op, ok := v.Operation("GET", path)
		if !ok || op["operationId"] != want {
			t.Errorf("%s: operation %v, want %s", path, op["operationId"], want)
		}
	}
	if _, _, ok := v.Operation("GET", "/invoice/a/b"); ok {
		t.Error("a parameter matched across a slash")
	}
}

// sample's field internal is never read on purpose: the test checks that
// an unexported field does not become a property.
//
//lint:ignore U1000 internal exists only to be left out of the schema
type sample struct {
	ID       string            `json:"id"`
	Status   string            `json:"status" enum:"open,closed"`
	Tags     []string          `json:"tags,omitempty" enum:"x,y"`
	When     *string           `json:"when"`
	Extra    map[string]string `json:"extra,omitempty"`
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
