package kernel

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// CountersKey holds all of a world's sequence counters, one line each,
// "<name> <value>", in name order: a write that moves several (creating a
// card moves four) stores one key. Counter names are words the code
// chooses (id prefixes, "global"): no spaces, no line breaks.
var CountersKey = store.Key("m", "seqs")

// legacyCounterPrefix holds the counters of data files written before
// CountersKey, one key per counter. They are read when a counter is not
// in CountersKey, and removed by the next write that stores the counters.
var legacyCounterPrefix = store.Prefix("m", "seq")

// seqCache is a world's sequence counters as its last write left them,
// so that a write need not read and parse them back from the store
// before moving them on. It is only touched inside write transactions,
// which the store runs one at a time.
type seqCache struct {
	// db and version are the store and the store Version of the write
	// that left the counters; any other write since (a reset, a restore,
	// a write that did not go through World.Update), or another store
	// (a data file adopted), makes the cache stale, and it starts over.
	db      *store.DB
	version uint64
	// vals are the counters in name order; nil when the cache is stale.
	vals []counter
	// legacy are the per-counter keys read from an older data file, to
	// remove when the counters are next stored.
	legacy []string
}

// ErrReadOnlyCounter reports a counter moved in a read-only operation.
var ErrReadOnlyCounter = errors.New("a sequence counter cannot move in a read-only operation")

// Counter returns the next value of a named sequence. The operation keeps
// the values it moves and stores them when it ends (storeCounters).
func (op *Op) Counter(name string) (int64, error) {
	v := op.Tx.Version()
	if v == 0 {
		return 0, ErrReadOnlyCounter
	}
	for i := range op.seqs {
		if c := &op.seqs[i]; c.name == name {
			c.n++
			return c.n, nil
		}
	}
	c, err := op.W.seqs.current(op)
	if err != nil {
		return 0, err
	}
	if op.seqs == nil {
		op.seqs = make([]counter, 0, 4) // an operation moves a few
	}
	n := valueOf(c.vals, name) + 1
	op.seqs = append(op.seqs, counter{name, n})
	return n, nil
}

// counter is a sequence counter and where it stands.
type counter struct {
	name string
	n    int64
}

func byName(a, b counter) int { return strings.Compare(a.name, b.name) }

// valueOf is where the counter name stands among vals (in name order): 0
// when it has not moved yet.
func valueOf(vals []counter, name string) int64 {
	if i, ok := slices.BinarySearchFunc(vals, counter{name: name}, byName); ok {
		return vals[i].n
	}
	return 0
}

// merged is vals (in name order) with the counters moved (in name order)
// set, in name order; it shares no memory with vals.
func merged(vals, moved []counter) []counter {
	out := make([]counter, 0, len(vals)+len(moved))
	eachMerged(vals, moved, func(c counter) { out = append(out, c) })
	return out
}

// eachMerged calls fn for each counter of vals with those moved set, in
// name order (both are in name order).
func eachMerged(vals, moved []counter, fn func(counter)) {
	for len(vals) > 0 || len(moved) > 0 {
		switch {
		case len(moved) == 0 || len(vals) > 0 && vals[0].name < moved[0].name:
			fn(vals[0])
			vals = vals[1:]
		case len(vals) > 0 && vals[0].name == moved[0].name:
			fn(moved[0])
			vals, moved = vals[1:], moved[1:]
		default:
			fn(moved[0])
			moved = moved[1:]
		}
	}
}

// storeCounters writes the world's counters with those the operation
// moved, when it moved any. It puts the moved ones in name order.
func (op *Op) storeCounters() error {
	if len(op.seqs) == 0 {
		return nil
	}
	c, err := op.W.seqs.current(op)
	if err != nil {
		return err
	}
	for _, k := range c.legacy {
		if err := op.Tx.Delete(k); err != nil {
			return err
		}
	}
	slices.SortFunc(op.seqs, byName)
	return op.Tx.PutRaw(CountersKey, formatCounters(c.vals, op.seqs))
}

// formatCounters is CountersKey's value for vals with those moved set
// (both in name order).
func formatCounters(vals, moved []counter) string {
	size := 0
	for _, c := range vals {
		size += len(c.name) + 12
	}
	for _, c := range moved {
		size += len(c.name) + 12
	}
	var b strings.Builder
	b.Grow(size)
	var num [20]byte
	eachMerged(vals, moved, func(c counter) {
		b.WriteString(c.name)
		b.WriteByte(' ')
		b.Write(strconv.AppendInt(num[:0], c.n, 10))
		b.WriteByte('\n')
	})
	return b.String()
}

// finishCounters ends an operation that err did not fail by storing its
// counters, then keeps the world's counter cache in step with the outcome.
func (op *Op) finishCounters(err error) error {
	if err == nil {
		err = op.storeCounters()
	}
	op.settleCounters(err == nil)
	return err
}

