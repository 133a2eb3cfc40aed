package engine_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// TestReadmeScenarioExample loads the scenario shown in docs/scenarios.md
// and runs its scheduled events, so the documentation stays true.
func TestReadmeScenarioExample(t *testing.T) {
	raw, err := os.ReadFile("../../../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	_, example, _ := strings.Cut(string(raw), "## An example\n")
	_, rest, ok := strings.Cut(example, "```yaml\n")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/scenarios.md has no yaml block under An example")
	}
	sc, err := scenario.Parse("docs/scenarios.md", []byte(block))
	if err != nil {
		t.Fatal(err)
	}
	w := enginetest.MustWorld(t, sc)
	ran, err := w.Advance(w.Now().Add(72 * time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range ran {
		if ev.Status != kernel.StatusDone {
			t.Fatalf("event %s %s: %s", ev.Kind, ev.Status, ev.Error)
		}
	}
	err = w.View(func(op *kernel.Op) error {
		tx, ok, err := ledger.FindTransaction(op, "txn_achout")
		if !ok || tx.DetailedStatus != "canceled" {
			t.Fatalf("txn_achout = %+v, %v", tx, ok)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
