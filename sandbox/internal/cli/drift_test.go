package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/drift"
)

// readOnlyKey is the demo's read-only legal-entity key, what a user would
// give drift in production.
const readOnlyKey = "sk_sandbox_acme_readonly"

// standIn is production's stand-in: a second sandbox serving the demo,
// behind a proxy that records every request's method and, when it
// mutates, changes four things the way a real service might drift.
type standIn struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string
}

// The changes the mutating proxy makes.
var (
	oneCard     = regexp.MustCompile(`^/card/card_[a-z]+$`)
	unknownCard = regexp.MustCompile(`^/card/card_0+$`)
)

func newStandIn(t *testing.T, mutate bool) *standIn {
	t.Helper()
	sandbox := apitest.New(t, apitest.Options{})
	target, err := url.Parse(sandbox.Server.URL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	if mutate {
		proxy.ModifyResponse = drifted
	}
	s := &standIn{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.Method+" "+r.URL.RequestURI())
		s.mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// drifted changes production's answers: a field added to a card, a card
// status the sandbox does not know, an account field renamed, and an
// unknown card answered 400 instead of 404.
func drifted(res *http.Response) error {
	path := res.Request.URL.Path
	if unknownCard.MatchString(path) {
		res.StatusCode = http.StatusBadRequest
		return nil
	}
	if res.StatusCode != http.StatusOK || !oneCard.MatchString(path) && path != "/card" && path != "/account" {
		return nil
	}
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return err
	}
	var v map[string]any
	if err := json.Unmarshal(body, &v); err != nil {
		return err
	}
	items, _ := v["items"].([]any)
	switch {
	case oneCard.MatchString(path):
		v["spendLimitV3"] = 100
	case path == "/card" && len(items) > 0:
		items[0].(map[string]any)["status"] = "frozen"
	case path == "/account":
		for _, it := range items {
			a := it.(map[string]any)
			a["routingNo"], a["routingNumber"] = a["routingNumber"], nil
			delete(a, "routingNumber")
		}
	}
	body, err = json.Marshal(v)
	if err != nil {
		return err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	res.ContentLength = int64(len(body))
	res.Header.Set("Content-Length", strconv.Itoa(len(body)))
	return nil
}

// driftReport runs drift --json against prod with the read-only key and
// decodes its report, failing unless it exits with code.
func driftReport(t *testing.T, prod *standIn, code int) drift.Report {
	t.Helper()
	r := runProgram(t, nil, "drift", "--against", prod.URL, "--api-key", readOnlyKey, "--json")
	if r.code != code {
		t.Fatalf("drift = %d, want %d\n%s\n%s", r.code, code, r.stdout, r.stderr)
	}
	var rep drift.Report
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("--json: %v\n%s", err, r.stdout)
	}
	return rep
}

func TestDriftAgainstTheSandboxFindsNone(t *testing.T) {
	prod := newStandIn(t, false)
	rep := driftReport(t, prod, 0)
	if len(rep.Differences) != 0 {
		t.Errorf("the sandbox differs from its own contract: %+v", rep.Differences)
	}
	// The ids of the lists were followed, and the requests were counted.
	for _, op := range []string{"card.get", "card.event.list", "invoice.get", "virtual_account.get", "fdx.statement.get",
		"transaction.get", "legal_entity.list"} {
		if !slices.Contains(rep.Checked, op) {
			t.Errorf("%s was not checked; skipped: %+v", op, rep.Skipped)
		}
	}
	for _, skip := range []drift.Skip{
		{Operation: "oauth2.userinfo", Reason: "takes an OAuth access token, not an API key"},
		{Operation: "invoice.number.validate", Reason: "needs the query parameter invoiceNumber"},
		{Operation: "developer_application.get", Reason: "no list answered a developerApplicationId to follow"},
	} {
		if !slices.Contains(rep.Skipped, skip) {
			t.Errorf("skipped %+v, want %+v among them", rep.Skipped, skip)
		}
	}
	if rep.LegalEntity != "le_acme" || rep.Requests != len(prod.requests) || rep.Requests < 100 {
		t.Errorf("legal entity %q, %d requests reported, %d received", rep.LegalEntity, rep.Requests, len(prod.requests))
	}
	for _, req := range prod.requests {
		method, target, _ := strings.Cut(req, " ")
		if method != http.MethodGet && method != http.MethodHead {
			t.Errorf("drift sent %s", req)
		}
		if strings.Contains(target, "include_pan") || strings.Contains(target, "include_cvv") {
			t.Errorf("drift asked for a card number: %s", req)
		}
		if strings.HasPrefix(target, "/_sandbox") || target == "/openapi.json" || target == "/mcp" {
			t.Errorf("drift read a sandbox extension, which production does not have: %s", req)
		}
	}
	// A user key over two legal entities, and another legal entity's key,
	// which may not call some operations: nothing differs either.
	for _, key := range []string{"sk_sandbox_alice", "sk_sandbox_globex"} {
		r := runProgram(t, nil, "drift", "--against", prod.URL, "--api-key", key, "--json")
		if r.code != 0 || !strings.Contains(r.stdout, `"differences": []`) {
			t.Errorf("drift with %s = %d\n%s\n%s", key, r.code, r.stdout, r.stderr)
		}
	}
	table := runProgram(t, nil, "drift", "--against", prod.URL, "--api-key", readOnlyKey)
	if table.code != 0 || !strings.Contains(table.stdout, ", 0 differences\n") ||
		strings.Contains(table.stdout, "OPERATION") {
		t.Errorf("table = %d\n%s", table.code, table.stdout)
	}
}

func TestDriftReportsEveryChange(t *testing.T) {
	prod := newStandIn(t, true)
	rep := driftReport(t, prod, 1)
	want := []drift.Difference{
		{Operation: "account.list", Probe: "read", Pointer: "/items/0/routingNo", Kind: "unknown_field"},
		{Operation: "account.list", Probe: "read", Pointer: "/items/0/routingNumber", Kind: "missing_field",
			Production: "(absent)"},
		{Operation: "card.get", Probe: "read", Pointer: "/spendLimitV3", Kind: "unknown_field", Production: "100",
			Sandbox: "no such property"},
		{Operation: "card.get", Probe: "unknown_id", Pointer: "", Kind: "status", Production: "400", Sandbox: "404"},
		{Operation: "card.list", Probe: "read", Pointer: "/items/0/status", Kind: "unknown_enum_value",
			Production: `"frozen"`, Sandbox: "one of active, paused, inactive, closed"},
	}
	var got []drift.Difference
	for _, d := range rep.Differences {
		d.Request, d.Count = "", 0
		if d.Kind != "missing_field" && d.Kind != "unknown_field" || d.Operation != "account.list" {
			got = append(got, d)
			continue
		}
		d.Production, d.Sandbox = "", ""
		if d.Kind == "missing_field" {
			d.Production = "(absent)"
		}
		got = append(got, d)
	}
	if len(got) != len(want) {
		t.Fatalf("differences:\n%+v\nwant:\n%+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("difference %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if d := rep.Differences[0]; d.Count != 2 || d.Request != "GET /account" {
		t.Errorf("the renamed field of both accounts = %+v, want one difference seen twice", d)
	}
	table := runProgram(t, nil, "drift", "--against", prod.URL, "--api-key", readOnlyKey)
	for _, line := range []string{
		`card.get (unknown id)  GET /card/card_0000000000000  (status)  400`,
		`card.list  GET /card  /items/0/status  "frozen"  one of active, paused, inactive, closed`,
		", 5 differences\n",
	} {
		if !strings.Contains(strings.Join(strings.Fields(table.stdout), "  "), strings.Join(strings.Fields(line), "  ")) {
			t.Errorf("the table lacks %q:\n%s", line, table.stdout)
		}
	}
	if table.code != 1 {
		t.Errorf("table = %d, want 1", table.code)
	}
}

func TestDriftCannotRun(t *testing.T) {
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	prod := newStandIn(t, false)
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unreachable", []string{"--against", gone.URL, "--api-key", readOnlyKey}, gone.URL + " is not reachable"},
		{"bad key", []string{"--against", prod.URL, "--api-key", "sk_wrong"},
			prod.URL + " refused the API key (GET /legal-entity answered 401: the API key is missing or invalid"},
		{"not a URL", []string{"--against", "api.example.test", "--api-key", readOnlyKey},
			`"api.example.test" is not an http:// or https:// URL`},
		{"no key", []string{"--against", prod.URL}, "drift needs --against URL and --api-key KEY"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runProgram(t, nil, append([]string{"drift"}, c.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, c.want) || r.stdout != "" {
				t.Fatalf("drift = %d %q %q, want 2 and %q", r.code, r.stdout, r.stderr, c.want)
			}
		})
	}
}
