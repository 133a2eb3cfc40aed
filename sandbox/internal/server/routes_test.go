package server_test

import (
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/gorilla/mux"
	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// specPath is the specification the project was created from.
var specPath = apitest.SharedPath("spec", "api-spec.md")

// operationsPath records the operations of the spec and of the upstream
// document, so that a clone without ../shared checks them too.
var operationsPath = apitest.RepoPath("fixtures", "upstream", "operations.txt")

// operationsHeader opens operationsPath.
const operationsHeader = `# The operations the sandbox routes: every METHOD /path that the specification
# (../shared/spec/api-spec.md) names and every operation of the real service's
# OpenAPI document (../shared/upstream/slash-openapi.json), each line naming its
# source. Written by
#   go test ./sandbox/internal/server -run TestEveryOperationIsRouted -update
# from those files when they are beside the repository; TestEveryOperationIsRouted
# fails when they are and this list differs, and checks this list when they are not.
`

// pendingOperations are operations of the spec or the upstream document
// not routed yet. The conformance test skips them, listing them, and fails
// as soon as one of them is routed, so the list only ever shrinks. Every
// operation is routed: it is empty.
var pendingOperations = []string{}

// operationPattern finds "GET /card", "GET, PATCH /card/{cardId}/modifier"
// and the like in the spec's prose and tables.
var operationPattern = regexp.MustCompile(
	`\b((?:GET|POST|PUT|PATCH|DELETE)(?:, (?:GET|POST|PUT|PATCH|DELETE))*) (/[A-Za-z0-9/{}._-]*)`,
)

// normalize makes templates comparable whatever their parameters are named.
func normalize(method, path string) string {
	return strings.ToUpper(method) + " " + regexp.MustCompile(`\{[^}]*\}`).
		ReplaceAllString(openapi.TemplatePath(path), "{}")
}

// specOperations lists every operation the spec names, by method and path,
// or nil when the spec is absent.
func specOperations() map[string]string {
	raw, err := os.ReadFile(specPath)
	if err != nil {
		return nil
	}
	ops := map[string]string{}
	for _, m := range operationPattern.FindAllStringSubmatch(string(raw), -1) {
		for _, method := range strings.Split(m[1], ", ") {
			ops[normalize(method, m[2])] = method + " " + m[2]
		}
	}
	return ops
}

// upstreamOperations lists every operation of the upstream document, or
// nil when the document is absent.
func upstreamOperations(t *testing.T) map[string]string {
	raw, err := os.ReadFile(apitest.UpstreamPath)
	if err != nil {
		return nil
	}
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("upstream document: %v", err)
	}
	ops := map[string]string{}
	for path, item := range doc.Paths {
		for method := range item {
			switch method {
			case "get", "post", "put", "patch", "delete":
				ops[normalize(method, path)] = strings.ToUpper(method) + " " + path
			}
		}
	}
	return ops
}

// routedOperations lists what the router serves.
func routedOperations(t *testing.T) map[string]bool {
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	routed := map[string]bool{}
	router, _ := server.Router(eng, apitest.WithAll(server.Config{Log: zerolog.Nop()}))
	router.Walk(func(r *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		tpl, err := r.GetPathTemplate()
		methods, merr := r.GetMethods()
		if err != nil || merr != nil || r.GetName() == "" {
			return nil
		}
		for _, m := range methods {
			routed[normalize(m, tpl)] = true
		}
		return nil
	})
	return routed
}

