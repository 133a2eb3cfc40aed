package server_test

import (
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// aliasBomb is a scenario whose card's userData repeats one value of size
// bytes n times through aliases.
func aliasBomb(size, n int) string {
	var b strings.Builder
	b.WriteString("legalEntities: [{id: le_x, name: X}]\naccounts: [{id: sa_x, legalEntityId: le_x, name: A}]\n")
	b.WriteString("cards:\n  - accountId: sa_x\n    name: C\n    userData:\n")
	b.WriteString("      a0: &big \"" + strings.Repeat("x", size) + "\"\n")
	for i := 1; i <= n; i++ {
		b.WriteString("      a" + strconv.Itoa(i) + ": *big\n")
	}
	return b.String()
}

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestScenarioAliasBombRefused: a page (or any client) posting a scenario
// of 120 KB whose aliases repeat a 40 KB value 3,000 times, 120 MB once
// expanded, inline or as a file of the scenarios directory, is answered
// 400 with the alias's place and the limit; no world is made, the default
// world still answers and the process holds no expansion.
func TestScenarioAliasBombRefused(t *testing.T) {
	bomb := aliasBomb(40_000, 3000)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bomb.yaml"), []byte(bomb), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, options{scenariosDir: dir})
	// A first refusal makes what any refusal needs (the OpenAPI checks of
	// the answers) before the heap is measured.
	e.do(req{method: http.MethodPost, path: "/_sandbox/worlds", body: `{"yaml":"colour: red"}`}).gen2(t, http.StatusBadRequest, "invalid_request")
	before := heapInUse()
	for name, body := range map[string]map[string]string{
		"inline":             {"yaml": bomb},
		"scenarios-dir file": {"scenario": "bomb"},
	} {
		t.Run(name, func(t *testing.T) {
			d := e.do(req{method: http.MethodPost, path: "/_sandbox/worlds", body: body}).gen2(t, http.StatusBadRequest, "invalid_request")
			p := d["problem1"]
			if len(d) != 1 || !strings.Contains(p, ": the file expands past 32 MiB of text, its limit (this alias repeats what it names") {
				t.Fatalf("details = %v, want the one expansion problem", d)
			}
			file, at, _ := strings.Cut(p, ":")
			line, _ := strconv.Atoi(strings.Split(at, ":")[0])
			if (file != "inline.yaml" && file != "bomb.yaml") || line < 8 {
				t.Fatalf("problem %q is not at an alias", p)
			}
		})
	}
	if n := worldCount(t, e); n != 1 {
		t.Fatalf("%d worlds after the refusals, want the default alone", n)
	}
	e.get("/account", "sk_sandbox_acme", "").status(t, http.StatusOK)
	if grown := int64(heapInUse()) - int64(before); grown > 32<<20 {
		t.Fatalf("the heap grew by %d MB, want no expansion held", grown>>20)
	}
}
