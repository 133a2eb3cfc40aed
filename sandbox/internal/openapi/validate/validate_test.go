package validate

import (
	"strings"
	"testing"
)

// sample is a 3.1 document in the sandbox's style: type lists for null.
const sample = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},
"paths":{
 "/money/{id}":{"get":{"operationId":"money.get","responses":{
   "200":{"description":"ok","content":{"application/json":{"schema":{"$ref":"#/components/schemas/Money"}}}},
   "202":{"description":"accepted"},
   "204":{"description":"none"}}}},
 "/money/settings":{"get":{"operationId":"money.settings","responses":{"200":{"description":"ok","content":{` +
	`"application/json":{"schema":{"type":"object"}}}}}}},
 "/pet":{"get":{"operationId":"pet.get","responses":{"200":{"description":"ok","content":{"application/json":{` +
	`"schema":{"$ref":"#/components/schemas/Pet"}}}}}}}},
"components":{"schemas":{
 "Money":{"type":"object","required":["amountCents","currency"],"additionalProperties":false,"properties":{
   "amountCents":{"type":"integer","minimum":0},
   "currency":{"type":"string","enum":["USD","EUR"]},
   "note":{"type":["string","null"],"maxLength":5},
   "at":{"type":"string","format":"date-time"},
   "id":{"type":"string","pattern":"^m_"},
   "tags":{"type":"array","items":{"type":"string"}}}},
 "Pet":{"oneOf":[{"type":"object","required":["cat"]},{"type":"object","required":["dog"]}]}}}}`

// legacy is a 3.1 document whose schemas use the 3.0 nullable, beside
// type and beside $ref, and put extension keys beside $ref, as the real
// service's document does.
const legacy = `{"openapi":"3.1.0","info":{"title":"t","version":"1"},
"paths":{"/group":{"get":{"responses":{"200":{"description":"ok","content":{"application/json":{"schema":{"$ref":` +
	`"#/components/schemas/Group","x-entrypoint":{"title":"Group"}}}}}}}}},
"components":{"schemas":{
 "Money":{"type":"object","required":["amountCents"],"properties":{"amountCents":{"type":"integer"}}},
 "Group":{"type":"object","required":["id"],"properties":{
   "id":{"type":"string"},
   "closedAt":{"type":"string","format":"date-time","nullable":true},
   "limit":{"$ref":"#/components/schemas/Money","nullable":true,"x-entrypoint":{"title":"Money"}},
   "kind":{"type":"string","enum":["a","b"],"nullable":true}}}}}}`

func mustLoad(t *testing.T, raw string) *Document {
	t.Helper()
	d, err := Load([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// expect checks that problems has one containing want, or none when want
// is empty.
func expect(t *testing.T, problems []string, want string) {
	t.Helper()
	got := strings.Join(problems, "; ")
	if want == "" && got != "" {
		t.Fatalf("problems %q, want none", got)
	}
	if !strings.Contains(got, want) {
		t.Fatalf("problems %q, want one containing %q", got, want)
	}
}

func TestCheckResponse(t *testing.T) {
	d := mustLoad(t, sample)
	const ok = `{"amountCents":5,"currency":"USD"}`
	cases := []struct {
		name, path  string
		status      int
		contentType string
		body        string
		strict      bool
		problem     string
	}{
		{"valid", "/money/m_1", 200, "application/json", ok, true, ""},
		{"charset parameter", "/money/m_1", 200, "application/json; charset=utf-8", ok, true, ""},
		{
			"missing required",
			"/money/m_1",
			200,
			"application/json",
			`{"amountCents":5}`,
			true,
			"GET /money/{id} (money.get) 200: /: missing property 'currency'",
		},
		{
			"wrong type",
			"/money/m_1",
			200,
			"application/json",
			`{"amountCents":"5","currency":"USD"}`,
			true,
			`/amountCents = "5": got string, want integer`,
		},
		{
			"fraction for integer",
			"/money/m_1",
			200,
			"application/json",
			`{"amountCents":5.5,"currency":"USD"}`,
			true,
			"/amountCents = 5.5: got number, want integer",
		},
		{
			"unknown enum",
			"/money/m_1",
			200,
			"application/json",
			`{"amountCents":5,"currency":"GBP"}`,
			true,
			`/currency = "GBP": value must be one of`,
		},
		{
			"additional property",
			"/money/m_1",
			200,
			"application/json",
			`{"amountCents":5,"currency":"USD","x":1}`,
			true,
			"additional properties 'x' not allowed",
		},
		{
			"null in a type list",
			"/money/m_1",
			200,
			"application/json",
			`{"amountCents":5,"currency":"USD","note":null}`,
			true,
			"",
		},
		{
			"null outside a type list",
			"/money/m_1",
			200,
			"application/json",
			`{"amountCents":5,"currency":"USD","at":null}`,
			true,
			"/at = null: got null, want string",
		},
		{
			"date-time",
			"/money/m_1",
			200,
			"application/json",
			`{"amountCents":5,"currency":"USD","at":"yesterday"}`,
			true,
			`/at = "yesterday": 'yesterday' is not valid date-time`,
		},
		{
			"pattern",
			"/money/m_1",
			200,
			"application/json",
			`{"amountCents":5,"currency":"USD","id":"x"}`,
			true,
			`/id = "x": 'x' does not match pattern`,
		},
		{
			"maxLength",
			"/money/m_1",
			200,
			"application/json",
			`{"amountCents":5,"currency":"USD","note":"toolong"}`,
			true,
			"/note",
		},
		{
			"minimum",
			"/money/m_1",
			200,
			"application/json",
			`{"amountCents":-1,"currency":"USD"}`,
			true,
			"/amountCents = -1: minimum",
		},
		{
			"items",
			"/money/m_1",
			200,
			"application/json",
			`{"amountCents":1,"currency":"USD","tags":["a",1]}`,
			true,
			"/tags/1 = 1: got number, want string",
		},
		{"not JSON", "/money/m_1", 200, "application/json", `{"amountCents":`, true, "cannot be decoded"},
		{"empty body", "/money/m_1", 200, "application/json", ``, true, "(money.get) 200"},
		{
			"undeclared status",
			"/money/m_1",
			418,
			"application/json",
			ok,
			true,
			"GET /money/{id} (money.get) 418: status not declared",
		},
		{"undeclared status, lenient", "/money/m_1", 418, "application/json", ok, false, ""},
		{
			"undeclared media type",
			"/money/m_1",
			200,
			"text/csv",
			"a,b",
			true,
			`(money.get) 200: media type "text/csv" not declared`,
		},
		{"undeclared media type, lenient", "/money/m_1", 200, "text/csv", "a,b", false, ""},
		{
			"body where none is declared",
			"/money/m_1",
			202,
			"application/json",
			ok,
			true,
			"(money.get) 202: a body is not declared",
		},
		{"no body where none is declared", "/money/m_1", 204, "", "", true, ""},
		{"undeclared operation", "/nothing", 200, "application/json", ok, true, "GET /nothing is not in the document"},
		{"undeclared operation, lenient", "/nothing", 200, "application/json", ok, false, ""},
		{"oneOf none", "/pet", 200, "application/json", `{"fish":1}`, true, "/: missing property 'cat'"},
		{"oneOf two", "/pet", 200, "application/json", `{"cat":1,"dog":1}`, true, "oneOf"},
		{"oneOf one", "/pet", 200, "application/json", `{"cat":1}`, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expect(t, d.CheckResponse("GET", c.path, c.status, c.contentType, []byte(c.body), c.strict), c.problem)
		})
	}
}

func TestOperationPrefersLiteralPaths(t *testing.T) {
	d := mustLoad(t, sample)
	for path, want := range map[string]string{"/money/settings": "/money/settings", "/money/m_1": "/money/{id}"} {
		if got, ok := d.Operation("GET", path); !ok || got != want {
			t.Errorf("%s: operation %q, want %q", path, got, want)
		}
	}
	if _, ok := d.Operation("GET", "/money/a/b"); ok {
		t.Error("a parameter matched across a slash")
	}
	if method, tpl, ok := d.OperationByID("money.settings"); !ok || method != "GET" || tpl != "/money/settings" {
		t.Errorf("OperationByID = %s %s %v", method, tpl, ok)
	}
}

func TestNullableOfOpenAPI30(t *testing.T) {
	d := mustLoad(t, legacy)
	cases := []struct{ name, body, problem string }{
		{"nulls where nullable", `{"id":"g","closedAt":null,"limit":null,"kind":null}`, ""},
		{"nullable beside $ref still checks the object", `{"id":"g","limit":{}}`, "missing property 'amountCents'"},
		{"nullable enum still checks the value", `{"id":"g","kind":"c"}`, `/kind = "c": value must be one of`},
		{"not nullable", `{"id":null}`, "/id = null: got null, want string"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			expect(t, d.CheckResponse("GET", "/group", 200, "application/json", []byte(c.body), true), c.problem)
		})
	}
}

func TestCheckSchema(t *testing.T) {
	d := mustLoad(t, sample)
	expect(t, d.CheckSchema("Money", []byte(`{"amountCents":1,"currency":"USD"}`)), "")
	expect(t, d.CheckSchema("Money", []byte(`{"amountCents":1}`)), "Money: /: missing property 'currency'")
	expect(t, d.CheckSchema("Nothing", []byte(`{}`)), `schema "Nothing" is not in the document`)
}

func TestLoadShapes(t *testing.T) {
	d, err := LoadShapes([]byte(`{"operations":{"GET /card/{cardId}":{"$ref":"#/components/schemas/card.Card"}},
		"components":{"schemas":{"card.Card":{"type":"object","required":["id"],"properties":{
			"id":{"type":"string"},"pan":{"type":"string","nullable":true},
			"spendingConstraint":{"allOf":[{"$ref":"#/components/schemas/card.Rule"}],"nullable":true}}},
		"card.Rule":{"type":"object","required":["x"],"properties":{"x":{"type":"string","enum":["a"]}}}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	const op = "GET /card/{cardId} (card.Card)"
	expect(
		t,
		d.CheckOperation(
			"GET",
			"/card/{cardId}",
			201,
			"application/json",
			[]byte(`{"id":"c","pan":null,"spendingConstraint":null}`),
			true,
		),
		"",
	)
	expect(
		t,
		d.CheckOperation("GET", "/card/{cardId}", 200, "application/json", []byte(`{"pan":"1"}`), true),
		op+" 200: /: missing property 'id'",
	)
	expect(
		t,
		d.CheckOperation(
			"GET",
			"/card/{cardId}",
			200,
			"application/json",
			[]byte(`{"id":"c","spendingConstraint":{"x":"b"}}`),
			true,
		),
		`/spendingConstraint/x = "b": value must be 'a'`,
	)
	if _, err := LoadShapes([]byte(`{"operations":{}}`)); err == nil {
		t.Error("shapes without operations loaded")
	}
}
