package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/mux"
	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi/validate"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// UpstreamPath is the real service's OpenAPI document, beside the repository.
var UpstreamPath = SharedPath("upstream", "slash-openapi.json")

// SharedPath is a path in ../shared, the sources beside the repository the
// project is built from: the specification and the real service's OpenAPI
// document. The project does not copy them; tests read them when they are
// there.
func SharedPath(parts ...string) string {
	return filepath.Join(append([]string{root, "..", "shared"}, parts...)...)
}

// SharedRequired reports whether a missing ../shared is a failure rather
// than a check left out: CI sets SANDBOX_REQUIRE_SHARED=1, where the
// sources are always beside the repository.
func SharedRequired() bool { return os.Getenv("SANDBOX_REQUIRE_SHARED") != "" }

// sdkShapesPath holds the response types the official SDKs declare for
// each operation they call (written by bench/sdk/shapes.py).
var sdkShapesPath = RepoPath("fixtures", "sdk", "response-shapes.json")

// Documents are what every response the harness receives is checked
// against: the sandbox's own OpenAPI document (strictly: every operation,
// status and media type must be declared), the official SDKs' response
// types and, when it is present, the upstream document (for the operations
// and statuses it declares). Each is loaded once; a schema is compiled the
// first time a response needs it, and kept.
var Documents = sync.OnceValues(func() (*Conformance, error) {
	eng, err := engine.New(nil)
	if err != nil {
		return nil, err
	}
	router, docs := server.Router(eng, WithAll(server.Config{Log: zerolog.Nop()}))
	raw, err := json.Marshal(openapi.Build(router, docs, openapi.Info{Title: "slash-sandbox", Version: "test"}))
	if err != nil {
		return nil, err
	}
	c := &Conformance{Router: router, Docs: docs}
	if c.OwnDoc, err = decodeDocument(raw); err != nil {
		return nil, err
	}
	if c.own, err = validate.Load(raw); err != nil {
		return nil, err
	}
	shapes, err := os.ReadFile(sdkShapesPath)
	if err != nil {
		return nil, err
	}
	if c.sdk, err = validate.LoadShapes(shapes); err != nil {
		return nil, fmt.Errorf("%s: %w", sdkShapesPath, err)
	}
	raw, err = os.ReadFile(UpstreamPath)
	switch {
	case err == nil:
		if c.upstream, err = validate.Load(raw); err != nil {
			return nil, fmt.Errorf("%s: %w", UpstreamPath, err)
		}
	case SharedRequired():
		return nil, fmt.Errorf("the upstream document is required (SANDBOX_REQUIRE_SHARED): %w", err)
	}
	return c, nil
})

// Conformance is what answers are checked against (Documents).
type Conformance struct {
	// Router is the sandbox's whole router, and Docs the descriptions its
	// OpenAPI document is built from.
	Router *mux.Router
	Docs   *openapi.Registry
	// OwnDoc is the sandbox's own OpenAPI document, decoded.
	OwnDoc   map[string]any
	own      *validate.Document
	upstream *validate.Document
	// sdk holds the official SDKs' response types: a 2XX JSON response per
	// "METHOD /path/{param}" they call.
	sdk *validate.Document
}

// sdkProblems checks a successful response of an operation the official
// SDKs call against the type they parse it into: a field they require
// missing, a JSON type or an enum value they do not know breaks every SDK
// user, whatever the OpenAPI documents say.
func (c *Conformance) sdkProblems(req *http.Request, status int, ct string, body []byte) []string {
	if status < 200 || status > 299 || strings.HasPrefix(req.URL.Path, "/_sandbox/") {
		return nil
	}
	var match mux.RouteMatch
	if !c.Router.Match(req, &match) || match.MatchErr != nil {
		return nil
	}
	tpl, err := match.Route.GetPathTemplate()
	if err != nil {
		return nil
	}
	return c.sdk.CheckOperation(req.Method, openapi.TemplatePath(tpl), status, ct, body, false)
}

// decodeDocument decodes a document for the tests that walk it, numbers
// kept exact.
func decodeDocument(raw []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string]any
	err := dec.Decode(&doc)
	return doc, err
}

var upstreamNotice sync.Once

// conform fails the test when a response does not validate.
// conformMu runs one conformance check at a time: the OpenAPI validator
// renders a schema the first time it checks against it, and two checks
// rendering the same schema at once race.
var conformMu sync.Mutex

