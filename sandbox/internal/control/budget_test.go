package control_test

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
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
	e := apitest.New(t, apitest.Options{ScenariosDir: dir})
	// A first refusal makes what any refusal needs (the OpenAPI checks of
	// the answers) before the heap is measured.
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds", Body: `{"yaml":"colour: red"}`}).
		Gen2(t, http.StatusBadRequest, "invalid_request")
	before := heapInUse()
	for name, body := range map[string]map[string]string{
		"inline":             {"yaml": bomb},
		"scenarios-dir file": {"scenario": "bomb"},
	} {
		t.Run(name, func(t *testing.T) {
			d := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds", Body: body}).
				Gen2(t, http.StatusBadRequest, "invalid_request")
			p := d["problem1"]
			if len(d) != 1 ||
				!strings.Contains(
					p,
					": the file expands past 32 MiB of text, its limit (this alias repeats what it names",
				) {
				t.Fatalf("details = %v, want the one expansion problem", d)
			}
			file, at, _ := strings.Cut(p, ":")
			line, _ := strconv.Atoi(strings.Split(at, ":")[0])
			if (file != "inline.yaml" && file != "bomb.yaml") || line < 8 {
				t.Fatalf("problem %q is not at an alias", p)
			}
		})
	}
	if n := apitest.WorldCount(t, e); n != 1 {
		t.Fatalf("%d worlds after the refusals, want the default alone", n)
	}
	e.Get("/account", "sk_sandbox_acme", "").Status(t, http.StatusOK)
	if grown := int64(heapInUse()) - int64(before); grown > 32<<20 {
		t.Fatalf("the heap grew by %d MB, want no expansion held", grown>>20)
	}
}

// NoBudget, as options.memoryBudget, removes the engine's budget.
const NoBudget = -1

// generated is an inline scenario generating n card transactions.
func generated(n int) string {
	return "name: gen\nlegalEntities: [{id: le_g, name: G}]\nkeys: [{key: sk_gen, kind: legal_entity, legalEntityId:" +
		" le_g}]\naccounts: [{id: sa_g, legalEntityId: le_g, name: A}]\ncards: [{id: card_g, accountId: sa_g, name: C}]\n" +
		"generate:\n  - {kind: card_transactions, count: " + strconv.Itoa(n) + ", legalEntityId: le_g}\n"
}

// refusedForMemory checks a 507 insufficient_storage answer whose message
// names the budget (as budget writes it, when not empty), what is used,
// what the work needs and the flag that raises the budget.
func refusedForMemory(t *testing.T, r *apitest.Resp, budget string) string {
	t.Helper()
	d := r.Gen2(t, http.StatusInsufficientStorage, "insufficient_storage")
	var body struct{ Message string }
	r.Decode(t, &body)
	for _, want := range []string{"needs about ", "already hold ", "the sandbox's " + budget, " memory budget",
		"--memory-budget"} {
		if !strings.Contains(body.Message, want) {
			t.Fatalf("message %q lacks %q", body.Message, want)
		}
	}
	for _, k := range []string{"budget", "used", "needed"} {
		if _, err := strconv.ParseInt(d[k], 10, 64); err != nil {
			t.Fatalf("details = %v, want %s in bytes", d, k)
		}
	}
	return body.Message
}

// TestGeneratedWorldPastBudgetRefused: a request for a world generating a
// million transactions (about 1.4 GB) in a sandbox whose budget is 64 MiB
// is refused with 507 before anything is generated; the default world and
// a world made before still answer, and nothing is held.
func TestGeneratedWorldPastBudgetRefused(t *testing.T) {
	e := apitest.New(t, apitest.Options{MemoryBudget: 64 << 20})
	small := apitest.CreateWorld(t, e, `{"id":"small","yaml":`+strconv.Quote(generated(1000))+`}`)
	before := heapInUse()
	msg := refusedForMemory(t, e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds",
		Body: map[string]string{"yaml": generated(1_000_000)}}), "64 MiB")
	if !strings.Contains(msg, `a world of scenario "gen" needs about 1.3 GiB`) {
		t.Fatalf("message %q does not say what the world needs", msg)
	}
	if n := apitest.WorldCount(t, e); n != 2 {
		t.Fatalf("%d worlds after the refusal, want 2", n)
	}
	e.Get("/account", "sk_sandbox_acme", "").Status(t, http.StatusOK)
	if got := e.Get("/transaction", small.Keys[0].Key, "").Status(t, http.StatusOK).JSON(t)["metadata"]; got == nil {
		t.Fatalf("the small world's transactions: %v", got)
	}
	if grown := int64(heapInUse()) - int64(before); grown > 16<<20 {
		t.Fatalf("the heap grew by %d MB after the refusal", grown>>20)
	}
}

// snapshotCount is how many snapshots the sandbox keeps.
func snapshotCount(t *testing.T, e *apitest.Env) int {
	t.Helper()
	var list struct {
		Items []map[string]any `json:"items"`
	}
	e.Get("/_sandbox/snapshots", "", "").Status(t, http.StatusOK).Decode(t, &list)
	return len(list.Items)
}

