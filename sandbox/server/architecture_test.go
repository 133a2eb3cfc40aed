package server_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the repository's module path.
const module = "github.com/slash-sandbox/slash-sandbox"

// layers says which of the module's packages each package may import,
// the one direction docs/architecture.md draws: the command over the
// assembly, the assembly over the HTTP packages, those over the engine,
// the engine over its store, clock and scenario format. A package that is
// not listed fails the test, so a new package must say where it stands.
var layers = map[string][]string{
	"cmd/slash-sandbox": {"sandbox/client", "sandbox/clock", "sandbox/scenario", "sandbox/server", "sandbox/store", "scenarios"},
	"bench/perf":        {},

	"sandbox/sandboxtest": {"sandbox/client", "sandbox/server"},
	"sandbox/client":      {},

	"sandbox/server": {"sandbox", "sandbox/api", "sandbox/clock", "sandbox/control", "sandbox/openapi", "sandbox/scenario",
		"sandbox/store", "sandbox/traffic", "sandbox/ui", "sandbox/web", "sandbox/webhooks"},
	// control configures what api, traffic and webhooks serve; api,
	// traffic and ui never reach into control.
	"sandbox/control": {"sandbox", "sandbox/api", "sandbox/clock", "sandbox/openapi", "sandbox/scenario",
		"sandbox/traffic", "sandbox/web", "sandbox/webhooks"},
	"sandbox/api":      {"fixtures", "sandbox", "sandbox/analytics", "sandbox/openapi", "sandbox/web"},
	"sandbox/traffic":  {"sandbox", "sandbox/scenario", "sandbox/web"},
	"sandbox/ui":       {"sandbox", "sandbox/openapi", "sandbox/web"},
	"sandbox/webhooks": {"fixtures", "sandbox"},
	"sandbox/web":      {"sandbox", "sandbox/internal/jsonshape"},
	"sandbox/openapi":  {"sandbox/internal/jsonshape"},
	// validate: the tests\' response checks
	"sandbox/openapi/validate": {},

	"sandbox/analytics": {"sandbox"},
	"sandbox": {"fixtures", "sandbox/clock", "sandbox/internal/jsonshape", "sandbox/scenario",
		"sandbox/store"},

	"sandbox/scenario":           {"fixtures", "scenarios"},
	"sandbox/store":              {},
	"sandbox/clock":              {},
	"sandbox/internal/jsonshape": {},
	"fixtures":                   {},
	"scenarios":                  {},
}

// noHTTP are the packages that hold the engine's state and rules: they
// speak in domain terms and never import net/http.
var noHTTP = []string{"sandbox", "sandbox/analytics", "sandbox/scenario", "sandbox/store", "sandbox/clock"}

// TestImportsFlowOneWay fails when a package imports one of the module's
// packages its layer does not allow, when the engine imports net/http, or
// when a package is not placed in a layer.
func TestImportsFlowOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		allowed, ok := layers[pkg]
		if !ok {
			t.Errorf("%s is in no layer: add it to layers and to docs/architecture.md", pkg)
			continue
		}
		seen++
		for _, imp := range fields[1:] {
			if imp == "net/http" && slices.Contains(noHTTP, pkg) {
				t.Errorf("%s imports net/http: the engine speaks in domain terms", pkg)
			}
			rel, inModule := strings.CutPrefix(imp, module+"/")
			if !inModule {
				continue
			}
			if !slices.Contains(allowed, rel) {
				t.Errorf("%s imports %s, which its layer does not allow (allowed: %s)", pkg, rel, strings.Join(allowed, ", "))
			}
		}
	}
	if seen == 0 {
		t.Fatalf("go list named none of %s's packages", module)
	}
}

// explicitlyWired are the packages above the engine that the server
// assembles. Their wiring is explicit in the server: none fills a
// package-level registry from an init function.
var explicitlyWired = []string{"sandbox/server", "sandbox/control", "sandbox/api", "sandbox/ui", "sandbox/openapi",
	"sandbox/traffic", "sandbox/web", "sandbox/webhooks"}

// TestNoInitFunctions fails when a non-test file of an explicitly wired
// package declares func init.
func TestNoInitFunctions(t *testing.T) {
	args := []string{"list", "-f", "{{.Dir}} {{join .GoFiles \" \"}}"}
	for _, pkg := range explicitlyWired {
		args = append(args, module+"/"+pkg)
	}
	out, err := exec.Command("go", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	fset := token.NewFileSet()
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		for _, name := range fields[1:] {
			path := filepath.Join(fields[0], name)
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range f.Decls {
				if fn, ok := decl.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "init" {
					t.Errorf("%s declares func init: wire it where the server assembles the router", fset.Position(fn.Pos()))
				}
			}
		}
	}
}
