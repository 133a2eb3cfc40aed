package engine_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/scenarios"
)

func newEngine(t *testing.T) *kernel.Engine {
	t.Helper()
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return eng
}

// generating is a scenario generating n card transactions.
func generating(t *testing.T, n int) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse("gen.yaml", []byte(fmt.Sprintf("name: gen\nlegalEntities: [{id: le_g, name: G}]\n"+
		"accounts: [{id: sa_g, legalEntityId: le_g, name: A}]\ncards: [{id: card_g, accountId: sa_g, name: C}]\n"+
		"generate:\n  - {kind: card_transactions, count: %d, legalEntityId: le_g}\n", n)))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestDefaultMemoryBudgetAdmitsLegitimateUse: the default budget takes
// every embedded scenario, the demo many times over, and a snapshot,
// restore and reset of each: the budget changes nothing for what the
// sandbox is used for.
func TestDefaultMemoryBudgetAdmitsLegitimateUse(t *testing.T) {
	eng := newEngine(t)
	demo := enginetest.MustScenario(t, "demo")
	if _, err := eng.CreateWorld(kernel.WorldSpec{Scenario: demo}); err != nil {
		t.Fatal(err)
	}
	all := []*scenario.Scenario{}
	for _, name := range scenarios.Names() {
		all = append(all, enginetest.MustScenario(t, name))
	}
	for range 20 {
		all = append(all, demo)
	}
	for i, sc := range all {
		seed := int64(i % 3) // fresh loads of the demo, and copies
		w, err := eng.SpawnWorld(kernel.WorldSpec{Scenario: sc, Seed: &seed})
		if err != nil {
			t.Fatalf("world %d of %s: %v", i, sc.Name, err)
		}
		s, err := eng.TakeSnapshot(w, "")
		if err != nil {
			t.Fatalf("snapshot of %s: %v", sc.Name, err)
		}
		if err := eng.RestoreSnapshot(w, s.ID); err != nil {
			t.Fatalf("restore of %s: %v", sc.Name, err)
		}
		if err := eng.Reset(w); err != nil {
			t.Fatalf("reset of %s: %v", sc.Name, err)
		}
	}
	used, limit := eng.MemoryUse()
	if limit != kernel.DefaultMemoryBudget || used <= 0 || used > limit/2 {
		t.Fatalf("used %d of %d: want the default budget, at most half used", used, limit)
	}
	t.Logf("%d worlds and as many snapshots hold %d MB as estimated", len(all)+1, used>>20)
}

// TestGeneratedWorldRefusedBeforeGenerating: a scenario whose generated
// transactions cannot fit is refused before one is made.
func TestGeneratedWorldRefusedBeforeGenerating(t *testing.T) {
	eng := newEngine(t)
	if _, err := eng.CreateWorld(kernel.WorldSpec{Scenario: enginetest.MustScenario(t, "empty")}); err != nil {
		t.Fatal(err)
	}
	eng.SetMemoryBudget(64 << 20)
	made := 0
	_, err := eng.SpawnWorld(kernel.WorldSpec{Scenario: generating(t, 1_000_000), OnRecord: func(string) { made++ }})
	if e, ok := kernel.AsError(err); !ok || e.Code != kernel.CodeInsufficientStorage {
		t.Fatalf("err = %v, want insufficient_storage", err)
	}
	if !strings.Contains(err.Error(), "the sandbox's 64 MiB memory budget") || made != 0 {
		t.Fatalf("err = %v after %d records; want the budget named, nothing made", err, made)
	}
	if n := len(eng.Worlds()); n != 1 {
		t.Fatalf("%d worlds, want the first alone", n)
	}
}

// TestGeneratedWorldStoppedOnTheWay: a load that goes past the budget,
// though its estimate fitted, stops once it does and leaves nothing held.
func TestGeneratedWorldStoppedOnTheWay(t *testing.T) {
	defer func(c int64) { kernel.GeneratedRecordCost = c }(kernel.GeneratedRecordCost)
	kernel.GeneratedRecordCost = 1 // the estimate says a million transactions take 1 MB
	eng := newEngine(t)
	if _, err := eng.CreateWorld(kernel.WorldSpec{Scenario: enginetest.MustScenario(t, "empty")}); err != nil {
		t.Fatal(err)
	}
	eng.SetMemoryBudget(32 << 20)
	before := liveHeap()
	made := 0
	_, err := eng.SpawnWorld(kernel.WorldSpec{Scenario: generating(t, 1_000_000), OnRecord: func(string) { made++ }})
	if e, ok := kernel.AsError(err); !ok || e.Code != kernel.CodeInsufficientStorage {
		t.Fatalf("err = %v, want insufficient_storage", err)
	}
	// 32 MiB hold about 23,000 generated transactions.
	if made == 0 || made > 100_000 {
		t.Fatalf("%d records made before the load stopped, want it stopped near the budget", made)
	}
	if used, _ := eng.MemoryUse(); used > 1<<20 {
		t.Fatalf("%d bytes held after the refusal", used)
	}
	if grown := int64(liveHeap()) - int64(before); grown > 16<<20 {
		t.Fatalf("the heap grew by %d MB after the refusal", grown>>20)
	}
}

func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
