package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// hostile is one variant the sweep sends every operation.
type hostile struct {
	name string
	// make turns an operation into the variant's request; ok false when
	// the variant does not apply.
	make func(op sweepOp, base req) (req, bool)
	// want, when set and not 0, is the status a request of the variant
	// must get.
	want func(op sweepOp) int
	// refused: an operation that takes a body must refuse the variant.
	refused bool
}

// TestHostileSweep sends every routed operation, public and control, a
// fixed set of hostile variants: foreign origins and hosts, bad
// credentials, traversal and oversized ids, nested world paths, hostile
// query values, every body type that is not the operation's, bodies that
// are too large or too deep, and bodies shaped by the operation's schema
// with every field null, of the wrong type, huge, negative or beyond 2^53.
// No answer may be a 5xx, every error must be in its generation's
// envelope, and a request that is refused must leave the accounts, their
// balances and the clock exactly as they were. Then every operation goes
// through the MCP server's call_api_endpoint in every spelling of its path
// (hostileToolCalls): no control route answers a tool call.
func TestHostileSweep(t *testing.T) {
	e := newEnv(t, options{})
	c, err := documents()
	if err != nil {
		t.Fatal(err)
	}
	ids := sweepIDs(t, e)
	before := worldState(t, e)
	// The fingerprint sees money move: a settled incoming transfer
	// changes it.
	e.do(req{method: http.MethodPost, path: "/_sandbox/simulate/incoming-transfer",
		body: `{"accountId":"sa_group_acmeoperating","rail":"wire","amountCents":3000}`}).status(t, 201)
	e.do(req{method: http.MethodPost, path: "/_sandbox/clock/advance", body: `{"by":"3d"}`}).status(t, 200)
	if after := worldState(t, e); after == before {
		t.Fatal("the world's fingerprint did not change when money arrived")
	}
	before = worldState(t, e)
	sent, statuses := 0, map[string]map[int]int{}
	for _, op := range sweepOperations(c.ownDoc) {
		if sweepSkipped[op.id] {
			continue
		}
		base := baseRequest(c.ownDoc, op, ids[0])
		for _, v := range hostileVariants(c.ownDoc) {
			fresh := base
			fresh.header = map[string]string{}
			r, ok := v.make(op, fresh)
			if !ok {
				continue
			}
			res := e.do(r)
			sent++
			if statuses[v.name] == nil {
				statuses[v.name] = map[int]int{}
			}
			statuses[v.name][res.StatusCode]++
			where := op.id + " / " + v.name + ": " + r.method + " " + shorten(r.path)
			if res.StatusCode >= 500 {
				t.Errorf("%s answered %d: %.300s", where, res.StatusCode, res.body)
				continue
			}
			if v.want != nil && v.want(op) != 0 && res.StatusCode != v.want(op) {
				t.Errorf("%s answered %d, want %d: %.300s", where, res.StatusCode, v.want(op), res.body)
			}
			if v.refused && op.body != nil && res.StatusCode < 400 {
				t.Errorf("%s was accepted (%d): %.300s", where, res.StatusCode, res.body)
			}
			checkEnvelope(t, where, r.path, res)
			after := worldState(t, e)
			if res.StatusCode >= 400 && after != before {
				t.Errorf("%s was refused (%d) but changed the world", where, res.StatusCode)
			}
			before = after
		}
	}
	t.Logf("sent %d hostile requests; statuses by variant: %v", sent, statuses)
	if sent < 1500 {
		t.Errorf("the hostile sweep sent only %d requests", sent)
	}
	t.Run("through the MCP tools", func(t *testing.T) { hostileToolCalls(t, e, c.ownDoc) })
}

// worldState is what a refused request must never change: every account
// and virtual account with its balance and spend, of both demo entities,
// and the clock.
func worldState(t *testing.T, e *env) string {
	t.Helper()
	var b strings.Builder
	for _, key := range []string{"sk_sandbox_acme", "sk_sandbox_globex"} {
		for _, path := range []string{"/account", "/virtual-account"} {
			b.Write(e.get(path, key, "").status(t, 200).body)
		}
	}
	b.Write(e.get("/_sandbox/clock", "", "").status(t, 200).body)
	return b.String()
}

