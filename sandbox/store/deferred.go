package store

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

// Inserting keys in random order costs buntdb's tree a cache miss at
// almost every comparison; inserting them in key order keeps the path it
// walks in cache and is about three times faster. A Bulk fill gathers the
// puts under its deferred prefix (index entries, written by the hundred
// thousand and read back rarely while filling) and writes them in key
// order when something may read them, and at the end.

// deferred holds a Bulk transaction's gathered puts, and the keys outside
// the deferred prefix it has stored so far: it began with an empty
// database, so they are all such keys, and Swap learns whether one exists
// without a lookup.
type deferred struct {
	prefix string
	puts   []put
	stored map[string]struct{}
}

// put is one gathered put; n orders the puts of one key.
type put struct {
	KV
	n int
}

// deferrable reports whether key is under the deferred prefix.
func (t *Tx) deferrable(key string) bool {
	return t.later.prefix != "" && strings.HasPrefix(key, t.later.prefix)
}

// gather keeps a put for later when key is under the deferred prefix.
func (t *Tx) gather(key, val string) bool {
	if !t.deferrable(key) {
		return false
	}
	t.later.puts = append(t.later.puts, put{KV{key, val}, len(t.later.puts)})
	return true
}

// settleKey writes the gathered puts before key is read, replaced or
// deleted, when key is under the deferred prefix.
func (t *Tx) settleKey(key string) error {
	if t.later == nil || len(t.later.puts) == 0 || !strings.HasPrefix(key, t.later.prefix) {
		return nil
	}
	return t.settle()
}

// settleRange writes the gathered puts before a scan of prefix that may
// visit some of them.
func (t *Tx) settleRange(prefix string) error {
	if t.later == nil || len(t.later.puts) == 0 {
		return nil
	}
	p := t.later.prefix
	if !strings.HasPrefix(prefix, p) && !strings.HasPrefix(p, prefix) {
		return nil
	}
	return t.settle()
}

// settle writes the gathered puts in key order; of several puts of one key
// the last wins, as it would have written directly.
func (t *Tx) settle() error {
	puts := t.later.puts
	t.later.puts = nil
	sortPuts(puts)
	for _, p := range puts {
		if _, _, err := t.tx.Set(p.Key, p.Value, nil); err != nil {
			return err
		}
	}
	return nil
}

// sortPuts sorts by key and then by n, using two cores for a large slice:
// each half sorted on its own, then merged.
func sortPuts(puts []put) {
	order := func(a, b put) int {
		if c := cmp.Compare(a.Key, b.Key); c != 0 {
			return c
		}
		return cmp.Compare(a.n, b.n)
	}
	if len(puts) < 1<<14 {
		slices.SortFunc(puts, order)
		return
	}
	half := len(puts) / 2
	left, right := slices.Clone(puts[:half]), puts[half:]
	var wg sync.WaitGroup
	wg.Go(func() { slices.SortFunc(left, order) })
	slices.SortFunc(right, order)
	wg.Wait()
	// Merge into puts; right is its own tail, which the merge never
	// overtakes (out index i+j stays below half+j).
	i, j, out := 0, 0, 0
	for i < len(left) && j < len(right) {
		if order(right[j], left[i]) < 0 {
			puts[out] = right[j]
			j++
		} else {
			puts[out] = left[i]
			i++
		}
		out++
	}
	copy(puts[out:], left[i:])
	// What is left of right is already in place.
}
