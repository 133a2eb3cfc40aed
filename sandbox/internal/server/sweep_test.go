package server_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

var (
	sweepSeed = flag.Uint64("sweep.seed", 20261122, "seed of the generated-request sweep")
	sweepN    = flag.Int("sweep.n", 30, "requests per operation in the generated-request sweep")
)

// sweepSkipped are operations the sweep leaves out: they exist to make the
// sandbox fail or refuse on purpose (injected faults, rate limits).
var sweepSkipped = map[string]bool{"sandbox.faults.create": true, "sandbox.rate_limit.set": true}

// TestRequestSweep sends every routed operation generated requests: real
// and nonsense ids, declared and unknown query parameters with boundary
// values, every kind of credential, bodies shaped by the operation's
// schema with wrong types, and malformed ones. No response may be a 5xx,
// and every response must match the OpenAPI documents (the harness checks
// that). Run a different sweep with -sweep.seed and -sweep.n.
func TestRequestSweep(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	c, err := apitest.Documents()
	if err != nil {
		t.Fatal(err)
	}
	ops := apitest.SweepOperations(c.OwnDoc)
	rng := rand.New(rand.NewPCG(*sweepSeed, 0x5eed))
	g := &generator{rng: rng, doc: c.OwnDoc, ids: sweepIDs(t, e)}
	sent, statuses := 0, map[int]int{}
	for _, op := range ops {
		if sweepSkipped[op.ID] {
			continue
		}
		for range *sweepN {
			r := g.request(op)
			res := e.Do(r)
			sent++
			statuses[res.StatusCode]++
			if res.StatusCode >= 500 {
				t.Errorf("%s %s (%s) answered %d: %s", r.Method, r.Path, op.ID, res.StatusCode, res.Raw)
			}
		}
	}
	t.Logf("sent %d generated requests over %d operations (seed %d); statuses %v", sent, len(ops), *sweepSeed, statuses)
	if statuses[http.StatusOK] == 0 || statuses[http.StatusBadRequest] == 0 || statuses[http.StatusNotFound] == 0 {
		t.Errorf("the sweep reached too few outcomes: %v", statuses)
	}
}

// sweepIDs are ids that exist in the demo world, so some requests get past
// the lookups.
func sweepIDs(t *testing.T, e *apitest.Env) []string {
	ids := []string{"le_acme", "le_globex", "sa_group_acmeoperating", "sa_group_acmecharge", "sa_group_globexmain",
		"subaccount_acmeengineering", "subaccount_acmeoldproject", "card_acmeaws", "card_group_acmesaas",
		"le_c_northwindsupply",
		"le_cust_initech", "invoice_acme1001", "webhook_acmelocal", "merchant_v2_aws", "merchant_category_software",
		"stmt_202605",
		"US_ACH", "default"}
	var pg apitest.Page
	e.Get("/transaction", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &pg)
	for _, it := range pg.Items[:3] {
		ids = append(ids, it.ID)
	}
	var app struct{ ID string }
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/developer-account/le_acme/application", Key: "sk_sandbox_acme",
		Body: map[string]any{"name": "Sweep", "type": "service", "data": apitest.AppData}}).Status(t, 200).Decode(t, &app)
	return append(ids, app.ID)
}

type generator struct {
	rng *rand.Rand
	doc map[string]any
	ids []string
}

var nasty = []string{"", "x", " ", "0", "-1", "1", "99999999999999999999", "1e308", "NaN", "true", "null", "[]", "{}",
	"ü€😀", "..", "../..", "%00", "a/b", "<script>", "' OR 1=1 --", "le_", "le_acme", "le_globex", "2026-06-15",
	"2026-06-15T14:00:00Z", "36h", "next", "ASC", "settled", "card", "usdc", "wire", "authorization_code",
	strings.Repeat("z", 300)}

func (g *generator) pick(list []string) string { return list[g.rng.IntN(len(list))] }

func (g *generator) value() string {
	if g.rng.IntN(3) == 0 {
		return g.pick(g.ids)
	}
	return g.pick(nasty)
}

// waitBounds are the query parameters that bound how long a wait waits,
// with the shortest value each takes.
var waitBounds = map[string]string{"timeout": "1ms", "wait": "0"}