// baseRequest is an ordinary request for op: real ids, a key that may act
// on the demo's Acme, a JSON body shaped by the schema.
func baseRequest(doc map[string]any, op sweepOp, id string) req {
	r := req{method: op.method, path: pathParam.ReplaceAllString(op.path, id), header: map[string]string{}}
	if op.body != nil && op.method != http.MethodGet {
		r.body, _ = json.Marshal(shape(doc, op.body, 0, valid))
	}
	switch {
	case strings.HasPrefix(op.path, "/_sandbox/"):
	case strings.HasPrefix(op.path, "/v2/"):
		r.key, r.le = "sk_sandbox_alice", "le_acme"
	default:
		r.key = "sk_sandbox_acme"
	}
	return r
}

func hostileVariants(doc map[string]any) []hostile {
	control := func(op sweepOp) bool { return strings.HasPrefix(op.path, "/_sandbox/") }
	withBody := func(op sweepOp) bool { return op.method != http.MethodGet && op.method != http.MethodDelete }
	body := func(name string, b any) hostile {
		return hostile{
			name:    name,
			refused: true,
			make:    func(op sweepOp, r req) (req, bool) { r.body = b; return r, withBody(op) },
		}
	}
	shaped := func(name string, leaf func(typ string) any) hostile {
		return hostile{
			name:    name,
			refused: name == "every field null" || name == "every field an object",
			make: func(op sweepOp, r req) (req, bool) {
				if !withBody(op) || op.body == nil {
					return r, false
				}
				raw, _ := json.Marshal(shape(doc, op.body, 0, leaf))
				r.body = raw
				return r, true
			},
		}
	}
	forbiddenOnControl := func(op sweepOp) int {
		if control(op) {
			return http.StatusForbidden
		}
		return 0
	}
	vs := []hostile{
		{name: "another site's page", make: func(op sweepOp, r req) (req, bool) {
			r.header["Origin"], r.header["Sec-Fetch-Site"] = "https://evil.example", "cross-site"
			return r, control(op)
		}, want: forbiddenOnControl},
		{name: "another site's write without Origin", make: func(op sweepOp, r req) (req, bool) {
			r.header["Sec-Fetch-Site"], r.header["Sec-Fetch-Mode"] = "cross-site", "no-cors"
			return r, control(op) && withBody(op)
		}, want: forbiddenOnControl},
		{name: "rebound host", make: func(op sweepOp, r req) (req, bool) {
			r.host = "rebind.evil.example"
			return r, control(op)
		}, want: forbiddenOnControl},
		{name: "no credentials", make: func(op sweepOp, r req) (req, bool) { r.key, r.le = "", ""; return r, !control(op) }},
		{name: "unknown key", make: func(op sweepOp, r req) (req, bool) { r.key = "sk_nope"; return r, !control(op) }},
		{name: "read-only key", make: func(op sweepOp, r req) (req, bool) {
			r.key = "sk_sandbox_carol_readonly"
			r.le = "le_acme"
			return r, !control(op)
		}},
		{name: "another entity", make: func(op sweepOp, r req) (req, bool) { r.le = "le_globex"; return r, !control(op) }},
		{name: "traversal ids", make: func(op sweepOp, r req) (req, bool) {
			r.path = pathParam.ReplaceAllString(op.path, url.PathEscape("../../../../etc/passwd"))
			return r, strings.Contains(op.path, "{")
		}},
		{name: "oversized id", make: func(op sweepOp, r req) (req, bool) {
			r.path = pathParam.ReplaceAllString(op.path, strings.Repeat("9", 4096))
			return r, strings.Contains(op.path, "{")
		}},
		{name: "nested world paths", make: func(op sweepOp, r req) (req, bool) {
			r.path = "/_sandbox" + strings.Repeat("/worlds/default", 50) + strings.TrimPrefix(r.path, "/_sandbox")
			return r, control(op)
		}},
		{name: "hostile query", make: func(op sweepOp, r req) (req, bool) {
			q := url.Values{}
			for i, name := range append(op.query, "cursor", "limit", "filter:legalEntityId") {
				q.Set(name,
					[]string{"9999-12-31T23:59:59Z", "-1", "1e400", strings.Repeat("q", 10_000), "0000-01-01", "null", "../x"}[i%7])
			}
			r.path += "?" + q.Encode()
			return r, true
		}},
		body("null body", "null"),
		body("array body", "[]"),
		body("string body", `"x"`),
		body("number body", "1e400"),
		body("deep body", strings.Repeat(`{"a":`, 10_000)+"1"+strings.Repeat("}", 10_000)),
		body("oversized body", `{"name":"`+strings.Repeat("x", 1<<20)+`"}`),
		shaped("every field null", func(string) any { return nil }),
		shaped("every field an object", func(string) any { return map[string]any{"$gt": ""} }),
		shaped("numbers beyond 2^53", func(typ string) any {
			if typ == "integer" || typ == "number" {
				return json.Number("9007199254740993")
			}
			return valid(typ)
		}),
		shaped("negative numbers", func(typ string) any {
			if typ == "integer" || typ == "number" {
				return -1
			}
			return valid(typ)
		}),
		shaped("huge strings", func(typ string) any {
			if typ == "string" {
				return strings.Repeat("ü", 100_000)
			}
			return valid(typ)
		}),
		shaped("far dates", func(typ string) any {
			if typ == "string" {
				return "9999-12-31T23:59:59Z"
			}
			return valid(typ)
		}),
	}
	return vs
}

