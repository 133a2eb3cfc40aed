package server_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/mux"
	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parts"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// withAll gives a configuration the two parts the binary always has and
// an in-process sandbox adds when asked: the SQL engine and the MCP server.
func withAll(cfg server.Config) server.Config { return parts.All(cfg) }

// routesHit records every route name the tests reached, read from the
// request log, so TestMain can fail for a route no test exercises.
var routesHit = struct {
	sync.Mutex
	names map[string]bool
}{names: map[string]bool{}}

// routeRecorder keeps the request log; handlers write to it concurrently.
type routeRecorder struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// String returns the log so far.
func (r *routeRecorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.String()
}

func (r *routeRecorder) Write(p []byte) (int, error) {
	var line struct {
		Route string `json:"route"`
	}
	if json.Unmarshal(p, &line) == nil && line.Route != "" {
		routesHit.Lock()
		routesHit.names[line.Route] = true
		routesHit.Unlock()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}

func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && !testing.Short() && !filtered() {
		if missing := unexercisedRoutes(); len(missing) > 0 {
			os.Stderr.WriteString("FAIL: routes without a behaviour test: " + strings.Join(missing, ", ") + "\n")
			code = 1
		}
		if unused := unusedGoldens(); len(unused) > 0 {
			os.Stderr.WriteString(
				"FAIL: golden files no test compares with (delete them from fixtures/golden): " + strings.Join(unused, ", ") + "\n",
			)
			code = 1
		}
	}
	os.Exit(code)
}

// filtered reports a run of some tests or a fuzz target only (-run,
// -fuzz): it cannot tell whether every route has a test.
func filtered() bool {
	for _, name := range []string{"test.run", "test.fuzz", "test.skip"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return true
		}
	}
	return false
}

func unexercisedRoutes() []string {
	eng, err := engine.New(nil)
	if err != nil {
		return []string{err.Error()}
	}
	h, _ := server.Router(eng, withAll(server.Config{Log: zerolog.Nop()}))
	var missing []string
	h.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		if name := route.GetName(); name != "" && !routesHit.names[name] {
			missing = append(missing, name)
		}
		return nil
	})
	sort.Strings(missing)
	return missing
}

// env is one sandbox under test.
type env struct {
	t   *testing.T
	eng *kernel.Engine
	srv *httptest.Server
	log *routeRecorder
}

type options struct {
	scenario   string
	adminToken string
	// scenariosDir, allowedHosts and allowedOrigins are the server's
	// flags of the same names.
	scenariosDir   string
	allowedHosts   []string
	allowedOrigins []string
	// memoryBudget replaces the engine's memory budget (0: the default;
	// negative: none).
	memoryBudget int64
}

func newEnv(t *testing.T, o options) *env {
	t.Helper()
	if o.scenario == "" {
		o.scenario = "demo"
	}
	sc, err := scenario.Load(o.scenario)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	if o.memoryBudget != 0 {
		eng.SetMemoryBudget(max(o.memoryBudget, 0))
	}
	if _, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc}); err != nil {
		t.Fatal(err)
	}
	lib, err := scenario.OpenLibrary(o.scenariosDir)
	if err != nil {
		t.Fatal(err)
	}
	rec := &routeRecorder{}
	h := server.Handler(eng, withAll(server.Config{Log: zerolog.New(rec), AdminToken: o.adminToken, Scenarios: lib,
		AllowedHosts: o.allowedHosts, AllowedOrigins: o.allowedOrigins}))
	srv := httptest.NewServer(h)
	t.Cleanup(func() { srv.Close(); eng.Close(); lib.Close() })
	return &env{t: t, eng: eng, srv: srv, log: rec}
}

// resp is a finished response with its body read.
type resp struct {
	*http.Response
	body []byte
}

// req describes one request.
type req struct {
	method, path string
	key, le      string
	header       map[string]string
	body         any
	// host replaces the Host the request is sent with.
	host string
}

