package kernel_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Sequence counters are cached between writes; the IDs they make follow
// the store through failed writes, restores, resets and writes made
// around the cache.
func TestCountersFollowTheStore(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	want := func(n int64) string { return kernel.DeriveID(w.Seed, "test_", n) }
	next := func() string {
		t.Helper()
		var id string
		err := w.Update(func(op *kernel.Op) error {
			var err error
			id, err = op.NewID("test_")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	check := func(step string, got string, n int64) {
		t.Helper()
		if got != want(n) {
			t.Errorf("%s: id %s, want number %d (%s)", step, got, n, want(n))
		}
	}
	check("first", next(), 1)
	failed := errors.New("refused")
	err := w.Update(func(op *kernel.Op) error {
		for range 3 {
			if _, err := op.NewID("test_"); err != nil {
				return err
			}
		}
		return failed
	})
	if !errors.Is(err, failed) {
		t.Fatalf("failed write: %v", err)
	}
	check("after a failed write", next(), 2)
	snap, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	check("before the restore", next(), 3)
	if err := w.Restore(snap); err != nil {
		t.Fatal(err)
	}
	check("after the restore", next(), 3)
	if err := w.Reset(); err != nil {
		t.Fatal(err)
	}
	check("after the reset", next(), 1)
	err = w.Db.Update(func(tx *store.Tx) error { return tx.PutRaw(kernel.CountersKey, "test_ 41\n") })
	if err != nil {
		t.Fatal(err)
	}
	check("after a write around the cache", next(), 42)
	err = w.View(func(op *kernel.Op) error {
		if _, err := op.NewID("test_"); !errors.Is(err, kernel.ErrReadOnlyCounter) {
			t.Errorf("a counter moved in a read-only operation: %v", err)
		}
		if n, err := kernel.CounterValue(op, "test_"); n != 42 || err != nil {
			t.Errorf("stored counter %d (%v), want 42", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A write whose function panics is rolled back whole, its counters
// included, and the panic goes on to the caller.
func TestPanickingWriteStoresNothing(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	key := store.Key("m", "panic-probe")
	func() {
		defer func() {
			if r := recover(); r != "boom" {
				t.Errorf("recovered %v, want the write's own panic", r)
			}
		}()
		w.Update(func(op *kernel.Op) error {
			if _, err := op.NewID("test_"); err != nil {
				return err
			}
			if err := op.Tx.PutRaw(key, "half-written"); err != nil {
				return err
			}
			panic("boom")
		})
		t.Error("Update returned after its function panicked")
	}()
	err := w.View(func(op *kernel.Op) error {
		if v, ok, _ := op.Tx.GetRaw(key); ok {
			t.Errorf("the panicking write left %q", v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var id string
	if err := w.Update(func(op *kernel.Op) (err error) { id, err = op.NewID("test_"); return }); err != nil {
		t.Fatal(err)
	}
	if want := kernel.DeriveID(w.Seed, "test_", 1); id != want {
		t.Errorf("next id %s, want number 1 (%s): the panicking write moved the counter", id, want)
	}
}

// A store that keeps its counters one key each, as data files written
// before CountersKey do, counts on from them; the first write that moves
// a counter gathers them all into CountersKey and removes the old keys.
func TestCountersOfAnOlderStore(t *testing.T) {
	old := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	now := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	legacy := store.Prefix("m", "seq")
	err := old.Db.Update(func(tx *store.Tx) error {
		raw, ok, err := tx.GetRaw(kernel.CountersKey)
		if err != nil || !ok {
			t.Fatalf("the seeded world stores no counters: %v", err)
		}
		for line := range strings.Lines(raw) {
			name, value, _ := strings.Cut(strings.TrimSpace(line), " ")
			if err := tx.PutRaw(legacy+name, value); err != nil {
				return err
			}
		}
		return tx.Delete(kernel.CountersKey)
	})
	if err != nil {
		t.Fatal(err)
	}
	newIDs := func(w *kernel.World) (ids []string) {
		t.Helper()
		err := w.Update(func(op *kernel.Op) error {
			for _, prefix := range []string{"card_", kernel.Events.Prefix, "test_"} {
				id, err := op.NewID(prefix)
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	if got, want := newIDs(old), newIDs(now); !slices.Equal(got, want) {
		t.Fatalf("ids from the older store %v, from a new one %v", got, want)
	}
	stored := func(w *kernel.World) (counters string, legacyKeys int) {
		t.Helper()
		err := w.View(func(op *kernel.Op) error {
			var err error
			counters, _, err = op.Tx.GetRaw(kernel.CountersKey)
			if err != nil {
				return err
			}
			return op.Tx.Scan(legacy, "", false, func(string, string) bool { legacyKeys++; return true })
		})
		if err != nil {
			t.Fatal(err)
		}
		return counters, legacyKeys
	}
	got, left := stored(old)
	want, _ := stored(now)
	if got != want || left != 0 {
		t.Fatalf("after a write the older store holds counters\n%s(and %d old keys), a new one\n%s", got, left, want)
	}
	if !strings.Contains(want, "test_ 1\n") || !strings.Contains(want, "global ") {
		t.Fatalf("stored counters lack the ones moved:\n%s", want)
	}
	if got, want := newIDs(old), newIDs(now); !slices.Equal(got, want) {
		t.Fatalf("second ids from the older store %v, from a new one %v", got, want)
	}
}

// A counter raised goes on from there, one already beyond stays where it
// is, and Counters lists where each stands.
func TestRaisedCountersGoOnFromThere(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "empty"))
	var ids []string
	err := w.Update(func(op *kernel.Op) error {
		for _, step := range []struct {
			name string
			n    int64
		}{{"raised_", 10}, {"beyond_", 0}, {"beyond_", 0}, {"beyond_", 1}} {
			if step.n > 0 {
				if err := op.RaiseCounter(step.name, step.n); err != nil {
					return err
				}
				continue
			}
			id, err := op.NewID(step.name)
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		id, err := op.NewID("raised_")
		ids = append(ids, id)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{kernel.DeriveID(w.Seed, "beyond_", 1), kernel.DeriveID(w.Seed, "beyond_", 2),
		kernel.DeriveID(w.Seed, "raised_", 11)}
	if !slices.Equal(ids, want) {
		t.Errorf("ids %v, want %v", ids, want)
	}
	err = w.View(func(op *kernel.Op) error {
		c, err := kernel.Counters(op)
		if c["raised_"] != 11 || c["beyond_"] != 2 {
			t.Errorf("Counters = %v, want raised_ 11 and beyond_ 2", c)
		}
		if err := op.RaiseCounter("raised_", 20); !errors.Is(err, kernel.ErrReadOnlyCounter) {
			t.Errorf("a counter raised in a read-only operation: %v", err)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
