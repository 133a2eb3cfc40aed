package store

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// A random mix of puts, swaps, deletes, reads and scans gives the same
// answers and the same final keys in a Bulk with deferred prefixes as in an
// ordinary Update.
func TestBulkDeferredPutsReadAsWritten(t *testing.T) {
	type step struct {
		op       int
		key, val string
	}
	r := rand.New(rand.NewSource(3))
	var steps []step
	for i := range 3000 {
		// i: deferred, written by PutRaw and Swap; r: deferred, written
		// by Swap only; m: not deferred.
		kind := []string{"i", "r", "m"}[r.Intn(3)]
		key := Key(kind, fmt.Sprint(r.Intn(400)))
		op := r.Intn(10)
		if kind == "r" && op < 6 {
			op = 8
		}
		steps = append(steps, step{op, key, fmt.Sprint(i)})
	}
	run := func(db *DB, write func(func(*Tx) error) error) ([]string, []KV) {
		var seen []string
		err := write(func(tx *Tx) error {
			for _, s := range steps {
				switch {
				case s.op < 6:
					if err := tx.PutRaw(s.key, s.val); err != nil {
						return err
					}
				case s.op == 6:
					if err := tx.Delete(s.key); err != nil {
						return err
					}
				case s.op == 7:
					v, ok, err := tx.GetRaw(s.key)
					if err != nil {
						return err
					}
					seen = append(seen, fmt.Sprint(v, ok))
				case s.op == 8:
					prev, ok, err := tx.Swap(s.key, s.val)
					if err != nil {
						return err
					}
					seen = append(seen, fmt.Sprint(prev, ok))
				default:
					n := 0
					err := tx.Scan(Prefix([]string{"i", "r", "m"}[r.Intn(3)]), "", r.Intn(2) == 0, func(k, v string) bool {
						seen = append(seen, k+"="+v)
						n++
						return n < 5
					})
					if err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		items, err := db.Items()
		if err != nil {
			t.Fatal(err)
		}
		return seen, items
	}
	r = rand.New(rand.NewSource(9))
	direct := mustOpen(t)
	seen1, items1 := run(direct, direct.Update)
	r = rand.New(rand.NewSource(9))
	bulk := mustOpen(t)
	seen2, items2 := run(bulk, func(fn func(*Tx) error) error { return bulk.Bulk([]string{Prefix("i"), Prefix("r")}, fn) })
	if !slices.Equal(seen1, seen2) {
		t.Fatalf("reads differ: %d vs %d answers", len(seen1), len(seen2))
	}
	if !slices.Equal(items1, items2) {
		t.Fatalf("stored keys differ: %d vs %d", len(items1), len(items2))
	}
	if len(items1) < 100 || len(seen1) < 300 {
		t.Fatalf("the mix did too little: %d keys, %d reads", len(items1), len(seen1))
	}
}

// sortPuts orders by key and, for one key, by the order of the puts, on
// either side of the size where it splits the work.
func TestSortPutsKeepsTheOrderOfPuts(t *testing.T) {
	for _, n := range []int{0, 1, 100, 1 << 14, 1<<15 + 7} {
		r := rand.New(rand.NewSource(int64(n)))
		puts := make([]put, n)
		for i := range puts {
			puts[i] = put{KV{fmt.Sprint(r.Intn(n/3 + 1)), fmt.Sprint(i)}, i}
		}
		want := slices.Clone(puts)
		slices.SortStableFunc(want, func(a, b put) int { return strings.Compare(a.Key, b.Key) })
		sortPuts(puts)
		if !slices.Equal(puts, want) {
			t.Fatalf("n=%d: not in key order, then put order", n)
		}
	}
}

// fillOrder sets every key once.
func TestFillOrderSetsEveryKeyOnce(t *testing.T) {
	for _, n := range []int{0, 1, 126, 127, 128, 254, 255, 256, 1000, 100_000} {
		order := fillOrder(n)
		seen := make([]bool, n)
		for _, i := range order {
			if i < 0 || i >= n || seen[i] {
				t.Fatalf("n %d: key %d set twice or out of range", n, i)
			}
			seen[i] = true
		}
		if len(order) != n {
			t.Fatalf("n %d: %d keys set", n, len(order))
		}
	}
}
