package server_test

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// module is the repository's module path.
const module = "github.com/slash-sandbox/slash-sandbox"

// layers puts every package of the module on a floor: a package imports
// only packages on lower floors, so imports flow one way and siblings
// (two domains on one floor) never import each other. docs/architecture.md
// draws the same building. A package not listed fails the test, so a new
// package must say where it stands.
var layers = [][]string{
	// 0: leaves
	{"fixtures", "scenarios", "sandbox/internal/store", "sandbox/internal/clock", "sandbox/internal/jsonshape"},
	{"sandbox/internal/scenario"},
	// the kernel: worlds, the unit of work, records, ids, errors, events
	{"sandbox/internal/kernel"},
	// the domains, lowest first
	{
		"sandbox/internal/parties",
		"sandbox/internal/agentrequests",
		"sandbox/internal/devapps",
		"sandbox/internal/deliveries",
	},
	{"sandbox/internal/ledger"},
	{"sandbox/internal/cards", "sandbox/internal/inforequests", "sandbox/internal/invoices"},
	{"sandbox/internal/expenses"},
	{"sandbox/internal/seed", "sandbox/internal/analytics", "sandbox/internal/checker"},
	// the engine: every domain wired into the kernel
	{"sandbox/internal/engine"},
	// the HTTP side, and the worlds domain tests make
	{
		"sandbox/internal/enginetest",
		"sandbox/internal/web",
		"sandbox/internal/openapi",
		"sandbox/internal/openapi/validate",
		"sandbox/internal/drift",
	},
	{
		"sandbox/internal/api",
		"sandbox/internal/traffic",
		"sandbox/internal/ui",
		"sandbox/internal/webhooks",
		"sandbox/internal/mcp",
		"sandbox/internal/analytics/sqlengine",
	},
	{"sandbox/internal/control"},
	// the assembly, and the typed client of its control API
	{"sandbox/internal/server", "sandbox/client"},
	// the parts heavy to compile, which the binary adds and a test may; the
	// recorder of an account of the API, which reads it over HTTP
	{"sandbox/internal/parts", "sandbox/internal/record"},
	// the command line, the in-process sandbox a Go test starts, and the
	// behaviour tests' HTTP harness
	{"sandbox/internal/cli", "sandbox/sandboxtest", "sandbox/internal/apitest"},
	// the public entry point, the opt-in parts of sandboxtest, the benchmarks
	{"sandbox", "sandbox/sandboxtest/sqlite", "sandbox/sandboxtest/mcp", "bench/perf", "sandbox/internal/docstest"},
	{"cmd/slash-sandbox"},
}

// engineOnly may import the engine's assembly (package engine): the HTTP
// packages talk to the domains, and only the server (and enginetest and
// apitest, for the tests) builds an engine.
var engineOnly = []string{
	"sandbox/internal/enginetest",
	"sandbox/internal/server",
	"sandbox/internal/apitest",
}

// noHTTP are the packages that hold the engine's state and rules: they speak
// in domain terms and never import net/http.
func noHTTP(floor int) bool { return floor <= 8 }

// TestImportsFlowOneWay fails when a package imports one of the module's
// packages on its own floor or above, when a package other than the server
// imports the engine's assembly, when the engine imports net/http, or when
// a package is on no floor.
func TestImportsFlowOneWay(t *testing.T) {
	floor := map[string]int{}
	for i, ps := range layers {
		for _, p := range ps {
			floor[p] = i
		}
	}
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		if pkg == "" {
			pkg = "."
		}
		f, ok := floor[pkg]
		if !ok {
			t.Errorf("%s is on no floor: add it to layers and to docs/architecture.md", pkg)
			continue
		}
		seen++
		for _, imp := range fields[1:] {
			if imp == "net/http" && noHTTP(f) {
				t.Errorf("%s imports net/http: the engine speaks in domain terms", pkg)
			}
			rel, inModule := strings.CutPrefix(imp, module+"/")
			if !inModule {
				continue
			}
			switch g, known := floor[rel]; {
			case !known:
				t.Errorf("%s imports %s, which is on no floor", pkg, rel)
			case g >= f:
				t.Errorf("%s (floor %d) imports %s (floor %d): imports go down only", pkg, f, rel, g)
			case rel == "sandbox/internal/engine" && !slices.Contains(engineOnly, pkg):
				t.Errorf("%s imports the engine's assembly; only %s may", pkg, strings.Join(engineOnly, ", "))
			}
		}
	}
	if seen == 0 {
		t.Fatalf("go list named none of %s's packages", module)
	}
}

