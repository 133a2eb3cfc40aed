package api_test

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// nullCase is one request body with one property set to null.
type nullCase struct {
	pointer string
	body    any
	// allowed: the document lets the property be null.
	allowed bool
}

// TestNullsFollowTheDocument walks every JSON request body of the sandbox's
// own document. Each property whose schema does not allow null (at any
// depth, array items included) is sent as null in an otherwise plausible
// body: the answer must be a 400 whose details name that property's
// pointer, and nothing may change. A property the document lets be null
// must not be refused for being null.
func TestNullsFollowTheDocument(t *testing.T) {
	t.Parallel()
	c, err := apitest.Documents()
	if err != nil {
		t.Fatal(err)
	}
	s := nullSchemas{doc: c.OwnDoc}
	refused, allowed, ops := 0, 0, 0
	for _, op := range apitest.SweepOperations(c.OwnDoc) {
		if op.Body == nil || !jsonBody(c.OwnDoc, op) {
			continue
		}
		cases := s.cases(op.Body, 0)
		if len(cases) == 0 {
			continue
		}
		ops++
		t.Run(op.ID, func(t *testing.T) {
			e := apitest.New(t, apitest.Options{})
			for i, nc := range cases {
				res, wrote := send(e, nullRequest(op, nc, i))
				if nc.allowed {
					allowed++
					checkNullTaken(t, op, nc, res)
					continue
				}
				refused++
				checkNullRefused(t, op, nc, res)
				if wrote {
					t.Errorf("%s %s with %s null wrote to the world", op.Method, op.Path, nc.pointer)
				}
			}
		})
	}
	t.Logf("checked %d properties refusing null and %d taking it, over %d operations", refused, allowed, ops)
	if ops < 50 || refused < 200 {
		t.Errorf("the walk reached too little: %d operations, %d properties", ops, refused)
	}
}

// TestBodiesOfAnotherJSONTypeAreRefused sends every operation with a JSON
// request body a body of another JSON type than its schema's (null
// included): each is a 400 naming the body ("body", or the root pointer
// "" where an operation reports JSON pointers only), and nothing changes.
func TestBodiesOfAnotherJSONTypeAreRefused(t *testing.T) {
	t.Parallel()
	c, err := apitest.Documents()
	if err != nil {
		t.Fatal(err)
	}
	s := nullSchemas{doc: c.OwnDoc}
	sent := 0
	for _, op := range apitest.SweepOperations(c.OwnDoc) {
		if op.Body == nil || !jsonBody(c.OwnDoc, op) {
			continue
		}
		bodies := []string{`null`, `"x"`, `3`, `true`, `[]`}
		if typeOf(s.variants(op.Body)[0]) == "array" {
			bodies[4] = `{}`
		}
		t.Run(op.ID, func(t *testing.T) {
			e := apitest.New(t, apitest.Options{})
			for i, body := range bodies {
				sent++
				res, wrote := send(e, nullRequest(op, nullCase{body: body}, i))
				if wrote {
					t.Errorf("%s %s with body %s wrote to the world", op.Method, op.Path, body)
				}
				if res.StatusCode != http.StatusBadRequest {
					t.Errorf("%s %s with body %s: %d, want 400: %s", op.Method, op.Path, body, res.StatusCode, res.Raw)
				} else if d := errorDetails(t, op.Path, res); d["body"] == "" && d[""] == "" {
					t.Errorf("%s %s with body %s: details %v do not name the body", op.Method, op.Path, body, d)
				}
			}
		})
	}
	t.Logf("sent %d bodies of another JSON type", sent)
}

// send sends r and reports whether the world's store changed.
func send(e *apitest.Env, r apitest.Req) (*apitest.Resp, bool) {
	e.T.Helper()
	before := e.Engine.Default().Version()
	res := e.Do(r)
	return res, e.Engine.Default().Version() != before
}

// checkNullRefused wants a 400 naming the pointer.
func checkNullRefused(t *testing.T, op apitest.SweepOp, nc nullCase, res *apitest.Resp) {
	t.Helper()
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("%s %s with %s null: %d, want 400: %s", op.Method, op.Path, nc.pointer, res.StatusCode, res.Raw)
		return
	}
	if d := errorDetails(t, op.Path, res); d[nc.pointer] == "" {
		t.Errorf("%s %s with %s null: details %v do not name it", op.Method, op.Path, nc.pointer, d)
	}
}

