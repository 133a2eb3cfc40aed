package ledger

import (
	"maps"
	"slices"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// bulkTotals keep a loading scenario's ledger totals in memory, written to
// the store once when loading ends: a scenario that generates 100,000
// transactions would otherwise rewrite the same few totals records hundreds
// of thousands of times. Reads go through them too, so the load sees exactly
// what the store would hold. They are kept on the loading operation
// (kernel.Op.Value) under bulkKey.
type bulkTotals struct {
	totals map[string]*Totals // by TotalsKey
	// written are the totals changed (only those are stored).
	written map[string]bool
}

// bulkKey keeps an operation's bulkTotals.
type bulkKey struct{}

// BulkLoading turns the in-memory totals on; a test turns them off to
// check that loading stores the same either way.
var BulkLoading = true

// bulkOf is the totals op keeps in memory, or nil when it writes them
// through.
func bulkOf(op *kernel.Op) *bulkTotals {
	b, _ := op.Value(bulkKey{}).(*bulkTotals)
	return b
}

// StartBulk makes the operation keep ledger totals in memory until
// FlushBulk (while BulkLoading is on): what a scenario's load does.
func StartBulk(op *kernel.Op) {
	if BulkLoading {
		op.SetValue(bulkKey{}, &bulkTotals{totals: map[string]*Totals{}, written: map[string]bool{}})
	}
}

// get returns the totals record a loading scenario works on.
func (b *bulkTotals) get(op *kernel.Op, owner, bucket string) (*Totals, error) {
	key := TotalsKey(owner, bucket)
	if t, ok := b.totals[key]; ok {
		return t, nil
	}
	t := &Totals{}
	if _, err := op.Get(KindTotals, key, t); err != nil {
		return nil, err
	}
	b.totals[key] = t
	return t, nil
}

// FlushBulk stores the totals kept in memory, in key order, and returns to
// writing them through.
func FlushBulk(op *kernel.Op) error {
	b := bulkOf(op)
	if b == nil {
		return nil
	}
	op.SetValue(bulkKey{}, nil)
	for _, key := range slices.Sorted(maps.Keys(b.written)) {
		if err := op.Save(KindTotals, key, b.totals[key]); err != nil {
			return err
		}
	}
	return nil
}

// TotalsKey names the running totals of an account subtype or a virtual
// account.
func TotalsKey(owner, bucket string) string { return store.Key(owner, bucket) }
