package server_test

import (
	"bytes"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/gorilla/mux"
	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

var update = flag.Bool(
	"update",
	false,
	"rewrite docs/coverage.md, fixtures/golden/openapi.json and the other golden files of fixtures/golden from the"+
		" router and the responses",
)

// coveragePath is the generated route coverage page.
var coveragePath = filepath.Join("..", "..", "..", "docs", "coverage.md")

// coverageRoute is one row of docs/coverage.md.
type coverageRoute struct {
	methods    []string // empty: every method
	path, name string
	generation int // 0 first, 1 second, 2 control
	extension  bool
	summary    string
}

var generations = []string{"first", "second", "control"}

// anyMethod is what Build documents for a route that matches every method.
var anyMethod = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

var methodOrder = map[string]int{
	http.MethodGet:    0,
	http.MethodPost:   1,
	http.MethodPut:    2,
	http.MethodPatch:  3,
	http.MethodDelete: 4,
}

// coverageRoutes lists every named route of the assembled router with what
// the OpenAPI document says of it, ordered by generation, path and method.
func coverageRoutes(t *testing.T) []coverageRoute {
	t.Helper()
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	router, docs := server.Router(eng, withAll(server.Config{Log: zerolog.Nop()}))
	paths := openapi.Build(router, docs, openapi.Info{Title: "slash-sandbox",
		Version: "coverage"})["paths"].(map[string]map[string]any)
	var out []coverageRoute
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
		row := coverageRoute{methods: methods, path: path, name: name}
		switch {
		case strings.HasPrefix(path, "/_sandbox"):
			row.generation = 2
		case path == "/v2" || strings.HasPrefix(path, "/v2/"):
			row.generation = 1
		}
		for i, m := range documented {
			op, ok := paths[path][strings.ToLower(m)].(map[string]any)
			if !ok || op["operationId"] != name {
				return fmt.Errorf("the OpenAPI document has no operation %s for %s %s", name, m, path)
			}
			if i == 0 {
				row.summary, _ = op["summary"].(string)
				row.extension = op["x-sandbox-extension"] == true
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
		if a.generation != b.generation {
			return a.generation < b.generation
		}
		if a.path != b.path {
			return a.path < b.path
		}
		if ma, mb := firstMethod(a), firstMethod(b); ma != mb {
			return ma < mb
		}
		return a.name < b.name
	})
	return out
}

func firstMethod(r coverageRoute) int {
	if len(r.methods) == 0 {
		return len(methodOrder)
	}
	return methodOrder[r.methods[0]]
}

// coverageDoc renders docs/coverage.md.
func coverageDoc(routes []coverageRoute) []byte {
	var b bytes.Buffer
	counts := make([]int, len(generations))
	extensions := 0
	for _, r := range routes {
		counts[r.generation]++
		if r.extension {
			extensions++
		}
	}
	b.WriteString("# Route coverage\n\n")
	b.WriteString(
		"<!-- Generated from the router by `go test ./sandbox/internal/server -run TestCoverageDoc -update`; " +
			"do not edit. -->\n\n",
	)
	fmt.Fprintf(&b,
		"Every named route the sandbox serves: %d in all, %d of the first generation, %d of the second and %d of the\n",
		len(routes), counts[0], counts[1], counts[2])
	fmt.Fprintf(
		&b,
		"[control API](control-api.md); %d are sandbox extensions (`x-sandbox-extension` in `GET /openapi.json`:\n",
		extensions,
	)
	b.WriteString("operations the real service does not have). The summary is the route's OpenAPI description; the\n")
	b.WriteString("route name is what the request log, the request journal and fault injection call it.\n\n")
	b.WriteString("| method | path | route | generation | extension | summary |\n")
	b.WriteString("|---|---|---|---|---|---|\n")
	for _, r := range routes {
		method := "any"
		if len(r.methods) > 0 {
			method = strings.Join(r.methods, ", ")
		}
		ext := "no"
		if r.extension {
			ext = "yes"
		}
		fmt.Fprintf(&b, "| %s | `%s` | `%s` | %s | %s | %s |\n", method, r.path, r.name, generations[r.generation], ext,
			strings.ReplaceAll(r.summary, "|", `\|`))
	}
	return b.Bytes()
}

// TestCoverageDoc keeps docs/coverage.md equal to what the router serves.
func TestCoverageDoc(t *testing.T) {
	want := coverageDoc(coverageRoutes(t))
	if *update {
		if err := os.WriteFile(coveragePath, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(coveragePath)
	if err != nil {
		t.Fatalf("%v: generate it with go test ./sandbox/internal/server -run TestCoverageDoc -update", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		line := 0
		for line < len(gl) && line < len(wl) && gl[line] == wl[line] {
			line++
		}
		var have, should string
		if line < len(gl) {
			have = gl[line]
		}
		if line < len(wl) {
			should = wl[line]
		}
		t.Fatalf(
			"docs/coverage.md is not what the router serves (line %d is\n\t%s\nand should be\n\t%s)\nregenerate it with go"+
				" test ./sandbox/internal/server -run TestCoverageDoc -update",
			line+1,
			have,
			should,
		)
	}
}
