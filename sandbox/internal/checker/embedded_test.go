package checker_test

import (
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/checker"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/scenarios"
)

// checkScenario loads sc in a scratch engine (seed and start override the
// scenario's when set) and returns the checker's findings.
func checkScenario(t *testing.T, sc *scenario.Scenario, seed *int64, start *time.Time) []checker.Finding {
	t.Helper()
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	found, err := checker.Scratch(eng, sc, seed, start)
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// TestEmbeddedScenariosObeyTheirRules: every embedded scenario, at several
// seeds and at clock starts a year apart, loads into a world with no record
// that contradicts its rules.
func TestEmbeddedScenariosObeyTheirRules(t *testing.T) {
	starts := []time.Time{time.Date(2026, 6, 15, 14, 0, 0, 0, time.UTC), time.Date(2027, 6, 15, 14, 0, 0, 0, time.UTC)}
	for _, name := range scenarios.Names() {
		sc, _, err := scenario.Embedded(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, seed := range []int64{1, 7, 1234} {
			for _, start := range starts {
				t.Run(name, func(t *testing.T) {
					for _, f := range checkScenario(t, sc, &seed, &start) {
						t.Errorf("seed %d, clock start %s: %s", seed, start.Format(time.DateOnly), f)
					}
				})
			}
		}
	}
}
