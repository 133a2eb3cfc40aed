package web

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// shaped is a request body with every kind of property the null rule
// tells apart.
type shaped struct {
	Name     string            `json:"name"`
	Count    int               `json:"count,omitempty"`
	Optional *string           `json:"optional,omitempty"`
	Maybe    *string           `json:"maybe"`
	Marked   string            `json:"marked,omitempty" nullable:"true"`
	Tags     []string          `json:"tags,omitempty"`
	Items    []item            `json:"items,omitempty"`
	Nested   *item             `json:"nested,omitempty"`
	Labels   map[string]string `json:"labels,omitempty"`
	Extra    map[string]any    `json:"extra,omitempty"`
	Raw      json.RawMessage   `json:"raw,omitempty"`
	Typed    json.RawMessage   `json:"typed,omitempty" ref:"Typed"`
	embedded
}

type item struct {
	N    int     `json:"n"`
	Note *string `json:"note"`
}

type embedded struct {
	Inner string `json:"inner,omitempty"`
}

// decodeProblem decodes body into v and returns where its 400 points and
// why ("" when the body is accepted).
func decodeProblem(t *testing.T, body string, v any, strict bool) (string, string) {
	t.Helper()
	err := DecodeBytes([]byte(body), v, strict)
	if err == nil {
		return "", ""
	}
	e, ok := kernel.AsError(err)
	if !ok || e.Code != kernel.CodeInvalidRequest || len(e.Details) != 1 {
		t.Fatalf("DecodeBytes(%s) = %v, want one invalid_request detail", body, err)
	}
	for k, msg := range e.Details {
		return k, msg
	}
	return "", ""
}

func TestDecodeRefusesNullWhereTheTypeTakesNone(t *testing.T) {
	cases := []struct {
		name, body, want string
	}{
		{"null body", `null`, "body"},
		{"array body", `[]`, "body"},
		{"string body", `"x"`, "body"},
		{"number body", `3`, "body"},
		{"boolean body", `true`, "body"},
		{"required string", `{"name":null}`, "/name"},
		{"optional integer", `{"count":null}`, "/count"},
		{"optional pointer", `{"optional":null}`, "/optional"},
		{"null nested object", `{"nested":null}`, "/nested"},
		{"null inside a nested object", `{"nested":{"n":null}}`, "/nested/n"},
		{"null inside a slice of objects", `{"items":[{"n":1},{"n":null}]}`, "/items/1/n"},
		{"null item of a slice of objects", `{"items":[null]}`, "/items/0"},
		{"null item of a slice of strings", `{"tags":["a",null]}`, "/tags/1"},
		{"null slice", `{"tags":null}`, "/tags"},
		{"null value of a map of strings", `{"labels":{"a/b":null}}`, "/labels/a~1b"},
		{"raw value narrowed by a ref", `{"typed":null}`, "/typed"},
		{"embedded field", `{"inner":null}`, "/inner"},
		{"name in another case", `{"NAME":null}`, "/NAME"},
		{"first null in key order", `{"tags":[null],"name":null}`, "/name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var v shaped
			if got, msg := decodeProblem(t, c.body, &v, true); got != c.want {
				t.Fatalf("DecodeBytes(%s) names %q (%s), want %q", c.body, got, msg, c.want)
			}
		})
	}
}

func TestDecodeTakesNullWhereTheTypeTakesIt(t *testing.T) {
	for _, body := range []string{
		`{"maybe":null}`,
		`{"marked":null}`,
		`{"raw":null}`,
		`{"extra":{"a":null}}`,
		`{"items":[{"n":1,"note":null}]}`,
		`{"name":"null","tags":["null"]}`,
	} {
		t.Run(body, func(t *testing.T) {
			var v shaped
			if got, msg := decodeProblem(t, body, &v, true); got != "" {
				t.Fatalf("DecodeBytes(%s) refused %s: %s", body, got, msg)
			}
		})
	}
	t.Run("a raw value decodes into any", func(t *testing.T) {
		var v any
		if got, msg := decodeProblem(t, `null`, &v, true); got != "" {
			t.Fatalf("null into any refused at %s: %s", got, msg)
		}
	})
	t.Run("an array body decodes into a slice", func(t *testing.T) {
		var v []item
		if got, msg := decodeProblem(t, `[{"n":1}]`, &v, true); got != "" || len(v) != 1 || v[0].N != 1 {
			t.Fatalf("decoded %v, refused %q (%s)", v, got, msg)
		}
		if got, _ := decodeProblem(t, `{}`, &v, true); got != "body" {
			t.Fatalf("an object into a slice names %q, want body", got)
		}
	})
}

func TestDecodeStillRefusesUnknownProperties(t *testing.T) {
	var v shaped
	if got, _ := decodeProblem(t, `{"name":"a","unknown":1}`, &v, true); got != "/unknown" {
		t.Fatalf("strict decoding names %q, want /unknown", got)
	}
	if got, _ := decodeProblem(t, `{"name":"a","unknown":null}`, &v, true); got != "/unknown" {
		t.Fatalf("strict decoding of a null unknown property names %q, want /unknown", got)
	}
	if got, msg := decodeProblem(t, `{"name":"a","unknown":null}`, &v, false); got != "" {
		t.Fatalf("lenient decoding refused %s: %s", got, msg)
	}
}

func TestDecodeKeepsValues(t *testing.T) {
	var v shaped
	body := `{"name":"a","maybe":null,"items":[{"n":2,"note":"x"}],"labels":{"k":"v"},"inner":"i"}`
	if got, msg := decodeProblem(t, body, &v, true); got != "" {
		t.Fatalf("refused %s: %s", got, msg)
	}
	if v.Name != "a" || v.Maybe != nil || len(v.Items) != 1 || *v.Items[0].Note != "x" || v.Labels["k"] != "v" ||
		v.Inner != "i" {
		t.Fatalf("decoded %+v", v)
	}
}

func TestDecodeNamesTheExactPointer(t *testing.T) {
	cases := []struct {
		name, body, want, message string
	}{
		{"wrong type", `{"name":1}`, "/name", "must be string, not number"},
		{"wrong type inside a slice", `{"items":[{"n":1},{"n":"x"}]}`, "/items/1/n", "must be int, not string"},
		{"wrong type under a map key with a slash", `{"labels":{"a/b":1}}`, "/labels/a~1b", "must be string, not number"},
		{"number out of range", `{"count":1e400}`, "/count", "must be int, not number 1e400"},
		{"unknown property", `{"unknown":1}`, "/unknown", "is not a known property"},
		{"unknown property of a nested object", `{"nested":{"zzz":1}}`, "/nested/zzz", "is not a known property"},
		{"unknown property inside a slice", `{"items":[{"n":1,"x":2}]}`, "/items/0/x", "is not a known property"},
		{"malformed JSON", `{"name":"a",}`, "body", "malformed JSON at byte"},
		{"unexpected end", `{"items":[{"n":`, "body", "malformed JSON: unexpected end of input"},
		{"malformed JSON after a wrong type", `{"name":1,`, "body", "malformed JSON"},
		{"trailing data", `{"name":"a"} {}`, "body", "unexpected data after the JSON value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var v shaped
			got, msg := decodeProblem(t, c.body, &v, true)
			if got != c.want || !strings.Contains(msg, c.message) {
				t.Fatalf("DecodeBytes(%s) names %q (%s), want %q (%s)", c.body, got, msg, c.want, c.message)
			}
		})
	}
}
