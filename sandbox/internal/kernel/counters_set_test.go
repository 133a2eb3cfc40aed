package kernel_test

import (
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// TestSetCounterMovesOnOnly: a sequence set to n gives n+1 next, one
// already past n keeps going from where it is, and Counters reads where
// every sequence stands.
func TestSetCounterMovesOnOnly(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "empty"))
	next := func(set int64) string {
		t.Helper()
		var id string
		err := w.Update(func(op *kernel.Op) error {
			if err := op.SetCounter("test_", set); err != nil {
				return err
			}
			var err error
			id, err = op.NewID("test_")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	for _, c := range []struct{ set, want int64 }{{10, 11}, {3, 12}, {12, 13}} {
		if got := next(c.set); got != kernel.DeriveID(w.Seed, "test_", c.want) {
			t.Errorf("set to %d: id %s, want number %d", c.set, got, c.want)
		}
	}
	err := w.View(func(op *kernel.Op) error {
		all, err := kernel.Counters(op)
		if err == nil && (all["test_"] != 13 || all["global"] == 0) {
			t.Errorf("counters = %v, want test_ at 13 and global moved", all)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
