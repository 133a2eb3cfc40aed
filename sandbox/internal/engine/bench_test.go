package engine_test

import (
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// BenchmarkSpawnWorld measures making an isolated world from a scenario
// another world already loaded (a copy of its loaded state) and deleting it.
func BenchmarkSpawnWorld(b *testing.B) {
	sc := enginetest.MustScenario(b, "demo")
	eng, err := engine.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	if _, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		w, err := eng.SpawnWorld(kernel.WorldSpec{Scenario: sc})
		if err != nil {
			b.Fatal(err)
		}
		if err := eng.DeleteWorld(w.ID); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadDemo measures loading the demo scenario from scratch.
func BenchmarkLoadDemo(b *testing.B) { benchmarkLoad(b, "demo") }

// benchmarkLoad loads a scenario from scratch in a new engine each time.
// A load listened to is never copied from one another engine of the
// process made, so each is a whole load.
func benchmarkLoad(b *testing.B, scenario string) {
	sc := enginetest.MustScenario(b, scenario)
	for b.Loop() {
		eng, err := engine.New(nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc, OnRecord: func(string) {}}); err != nil {
			b.Fatal(err)
		}
		eng.Close()
	}
}

// BenchmarkAdvanceYear measures advancing the demo world by a year: hourly
// token ticks and every settlement due on the way (thousands of events).
func BenchmarkAdvanceYear(b *testing.B) {
	sc := enginetest.MustScenario(b, "demo")
	eng, err := engine.New(nil)
	if err != nil {
		b.Fatal(err)
	}
	defer eng.Close()
	w, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc})
	if err != nil {
		b.Fatal(err)
	}
	var ran int
	for b.Loop() {
		if err := w.Reset(); err != nil {
			b.Fatal(err)
		}
		evs, err := w.Advance(w.Now().Add(365 * 24 * time.Hour))
		if err != nil {
			b.Fatal(err)
		}
		ran = len(evs)
	}
	b.ReportMetric(float64(ran), "events/op")
}

// BenchmarkLoadBig measures loading bench/big.yaml: 100,000 generated
// transactions.
func BenchmarkLoadBig(b *testing.B) { benchmarkLoad(b, "../../../bench/big.yaml") }
