package apitest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parts"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// WithAll is a configuration as the tests serve it: with the two parts the
// binary always has (the SQL engine and the MCP server), and with every
// answer the read cache replays checked against a fresh one, so that the
// whole behaviour suite checks the cache.
func WithAll(cfg server.Config) server.Config {
	cfg = parts.All(cfg)
	cfg.VerifyReads = true
	return cfg
}

// routesHit records every route name the tests reached, read from the
// request log, so Main can fail for a route no test exercises.
var routesHit = struct {
	sync.Mutex
	names map[string]bool
}{names: map[string]bool{}}

// RouteRecorder keeps the request log; handlers write to it concurrently.
type RouteRecorder struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// String returns the log so far.
func (r *RouteRecorder) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.String()
}

// Write keeps one log line and records the route it names as reached.
func (r *RouteRecorder) Write(p []byte) (int, error) {
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

// Env is one sandbox under test.
type Env struct {
	// T is the test the sandbox serves.
	T *testing.T
	// Engine holds the sandbox's worlds, for a test that looks beneath the
	// HTTP API.
	Engine *kernel.Engine
	// Server serves the sandbox on loopback; Server.URL is its address.
	Server *httptest.Server
	// Log is the request log, one JSON line a request.
	Log *RouteRecorder
}

// Options choose the sandbox New serves.
type Options struct {
	// Scenario is an embedded scenario's name or a YAML file's path
	// (default "demo").
	Scenario string
	// AdminToken, when set, protects the control API.
	AdminToken string
	// ScenariosDir, AllowedHosts and AllowedOrigins are the server's
	// flags of the same names.
	ScenariosDir   string
	AllowedHosts   []string
	AllowedOrigins []string
	// MemoryBudget replaces the engine's memory budget (0: the default;
	// negative: none).
	MemoryBudget int64
}

// New serves a world of o.Scenario (the demo by default) on a loopback
// port for the test, as the binary would, and stops it when the test ends.
func New(t *testing.T, o Options) *Env {
	t.Helper()
	if o.Scenario == "" {
		o.Scenario = "demo"
	}
	lib, err := scenario.OpenLibrary(o.ScenariosDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lib.Close() })
	cfg := WithAll(server.Config{AdminToken: o.AdminToken, Scenarios: lib, AllowedHosts: o.AllowedHosts,
		AllowedOrigins: o.AllowedOrigins})
	return serve(t, o.Scenario, kernel.WorldSpec{}, o.MemoryBudget, cfg)
}

// serve serves a world of the named scenario, made from spec, with cfg and
// its request log kept, until the test ends. budget replaces the engine's
// memory budget (0: the default; negative: none).
func serve(t *testing.T, name string, spec kernel.WorldSpec, budget int64, cfg server.Config) *Env {
	t.Helper()
	sc, err := scenario.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	if budget != 0 {
		eng.SetMemoryBudget(max(budget, 0))
	}
	spec.Scenario = sc
	if _, err := eng.CreateWorld(spec); err != nil {
		eng.Close()
		t.Fatal(err)
	}
	rec := &RouteRecorder{}
	cfg.Log = zerolog.New(rec)
	srv := httptest.NewServer(server.Handler(eng, cfg))
	t.Cleanup(func() { srv.Close(); eng.Close() })
	return &Env{T: t, Engine: eng, Server: srv, Log: rec}
}

// Resp is a finished response with its body read.
type Resp struct {
	*http.Response
	// Raw is the body, read whole.
	Raw []byte
}

// Req describes one request.
type Req struct {
	// Method is the HTTP method (default GET); Path the path and query.
	Method, Path string
	// Key is the API key sent as X-API-Key, LE the legal entity sent as
	// x-legal-entity; either is left out when empty.
	Key, LE string
	// Header sets headers; an empty value removes the header.
	Header map[string]string
	// Body is sent as is when a string or []byte, else as its JSON.
	Body any
	// Host replaces the Host the request is sent with.
	Host string
}

