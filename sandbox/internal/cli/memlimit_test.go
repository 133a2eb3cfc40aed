package cli

import (
	"runtime/debug"
	"testing"
)

func TestGCPercentFollowsTheLiveHeap(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int
	}{{0, 100}, {bigHeap, 100}, {bigHeap + 1, 50}, {1 << 34, 50}} {
		if got := gcPercent(c.live); got != c.want {
			t.Errorf("gcPercent(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}

// A test process's live heap is far under bigHeap: the pace set is Go's
// default, whatever it was before.
func TestSetCollectorPaceSetsTheCollector(t *testing.T) {
	before := debug.SetGCPercent(30)
	defer debug.SetGCPercent(before)
	if got := setCollectorPace(30); got != 100 {
		t.Fatalf("setCollectorPace returned %d, want 100", got)
	}
	if now := debug.SetGCPercent(before); now != 100 {
		t.Errorf("the collector's pace is %d, want 100", now)
	}
}
