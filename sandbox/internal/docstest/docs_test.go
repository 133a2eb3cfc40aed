package docstest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// root is the repository, from this package's directory.
const root = "../../.."

// tools are what the blocks call besides the sandbox.
var tools = []string{"bash", "curl", "jq", "openssl"}

// needTools skips the test when a tool is missing, unless
// SANDBOX_DOCS_REQUIRE is set (CI's documentation step sets it).
func needTools(t *testing.T, names ...string) {
	t.Helper()
	for _, name := range names {
		if _, err := exec.LookPath(name); err != nil {
			if os.Getenv("SANDBOX_DOCS_REQUIRE") != "" {
				t.Fatalf("%s is needed to run the documentation's blocks: %v", name, err)
			}
			t.Skipf("%s is not installed: the documentation's blocks are run where it is (.ci/run)", name)
		}
	}
}

// docFiles are README.md and docs/*.md.
func docFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join(root, "README.md")}, files...)
}

// TestEveryBlockRunsOrSaysWhy runs every fenced block of README.md and
// docs/*.md the way its marker (the HTML comment on the line before) says,
// or by its language: shell against a fresh sandbox per file, JSON and
// YAML parsed. A block it cannot run and that says nothing fails the test.
func TestEveryBlockRunsOrSaysWhy(t *testing.T) {
	needTools(t, tools...)
	binDir := t.TempDir()
	bin := buildBinary(t, root, binDir)
	for _, file := range docFiles(t) {
		bs, err := blocks(file)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, file)
		t.Run(name, func(t *testing.T) {
			r := &fileRun{t: t, bin: bin, binDir: binDir, dir: userFiles(t), seen: &ids{}}
			for _, b := range bs {
				b.file = name
				r.run(b)
			}
		})
	}
}

// fileRun is the state the blocks of one file share: the sandbox they run
// against (started by the first block that needs it), the ids shown so
// far, the last scenario.
type fileRun struct {
	t            *testing.T
	bin, binDir  string
	dir          string
	sb           *sandbox
	seen         *ids
	lastScenario string
}

// plan says what the runner does with a block: what its marker says, else
// what its language says (shell run, JSON and YAML parsed); an error for
// a marker it does not know, a "not run" without a reason, or a block it
// cannot run that says nothing.
func plan(b block) (kind, arg string, err error) {
	kind, arg, _ = strings.Cut(b.marker, ":")
	arg = strings.TrimSpace(arg)
	switch {
	case kind == "not run" && arg == "":
		return "", "", fmt.Errorf("%s:%d: a block not run says why: <!-- not run: the reason -->", b.file, b.line)
	case kind == "not run" || kind == "output":
		return "skip", arg, nil
	case kind == "scenario" || kind == "go test" || kind == "node --test" || kind == "vitest" || kind == "jest" ||
		kind == "pytest":
		return kind, arg, nil
	case strings.HasPrefix(b.marker, "run by "):
		return "run by", strings.TrimPrefix(b.marker, "run by "), nil
	case b.marker != "":
		return "", "", fmt.Errorf("%s:%d: unknown marker %q (not run: …, output, scenario, go test, node --test,"+
			" vitest, jest, pytest, run by …)", b.file, b.line, b.marker)
	case b.lang == "sh" || b.lang == "json" || b.lang == "yaml":
		return b.lang, "", nil
	}
	return "", "", fmt.Errorf("%s:%d: a %q block the runner does not run: run it, or say why on the line before"+
		" (<!-- not run: … -->, <!-- output -->)", b.file, b.line, b.lang)
}

// run runs one block as plan says.
func (r *fileRun) run(b block) {
	t := r.t
	kind, arg, err := plan(b)
	if err != nil {
		t.Error(err)
		return
	}
	switch kind {
	case "scenario":
		r.scenario(b, arg)
	case "go test":
		r.goTest(b, arg)
	case "node --test", "vitest", "jest":
		r.nodeRecipe(b, kind)
	case "pytest":
		r.pytestRecipe(b)
	case "run by":
		r.runBy(b, arg)
	case "sh":
		if r.sb == nil {
			r.sb = startSandbox(t, r.bin)
		}
		shell(t, b, r.sb, r.binDir, r.dir, r.seen)
	case "json":
		if !json.Valid([]byte(b.text)) {
			t.Errorf("%s:%d: the JSON does not parse; mark it <!-- output --> if it elides", b.file, b.line)
		}
	case "yaml":
		var v any
		if err := yaml.Unmarshal([]byte(b.text), &v); err != nil {
			t.Errorf("%s:%d: the YAML does not parse: %v", b.file, b.line, err)
		}
	}
}

// scenario validates and loads a scenario block; "adds to the block above"
// first merges it into the file's previous scenario, each list of the
// addition appended to the list of that name.
func (r *fileRun) scenario(b block, how string) {
	text := b.text
	if how == "adds to the block above" {
		merged, err := mergeScenarios(r.lastScenario, b.text)
		if err != nil {
			r.t.Errorf("%s:%d: %v", b.file, b.line, err)
			return
		}
		text = merged
	} else if how != "" {
		r.t.Errorf("%s:%d: <!-- scenario: %s -->: only \"adds to the block above\" follows scenario:",
			b.file, b.line, how)
		return
	}
	r.lastScenario = text
	validateScenario(r.t, b, r.bin, r.dir, text)
}

// mergeScenarios appends each top-level list of add to base's list of the
// same name, and adds the keys base does not have.
func mergeScenarios(base, add string) (string, error) {
	var b, a yaml.Node
	if err := yaml.Unmarshal([]byte(base), &b); err != nil || len(b.Content) == 0 {
		return "", fmt.Errorf("no scenario above to add to (%v)", err)
	}
	if err := yaml.Unmarshal([]byte(add), &a); err != nil || len(a.Content) == 0 {
		return "", fmt.Errorf("the addition does not parse (%v)", err)
	}
	bm, am := b.Content[0], a.Content[0]
	for i := 0; i+1 < len(am.Content); i += 2 {
		key, val := am.Content[i], am.Content[i+1]
		found := false
		for j := 0; j+1 < len(bm.Content); j += 2 {
			if bm.Content[j].Value == key.Value && bm.Content[j+1].Kind == yaml.SequenceNode &&
				val.Kind == yaml.SequenceNode {
				bm.Content[j+1].Content = append(bm.Content[j+1].Content, val.Content...)
				found = true
			}
		}
		if !found {
			bm.Content = append(bm.Content, key, val)
		}
	}
	out, err := yaml.Marshal(&b)
	return string(out), err
}

// runBy checks a block another test runs: the test file exists and names
// the page it reads the block from.
func (r *fileRun) runBy(b block, test string) {
	src, err := os.ReadFile(filepath.Join(root, test))
	if err != nil || !strings.Contains(string(src), b.file) {
		r.t.Errorf("%s:%d: <!-- run by %s -->: no such test reads %s (%v)", b.file, b.line, test, b.file, err)
	}
}

// userFiles makes the directory a file's commands run in, with the files
// a user has beside them: logo.png (an invoice logo) and mine.yaml (a
// scenario of their own).
func userFiles(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var logo bytes.Buffer
	if err := png.Encode(&logo, image.NewGray(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	mine := "name: mine\nlegalEntities: [{id: le_mine, name: Mine Inc.}]\n" +
		"keys: [{key: sk_mine, kind: legal_entity, legalEntityId: le_mine}]\n"
	for name, text := range map[string][]byte{"logo.png": logo.Bytes(), "mine.yaml": []byte(mine)} {
		if err := os.WriteFile(filepath.Join(dir, name), text, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