// testedOtherwise names the packages of three or more files that have no
// test file beside them, each with its reason.
var testedOtherwise = map[string]string{
	"bench/perf": "the benchmark driver: a program that measures the sandbox, run by the bench/*.sh scripts",
}

// minFilesForTests is the number of non-test Go files from which a package
// must have a test file in its folder.
const minFilesForTests = 3

// TestEveryPackageHasTestsBesideIt fails for each package of the module with
// minFilesForTests or more non-test Go files and no test file in its folder:
// a package's tests live beside it, not in a package above that imports it.
func TestEveryPackageHasTestsBesideIt(t *testing.T) {
	out, err := exec.Command("go", "list", "-f",
		"{{.ImportPath}} {{len .GoFiles}} {{len .TestGoFiles}} {{len .XTestGoFiles}}", module+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	var untested []string
	skipped := map[string]bool{}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var path string
		var files, tests, xtests int
		if _, err := fmt.Sscan(line, &path, &files, &tests, &xtests); err != nil {
			t.Fatalf("go list line %q: %v", line, err)
		}
		seen++
		pkg := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
		_, otherwise := testedOtherwise[pkg]
		switch {
		case files < minFilesForTests || tests+xtests > 0:
		case otherwise:
			skipped[pkg] = true
		default:
			untested = append(untested, fmt.Sprintf("%s (%d files)", pkg, files))
		}
	}
	if seen == 0 {
		t.Fatalf("go list named none of %s's packages", module)
	}
	if len(untested) > 0 {
		t.Errorf("%d packages of %d or more files have no test file beside them:\n%s",
			len(untested), minFilesForTests, strings.Join(untested, "\n"))
	}
	for _, pkg := range slices.Sorted(maps.Keys(testedOtherwise)) {
		if !skipped[pkg] {
			t.Errorf("%s has tests beside it now, or is no package of %d or more files: "+
				"remove it from testedOtherwise", pkg, minFilesForTests)
		}
	}
}

// TestEveryExportedNameIsDocumented fails when an exported name of the
// module's non-test files has no doc comment: a func, a method of an
// exported type, a type, a const or a var (a comment on its group counts).
func TestEveryExportedNameIsDocumented(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}}\t{{join .GoFiles \"\t\"}}", module+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	var missing []string
	files := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Split(line, "\t")
		for _, name := range fields[1:] {
			fset := token.NewFileSet()
			path := filepath.Join(fields[0], name)
			f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
			if err != nil {
				t.Fatalf("parse %s: %v", path, err)
			}
			files++
			for _, n := range undocumented(f) {
				missing = append(missing, fset.Position(n.Pos()).String()+": "+n.Name)
			}
		}
	}
	if files == 0 {
		t.Fatalf("go list named no files of %s", module)
	}
	if len(missing) > 0 {
		t.Errorf("%d exported names have no doc comment:\n%s", len(missing), strings.Join(missing, "\n"))
	}
}

// undocumented are the exported names of f declared without a doc comment.
func undocumented(f *ast.File) []*ast.Ident {
	var names []*ast.Ident
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Doc == nil && d.Name.IsExported() && (d.Recv == nil || exportedReceiver(d.Recv)) {
				names = append(names, d.Name)
			}
		case *ast.GenDecl:
			if d.Doc != nil {
				continue
			}
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Doc == nil && s.Name.IsExported() {
						names = append(names, s.Name)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if s.Doc == nil && n.IsExported() {
							names = append(names, n)
						}
					}
				}
			}
		}
	}
	return names
}