// checkNullTaken wants no "must not be null" for a nullable property. (A
// null may still leave a whole that is refused for another reason: a merge
// patch removing a rule's required list, say.)
func checkNullTaken(t *testing.T, op apitest.SweepOp, nc nullCase, res *apitest.Resp) {
	t.Helper()
	if res.StatusCode != http.StatusBadRequest {
		return
	}
	if d := errorDetails(t, op.Path, res); strings.Contains(d[nc.pointer], "null") {
		t.Errorf("%s %s refused %s null, which the document allows: %v", op.Method, op.Path, nc.pointer, d)
	}
}

// errorDetails are the details of either error envelope.
func errorDetails(t *testing.T, path string, res *apitest.Resp) map[string]string {
	t.Helper()
	m := res.JSON(t)
	raw, _ := m["details"].(map[string]any)
	if !strings.HasPrefix(path, "/v2") && !strings.HasPrefix(path, "/_sandbox") {
		raw, _ = m["meta"].(map[string]any)["details"].(map[string]any)
	}
	out := map[string]string{}
	for k, v := range raw {
		out[k] = fmt.Sprint(v)
	}
	return out
}

// jsonBody reports an operation whose request body is JSON.
func jsonBody(doc map[string]any, op apitest.SweepOp) bool {
	item := doc["paths"].(map[string]any)[op.Path].(map[string]any)
	content :=
		item[strings.ToLower(op.Method)].(map[string]any)["requestBody"].(map[string]any)["content"].(map[string]any)
	_, ok := content["application/json"]
	return ok
}

// nullPathIDs are ids of the demo world by path parameter, so a request
// gets as far as its body.
var nullPathIDs = map[string]string{
	"accountId":          apitest.AcmeAccount,
	"cardGroupId":        "card_group_acmesaas",
	"cardId":             "card_acmeaws",
	"customerId":         "le_cust_initech",
	"developerAccountId": "le_acme",
	"invoiceId":          "invoice_acme1001",
	"virtualAccountId":   "subaccount_acmeengineering",
	"webhookId":          "webhook_acmelocal",
	"id":                 "webhook_acmelocal",
}

// nullRequest is the request of one case, with the credentials the
// operation's part of the API takes.
func nullRequest(op apitest.SweepOp, nc nullCase, i int) apitest.Req {
	path := apitest.PathParam.ReplaceAllStringFunc(op.Path, func(p string) string {
		if id, ok := nullPathIDs[strings.Trim(p, "{}")]; ok {
			return id
		}
		return "x"
	})
	r := apitest.Req{Method: op.Method, Path: path, Body: nc.body,
		Header: map[string]string{"X-Idempotency-Key": fmt.Sprintf("null-%d", i)}}
	switch {
	case strings.HasPrefix(op.Path, "/v2"):
		r.Key, r.LE = "sk_sandbox_alice", "le_acme"
	case !strings.HasPrefix(op.Path, "/_sandbox"):
		r.Key = "sk_sandbox_acme"
	}
	return r
}

// nullSchemas reads schemas of a document to build null cases.
type nullSchemas struct{ doc map[string]any }

// maxNullDepth bounds the walk through nested (and recursive) schemas.
const maxNullDepth = 5

// resolve follows a $ref and flattens an allOf into one schema.
func (s nullSchemas) resolve(schema any) map[string]any {
	m, _ := schema.(map[string]any)
	if ref, ok := m["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		return s.resolve(s.doc["components"].(map[string]any)["schemas"].(map[string]any)[name])
	}
	all, ok := m["allOf"].([]any)
	if !ok {
		return m
	}
	out := map[string]any{}
	for k, v := range m {
		if k != "allOf" {
			out[k] = v
		}
	}
	for _, part := range all {
		for k, v := range s.resolve(part) {
			out[k] = v
		}
	}
	return out
}

// nullable reports a schema that allows null (an empty schema allows
// anything).
func (s nullSchemas) nullable(schema any) bool {
	m := s.resolve(schema)
	if len(withoutNotes(m)) == 0 || m["nullable"] == true || m["type"] == "null" ||
		slices.Contains(asList(m["type"]), any("null")) || slices.Contains(asList(m["enum"]), nil) {
		return true
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		for _, alt := range asList(m[k]) {
			if s.nullable(alt) {
				return true
			}
		}
	}
	return false
}

