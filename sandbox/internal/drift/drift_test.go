package drift

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
)

// document is a small contract: legal entities, a list of things wrapped in
// their kind, a thing by id with a filter, an operation for OAuth tokens
// only, and a sandbox extension.
const document = `{"openapi": "3.1.0", "paths": {
 "/legal-entity": {"get": {"operationId": "legal_entity.list", "responses": {
  "200": {"content": {"application/json": {"schema": {"type": "object"}}}}}}},
 "/thing": {"get": {"operationId": "thing.list",
  "parameters": [{"name": "filter:status", "in": "query", "schema": {"type": "string", "enum": ["on", "off"]}}],
  "responses": {"200": {"content": {"application/json": {"schema": {"type": "object"}}}},
   "default": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}}},
 "/thing/{thingId}": {"get": {"operationId": "thing.get", "responses": {
  "200": {"content": {"application/json": {"schema": {"type": "object", "required": ["id"],
   "properties": {"id": {"type": "string"}}}}}},
  "default": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}}},
 "/me": {"get": {"operationId": "me.get", "security": [{"bearer": []}], "responses": {}}},
 "/_sandbox/clock": {"get": {"operationId": "sandbox.clock", "x-sandbox-extension": true, "responses": {}}}},
 "components": {"schemas": {"Error": {"type": "object", "additionalProperties": false, "required": ["message"],
  "properties": {"message": {"type": "string"}}}}}}`

// fake is a service answering the document's operations, which records the
// requests it gets; limited answers 429 to the first limited requests.
type fake struct {
	mu       sync.Mutex
	got      []string
	limited  int
	retryFor string
	// redirect, when set, answers GET /thing with a redirect there.
	redirect string
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.got = append(f.got, r.Method+" "+r.URL.RequestURI()+" "+r.Header.Get("x-legal-entity"))
	limited := f.limited > 0
	f.limited--
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch path := r.URL.Path; {
	case limited:
		w.Header().Set("Retry-After", f.retryFor)
		w.WriteHeader(http.StatusTooManyRequests)
	case r.Header.Get("X-API-Key") != "key":
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"message": "bad key"}`)
	case path == "/legal-entity":
		fmt.Fprint(w, `{"items": [{"id": "le_one"}, {"id": "le_two"}]}`)
	case path == "/thing" && f.redirect != "":
		http.Redirect(w, r, f.redirect, http.StatusFound)
	case path == "/thing" && r.URL.Query().Get("filter:status") != "":
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"message": "bad filter"}`)
	case path == "/thing":
		fmt.Fprint(w, `{"items": [{"thing": {"id": "thing_a1"}}, {"thing": {"id": "thing_b2"}},`+
			` {"thing": {"id": "thing_c3"}}]}`)
	case strings.HasPrefix(path, "/thing/thing_0"):
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"message": "not found", "code": 404}`)
	default:
		fmt.Fprintf(w, `{"id": %q}`, strings.TrimPrefix(path, "/thing/"))
	}
}

func runFake(t *testing.T, f *fake, o Options) (*Report, error) {
	t.Helper()
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	o.Against, o.APIKey = srv.URL, cmp(o.APIKey, "key")
	return Run(context.Background(), []byte(document), o)
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func TestRunFollowsIDsAndProbesRefusals(t *testing.T) {
	f := &fake{}
	rep, err := runFake(t, f, Options{MaxIDs: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"GET /legal-entity ",
		"GET /thing le_one",
		"GET /thing?filter%3Astatus=drift-not-a-value le_one",
		"GET /thing/thing_a1 le_one",
		"GET /thing/thing_b2 le_one",
		"GET /thing/thing_00 le_one",
	}
	if !slices.Equal(f.got, want) {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(f.got, "\n"), strings.Join(want, "\n"))
	}
	if got := fmt.Sprint(rep.Checked); got != "[legal_entity.list thing.list thing.get]" {
		t.Errorf("checked %s", got)
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Operation != "me.get" || rep.Requests != len(want) {
		t.Errorf("skipped %+v, %d requests", rep.Skipped, rep.Requests)
	}
	// The unknown thing's error envelope has a property the Error schema
	// does not.
	if len(rep.Differences) != 1 || rep.Differences[0] != (Difference{Operation: "thing.get", Probe: ProbeUnknownID,
		Request: "GET /thing/thing_00", Pointer: "/code", Kind: KindUnknownField, Production: "404",
		Sandbox: "no such property", Count: 1}) {
		t.Errorf("differences %+v", rep.Differences)
	}
}

func TestRunHonoursRetryAfter(t *testing.T) {
	f := &fake{limited: 2, retryFor: "0"}
	rep, err := runFake(t, f, Options{LegalEntity: "le_two", MaxIDs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Requests != len(f.got) || f.got[0] != f.got[2] || rep.LegalEntity != "le_two" {
		t.Errorf("%d requests reported, got %q", rep.Requests, f.got)
	}
	if _, err := runFake(t, &fake{limited: 1, retryFor: "120"}, Options{MaxWait: time.Second}); err == nil ||
		!strings.Contains(err.Error(), "Retry-After asks for 2m0s") {
		t.Errorf("a Retry-After longer than --max-wait: %v", err)
	}
}

func TestRunStillLimited(t *testing.T) {
	_, err := runFake(t, &fake{limited: 100, retryFor: "0"}, Options{})
	if err == nil || !strings.Contains(err.Error(), "still answering 429 after 4 tries") {
		t.Errorf("a service that keeps answering 429: %v", err)
	}
}

// TestRunFollowsNoRedirect: a redirect elsewhere would take the key with
// it; it is answered as a status instead.
func TestRunFollowsNoRedirect(t *testing.T) {
	elsewhere := &fake{}
	other := httptest.NewServer(elsewhere)
	defer other.Close()
	rep, err := runFake(t, &fake{redirect: other.URL + "/thing"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(elsewhere.got) != 0 {
		t.Errorf("the redirect was followed: %q", elsewhere.got)
	}
	want := Difference{Operation: "thing.list", Probe: ProbeRead, Request: "GET /thing", Kind: KindStatus,
		Production: "302", Sandbox: "200", Count: 1}
	if !slices.Contains(rep.Differences, want) {
		t.Errorf("differences %+v, want %+v among them", rep.Differences, want)
	}
}

func TestRunBounds(t *testing.T) {
	rep, err := runFake(t, &fake{}, Options{MaxRequests: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Requests != 3 || !strings.Contains(rep.Stopped, "--max-requests") {
		t.Errorf("%d requests, stopped %q", rep.Requests, rep.Stopped)
	}
}

func TestRunCannotRun(t *testing.T) {
	_, err := runFake(t, &fake{}, Options{APIKey: "wrong"})
	var cannot *Error
	const refused = "refused the API key (GET /legal-entity answered 401: bad key)"
	if !errors.As(err, &cannot) || !strings.Contains(err.Error(), refused) {
		t.Errorf("a refused key: %v", err)
	}
	_, err = Run(context.Background(), []byte(document), Options{Against: "//x", APIKey: "k"})
	if !errors.As(err, &cannot) {
		t.Errorf("no scheme: %v", err)
	}
}

func TestUnknownIDKeepsTheShape(t *testing.T) {
	list, _ := jsonshape.Decode([]byte(`{"items": [{"id": "card_Ab9-x"}]}`))
	for _, c := range []struct {
		list any
		want string
	}{{list, "card_000-0"}, {nil, "drift_0000000000000000"}} {
		if got := unknownID(c.list, "cardId"); got != c.want {
			t.Errorf("unknownID = %q, want %q", got, c.want)
		}
	}
}