func conform(t *testing.T, r *Resp) {
	t.Helper()
	conformMu.Lock()
	defer conformMu.Unlock()
	c, err := Documents()
	if err != nil {
		t.Fatalf("loading the OpenAPI documents: %v", err)
	}
	req := r.Request
	if req.Method == http.MethodOptions {
		return
	}
	ct := r.Header.Get("Content-Type")
	for _, p := range c.ownProblems(req, r.StatusCode, ct, r.Raw) {
		t.Errorf("response does not match the sandbox's OpenAPI document: %s", p)
	}
	for _, p := range c.sdkProblems(req, r.StatusCode, ct, r.Raw) {
		t.Errorf("response does not match the official SDKs' types: %s", p)
	}
	if c.upstream == nil {
		upstreamNotice.Do(
			func() { t.Logf("%s is absent: responses are not checked against the upstream document", UpstreamPath) },
		)
		return
	}
	if strings.HasPrefix(req.URL.Path, "/_sandbox/") || knownDeviation(req, r) || !c.sameOperation(req) {
		return
	}
	for _, p := range c.upstream.CheckResponse(req.Method, req.URL.Path, r.StatusCode, ct, r.Raw, false) {
		if !specOverrides(req, p) {
			t.Errorf("response does not match the upstream OpenAPI document: %s", p)
		}
	}
}

// sameOperation reports whether the upstream operation a request matches
// is the one the sandbox served: GET /contact/destination (from the spec)
// must not be checked as upstream's GET /contact/{contactId}.
func (c *Conformance) sameOperation(req *http.Request) bool {
	var match mux.RouteMatch
	if !c.Router.Match(req, &match) || match.MatchErr != nil {
		return true
	}
	ours, err := match.Route.GetPathTemplate()
	theirs, ok := c.upstream.Operation(req.Method, req.URL.Path)
	return err != nil || !ok || ours == theirs
}

// specOverrides lists where a source that wins over the upstream document
// asks for what upstream's schema forbids: the spec makes a card group's
// deprecated virtualAccountId null when there is no legacy association,
// and the official SDKs know an FDX statement's status only as pending or
// available (upstream: AVAILABLE, PROCESSING, FAILED).
func specOverrides(req *http.Request, problem string) bool {
	switch {
	case strings.HasPrefix(req.URL.Path, "/card-group"):
		return strings.Contains(problem, "/virtualAccountId = null: got null, want string")
	case strings.HasPrefix(req.URL.Path, "/fdx/") && strings.HasSuffix(req.URL.Path, "/statements"):
		return strings.Contains(problem, `/status = "available": value must be one of`)
	}
	return false
}

// ownProblems checks a response against the operation the router picks;
// a request no route serves must answer an error in its generation's
// envelope.
func (c *Conformance) ownProblems(req *http.Request, status int, ct string, body []byte) []string {
	var match mux.RouteMatch
	if c.Router.Match(req, &match) && match.MatchErr == nil && match.Route.GetName() != "" {
		if match.Route.GetName() == "sandbox.world_scoped" {
			inner := req.Clone(req.Context())
			inner.URL.Path = "/_sandbox/" + match.Vars["rest"]
			return c.ownProblems(inner, status, ct, body)
		}
		method, tpl, ok := c.own.OperationByID(match.Route.GetName())
		if !ok {
			return []string{"route " + match.Route.GetName() + " is not in the document"}
		}
		return c.own.CheckOperation(method, tpl, status, ct, body, true)
	}
	if status == http.StatusTooManyRequests {
		return nil
	}
	if status == http.StatusFound && len(body) == 0 &&
		slices.Contains([]string{"/", "/_sandbox", "/_sandbox/", "/_sandbox/ui/"}, req.URL.Path) {
		return nil // the redirect to the dashboard
	}
	name := "Error"
	if web.GenOf(req.URL.Path) == web.Gen2 {
		name = "ErrorV2"
	}
	if !json.Valid(body) || status < 400 {
		return []string{
			req.Method + " " + req.URL.Path + ": unrouted request answered " + http.StatusText(status) + " " + string(body),
		}
	}
	return c.own.CheckSchema(name, body)
}

// knownDeviation reports a response where the sandbox knowingly departs
// from the upstream document (docs/development.md, "OpenAPI and
// conformance"): POST /crypto/offramp declares its 400 as the not-enrolled
// body only, and the sandbox answers other bad input there in the
// first-generation error envelope, as every other operation does; and a
// Deferred write answers 403 with the body the published docs show
// ({"error": …}), where upstream declares every 403 as the error envelope.
func knownDeviation(req *http.Request, r *Resp) bool {
	if r.StatusCode == http.StatusForbidden && r.Header.Get("x-deferred-action-id") != "" {
		return true
	}
	if req.Method == http.MethodPost && req.URL.Path == "/crypto/offramp" && r.StatusCode == http.StatusBadRequest {
		var e web.Gen1Error
		return json.Unmarshal(r.Raw, &e) == nil && e.Identifier != ""
	}
	return false
}
