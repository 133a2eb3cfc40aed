package drift

import (
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
)

// schemas is a document's components in the sandbox's style.
const schemas = `{
 "Money": {"type": "object", "additionalProperties": false, "required": ["amountCents", "currency"],
  "properties": {"amountCents": {"type": "integer"}, "currency": {"type": "string", "enum": ["USD", "EUR"]},
   "note": {"type": ["string", "null"]}, "at": {"type": "string", "format": "date-time"},
   "on": {"type": "string", "format": "date"}, "rate": {"type": "number"},
   "tags": {"type": "array", "items": {"type": "string"}},
   "labels": {"type": "object", "additionalProperties": {"type": "string"}},
   "extra": {"type": "object"},
   "listed": {"type": "object", "properties": {"a": {"type": "string"}}},
   "kind": {"$ref": "#/components/schemas/Kind"},
   "either": {"oneOf": [{"$ref": "#/components/schemas/Kind"}, {"type": "integer"}]},
   "maybe": {"anyOf": [{"$ref": "#/components/schemas/Money"}, {"type": "null"}]},
   "wrapped": {"allOf": [{"$ref": "#/components/schemas/Kind"}]}}},
 "Kind": {"type": "string", "enum": ["a", "b"]}}`

func mustChecker(t *testing.T) *checker {
	t.Helper()
	v, err := jsonshape.Decode([]byte(schemas))
	if err != nil {
		t.Fatal(err)
	}
	return &checker{schemas: v.(map[string]any)}
}

func TestCheckIsStrict(t *testing.T) {
	c := mustChecker(t)
	money := map[string]any{"$ref": "#/components/schemas/Money"}
	cases := []struct {
		name, body string
		want       []finding
	}{
		{"valid", `{"amountCents": 5, "currency": "USD", "note": null, "at": "2026-01-02T03:04:05.678Z",
			"on": "2026-01-02", "rate": 1, "tags": ["x"], "labels": {"any": "thing"}, "extra": {"free": 1},
			"kind": "a", "either": 3, "maybe": null, "wrapped": "b"}`, nil},
		{"unknown field", `{"amountCents": 5, "currency": "USD", "colour": "red"}`,
			[]finding{{"/colour", KindUnknownField, `"red"`, "no such property"}}},
		{"unknown field where properties are listed", `{"amountCents": 5, "currency": "USD", "listed": {"b": 1}}`,
			[]finding{{"/listed/b", KindUnknownField, "1", "no such property"}}},
		{"missing field", `{"amountCents": 5}`,
			[]finding{{"/currency", KindMissingField, "(absent)", "required property"}}},
		{"unknown enum value", `{"amountCents": 5, "currency": "GBP"}`,
			[]finding{{"/currency", KindUnknownEnum, `"GBP"`, "one of USD, EUR"}}},
		{"enum through $ref", `{"amountCents": 5, "currency": "USD", "kind": "c"}`,
			[]finding{{"/kind", KindUnknownEnum, `"c"`, "one of a, b"}}},
		{"enum through allOf", `{"amountCents": 5, "currency": "USD", "wrapped": "c"}`,
			[]finding{{"/wrapped", KindUnknownEnum, `"c"`, "one of a, b"}}},
		{"other type", `{"amountCents": "5", "currency": "USD"}`,
			[]finding{{"/amountCents", KindType, `"5" (string)`, "integer"}}},
		{"fraction for integer", `{"amountCents": 5.5, "currency": "USD"}`,
			[]finding{{"/amountCents", KindType, "5.5 (number)", "integer"}}},
		{"null outside a type list", `{"amountCents": null, "currency": "USD"}`,
			[]finding{{"/amountCents", KindType, "null (null)", "integer"}}},
		{"item type", `{"amountCents": 1, "currency": "USD", "tags": ["x", 2]}`,
			[]finding{{"/tags/1", KindType, "2 (integer)", "string"}}},
		{"map value type", `{"amountCents": 1, "currency": "USD", "labels": {"k": 1}}`,
			[]finding{{"/labels/k", KindType, "1 (integer)", "string"}}},
		{"date-time", `{"amountCents": 1, "currency": "USD", "at": "yesterday"}`,
			[]finding{{"/at", KindFormat, `"yesterday"`, "date-time"}}},
		{"date", `{"amountCents": 1, "currency": "USD", "on": "2026-1-2"}`,
			[]finding{{"/on", KindFormat, `"2026-1-2"`, "date"}}},
		{"oneOf none: the closest alternative", `{"amountCents": 1, "currency": "USD", "either": "c"}`,
			[]finding{{"/either", KindUnknownEnum, `"c"`, "one of a, b"}}},
		{"anyOf nested object", `{"amountCents": 1, "currency": "USD", "maybe": {"amountCents": 1}}`,
			[]finding{{"/maybe/currency", KindMissingField, "(absent)", "required property"}}},
		{"escaped pointer", `{"amountCents": 1, "currency": "USD", "a/b~c": 1}`,
			[]finding{{"/a~1b~0c", KindUnknownField, "1", "no such property"}}},
		{"top-level type", `[1]`, []finding{{"", KindType, "[1] (array)", "object"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := jsonshape.Decode([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			got := c.check(money, v, "")
			if len(got) != len(tc.want) {
				t.Fatalf("findings %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("finding %+v, want %+v", got[i], tc.want[i])
				}
			}
		})
	}
}