// valid is an ordinary value of a JSON type.
func valid(typ string) any {
	switch typ {
	case "integer", "number":
		return 100
	case "boolean":
		return true
	case "string":
		return "x"
	}
	return nil
}

// shape builds a value for a schema with every property present; leaf
// gives each scalar.
func shape(doc map[string]any, schema any, depth int, leaf func(typ string) any) any {
	s, _ := schema.(map[string]any)
	if ref, ok := s["$ref"].(string); ok {
		if depth > 5 {
			return leaf("object")
		}
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		return shape(doc, doc["components"].(map[string]any)["schemas"].(map[string]any)[name], depth+1, leaf)
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		if list, ok := s[k].([]any); ok && len(list) > 0 {
			return shape(doc, list[0], depth+1, leaf)
		}
	}
	typ, _ := s["type"].(string)
	if list, ok := s["type"].([]any); ok && len(list) > 0 {
		typ, _ = list[0].(string)
	}
	switch typ {
	case "object":
		obj := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		for name, sub := range props {
			obj[name] = shape(doc, sub, depth+1, leaf)
		}
		return obj
	case "array":
		return []any{shape(doc, s["items"], depth+1, leaf)}
	}
	return leaf(typ)
}

// checkEnvelope checks an error's body: the second generation's four
// fields under /v2 and /_sandbox, the first generation's elsewhere, plain
// text for 429, HTML for the pages a person opens, and the deferral's
// {"error"} for a read-only key's write.
func checkEnvelope(t *testing.T, where, path string, res *resp) {
	t.Helper()
	if res.StatusCode < 400 {
		return
	}
	ct := res.Header.Get("Content-Type")
	switch {
	case res.StatusCode == http.StatusTooManyRequests:
		if !strings.HasPrefix(ct, "text/plain") {
			t.Errorf("%s: 429 as %q", where, ct)
		}
		return
	case strings.HasPrefix(ct, "text/html") && strings.HasPrefix(path, "/_sandbox/forms/"):
		return
	case res.StatusCode == http.StatusForbidden && res.Header.Get("x-deferred-action-id") != "":
		// A read-only key's write: the deferral's own body, not an error.
		deferred(t, res)
		return
	case ct != "application/json":
		t.Errorf("%s: error %d as %q: %.200s", where, res.StatusCode, ct, res.body)
		return
	}
	var m map[string]any
	if err := json.Unmarshal(res.body, &m); err != nil {
		t.Errorf("%s: error body is not an object: %.200s", where, res.body)
		return
	}
	gen2 := strings.HasPrefix(path, "/v2/") || strings.HasPrefix(path, "/_sandbox")
	want := []string{"message", "name", "identifier", "rawStatus", "meta"}
	if gen2 {
		want = []string{"code", "message", "details", "referenceId"}
	}
	for _, k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: error lacks %q: %.200s", where, k, res.body)
		}
	}
	if gen2 && len(m) != 4 {
		t.Errorf("%s: second-generation error has %d fields: %.200s", where, len(m), res.body)
	}
}

func shorten(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}
