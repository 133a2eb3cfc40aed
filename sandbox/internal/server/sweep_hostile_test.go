package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// hostile is one variant the sweep sends every operation.
type hostile struct {
	name string
	// make turns an operation into the variant's request; ok false when
	// the variant does not apply.
	make func(op apitest.SweepOp, base apitest.Req) (apitest.Req, bool)
	// want, when set and not 0, is the status a request of the variant
	// must get.
	want func(op apitest.SweepOp) int
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
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	c, err := apitest.Documents()
	if err != nil {
		t.Fatal(err)
	}
	ids := sweepIDs(t, e)
	before := worldState(t, e)
	// The fingerprint sees money move: a settled incoming transfer
	// changes it.
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/simulate/incoming-transfer",
		Body: `{"accountId":"sa_group_acmeoperating","rail":"wire","amountCents":3000}`}).Status(t, 201)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: `{"by":"3d"}`}).Status(t, 200)
	if after := worldState(t, e); after == before {
		t.Fatal("the world's fingerprint did not change when money arrived")
	}
	before = worldState(t, e)
	version := e.Engine.Default().Version()
	sent, statuses := 0, map[string]map[int]int{}
	for _, op := range apitest.SweepOperations(c.OwnDoc) {
		if sweepSkipped[op.ID] {
			continue
		}
		base := baseRequest(c.OwnDoc, op, ids[0])
		for _, v := range hostileVariants(c.OwnDoc) {
			fresh := base
			fresh.Header = map[string]string{}
			r, ok := v.make(op, fresh)
			if !ok {
				continue
			}
			res := e.Do(r)
			sent++
			if statuses[v.name] == nil {
				statuses[v.name] = map[int]int{}
			}
			statuses[v.name][res.StatusCode]++
			where := op.ID + " / " + v.name + ": " + r.Method + " " + shorten(r.Path)
			if res.StatusCode >= 500 {
				t.Errorf("%s answered %d: %.300s", where, res.StatusCode, res.Raw)
				continue
			}
			if v.want != nil && v.want(op) != 0 && res.StatusCode != v.want(op) {
				t.Errorf("%s answered %d, want %d: %.300s", where, res.StatusCode, v.want(op), res.Raw)
			}
			if v.refused && op.Body != nil && res.StatusCode < 400 {
				t.Errorf("%s was accepted (%d): %.300s", where, res.StatusCode, res.Raw)
			}
			checkEnvelope(t, where, r.Path, res)
			// The world's state cannot change without its version moving:
			// the fingerprint is read again only when it moved.
			if v := e.Engine.Default().Version(); v != version {
				version = v
				after := worldState(t, e)
				if res.StatusCode >= 400 && after != before {
					t.Errorf("%s was refused (%d) but changed the world", where, res.StatusCode)
				}
				before = after
			}
		}
	}
	t.Logf("sent %d hostile requests; statuses by variant: %v", sent, statuses)
	if sent < 1500 {
		t.Errorf("the hostile sweep sent only %d requests", sent)
	}
	t.Run("through the MCP tools", func(t *testing.T) { hostileToolCalls(t, e, c.OwnDoc) })
}

// worldState is what a refused request must never change: every account
// and virtual account with its balance and spend, of both demo entities,
// and the clock.
func worldState(t *testing.T, e *apitest.Env) string {
	t.Helper()
	var b strings.Builder
	for _, key := range []string{"sk_sandbox_acme", "sk_sandbox_globex"} {
		for _, path := range []string{"/account", "/virtual-account"} {
			b.Write(e.Get(path, key, "").Status(t, 200).Raw)
		}
	}
	b.Write(e.Get("/_sandbox/clock", "", "").Status(t, 200).Raw)
	return b.String()
}

// baseRequest is an ordinary request for op: real ids, a key that may act
// on the demo's Acme, a JSON body shaped by the schema.
func baseRequest(doc map[string]any, op apitest.SweepOp, id string) apitest.Req {
	r := apitest.Req{
		Method: op.Method,
		Path:   apitest.PathParam.ReplaceAllString(op.Path, id),
		Header: map[string]string{},
	}
	if op.Body != nil && op.Method != http.MethodGet {
		r.Body, _ = json.Marshal(shape(doc, op.Body, 0, valid))
	}
	switch {
	case strings.HasPrefix(op.Path, "/_sandbox/"):
	case strings.HasPrefix(op.Path, "/v2/"):
		r.Key, r.LE = "sk_sandbox_alice", "le_acme"
	default:
		r.Key = "sk_sandbox_acme"
	}
	return r
}

