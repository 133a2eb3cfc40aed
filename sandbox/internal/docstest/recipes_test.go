package docstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// fileHeader starts a file of a recipe that shows several: a comment line
// naming it, either with its whole content after a colon or with the lines
// below as its content.
var fileHeader = regexp.MustCompile(`^// ([\w./-]+\.(?:js|mjs|cjs))(?::\s*(.*)|\s+—.*)?$`)

// recipeFiles splits a recipe into the files it shows.
func recipeFiles(text string) map[string]string {
	files := map[string]string{}
	name := ""
	for _, row := range strings.Split(text, "\n") {
		if m := fileHeader.FindStringSubmatch(row); m != nil {
			name = m[1]
			if m[2] != "" {
				files[name] = m[2] + "\n"
				name = ""
			}
			continue
		}
		if name != "" {
			files[name] += row + "\n"
		}
	}
	return files
}

// nodeRecipe runs a Node recipe with its runner (node --test, vitest or
// jest) in a scratch project: the project's own module as slash-sandbox,
// the stand-in slash-sdk, the stand-ins of "your code" as globals, and the
// pinned runners of SANDBOX_DOCS_NODE_MODULES for vitest and jest.
func (r *fileRun) nodeRecipe(b block, runner string) {
	t := r.t
	dir, _ := filepath.Abs(filepath.Join(r.dir, "node", strings.ReplaceAll(runner, " ", "")))
	files := recipeFiles(b.text)
	if len(files) == 0 {
		t.Errorf("%s:%d: the recipe names no file (// test/x.test.js)", b.file, b.line)
		return
	}
	pkg := `{"name":"recipe","private":true}`
	if runner != "jest" {
		pkg = `{"name":"recipe","private":true,"type":"module"}`
	}
	files["package.json"] = pkg
	files["your-code.cjs"] = mustRead(r, filepath.Join("testdata", "standins", "your-code.cjs"))
	writeFiles(r, dir, files)
	abs := func(p string) string { a, _ := filepath.Abs(p); return a }
	links := map[string]string{
		"slash-sandbox": abs(filepath.Join(root, "sandbox", "clients", "js")),
		"slash-sdk":     abs(filepath.Join("testdata", "standins", "slash-sdk")),
	}
	var args []string
	env := []string{"SLASH_SANDBOX_BIN=" + r.bin}
	switch runner {
	case "node --test":
		args = []string{"node", "--import", "./your-code.cjs", "--test"}
	default:
		installed := os.Getenv("SANDBOX_DOCS_NODE_MODULES")
		if installed == "" {
			if os.Getenv("SANDBOX_DOCS_REQUIRE") != "" {
				t.Errorf("%s:%d: SANDBOX_DOCS_NODE_MODULES must name the node_modules %s is in", b.file, b.line, runner)
			}
			t.Logf("%s:%d: %s is not installed (SANDBOX_DOCS_NODE_MODULES): not run", b.file, b.line, runner)
			return
		}
		entries, _ := os.ReadDir(installed)
		for _, e := range entries {
			links[e.Name()] = filepath.Join(installed, e.Name())
		}
		args = []string{filepath.Join("node_modules", ".bin", runner), "--setupFiles", "./your-code.cjs"}
		if runner == "vitest" {
			// vitest's workers take the stand-ins through Node's --import
			args = []string{args[0], "run"}
			env = append(env, "NODE_OPTIONS=--import="+filepath.Join(dir, "your-code.cjs"))
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, "node_modules", name)); err != nil {
			t.Fatal(err)
		}
	}
	r.runRecipe(b, dir, args, env...)
}

// pytestRecipe runs the pytest recipe with the project's plugin
// (sandbox/clients/python, as pip installs it), the stand-in slash_sdk
// module, and "your code" in conftest.py.
func (r *fileRun) pytestRecipe(b block) {
	t := r.t
	dir := filepath.Join(r.dir, "pytest")
	files := map[string]string{
		"test_recipe.py": b.text,
		"conftest.py":    mustRead(r, filepath.Join("testdata", "standins", "conftest.py")),
		"slash_sdk.py":   mustRead(r, filepath.Join("testdata", "standins", "slash_sdk.py")),
	}
	writeFiles(r, dir, files)
	py := pytestPython()
	if py == "" {
		if os.Getenv("SANDBOX_DOCS_REQUIRE") != "" {
			t.Errorf("%s:%d: no python3 with pytest", b.file, b.line)
		}
		t.Logf("%s:%d: pytest is not installed: not run", b.file, b.line)
		return
	}
	plugin, _ := filepath.Abs(filepath.Join(root, "sandbox", "clients", "python"))
	r.runRecipe(b, dir, []string{py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "pytest_slash_sandbox"},
		"SLASH_SANDBOX_BIN="+r.bin, "PYTHONPATH="+plugin+string(os.PathListSeparator)+dir)
}

// pytestPython is a python3 that has pytest, or "".
func pytestPython() string {
	for _, py := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(py, "-m", "pytest", "--version").Run() == nil {
			return py
		}
	}
	return ""
}

// runRecipe runs a recipe's runner in its project; its exit status is the
// recipe's verdict.
func (r *fileRun) runRecipe(b block, dir string, args []string, env ...string) {
	start := time.Now()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Errorf("%s:%d: %s: %v\n%s", b.file, b.line, strings.Join(args, " "), err, out)
		return
	}
	r.t.Logf("%s:%d: %s passed in %v", b.file, b.line, args[0], time.Since(start).Round(time.Millisecond))
}

// mustRead reads a file of the runner's own.
func mustRead(r *fileRun, path string) string {
	text, err := os.ReadFile(path)
	if err != nil {
		r.t.Fatal(err)
	}
	return string(text)
}

// writeFiles writes files (names relative to dir, with folders).
func writeFiles(r *fileRun, dir string, files map[string]string) {
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
}
