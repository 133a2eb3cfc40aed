package kernel

import (
	"errors"
	"slices"
	"strconv"
	"strings"
)

// seqCache is a world's sequence counters as its last write left them,
// so that a write need not read a counter back from the store before
// moving it on: creating a card moves four. It is only touched inside
// write transactions, which the store runs one at a time.
type seqCache struct {
	// version is the store Version of the write that left the counters;
	// any other write since (a reset, a restore, a write that did not go
	// through World.Update) makes the cache stale, and it starts over.
	version uint64
	n       map[string]int64
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
	n, ok := op.W.seqs.current(v)[name]
	if !ok {
		raw, _, err := op.Tx.GetRaw(SeqKey(name))
		if err != nil {
			return 0, err
		}
		n, _ = strconv.ParseInt(raw, 10, 64)
	}
	if op.seqs == nil {
		op.seqs = make([]counter, 0, 4) // an operation moves a few
	}
	op.seqs = append(op.seqs, counter{name, n + 1})
	return n + 1, nil
}

// counter is a sequence counter an operation moved, and where it left it.
type counter struct {
	name string
	n    int64
}

// storeCounters writes the counters the operation moved, in name order.
func (op *Op) storeCounters() error {
	slices.SortFunc(op.seqs, func(a, b counter) int { return strings.Compare(a.name, b.name) })
	for _, c := range op.seqs {
		if err := op.Tx.PutRaw(SeqKey(c.name), strconv.FormatInt(c.n, 10)); err != nil {
			return err
		}
	}
	return nil
}

// settleCounters, called last inside a write made by World.Update, keeps
// the world's counter cache in step with what the write leaves stored:
// the moved counters when it commits (ok), the old ones when it rolls
// back. Should the store fail to commit after all, the cache runs ahead of
// it, which skips sequence numbers but never repeats one.
func (op *Op) settleCounters(ok bool) {
	c := &op.W.seqs
	v := op.Tx.Version()
	n := c.current(v)
	c.version = v
	if ok {
		for _, s := range op.seqs {
			n[s.name] = s.n
		}
	}
}

// current returns the cached counters for the write that makes Version v:
// those the previous write left (or this one, already), else none.
func (c *seqCache) current(v uint64) map[string]int64 {
	if c.n == nil || (c.version != v-1 && c.version != v) {
		c.version, c.n = v, map[string]int64{}
	}
	return c.n
}