// Do sends a request and reads its answer, which it checks against the
// sandbox's own OpenAPI document, the official SDKs' types and, when it is
// present, the upstream document.
func (e *Env) Do(r Req) *Resp {
	e.T.Helper()
	if r.Method == "" {
		r.Method = http.MethodGet
	}
	var body io.Reader
	switch b := r.Body.(type) {
	case nil:
	case string:
		body = strings.NewReader(b)
	case []byte:
		body = bytes.NewReader(b)
	default:
		raw, _ := json.Marshal(b)
		body = bytes.NewReader(raw)
	}
	hr, err := http.NewRequest(r.Method, e.Server.URL+r.Path, body)
	if err != nil {
		e.T.Fatal(err)
	}
	if body != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	if r.Host != "" {
		hr.Host = r.Host
	}
	if r.Key != "" {
		hr.Header.Set("X-API-Key", r.Key)
	}
	if r.LE != "" {
		hr.Header.Set("x-legal-entity", r.LE)
	}
	for k, v := range r.Header {
		if v == "" {
			hr.Header.Del(k)
		} else {
			hr.Header.Set(k, v)
		}
	}
	res, err := noRedirects.Do(hr)
	if err != nil {
		e.T.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	out := &Resp{Response: res, Raw: b}
	conform(e.T, out)
	return out
}

// noRedirects returns redirects as they are, for tests to inspect.
var noRedirects = &http.Client{
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// get is a GET with a key and optional legal entity.
func (e *Env) Get(path, key, le string) *Resp {
	e.T.Helper()
	return e.Do(Req{Path: path, Key: key, LE: le})
}

// status fails the test when the status differs, showing the body.
func (r *Resp) Status(t *testing.T, want int) *Resp {
	t.Helper()
	if r.StatusCode != want {
		body := string(r.Raw)
		if len(body) > 600 {
			body = body[:600] + "…"
		}
		t.Fatalf("%s %s: status %d, want %d; body %s", r.Request.Method, r.Request.URL.Path, r.StatusCode, want, body)
	}
	return r
}

// json decodes the body into a generic map.
func (r *Resp) JSON(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Raw, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.Raw)
	}
	return m
}

// Decode decodes the body into v.
func (r *Resp) Decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Raw, v); err != nil {
		t.Fatalf("decode: %v: %s", err, r.Raw)
	}
}

// gen1 checks a first-generation error body and returns it: its message
// ends with "[<identifier>-<requestId>]", the request id being the
// X-Request-Id header and meta.referenceId.
func (r *Resp) Gen1(t *testing.T, status int, identifier string) map[string]any {
	t.Helper()
	r.Status(t, status)
	m := r.JSON(t)
	for _, k := range []string{"message", "name", "identifier", "rawStatus", "meta"} {
		if _, ok := m[k]; !ok {
			t.Fatalf("gen1 error lacks %q: %s", k, r.Raw)
		}
	}
	if got := m["identifier"]; got != identifier {
		t.Fatalf("identifier = %v, want %s: %s", got, identifier, r.Raw)
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
func (r *Resp) Gen2(t *testing.T, status int, code string) map[string]string {
	t.Helper()
	r.Status(t, status)
	m := r.JSON(t)
	if len(m) != 4 {
		t.Fatalf("gen2 error has %d properties, want 4: %s", len(m), r.Raw)
	}
	var e struct {
		Code        string            `json:"code"`
		Message     string            `json:"message"`
		Details     map[string]string `json:"details"`
		ReferenceID string            `json:"referenceId"`
	}
	r.Decode(t, &e)
	if e.Code != code || e.Message == "" || e.Details == nil || !strings.HasPrefix(e.ReferenceID, "ref_") {
		t.Fatalf("gen2 error = %+v, want code %s with message, details and referenceId", e, code)
	}
	return e.Details
}