// withoutNotes drops the keys that do not constrain a value.
func withoutNotes(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if k != "description" && !strings.HasPrefix(k, "x-") {
			out[k] = v
		}
	}
	return out
}

func asList(v any) []any {
	if l, ok := v.([]any); ok {
		return l
	}
	return nil
}

// variants are the non-null alternatives a schema allows. An object with
// properties is one variant: its oneOf, if any, only says which of them
// are required.
func (s nullSchemas) variants(schema any) []map[string]any {
	m := s.resolve(schema)
	if m["properties"] != nil {
		return []map[string]any{m}
	}
	var out []map[string]any
	for _, k := range []string{"oneOf", "anyOf"} {
		for _, alt := range asList(m[k]) {
			if r := s.resolve(alt); !slices.Contains(asList(r["type"]), any("null")) && r["type"] != "null" {
				out = append(out, s.variants(alt)...)
			}
		}
	}
	if len(out) == 0 {
		return []map[string]any{m}
	}
	return out
}

// typeOf is a schema's non-null type.
func typeOf(m map[string]any) string {
	if t, ok := m["type"].(string); ok {
		return t
	}
	for _, t := range asList(m["type"]) {
		if t != "null" {
			return t.(string)
		}
	}
	if m["properties"] != nil {
		return "object"
	}
	return ""
}

// cases are the null cases inside values of a schema, pointers relative to
// the value.
func (s nullSchemas) cases(schema any, depth int) []nullCase {
	if depth > maxNullDepth {
		return nil
	}
	var out []nullCase
	for _, v := range s.variants(schema) {
		switch typeOf(v) {
		case "object":
			out = append(out, s.objectCases(v, depth)...)
		case "array":
			out = append(out, s.arrayCases(v, depth)...)
		}
	}
	return out
}

// objectCases: each property null, then the cases inside each property.
func (s nullSchemas) objectCases(v map[string]any, depth int) []nullCase {
	props, _ := v["properties"].(map[string]any)
	var out []nullCase
	for _, name := range sortedNames(props) {
		at := "/" + strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
		out = append(out, nullCase{pointer: at, body: s.with(v, name, nil), allowed: s.nullable(props[name])})
		for _, inner := range s.cases(props[name], depth+1) {
			out = append(out, nullCase{pointer: at + inner.pointer, body: s.with(v, name, inner.body), allowed: inner.allowed})
		}
	}
	return out
}

// arrayCases: the first item null, then the cases inside it.
func (s nullSchemas) arrayCases(v map[string]any, depth int) []nullCase {
	out := []nullCase{{pointer: "/0", body: []any{nil}, allowed: s.nullable(v["items"])}}
	for _, inner := range s.cases(v["items"], depth+1) {
		out = append(out, nullCase{pointer: "/0" + inner.pointer, body: []any{inner.body}, allowed: inner.allowed})
	}
	return out
}

// with is a plausible value of an object schema with one property set.
func (s nullSchemas) with(v map[string]any, name string, value any) map[string]any {
	obj, _ := s.sample(v, 0).(map[string]any)
	if obj == nil {
		obj = map[string]any{}
	}
	obj[name] = value
	return obj
}

// sample is a plausible value of a schema: its required properties, the
// first of an enum, a one-item array where items are required.
func (s nullSchemas) sample(schema any, depth int) any {
	v := s.variants(schema)[0]
	if enum := asList(v["enum"]); len(enum) > 0 {
		return enum[0]
	}
	if c, ok := v["const"]; ok {
		return c
	}
	switch typeOf(v) {
	case "object":
		obj := map[string]any{}
		props, _ := v["properties"].(map[string]any)
		for _, name := range asList(v["required"]) {
			if depth < maxNullDepth {
				obj[name.(string)] = s.sample(props[name.(string)], depth+1)
			}
		}
		return obj
	case "array":
		if n, _ := v["minItems"].(float64); n > 0 && depth < maxNullDepth {
			return []any{s.sample(v["items"], depth+1)}
		}
		return []any{}
	case "integer", "number":
		return 1
	case "boolean":
		return false
	case "string":
		return "x"
	}
	return nil
}

func sortedNames(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
