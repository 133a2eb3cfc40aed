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

// The keys and values a Bulk fill gathers are copied into large blocks
// (an arena) rather than each kept in an allocation of its own: a world
// loaded from a large scenario holds them for its life, and the garbage
// the load makes between them would otherwise leave the heap's pages of
// small strings part-used, pages the process cannot give back (about
// 15 MB of bench/big.yaml's world). A value that ends its key (an index
// entry's record id) is that end of the copied key.

// arena hands out strings copied into blocks of arenaBlock bytes; a string
// larger than a sixteenth of a block gets an allocation of its own.
type arena struct{ block strings.Builder }

const arenaBlock = 256 << 10

func (a *arena) keep(b []byte) string {
	if len(b) > arenaBlock/16 {
		return string(b)
	}
	a.room(len(b))
	off := a.block.Len()
	a.block.Write(b)
	return a.block.String()[off:]
}

func (a *arena) keepString(s string) string {
	if len(s) > arenaBlock/16 {
		return s
	}
	a.room(len(s))
	off := a.block.Len()
	a.block.WriteString(s)
	return a.block.String()[off:]
}

// room starts a new block when the current one cannot take n more bytes.
// The strings handed out keep the old one alive; a Builder only appends,
// so they never change.
func (a *arena) room(n int) {
	if a.block.Cap()-a.block.Len() < n {
		a.block = strings.Builder{}
		a.block.Grow(arenaBlock)
	}
}

// deferred holds a Bulk transaction's gathered puts, and the keys it
// stored with Swap or outside the deferred prefixes: it began with an
// empty database, so Swap learns whether a key exists without a lookup,
// except under a prefix where PutRaw gathered keys it does not track.
type deferred struct {
	prefixes []string
	puts     []put
	// latest is the last value gathered of each key in puts.
	latest map[string]string
	stored map[string]struct{}
	// untracked counts, per prefix, the puts PutRaw gathered.
	untracked []int
	arena     arena
}

// put is one gathered put; n orders the puts of one key.
type put struct {
	KV
	n int
}

func newDeferred(prefixes []string) *deferred {
	return &deferred{prefixes: prefixes, stored: map[string]struct{}{}, untracked: make([]int, len(prefixes)),
		latest: map[string]string{}}
}

// settleEvery bounds the puts gathered between two writes, and so the
// memory latest takes: a few megabytes.
const settleEvery = 1 << 17

// gathered returns the value last gathered at key, if any.
func (t *Tx) gathered(key string) (string, bool) {
	if t.later == nil {
		return "", false
	}
	v, ok := t.later.latest[key]
	return v, ok
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

// gather keeps a put for later, its key copied into the arena and its
// value too unless kept says it is there already.
func (d *deferred) gather(key, val string, kept bool) {
	key = d.arena.keepString(key)
	switch {
	case kept:
	case strings.HasSuffix(key, val):
		val = key[len(key)-len(val):]
	default:
		val = d.arena.keepString(val)
	}
	d.puts = append(d.puts, put{KV{key, val}, len(d.puts)})
	d.latest[key] = val
}

// gatheredEnough writes the gathered puts once settleEvery keys wait.
func (t *Tx) gatheredEnough() error {
	if len(t.later.latest) < settleEvery {
		return nil
	}
	return t.settle()
}

// keeper is how encode makes the string of a value stored at key: in the
// arena when the key's put is gathered.
func (t *Tx) keeper(key string) func([]byte) string {
	if t.later == nil || t.later.under(key) < 0 {
		return keepString
	}
	return t.later.arena.keep
}

// settleKey writes the gathered puts before key is
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

// bulkPutRaw is PutRaw inside Bulk; kept says val is in the arena.
func (t *Tx) bulkPutRaw(key, val string, kept bool) error {
	d := t.later
	t.stored(key, val, "", false)
	if i := d.under(key); i >= 0 {
		d.gather(key, val, kept)
		d.untracked[i]++
		return t.gatheredEnough()
	}
	d.stored[key] = struct{}{}
	_, _, err := t.tx.Set(key, val, nil)
	return err
}

// bulkSwap is Swap inside Bulk, of a value made by t.keeper(key).
func (t *Tx) bulkSwap(key, val string) (prev string, existed bool, err error) {
	d := t.later
	i := d.under(key)
	if _, known := d.stored[key]; known || (i >= 0 && d.untracked[i] > 0) {
		if prev, existed, err = t.GetRaw(key); err != nil {
			return "", false, err
		}
	}
	d.stored[key] = struct{}{}
	t.stored(key, val, prev, existed)
	if i >= 0 {
		d.gather(key, val, true)
		return prev, existed, t.gatheredEnough()
	}
	_, _, err = t.tx.Set(key, val, nil)
	return prev, existed, err
}

// settle writes the gathered puts in key order; of several puts of one key
// the last wins, as it would have written directly.
func (t *Tx) settle() error {
	puts := t.later.puts
	t.later.puts = nil
	clear(t.later.latest)
	sortPuts(puts)
	puts = lastOfEachKey(puts)
	for _, i := range fillOrder(len(puts)) {
		if _, _, err := t.tx.Set(puts[i].Key, puts[i].Value, nil); err != nil {
			return err
		}
	}
	return nil
}

// buntdb's tree holds up to 255 items a node and splits a full one around
// its middle item into two halves of nodeHalf. Keys set in ascending order
// leave every half they split off half full for good: 32 bytes of tree a
// key where 16 would do.
const nodeHalf = 127

// fillOrder is the order to set n sorted keys in so that the tree's nodes
// end up nearly full. Of each group of 2*nodeHalf+1 keys, the first half
// and the last key are set in a first ascending pass, which leaves a leaf
// of the first halves between the last keys; the second pass appends each
// group's second half to its leaf. Keys already in the tree only make a
// leaf or two less full. bench/big.yaml's tree takes 8 MB instead of 16,
// at no cost in time.
func fillOrder(n int) []int {
	const group = 2*nodeHalf + 1
	order := make([]int, 0, n)
	for g := 0; g < n; g += group {
		for i := g; i < min(g+nodeHalf, n); i++ {
			order = append(order, i)
		}
		if last := g + group - 1; last < n {
			order = append(order, last)
		}
	}
	for g := 0; g < n; g += group {
		for i := g + nodeHalf; i < min(g+group-1, n); i++ {
			order = append(order, i)
		}
	}
	return order
}

// lastOfEachKey keeps, of sorted puts, the last of each key.
func lastOfEachKey(puts []put) []put {
	out := puts[:0]
	for i, p := range puts {
		if i+1 < len(puts) && puts[i+1].Key == p.Key {
			continue
		}
		out = append(out, p)
	}
	return out
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
