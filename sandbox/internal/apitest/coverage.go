package apitest

import (
	"flag"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/gorilla/mux"
	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// Update rewrites the generated files the tests compare with instead of
// comparing: docs/coverage.md and the golden files (go test … -update).
var Update = flag.Bool(
	"update",
	false,
	"rewrite docs/coverage.md and the golden files of fixtures/golden from the"+
		" router and the responses",
)

// CoverageRoute is one row of docs/coverage.md.
type CoverageRoute struct {
	Methods    []string // empty: every method
	Path, Name string
	Generation int // 0 first, 1 second, 2 control
	Extension  bool
	Summary    string
}

// anyMethod is what Build documents for a route that matches every method.
var anyMethod = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

var methodOrder = map[string]int{
	http.MethodGet:    0,
	http.MethodPost:   1,
	http.MethodPut:    2,
	http.MethodPatch:  3,
	http.MethodDelete: 4,
}

// CoverageRoutes lists every named route of the assembled router with what
// the OpenAPI document says of it, ordered by generation, path and method.
func CoverageRoutes(t *testing.T) []CoverageRoute {
	t.Helper()
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	router, docs := server.Router(eng, WithAll(server.Config{Log: zerolog.Nop()}))
	paths := openapi.Build(router, docs, openapi.Info{Title: "slash-sandbox",
		Version: "coverage"})["paths"].(map[string]map[string]any)
	var out []CoverageRoute
	err = router.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		name := route.GetName()
		tpl, err := route.GetPathTemplate()
		if name == "" || err != nil {
			return nil
		}
		methods, merr := route.GetMethods()
		documented := methods
		if merr != nil {
			methods, documented = nil, anyMethod
		}
		path := openapi.TemplatePath(tpl)
		row := CoverageRoute{Methods: methods, Path: path, Name: name}
		switch {
		case strings.HasPrefix(path, "/_sandbox"):
			row.Generation = 2
		case path == "/v2" || strings.HasPrefix(path, "/v2/"):
			row.Generation = 1
		}
		for i, m := range documented {
			op, ok := paths[path][strings.ToLower(m)].(map[string]any)
			if !ok || op["operationId"] != name {
				return fmt.Errorf("the OpenAPI document has no operation %s for %s %s", name, m, path)
			}
			if i == 0 {
				row.Summary, _ = op["summary"].(string)
				row.Extension = op["x-sandbox-extension"] == true
			}
		}
		out = append(out, row)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Generation != b.Generation {
			return a.Generation < b.Generation
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if ma, mb := firstMethod(a), firstMethod(b); ma != mb {
			return ma < mb
		}
		return a.Name < b.Name
	})
	return out
}

func firstMethod(r CoverageRoute) int {
	if len(r.Methods) == 0 {
		return len(methodOrder)
	}
	return methodOrder[r.Methods[0]]
}