// exportedReceiver reports whether a method's receiver type is exported.
func exportedReceiver(recv *ast.FieldList) bool {
	t := recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}

// maxColumns is the longest a line of Go may be, counting a tab as one
// column and a character (not a byte) as one.
const maxColumns = 120

// longLine names lines that may be longer than maxColumns: those of file
// that hold substring.
type longLine struct{ file, substring, reason string }

// longLinesAllowed lists the lines that may be longer than maxColumns. Each
// is a struct tag, which Go cannot split across lines; its text is read at
// run time, so it stays as it is.
var longLinesAllowed = []longLine{
	{"sandbox/internal/scenario/types.go", "`yaml:\"", "the tags' doc text is the scenario reference (docs/scenario.md)"},
	{"sandbox/internal/control/clock.go", " doc:\"", "the tags' doc text is the OpenAPI document's description"},
	{"sandbox/internal/traffic/faults.go", " doc:\"", "the tags' doc text is the OpenAPI document's description"},
	{"sandbox/internal/traffic/journal.go", " doc:\"", "the tags' doc text is the OpenAPI document's description"},
	{"sandbox/internal/api/card_events.go", " doc:\"", "the tags' doc text is the OpenAPI document's description"},
	{"sandbox/internal/api/webhooks.go", " enum:\"", "the tag's enum lists every webhook event of the spec"},
	{"sandbox/internal/api/oauth.go", " enum:\"", "the tag's enum lists the OAuth values of the spec"},
	{"sandbox/internal/api/transactions.go", " enum:\"", "the tag's enum lists every detailed status of the spec"},
	{"sandbox/internal/api/expense_views.go", " enum:\"", "the tag's enum lists every status of the spec"},
	{"sandbox/internal/mcp/tools.go", " jsonschema:\"", "the tag's text is the tool's schema description"},
	{"sandbox/internal/cards/types.go", " yaml:\"", "the json and yaml names of a field with a long type"},
}

// TestLinesAreAtMost120Columns fails for each line of the module's Go files
// longer than maxColumns that longLinesAllowed does not name, listing
// file:line and its width, and for each entry of longLinesAllowed that no
// long line needs any more.
func TestLinesAreAtMost120Columns(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}").Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	root := strings.TrimSpace(string(out))
	var long []string
	used := map[longLine]bool{}
	files := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "node_modules" || rel == "bench/out" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		files++
		found, err := longLines(path, rel, used)
		long = append(long, found...)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if files == 0 {
		t.Fatalf("found no Go file under %s", root)
	}
	if len(long) > 0 {
		t.Errorf("%d lines are longer than %d columns (a tab counts as one):\n%s",
			len(long), maxColumns, strings.Join(long, "\n"))
	}
	for _, a := range longLinesAllowed {
		if !used[a] {
			t.Errorf("no line of %s holding %q is longer than %d columns: remove it from longLinesAllowed",
				a.file, a.substring, maxColumns)
		}
	}
}

// longLines lists, as "file:line (N columns)", the lines of the file at path
// (rel from the module root) longer than maxColumns that longLinesAllowed
// does not name, and marks in used the entries that named one.
func longLines(path, rel string, used map[longLine]bool) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var long []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		width := utf8.RuneCountInString(line)
		if width <= maxColumns {
			continue
		}
		i := slices.IndexFunc(longLinesAllowed, func(a longLine) bool {
			return a.file == rel && strings.Contains(line, a.substring)
		})
		if i >= 0 {
			used[longLinesAllowed[i]] = true
			continue
		}
		long = append(long, fmt.Sprintf("%s:%d (%d columns)", rel, n, width))
	}
	return long, sc.Err()
}
