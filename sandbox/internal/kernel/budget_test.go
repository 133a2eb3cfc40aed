package kernel

import (
	"strings"
	"testing"
)

// TestReservationsShareTheBudget: work under way sets memory aside from
// one budget: what does not fit beside it is refused, saying the figures,
// until it is released; growing a reservation counts only the growth.
func TestReservationsShareTheBudget(t *testing.T) {
	e, err := NewEngine(nil, Wiring{})
	if err != nil {
		t.Fatal(err)
	}
	if _, limit := e.MemoryUse(); limit != DefaultMemoryBudget {
		t.Fatalf("a new engine's budget is %d, want %d", limit, DefaultMemoryBudget)
	}
	e.SetMemoryBudget(100 << 20)
	first, err := e.Reserve("the first", 60<<20)
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Reserve("the second", 50<<20)
	ae, ok := AsError(err)
	if !ok || ae.Code != CodeInsufficientStorage {
		t.Fatalf("err = %v, want insufficient_storage", err)
	}
	for _, want := range []string{"the second needs about 50 MiB", "already hold 60 MiB", "100 MiB memory budget",
		"--memory-budget"} {
		if !strings.Contains(ae.Message, want) {
			t.Fatalf("message %q lacks %q", ae.Message, want)
		}
	}
	if ae.Details["budget"] != "104857600" || ae.Details["used"] != "62914560" || ae.Details["needed"] != "52428800" {
		t.Fatalf("details = %v", ae.Details)
	}
	if err := first.Grow(100 << 20); err != nil {
		t.Fatalf("growing the first to the whole budget: %v", err)
	}
	if err := first.Grow(101 << 20); err == nil {
		t.Fatal("the first grew past the budget")
	}
	first.Release()
	if used, _ := e.MemoryUse(); used != 0 {
		t.Fatalf("%d bytes used after the release", used)
	}
	if _, err := e.Reserve("the second", 50<<20); err != nil {
		t.Fatalf("after the release: %v", err)
	}
	e.SetMemoryBudget(0)
	if _, err := e.Reserve("anything", 1<<50); err != nil {
		t.Fatalf("without a budget: %v", err)
	}
}
