package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
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

func TestOpenAPIDocument(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	r := e.Get("/openapi.json", "", "").Status(t, 200)
	doc := r.JSON(t)
	if got := doc["openapi"]; got != "3.1.0" {
		t.Fatalf("openapi = %v", got)
	}
	paths := doc["paths"].(map[string]any)
	t.Run("every route is in it", func(t *testing.T) {
		ops := map[string]bool{}
		var undescribed []string
		for _, item := range paths {
			for _, op := range item.(map[string]any) {
				m := op.(map[string]any)
				ops[m["operationId"].(string)] = true
				if m["x-undescribed"] == true {
					undescribed = append(undescribed, m["operationId"].(string))
				}
				if m["summary"] == "" || m["responses"] == nil || m["security"] == nil {
					t.Errorf("%v lacks a summary, responses or security", m["operationId"])
				}
			}
		}
		routes, docs := routesOf(t)
		for name := range routes {
			if !ops[name] {
				t.Errorf("route %s is not in the document", name)
			}
		}
		for _, name := range docs.DescribedRoutes() {
			if !routes[name] {
				t.Errorf("%s is described but no route has that name", name)
			}
		}
		sort.Strings(undescribed)
		if len(undescribed) > 0 {
			t.Errorf("operations without a description (describe them with Registry.Describe next to their route): %s",
				strings.Join(undescribed, ", "))
		}
	})
	t.Run("every reference resolves", func(t *testing.T) {
		schemas := doc["components"].(map[string]any)["schemas"].(map[string]any)
		var walk func(v any)
		walk = func(v any) {
			switch x := v.(type) {
			case map[string]any:
				if ref, ok := x["$ref"].(string); ok {
					if schemas[strings.TrimPrefix(ref, "#/components/schemas/")] == nil {
						t.Errorf("$ref %s does not resolve", ref)
					}
				}
				if _, ok := x["$go"]; ok {
					t.Error("a $go placeholder leaked into the document")
				}
				for _, c := range x {
					walk(c)
				}
			case []any:
				for _, c := range x {
					walk(c)
				}
			}
		}
		walk(doc)
	})
	t.Run("extensions are marked", func(t *testing.T) {
		for path, op := range map[string]string{"/oauth2/authorize": "get", "/_sandbox/health": "get",
			"/openapi.json": "get"} {
			if paths[path].(map[string]any)[op].(map[string]any)["x-sandbox-extension"] != true {
				t.Errorf("%s %s is not marked x-sandbox-extension", op, path)
			}
		}
		if paths["/account"].(map[string]any)["get"].(map[string]any)["x-sandbox-extension"] != nil {
			t.Error("GET /account is marked as an extension")
		}
	})
	t.Run("schemas come from the views", func(t *testing.T) {
		var acc struct {
			Required   []string                  `json:"required"`
			Properties map[string]map[string]any `json:"properties"`
		}
		raw, _ := json.Marshal(doc["components"].(map[string]any)["schemas"].(map[string]any)["Account"])
		json.Unmarshal(raw, &acc)
		if len(acc.Required) != 8 || acc.Properties["status"]["enum"] == nil {
			t.Fatalf("Account schema = %s", raw)
		}
	})
}

// routesOf lists the names of every routed operation, with the registry
// that describes them.
func routesOf(t *testing.T) (map[string]bool, *openapi.Registry) {
	c, err := apitest.Documents()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	c.Router.Walk(func(r *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		if n := r.GetName(); n != "" {
			names[n] = true
		}
		return nil
	})
	return names, c.Docs
}

// goldenDocumentPath is the OpenAPI document GET /openapi.json serves,
// indented; go test -update rewrites it.
var goldenDocumentPath = apitest.RepoPath("fixtures", "golden", "api", "openapi.json")

// TestOpenAPIGolden fails when the served document changes by a byte:
// the descriptions and components it is built from must not drift.
func TestOpenAPIGolden(t *testing.T) {
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	rec := httptest.NewRecorder()
	server.Handler(eng, apitest.WithAll(server.Config{Log: zerolog.Nop()})).
		ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openapi.json", nil))
	if got, want := rec.Code, http.StatusOK; got != want {
		t.Fatalf("GET /openapi.json = %d, want %d: %s", got, want, rec.Body)
	}
	var got bytes.Buffer
	if err := json.Indent(&got, rec.Body.Bytes(), "", "  "); err != nil {
		t.Fatal(err)
	}
	got.WriteByte('\n')
	apitest.GoldenCompared("openapi")
	if *apitest.Update {
		if err := os.MkdirAll(filepath.Dir(goldenDocumentPath), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(goldenDocumentPath, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(goldenDocumentPath)
	if err != nil {
		t.Fatalf("%v (go test -run OpenAPIGolden -update writes it)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("GET /openapi.json differs from %s (go test -run OpenAPIGolden -update rewrites it):\n%s",
			goldenDocumentPath, firstDifference(got.Bytes(), want))
	}
}

// firstDifference shows the lines around the first line where got and want
// differ.
func firstDifference(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		if i < len(g) && i < len(w) && g[i] == w[i] {
			continue
		}
		line := func(lines []string) string {
			if i < len(lines) {
				return lines[i]
			}
			return "(end of document)"
		}
		return fmt.Sprintf("line %d:\n got: %s\nwant: %s", i+1, line(g), line(w))
	}
	return ""
}
