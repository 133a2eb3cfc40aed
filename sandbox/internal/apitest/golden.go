package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
)

// goldenDir holds the response bodies Golden compares with, one
// <name>.json each: the package's folder under fixtures/golden, which Main
// sets from Suite.Goldens.
var goldenDir string

// volatile is every value of a response body that is not the same from one
// run or one server to the next, with what golden files show instead. It is
// the only place a body is changed before it is compared:
//
//   - request ids ("req_" and a count): the server numbers the requests it
//     receives, so an id depends on how many requests came before;
//   - the httptest server's origin, on a random port, in URLs the server
//     builds from the request (discovery documents, links).
//
// Everything else, the world's ids, times and reference ids included, is
// deterministic: a demo world starts from a fixed seed and clock.
var volatile = []struct {
	pattern *regexp.Regexp
	with    string
}{
	{regexp.MustCompile(`\breq_[0-9]{8,}\b`), "req_00000000"},
	{regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+`), "http://sandbox.test"},
}

// goldenUsed records the golden files compared, so TestMain can list those
// no test reads.
var goldenUsed = struct {
	sync.Mutex
	names map[string]bool
}{names: map[string]bool{}}

// Golden compares a JSON response body with <name>.json in the package's
// folder of fixtures/golden (Suite.Goldens), both in canonical form
// (indented, keys sorted, volatile values normalized); under -update it
// rewrites the file instead.
func Golden(t *testing.T, name string, body []byte) {
	t.Helper()
	if goldenDir == "" {
		t.Fatal("apitest.Golden: the package's TestMain must call apitest.Main with Suite.Goldens")
	}
	GoldenCompared(name)
	got, err := canonicalJSON(body)
	if err != nil {
		t.Fatalf("golden %s: body is not JSON: %v: %s", name, err, body)
	}
	path := filepath.Join(goldenDir, name+".json")
	if *Update {
		if err := os.MkdirAll(goldenDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	refresh := fmt.Sprintf("if the change is intended, rewrite it with go test %s -run '^%s$' -update",
		packageDir(), strings.SplitN(t.Name(), "/", 2)[0])
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden %s: %v\n%s", name, err, refresh)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the body differs from %s:\n%s%s", path, lineDiff(string(want), string(got)), refresh)
	}
}

// GoldenCompared records that a test compares fixtures/golden/<name>.json,
// so the check for unused golden files leaves it.
func GoldenCompared(name string) {
	goldenUsed.Lock()
	goldenUsed.names[name] = true
	goldenUsed.Unlock()
}

// canonicalJSON indents a JSON document with its object keys sorted and
// its numbers as written, then normalizes its volatile values.
func canonicalJSON(body []byte) ([]byte, error) {
	v, err := jsonshape.Decode(body)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	out := b.Bytes()
	for _, v := range volatile {
		out = v.pattern.ReplaceAll(out, []byte(v.with))
	}
	return out, nil
}

// lineDiff shows where two texts part: the lines between their common
// beginning and common end, a few at most of each.
func lineDiff(want, got string) string {
	const shown = 8
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(wl) && i < len(gl) && wl[i] == gl[i] {
		i++
	}
	we, ge := len(wl), len(gl)
	for we > i && ge > i && wl[we-1] == gl[ge-1] {
		we, ge = we-1, ge-1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "from line %d:\n", i+1)
	side := func(sign string, lines []string) {
		for j, l := range lines {
			if j == shown {
				fmt.Fprintf(&b, "%s … %d more lines\n", sign, len(lines)-shown)
				break
			}
			fmt.Fprintf(&b, "%s %s\n", sign, l)
		}
	}
	side("-", wl[i:we])
	side("+", gl[i:ge])
	return b.String()
}

// unusedGoldens lists the golden files no test compared with.
func unusedGoldens() []string {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.json"))
	if err != nil {
		return []string{err.Error()}
	}
	goldenUsed.Lock()
	defer goldenUsed.Unlock()
	var unused []string
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".json"); !goldenUsed.names[name] {
			unused = append(unused, name)
		}
	}
	sort.Strings(unused)
	return unused
}

// packageDir is the folder of the package under test, as go test takes it
// from the repository's root.
func packageDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	rel, err := filepath.Rel(root, wd)
	if err != nil {
		return "."
	}
	return "./" + filepath.ToSlash(rel)
}
