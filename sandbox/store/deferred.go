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
// puts under its deferred prefixes (records, index entries: written by the
// hundred thousand and read back rarely while filling) and writes them in
// key order when something may read them, and at the end.

// deferred holds a Bulk transaction's gathered puts, and the keys it
// stored with Swap or outside the deferred prefixes: it began with an
// empty database, so Swap learns whether a key exists without a lookup,
// except under a prefix where PutRaw gathered keys it does not track.
type deferred struct {
	prefixes []string
	puts     []put
	stored   map[string]struct{}
	// untracked counts, per prefix, the puts PutRaw gathered.
	untracked []int
}

// put is one gathered put; n orders the puts of one key.
type put struct {
	KV
	n int
}

func newDeferred(prefixes []string) *deferred {
	return &deferred{prefixes: prefixes, stored: map[string]struct{}{}, untracked: make([]int, len(prefixes))}
}

// under returns the index of the deferred prefix key is under, or -1.
func (d *deferred) under(key string) int {
	for i, p := range d.prefixes {
		if strings.HasPrefix(key, p) {
			return i
		}
	}
	return -1
}

func (d *deferred) gather(key, val string) {
	d.puts = append(d.puts, put{KV{key, val}, len(d.puts)})
}

// settleKey writes the gathered puts before key is read, replaced or
// deleted, when key is under a deferred prefix.
func (t *Tx) settleKey(key string) error {
	if t.later == nil || len(t.later.puts) == 0 || t.later.under(key) < 0 {
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
	for _, p := range t.later.prefixes {
		if strings.HasPrefix(prefix, p) || strings.HasPrefix(p, prefix) {
			return t.settle()
		}
	}
	return nil
}

// bulkPutRaw is PutRaw inside Bulk.
func (t *Tx) bulkPutRaw(key, val string) error {
	d := t.later
	if i := d.under(key); i >= 0 {
		d.gather(key, val)
		d.untracked[i]++
		return nil
	}
	d.stored[key] = struct{}{}
	_, _, err := t.tx.Set(key, val, nil)
	return err
}

// bulkSwap is Swap inside Bulk.
func (t *Tx) bulkSwap(key, val string) (prev string, existed bool, err error) {
	d := t.later
	i := d.under(key)
	if _, known := d.stored[key]; known || (i >= 0 && d.untracked[i] > 0) {
		if prev, existed, err = t.GetRaw(key); err != nil {
			return "", false, err
		}
	}
	d.stored[key] = struct{}{}
	if i >= 0 {
		d.gather(key, val)
		return prev, existed, nil
	}
	_, _, err = t.tx.Set(key, val, nil)
	return prev, existed, err
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
