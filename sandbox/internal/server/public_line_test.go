package server_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// public are the packages a user imports; everything else is under
// sandbox/internal (or is a command, or the benchmarks' driver).
var public = []string{"sandbox", "sandbox/client", "sandbox/sandboxtest", "sandbox/sandboxtest/sqlite",
	"sandbox/sandboxtest/mcp", "fixtures", "scenarios"}

// TestThePublicLine fails when a package outside sandbox/internal is not
// one users import, and when an exported function, method, field, variable
// or type of a public package names a type of an internal package in its
// signature: a user could receive the value but not name its type. A type
// alias is the one bridge allowed (sandboxtest.Analytics = an internal
// function type), so that the name users write is the public one.
func TestThePublicLine(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \"\t\"}}",
		module+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Split(line, "\t")
		pkg := strings.TrimPrefix(strings.TrimPrefix(fields[0], module), "/")
		if strings.Contains(pkg, "internal/") || strings.HasPrefix(pkg, "cmd/") || strings.HasPrefix(pkg, "bench/") {
			continue
		}
		if !slices.Contains(public, pkg) {
			t.Errorf("%s is public but not on the public line: move it under sandbox/internal or list it in public",
				pkg)
			continue
		}
		checked++
		for _, name := range fields[2:] {
			path := filepath.Join(fields[1], name)
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				t.Fatalf("parse %s: %v", path, err)
			}
			for _, leak := range internalTypes(f) {
				t.Errorf("%s: the public %s names the internal type %s", fset.Position(leak.at), leak.name, leak.typ)
			}
		}
	}
	if checked != len(public) {
		t.Errorf("checked %d public packages, want the %d of %v", checked, len(public), public)
	}
}

// leak is an internal type named in a public declaration.
type leak struct {
	at        token.Pos
	name, typ string
}

// internalTypes lists the internal types that f's exported declarations
// name, aliases aside.
func internalTypes(f *ast.File) []leak {
	internal := map[string]bool{}
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		if !strings.Contains(path, "/internal/") {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		internal[name] = true
	}
	var leaks []leak
	find := func(name string, e ast.Node) {
		if e == nil {
			return
		}
		ast.Inspect(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.Field:
				// An unexported field is not part of the public line.
				if len(n.Names) > 0 && !n.Names[0].IsExported() {
					return false
				}
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && internal[x.Name] {
					leaks = append(leaks, leak{n.Pos(), name, x.Name + "." + n.Sel.Name})
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name.IsExported() && (d.Recv == nil || exportedReceiver(d.Recv)) {
				find(d.Name.Name, d.Type)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() && !s.Assign.IsValid() {
						find(s.Name.Name, s.Type)
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							find(n.Name, s.Type)
						}
					}
				}
			}
		}
	}
	return leaks
}