func (g *generator) request(op apitest.SweepOp) apitest.Req {
	path := apitest.PathParam.ReplaceAllStringFunc(op.Path, func(string) string { return url.PathEscape(g.value()) })
	q := url.Values{}
	for _, name := range op.Query {
		if g.rng.IntN(2) == 0 {
			q.Add(name, g.value())
		}
	}
	if g.rng.IntN(4) == 0 {
		q.Add(g.pick([]string{"cursor", "filter:legalEntityId", "limit", "offset", "unknown"}), g.value())
	}
	// A wait the request does not bound would idle for its default
	// (seconds) and answer what a bounded one answers at once.
	for name, short := range waitBounds {
		if slices.Contains(op.Query, name) && !q.Has(name) {
			q.Set(name, short)
		}
	}
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	r := apitest.Req{Method: op.Method, Path: path, Header: map[string]string{}}
	g.credentials(&r)
	if op.Method != http.MethodGet && g.rng.IntN(6) != 0 {
		r.Body = g.body(op.Body)
		switch g.rng.IntN(8) {
		case 0:
			r.Header["Content-Type"] = "text/plain"
		case 1:
			r.Header["Content-Type"] = "application/x-www-form-urlencoded"
		}
	}
	if g.rng.IntN(3) == 0 {
		r.Header["X-Idempotency-Key"] = g.pick([]string{"k1", "k1", strings.Repeat("k", 300), g.value()})
	}
	return r
}

func (g *generator) credentials(r *apitest.Req) {
	switch g.rng.IntN(10) {
	case 0:
	case 1:
		r.Key = g.pick([]string{"sk_unknown", " ", "sk_sandbox_acme "})
	case 2:
		r.Header["Authorization"] = "Bearer " + g.pick([]string{"slat_nope", "slat_00_x", "", "x y"})
	default:
		r.Key = g.pick([]string{"sk_sandbox_acme", "sk_sandbox_acme", "sk_sandbox_acme_readonly", "sk_sandbox_globex",
			"sk_sandbox_alice", "sk_sandbox_bob", "sk_sandbox_carol_readonly"})
	}
	if g.rng.IntN(2) == 0 {
		r.LE = g.pick([]string{"le_acme", "le_acme", "le_globex", "le_nobody", "x", "le_" + strings.Repeat("a", 200)})
	}
}

// body makes a request body: usually shaped by the schema, sometimes
// malformed JSON or another JSON type.
func (g *generator) body(schema any) any {
	switch g.rng.IntN(10) {
	case 0:
		return g.pick(
			[]string{`{"a":`, `nul`, "\xff\xfe", `{"x":1}{"y":2}`, strings.Repeat("[", 2000) + strings.Repeat("]", 2000), ``},
		)
	case 1:
		return g.pick([]string{`[]`, `"s"`, `1`, `null`, `true`, `{}`})
	}
	raw, _ := json.Marshal(g.instance(schema, 0))
	return raw
}

// instance builds a JSON value for a schema, with wrong types now and then.
func (g *generator) instance(schema any, depth int) any {
	s, _ := schema.(map[string]any)
	if ref, ok := s["$ref"].(string); ok && depth < 6 {
		name := strings.TrimPrefix(ref, "#/components/schemas/")
		return g.instance(g.doc["components"].(map[string]any)["schemas"].(map[string]any)[name], depth+1)
	}
	if g.rng.IntN(8) == 0 || depth > 6 {
		return []any{nil, 1, -1.5, "x", true, []any{}, map[string]any{}}[g.rng.IntN(7)]
	}
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[g.rng.IntN(len(enum))]
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		if list, ok := s[k].([]any); ok && len(list) > 0 {
			return g.instance(list[g.rng.IntN(len(list))], depth+1)
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
			if g.rng.IntN(4) != 0 {
				obj[name] = g.instance(sub, depth+1)
			}
		}
		return obj
	case "array":
		n := g.rng.IntN(3)
		out := make([]any, n)
		for i := range out {
			out[i] = g.instance(s["items"], depth+1)
		}
		return out
	case "integer", "number":
		return []any{0, 1, -1, 100, 1 << 53, 2.5, -99999999}[g.rng.IntN(7)]
	case "boolean":
		return g.rng.IntN(2) == 0
	case "string":
		return g.value()
	}
	return fmt.Sprint(g.value())
}

func TestUncleanPathsAreNotRedirected(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for _, p := range []string{"/account/../legal-entity", "/account//sa_group_acmeoperating", "/v2/./contacts"} {
		r := e.Get(p, "sk_sandbox_alice", "le_acme")
		if r.StatusCode != http.StatusNotFound || r.Header.Get("Location") != "" {
			t.Errorf("GET %s: %d, Location %q; want 404 without a redirect", p, r.StatusCode, r.Header.Get("Location"))
		}
	}
}