// TestSnapshotImportsPastBudgetRefused: a client importing the same
// exported snapshot again and again is refused with 507 once the budget is
// full, and one declaring a file the budget cannot hold is refused before
// it sends it; the snapshots kept and the worlds still answer, and the
// memory held stays within the budget.
func TestSnapshotImportsPastBudgetRefused(t *testing.T) {
	e := apitest.New(t, apitest.Options{MemoryBudget: 96 << 20})
	apitest.CreateWorld(t, e, `{"id":"gen","yaml":`+strconv.Quote(generated(8000))+`}`)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots", Body: `{}`,
		Header: map[string]string{"X-Sandbox-World": "gen"}}).Status(t, http.StatusCreated)
	file := e.Get("/_sandbox/snapshots/snap_1/export", "", "").Status(t, http.StatusOK).Raw
	imported, refused := 0, false
	for range 20 {
		r := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots/import", Body: file})
		if r.StatusCode == http.StatusCreated {
			imported++
			continue
		}
		before := snapshotCount(t, e)
		refusedForMemory(t, r, "96 MiB")
		if snapshotCount(t, e) != before {
			t.Fatal("a refused import kept a snapshot")
		}
		refused = true
		break
	}
	t.Logf("%d imports of a %d KB file before the refusal", imported, len(file)>>10)
	if imported == 0 || !refused {
		t.Fatalf("%d imports of a %d KB file, refused %v: want some, then a refusal", imported, len(file)>>10, refused)
	}
	t.Run("a declared size past the budget is refused unread", func(t *testing.T) {
		conn, err := net.Dial("tcp", e.Server.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		// 400 MB announced, none sent: reading it would wait for ever.
		fmt.Fprintf(
			conn,
			"POST /_sandbox/snapshots/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"+
				"Content-Length: 400000000\r\n\r\n{",
		)
		conn.SetReadDeadline(time.Now().Add(30 * time.Second))
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("no answer before the body: %v", err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusInsufficientStorage {
			t.Fatalf("status %d, want 507", res.StatusCode)
		}
	})
	// What was kept still works: a world made of an imported snapshot
	// would not fit, the snapshot taken restores into its world.
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots/snap_1/restore",
		Header: map[string]string{"X-Sandbox-World": "gen"}}).
		Status(t, http.StatusOK)
	e.Get("/account", "sk_sandbox_acme", "").Status(t, http.StatusOK)
	e.Get("/account", "sk_gen_gen", "").Status(t, http.StatusOK)
	if used, limit := e.Engine.MemoryUse(); used > limit {
		t.Fatalf("worlds and snapshots hold %d bytes, past the budget of %d", used, limit)
	}
	if held := heapInUse(); held > 3*(96<<20) {
		t.Fatalf("the heap holds %d MB with a budget of 96 MiB", held>>20)
	}
}

// TestSnapshotTakeAndRestorePastBudgetRefused: with the budget nearly
// full, a snapshot of a large world, and restoring a large snapshot into
// a small world, are refused with 507; the world keeps its state, and
// GET /_sandbox/health shows what is used.
func TestSnapshotTakeAndRestorePastBudgetRefused(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{MemoryBudget: NoBudget})
	apitest.CreateWorld(t, e, `{"id":"gen","yaml":`+strconv.Quote(generated(8000))+`}`)
	gen := map[string]string{"X-Sandbox-World": "gen"}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots", Body: `{}`, Header: gen}).
		Status(t, http.StatusCreated)
	e.Do(apitest.Req{Method: http.MethodDelete, Path: "/_sandbox/worlds/gen"}).Status(t, http.StatusOK)
	used, _ := e.Engine.MemoryUse()
	// Room for the demo world to double, not for the generated world again.
	e.Engine.SetMemoryBudget(used + 4<<20)
	h := e.Get("/_sandbox/health", "", "").Status(t, http.StatusOK).JSON(t)["memory"].(map[string]any)
	if h["used"] != float64(used) || h["budget"] != float64(used+4<<20) {
		t.Fatalf("health memory = %v, want used %d and the budget", h, used)
	}
	msg := refusedForMemory(
		t,
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots/snap_1/restore"}),
		"",
	)
	if !strings.Contains(msg, "restoring snapshot snap_1 into world default needs about ") {
		t.Fatalf("message %q does not say what was refused", msg)
	}
	if got := e.Get("/legal-entity", "sk_sandbox_acme", "").Status(t, http.StatusOK).Raw; !strings.Contains(string(got),
		"Acme") {
		t.Fatalf("the default world no longer holds the demo: %s", got)
	}
	apitest.CreateWorld(t, e, `{"id":"gen2","yaml":`+strconv.Quote(generated(100))+`}`)
	// No room for a copy of the demo world (700 KB).
	used, _ = e.Engine.MemoryUse()
	e.Engine.SetMemoryBudget(used + 64<<10)
	refusedForMemory(t, e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots", Body: `{}`}), "")
	if n := snapshotCount(t, e); n != 1 {
		t.Fatalf("%d snapshots after the refusal, want 1", n)
	}
	e.Engine.SetMemoryBudget(0)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots/snap_1/restore",
		Header: map[string]string{"X-Sandbox-World": "gen2"}}).
		Status(t, http.StatusOK)
	if h := e.Get("/_sandbox/health", "", "").JSON(t)["memory"].(map[string]any); h["budget"] != nil {
		t.Fatalf("health memory without a budget = %v, want budget null", h)
	}
}