func (e *env) do(r req) *resp {
	e.t.Helper()
	if r.method == "" {
		r.method = http.MethodGet
	}
	var body io.Reader
	switch b := r.body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	case []byte:
		body = bytes.NewReader(b)
	default:
		raw, _ := json.Marshal(b)
		body = bytes.NewReader(raw)
	}
	hr, err := http.NewRequest(r.method, e.srv.URL+r.path, body)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	if r.host != "" {
		hr.Host = r.host
	}
	if r.key != "" {
		hr.Header.Set("X-API-Key", r.key)
	}
	if r.le != "" {
		hr.Header.Set("x-legal-entity", r.le)
	}
	for k, v := range r.header {
		if v == "" {
			hr.Header.Del(k)
		} else {
			hr.Header.Set(k, v)
		}
	}
	res, err := noRedirects.Do(hr)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	out := &resp{Response: res, body: b}
	conform(e.t, out)
	return out
}

// noRedirects returns redirects as they are, for tests to inspect.
var noRedirects = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// get is a GET with a key and optional legal entity.
func (e *env) get(path, key, le string) *resp {
	e.t.Helper()
	return e.do(req{path: path, key: key, le: le})
}

// status fails the test when the status differs, showing the body.
func (r *resp) status(t *testing.T, want int) *resp {
	t.Helper()
	if r.StatusCode != want {
		body := string(r.body)
		if len(body) > 600 {
			body = body[:600] + "…"
		}
		t.Fatalf("%s %s: status %d, want %d; body %s", r.Request.Method, r.Request.URL.Path, r.StatusCode, want, body)
	}
	return r
}

// json decodes the body into a generic map.
func (r *resp) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.body)
	}
	return m
}

func (r *resp) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode: %v: %s", err, r.body)
	}
}

// gen1 checks a first-generation error body and returns it: its message
// ends with "[<identifier>-<requestId>]", the request id being the
// X-Request-Id header and meta.referenceId.
func (r *resp) gen1(t *testing.T, status int, identifier string) map[string]any {
	t.Helper()
	r.status(t, status)
	m := r.json(t)
	for _, k := range []string{"message", "name", "identifier", "rawStatus", "meta"} {
		if _, ok := m[k]; !ok {
			t.Fatalf("gen1 error lacks %q: %s", k, r.body)
		}
	}
	if got := m["identifier"]; got != identifier {
		t.Fatalf("identifier = %v, want %s: %s", got, identifier, r.body)
	}
	if got := m["rawStatus"]; got != float64(status) {
		t.Fatalf("rawStatus = %v, want %d", got, status)
	}
	requestID := r.Header.Get("X-Request-Id")
	if ref, _ := m["meta"].(map[string]any)["referenceId"].(string); ref == "" || ref != requestID {
		t.Fatalf("meta.referenceId = %q, want the X-Request-Id %q", ref, requestID)
	}
	suffix := " [" + identifier + "-" + requestID + "]"
	if msg, _ := m["message"].(string); !strings.HasSuffix(msg, suffix) || len(msg) == len(suffix) {
		t.Fatalf("message %q does not end with %q after a text", msg, suffix)
	}
	return m
}

// gen2 checks a second-generation error body: exactly code, message,
// details and referenceId.
func (r *resp) gen2(t *testing.T, status int, code string) map[string]string {
	t.Helper()
	r.status(t, status)
	m := r.json(t)
	if len(m) != 4 {
		t.Fatalf("gen2 error has %d properties, want 4: %s", len(m), r.body)
	}
	var e struct {
		Code        string            `json:"code"`
		Message     string            `json:"message"`
		Details     map[string]string `json:"details"`
		ReferenceID string            `json:"referenceId"`
	}
	r.decode(t, &e)
	if e.Code != code || e.Message == "" || e.Details == nil || !strings.HasPrefix(e.ReferenceID, "ref_") {
		t.Fatalf("gen2 error = %+v, want code %s with message, details and referenceId", e, code)
	}
	return e.Details
}
