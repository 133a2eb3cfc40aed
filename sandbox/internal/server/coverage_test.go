package server_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// coveragePath is the generated route coverage page.
var coveragePath = filepath.Join("..", "..", "..", "docs", "coverage.md")

var generations = []string{"first", "second", "control"}

// coverageDoc renders docs/coverage.md.
func coverageDoc(routes []apitest.CoverageRoute) []byte {
	var b bytes.Buffer
	counts := make([]int, len(generations))
	extensions := 0
	for _, r := range routes {
		counts[r.Generation]++
		if r.Extension {
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
		if len(r.Methods) > 0 {
			method = strings.Join(r.Methods, ", ")
		}
		ext := "no"
		if r.Extension {
			ext = "yes"
		}
		fmt.Fprintf(&b, "| %s | `%s` | `%s` | %s | %s | %s |\n", method, r.Path, r.Name, generations[r.Generation], ext,
			strings.ReplaceAll(r.Summary, "|", `\|`))
	}
	return b.Bytes()
}

// TestCoverageDoc keeps docs/coverage.md equal to what the router serves.
func TestCoverageDoc(t *testing.T) {
	want := coverageDoc(apitest.CoverageRoutes(t))
	if *apitest.Update {
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