func hostileVariants(doc map[string]any) []hostile {
	control := func(op apitest.SweepOp) bool { return strings.HasPrefix(op.Path, "/_sandbox/") }
	withBody := func(op apitest.SweepOp) bool { return op.Method != http.MethodGet && op.Method != http.MethodDelete }
	body := func(name string, b any) hostile {
		return hostile{
			name:    name,
			refused: true,
			make:    func(op apitest.SweepOp, r apitest.Req) (apitest.Req, bool) { r.Body = b; return r, withBody(op) },
		}
	}
	shaped := func(name string, leaf func(typ string) any) hostile {
		return hostile{
			name:    name,
			refused: name == "every field null" || name == "every field an object",
			make: func(op apitest.SweepOp, r apitest.Req) (apitest.Req, bool) {
				if !withBody(op) || op.Body == nil {
					return r, false
				}
				raw, _ := json.Marshal(shape(doc, op.Body, 0, leaf))
				r.Body = raw
				return r, true
			},
		}
	}
	forbiddenOnControl := func(op apitest.SweepOp) int {
		if control(op) {
			return http.StatusForbidden
		}
		return 0
	}
	vs := []hostile{
		{name: "another site's page", make: func(op apitest.SweepOp, r apitest.Req) (apitest.Req, bool) {
			r.Header["Origin"], r.Header["Sec-Fetch-Site"] = "https://evil.example", "cross-site"
			return r, control(op)
		}, want: forbiddenOnControl},
		{
			name: "another site's write without Origin",
			make: func(op apitest.SweepOp, r apitest.Req) (apitest.Req, bool) {
				r.Header["Sec-Fetch-Site"], r.Header["Sec-Fetch-Mode"] = "cross-site", "no-cors"
				return r, control(op) && withBody(op)
			},
			want: forbiddenOnControl,
		},
		{name: "rebound host", make: func(op apitest.SweepOp, r apitest.Req) (apitest.Req, bool) {
			r.Host = "rebind.evil.example"
			return r, control(op)
		}, want: forbiddenOnControl},
		{name: "no credentials", make: func(op apitest.SweepOp, r apitest.Req) (apitest.Req, bool) {
			r.Key, r.LE = "", ""
			return r, !control(op)
		}},
		{
			name: "unknown key",
			make: func(op apitest.SweepOp, r apitest.Req) (apitest.Req, bool) { r.Key = "sk_nope"; return r, !control(op) },
		},
		{name: "read-only key", make: func(op apitest.SweepOp, r apitest.Req) (apitest.Req, bool) {
			r.Key = "sk_sandbox_carol_readonly"
			r.LE = "le_acme"
			return r, !control(op)
		}},
		{name: "another entity", make: func(op apitest.SweepOp, r apitest.Req) (apitest.Req, bool) {
			r.LE = "le_globex"
			return r, !control(op)
		}},
		{name: "traversal ids", make: func(op apitest.SweepOp, r apitest.Req) (apitest.Req, bool) {
			r.Path = apitest.PathParam.ReplaceAllString(op.Path, url.PathEscape("../../../../etc/passwd"))
			return r, strings.Contains(op.Path, "{")
		}},
		{name: "oversized id", make: func(op apitest.SweepOp, r apitest.Req) (apitest.Req, bool) {
			r.Path = apitest.PathParam.ReplaceAllString(op.Path, strings.Repeat("9", 4096))
			return r, strings.Contains(op.Path, "{")
		}},
		{name: "nested world paths", make: func(op apitest.SweepOp, r apitest.Req) (apitest.Req, bool) {
			r.Path = "/_sandbox" + strings.Repeat("/worlds/default", 50) + strings.TrimPrefix(r.Path, "/_sandbox")
			return r, control(op)
		}},
		{name: "hostile query", make: func(op apitest.SweepOp, r apitest.Req) (apitest.Req, bool) {
			q := url.Values{}
			for i, name := range append(op.Query, "cursor", "limit", "filter:legalEntityId") {
				q.Set(
					name,
					[]string{"9999-12-31T23:59:59Z", "-1", "1e400", strings.Repeat("q", 10_000), "0000-01-01", "null", "../x"}[i%7],
				)
			}
			r.Path += "?" + q.Encode()
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
func checkEnvelope(t *testing.T, where, path string, res *apitest.Resp) {
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
		apitest.Deferred(t, res)
		return
	case ct != "application/json":
		t.Errorf("%s: error %d as %q: %.200s", where, res.StatusCode, ct, res.Raw)
		return
	}
	var m map[string]any
	if err := json.Unmarshal(res.Raw, &m); err != nil {
		t.Errorf("%s: error body is not an object: %.200s", where, res.Raw)
		return
	}
	gen2 := strings.HasPrefix(path, "/v2/") || strings.HasPrefix(path, "/_sandbox")
	want := []string{"message", "name", "identifier", "rawStatus", "meta"}
	if gen2 {
		want = []string{"code", "message", "details", "referenceId"}
	}
	for _, k := range want {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: error lacks %q: %.200s", where, k, res.Raw)
		}
	}
	if gen2 && len(m) != 4 {
		t.Errorf("%s: second-generation error has %d fields: %.200s", where, len(m), res.Raw)
	}
}

func shorten(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}