// wantedOperations are the operations of the spec and of the upstream
// document: read from ../shared when it is there, and checked against
// operationsPath (rewritten under -update), else read from operationsPath.
func wantedOperations(t *testing.T) map[string]string {
	spec, up := specOperations(), upstreamOperations(t)
	if spec == nil || up == nil {
		if apitest.SharedRequired() {
			t.Fatalf("%s or %s is absent and SANDBOX_REQUIRE_SHARED is set", specPath, apitest.UpstreamPath)
		}
		t.Logf("../shared is absent: checking the operations recorded in %s", operationsPath)
		return recordedOperations(t)
	}
	if len(up) != 105 {
		t.Errorf("the upstream document has %d operations, want 105", len(up))
	}
	var lines []string
	for _, name := range spec {
		lines = append(lines, "spec "+name)
	}
	for _, name := range up {
		lines = append(lines, "upstream "+name)
	}
	sort.Strings(lines)
	text := operationsHeader + strings.Join(lines, "\n") + "\n"
	if *apitest.Update {
		if err := os.WriteFile(operationsPath, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	} else if raw, err := os.ReadFile(operationsPath); err != nil || string(raw) != text {
		t.Errorf("%s differs from ../shared: rewrite it with "+
			"go test ./sandbox/internal/server -run TestEveryOperationIsRouted -update", operationsPath)
	}
	for k, v := range up {
		spec[k] = v
	}
	return spec
}

// recordedOperations reads operationsPath.
func recordedOperations(t *testing.T) map[string]string {
	raw, err := os.ReadFile(operationsPath)
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]string{}
	for _, line := range strings.Split(string(raw), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		_, name, _ := strings.Cut(line, " ")
		method, path, ok := strings.Cut(name, " ")
		if !ok {
			t.Fatalf("%s: %q is not a source, a method and a path", operationsPath, line)
		}
		ops[normalize(method, path)] = name
	}
	if len(ops) < 100 {
		t.Fatalf("%s holds %d operations", operationsPath, len(ops))
	}
	return ops
}

func TestEveryOperationIsRouted(t *testing.T) {
	routed := routedOperations(t)
	want := wantedOperations(t)
	pending := map[string]bool{}
	for _, p := range pendingOperations {
		method, path, _ := strings.Cut(p, " ")
		pending[normalize(method, path)] = true
	}
	var missing, skipped, stale []string
	for key, name := range want {
		switch {
		case routed[key] && pending[key]:
			stale = append(stale, name)
		case routed[key]:
		case pending[key]:
			skipped = append(skipped, name)
		default:
			missing = append(missing, name)
		}
	}
	for _, p := range pendingOperations {
		method, path, _ := strings.Cut(p, " ")
		if _, ok := want[normalize(method, path)]; !ok {
			stale = append(stale, p+" (not an operation of the spec or upstream)")
		}
	}
	sort.Strings(missing)
	sort.Strings(skipped)
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("remove from pendingOperations, now routed or unknown:\n  %s", strings.Join(stale, "\n  "))
	}
	if len(missing) > 0 {
		t.Errorf("%d operations are not routed:\n  %s", len(missing), strings.Join(missing, "\n  "))
	}
	if len(skipped) > 0 && !t.Failed() {
		t.Skipf("%d of %d operations routed; pending elsewhere:\n  %s", len(want)-len(skipped), len(want),
			strings.Join(skipped, "\n  "))
	}
}

// TestLiteralPathsAnswer405ToOtherMethods walks every route whose path is
// all literal and sends it each method it does not take: the answer is
// 405 with the methods it does take, never the answer of a route whose
// variable would read the literal word as an id.
func TestLiteralPathsAnswer405ToOtherMethods(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	r, _ := server.Router(e.Engine, apitest.WithAll(server.Config{Log: zerolog.Nop()}))
	methods := map[string][]string{}
	r.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		path, err := route.GetPathTemplate()
		ms, merr := route.GetMethods()
		if err == nil && merr == nil && route.GetName() != "" && !strings.Contains(path, "{") {
			methods[path] = append(methods[path], ms...)
		}
		return nil
	})
	if len(methods) < 50 {
		t.Fatalf("only %d literal paths", len(methods))
	}
	for path, allowed := range methods {
		sort.Strings(allowed)
		for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			if slices.Contains(allowed, m) {
				continue
			}
			res := e.Do(apitest.Req{Method: m, Path: path, Key: apitest.AcmeKey})
			got := strings.Split(res.Header.Get("Allow"), ", ")
			sort.Strings(got)
			if res.StatusCode != http.StatusMethodNotAllowed || !slices.Equal(got, allowed) {
				t.Errorf("%s %s = %d, Allow %q; want 405, Allow %q", m, path, res.StatusCode, got, strings.Join(allowed, ", "))
			}
		}
	}
}