// settleCounters, called last inside a write made by World.Update, keeps
// the world's counter cache in step with what the write leaves stored:
// the moved counters when it commits (ok), the old ones when it rolls
// back. Should the store fail to commit after all, the cache runs ahead of
// it, which skips sequence numbers but never repeats one.
func (op *Op) settleCounters(ok bool) {
	c := &op.W.seqs
	v := op.Tx.Version()
	if c.db != op.W.Db {
		c.vals = nil
		return
	}
	if c.version != v {
		// The write moved no counter, or failed before reading them:
		// what the previous write left still holds, unless that was not
		// the write before this one.
		if c.vals == nil || c.version != v-1 {
			c.vals = nil
			return
		}
		c.version = v
	}
	if !ok || len(op.seqs) == 0 {
		return
	}
	c.legacy = nil
	added := false
	for _, s := range op.seqs {
		if i, found := slices.BinarySearchFunc(c.vals, s, byName); found {
			c.vals[i].n = s.n
		} else {
			added = true
		}
	}
	if added {
		slices.SortFunc(op.seqs, byName)
		c.vals = merged(c.vals, op.seqs)
	}
}

// current returns the counters as the write op runs in finds them: those
// the previous write left, or else those it reads from the store.
func (c *seqCache) current(op *Op) (*seqCache, error) {
	v := op.Tx.Version()
	if c.vals != nil && c.db == op.W.Db && (c.version == v-1 || c.version == v) {
		c.version = v
		return c, nil
	}
	vals, legacy, err := readCounters(op.Tx)
	if err != nil {
		c.vals = nil
		return nil, err
	}
	c.db, c.version, c.vals, c.legacy = op.W.Db, v, vals, legacy
	return c, nil
}

// readCounters reads a world's counters, in name order, from its store:
// CountersKey, and the keys of counters stored one per key by an older
// data file.
func readCounters(tx *store.Tx) (vals []counter, legacy []string, err error) {
	raw, _, err := tx.GetRaw(CountersKey)
	if err != nil {
		return nil, nil, err
	}
	vals = []counter{} // not nil: a cache of no counters is not stale
	for line := range strings.Lines(raw) {
		name, value, _ := strings.Cut(strings.TrimSuffix(line, "\n"), " ")
		v, err := strconv.ParseInt(value, 10, 64)
		if err != nil || name == "" {
			return nil, nil, fmt.Errorf("stored sequence counters: bad line %q", line)
		}
		vals = append(vals, counter{name, v})
	}
	if !slices.IsSortedFunc(vals, byName) {
		return nil, nil, fmt.Errorf("stored sequence counters are not in name order")
	}
	var old []counter
	var bad error
	err = tx.Scan(legacyCounterPrefix, "", false, func(key, val string) bool {
		name := strings.TrimPrefix(key, legacyCounterPrefix)
		v, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			bad = fmt.Errorf("stored sequence counter %q: %q is not a number", name, val)
			return false
		}
		if _, found := slices.BinarySearchFunc(vals, counter{name: name}, byName); !found {
			old = append(old, counter{name, v})
		}
		legacy = append(legacy, key)
		return true
	})
	if err == nil {
		err = bad
	}
	if err != nil {
		return nil, nil, err
	}
	if len(old) > 0 {
		slices.SortFunc(old, byName)
		vals = merged(vals, old)
	}
	return vals, legacy, nil
}

// CounterValue is where a named sequence stands: the last value it gave,
// 0 before the first.
func CounterValue(op *Op, name string) (int64, error) {
	for _, s := range op.seqs {
		if s.name == name {
			return s.n, nil
		}
	}
	vals, _, err := readCounters(op.Tx)
	return valueOf(vals, name), err
}

// Counters lists where every sequence of the world stands, by name: what
// an export carries so that a world loaded from it goes on numbering
// where this one is.
func Counters(op *Op) (map[string]int64, error) {
	vals, _, err := readCounters(op.Tx)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(vals)+len(op.seqs))
	for _, c := range vals {
		out[c.name] = c.n
	}
	for _, s := range op.seqs {
		out[s.name] = s.n
	}
	return out, nil
}

// RaiseCounter moves a named sequence on to at least n, so the next value
// it gives is above n: a loaded world's ids never repeat those its
// scenario declared from the world it was exported from.
func (op *Op) RaiseCounter(name string, n int64) error {
	if op.Tx.Version() == 0 {
		return ErrReadOnlyCounter
	}
	now, err := CounterValue(op, name)
	if err != nil || now >= n {
		return err
	}
	for i := range op.seqs {
		if op.seqs[i].name == name {
			op.seqs[i].n = n
			return nil
		}
	}
	if _, err := op.W.seqs.current(op); err != nil {
		return err
	}
	op.seqs = append(op.seqs, counter{name, n})
	return nil
}
