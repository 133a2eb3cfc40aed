package engine_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// counterNames are the sequence counters that number something other than
// ids of a domain: the global sequence, signing secrets, incoming transfers'
// sender details, and the ids of the kernel's outbox (its own kind).
var counterNames = []string{"global", "whsec", "incoming", "msg_"}

// TestEveryIDPrefixIsDeclared loads the demo scenario and fails for a
// sequence counter its records moved that is no declared id prefix: a
// domain that numbers ids with a prefix it did not declare escapes the
// check that no two domains share one.
func TestEveryIDPrefixIsDeclared(t *testing.T) {
	declared := map[string]bool{}
	for _, k := range append(engine.Wiring().Kinds, kernel.LegalEntities, kernel.Users, kernel.APIKeys,
		kernel.Events) {
		declared[k.Prefix] = true
	}
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	err := w.View(func(op *kernel.Op) error {
		raw, _, err := op.Tx.GetRaw(kernel.CountersKey)
		if err != nil {
			return err
		}
		seen := 0
		for line := range strings.Lines(raw) {
			name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
			if name == "" {
				continue
			}
			seen++
			if !declared[name] && !slices.Contains(counterNames, name) {
				t.Errorf("the counter %q numbers ids of a prefix no domain declares in its Kinds", name)
			}
		}
		if seen < 5 {
			t.Errorf("the demo world moved %d counters; the check reads them wrong", seen)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
