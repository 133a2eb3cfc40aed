package kernel

import (
	"maps"
	"slices"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// bulkCounters keep a loading scenario's ledger totals in memory, written to
// the store once when loading ends: a scenario that generates 100,000
// transactions would otherwise rewrite the same few totals records hundreds
// of thousands of times. Reads go through them too, so the load sees exactly
// what the store would hold. (Sequence counters are kept in memory by every
// operation; see counter.)
type bulkCounters struct {
	totals map[string]*Totals // by totalsKey
	// Written are the totals changed (only those are stored).
	Written map[string]bool
}

// BulkLoading turns the in-memory totals on; a test turns them off to
// check that loading stores the same either way.
var BulkLoading = true

// BulkTotals returns the totals record a loading scenario works on.
func (op *Op) BulkTotals(owner, bucket string) (*Totals, error) {
	key := TotalsKey(owner, bucket)
	if t, ok := op.Bulk.totals[key]; ok {
		return t, nil
	}
	t := &Totals{}
	if _, err := op.Get(KindTotals, key, t); err != nil {
		return nil, err
	}
	op.Bulk.totals[key] = t
	return t, nil
}

// StartBulk makes the operation keep totals in memory.
func (op *Op) StartBulk() {
	op.Bulk = &bulkCounters{totals: map[string]*Totals{}, Written: map[string]bool{}}
}

// FlushBulk stores the totals kept in memory, in key order, and returns to
// writing them through.
func (op *Op) FlushBulk() error {
	b := op.Bulk
	if b == nil {
		return nil
	}
	op.Bulk = nil
	for _, key := range slices.Sorted(maps.Keys(b.Written)) {
		if err := op.Save(KindTotals, key, b.totals[key]); err != nil {
			return err
		}
	}
	return nil
}

// TotalsKey names the running totals of an account subtype or a virtual
// account.
func TotalsKey(owner, bucket string) string { return store.Key(owner, bucket) }
