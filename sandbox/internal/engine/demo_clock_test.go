package engine_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// demoClockStarts are a year apart, with a leap day among them: every date
// the demo declares is relative to its clock start, so it loads at each.
var demoClockStarts = []string{"2024-02-29T15:04:05Z", "2024-03-02T15:04:05Z", "2025-03-02T15:04:05Z",
	"2026-03-02T15:04:05Z", "2027-03-02T15:04:05Z", "2026-06-15T14:00:00Z"}

func demoAt(t *testing.T, sc *scenario.Scenario, start time.Time) (*kernel.World, []byte) {
	t.Helper()
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	w, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc, ClockStart: &start})
	if err != nil {
		t.Fatalf("the demo does not load at %s: %v", start.Format(time.RFC3339), err)
	}
	return w, mustSnapshot(t, w)
}

func TestDemoLoadsAtAnyClockStart(t *testing.T) {
	// One parsed scenario serves every start: loading resolves its
	// relative dates without writing them back.
	sc := enginetest.MustScenario(t, "demo")
	for _, s := range demoClockStarts {
		t.Run(s, func(t *testing.T) {
			start, err := time.Parse(time.RFC3339, s)
			if err != nil {
				t.Fatal(err)
			}
			w, first := demoAt(t, sc, start)
			if _, again := demoAt(t, sc, start); !bytes.Equal(first, again) {
				t.Fatal("two loads at the same clock start differ")
			}
			// The groups' limits start the same number of days before the
			// clock start, on the day that is in the limit's zone.
			want := map[string]struct {
				days int
				zone string
			}{
				"card_group_acmesaas": {165, "America/Los_Angeles"},
				"card_group_acmeads":  {14, "Europe/London"},
			}
			err = w.View(func(op *kernel.Op) error {
				for id, wl := range want {
					var g cards.Group
					if ok, err := op.Get(cards.KindGroup, id, &g); err != nil || !ok {
						t.Fatalf("card group %s: %v %v", id, ok, err)
					}
					r := g.SpendingConstraint.SpendingRule
					l := r.UtilizationLimit
					if l == nil {
						l = &r.UtilizationLimitV2[0]
					}
					loc, _ := time.LoadLocation(wl.zone)
					if day := start.AddDate(0, 0, -wl.days).In(loc).Format(time.DateOnly); l.StartDate != day {
						t.Fatalf("%s starts %s, want %s", id, l.StartDate, day)
					}
				}
				_, err := cards.GroupUtilization(op, &kernel.Actor{LegalEntity: kernel.LegalEntity{ID: "le_acme"}},
					"card_group_acmesaas")
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
