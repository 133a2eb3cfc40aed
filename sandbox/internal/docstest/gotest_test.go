package docstest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// knownImports are the packages a Go recipe may use without importing
// them (the docs leave out standard imports, and sandboxtest's once a page
// has shown it): each is imported when the recipe names it.
var knownImports = map[string]string{
	"context": "context", "strings": "strings", "testing": "testing", "time": "time", "http": "net/http",
	"fmt": "fmt", "json": "encoding/json", "bytes": "bytes", "io": "io",
	"sandboxtest": "github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest",
}

// goTest compiles a Go recipe as a user's test file in a scratch module
// that requires this repository, with the stand-ins its marker names
// (files of testdata/standins), and runs it with go test.
func (r *fileRun) goTest(b block, standins string) {
	t := r.t
	src, err := goFile(b.text)
	if err != nil {
		t.Errorf("%s:%d: %v", b.file, b.line, err)
		return
	}
	mod := filepath.Join(r.dir, fmt.Sprintf("recipe%d", b.line))
	abs, _ := filepath.Abs(root)
	files := map[string]string{
		"go.mod": "module example.test/recipe\n\ngo 1.26.0\n\nrequire github.com/slash-sandbox/slash-sandbox v0.0.0\n\n" +
			"replace github.com/slash-sandbox/slash-sandbox => " + abs + "\n",
		"recipe_test.go": src,
	}
	if sum, err := os.ReadFile(filepath.Join(root, "go.sum")); err == nil {
		files["go.sum"] = string(sum)
	}
	standins = strings.TrimPrefix(strings.TrimSpace(standins), "stand-ins")
	for _, name := range strings.Fields(strings.ReplaceAll(standins, ",", " ")) {
		text, err := os.ReadFile(filepath.Join("testdata", "standins", name+".go"))
		if err != nil {
			t.Errorf("%s:%d: stand-in %q: %v", b.file, b.line, name, err)
			return
		}
		files[name+"_test.go"] = string(text)
	}
	if err := os.MkdirAll(mod, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(mod, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("go", "test", "-count=1", "-mod=mod", ".")
	cmd.Dir = mod
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("%s:%d: go test of the recipe: %v\n%s\n%s", b.file, b.line, err, out, src)
	}
}

// goFile makes a test file of a recipe: its package clause, the standard
// imports it names, its own imports, and its declarations; statements
// outside a function become the body of TestRecipe, each variable they
// declare used once so that the file compiles.
func goFile(recipe string) (string, error) {
	imports, rest := splitImports(recipe)
	if !regexp.MustCompile(`(?m)^func `).MatchString(rest) {
		used, err := declared(rest)
		if err != nil {
			return "", err
		}
		for _, name := range used {
			rest += "\n_ = " + name
		}
		rest = "func TestRecipe(t *testing.T) {\n" + rest + "\n}\n"
	}
	var std []string
	for name, path := range knownImports {
		if regexp.MustCompile(`\b`+name+`\.`).MatchString(rest) && !strings.Contains(imports, `"`+path+`"`) {
			std = append(std, `"`+path+`"`)
		}
	}
	sort.Strings(std)
	return "package recipe\n\nimport (\n" + strings.Join(std, "\n") + "\n)\n\n" + imports + "\n" + rest, nil
}

var importDecl = regexp.MustCompile(`(?s)^\s*(import\s+(?:"[^"]*"|\(.*?\))\s*\n)`)

// splitImports cuts a recipe's leading import declaration from the rest.
func splitImports(recipe string) (imports, rest string) {
	if m := importDecl.FindStringSubmatchIndex(recipe); m != nil {
		return recipe[m[2]:m[3]], recipe[m[3]:]
	}
	return "", recipe
}

// declared names the variables statements declare with :=, in order.
func declared(stmts string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\nfunc f() {\n"+stmts+"\n}\n", 0)
	if err != nil {
		return nil, fmt.Errorf("the recipe's statements do not parse: %v", err)
	}
	var names []string
	for _, s := range f.Decls[0].(*ast.FuncDecl).Body.List {
		if a, ok := s.(*ast.AssignStmt); ok && a.Tok == token.DEFINE {
			for _, l := range a.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					names = append(names, id.Name)
				}
			}
		}
	}
	return names, nil
}
