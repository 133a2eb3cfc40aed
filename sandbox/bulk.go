package sandbox

import (
	"maps"
	"slices"
)

// bulkCounters keep a loading scenario's ledger totals in memory, written to
// the store once when loading ends: a scenario that generates 100,000
// transactions would otherwise rewrite the same few totals records hundreds
// of thousands of times. Reads go through them too, so the load sees exactly
// what the store would hold. (Sequence counters are kept in memory by every
// operation; see counter.)
type bulkCounters struct {
	totals map[string]*Totals // by totalsKey
	// written are the totals changed (only those are stored).
	written map[string]bool
}

// bulkLoading turns the in-memory totals on; a test turns them off to
// check that loading stores the same either way.
var bulkLoading = true

// bulkTotals returns the totals record a loading scenario works on.
func (op *Op) bulkTotals(owner, bucket string) (*Totals, error) {
	key := totalsKey(owner, bucket)
	if t, ok := op.bulk.totals[key]; ok {
		return t, nil
	}
	t := &Totals{}
	if _, err := op.get(kindTotals, key, t); err != nil {
		return nil, err
	}
	op.bulk.totals[key] = t
	return t, nil
}

// startBulk makes the operation keep totals in memory.
func (op *Op) startBulk() {
	op.bulk = &bulkCounters{totals: map[string]*Totals{}, written: map[string]bool{}}
}

// flushBulk stores the totals kept in memory, in key order, and returns to
// writing them through.
func (op *Op) flushBulk() error {
	b := op.bulk
	if b == nil {
		return nil
	}
	op.bulk = nil
	for _, key := range slices.Sorted(maps.Keys(b.written)) {
		if err := op.save(kindTotals, key, b.totals[key]); err != nil {
			return err
		}
	}
	return nil
}
