package sandbox

import (
	"sort"
	"strconv"
)

// bulkCounters keep a loading scenario's sequence counters and ledger
// totals in memory, written to the store once when loading ends: a scenario
// that generates 100,000 transactions would otherwise rewrite the same few
// counter and totals records hundreds of thousands of times. Reads go
// through them too, so the load sees exactly what the store would hold.
type bulkCounters struct {
	seqs   map[string]int64
	totals map[string]*Totals // by totalsKey
	// written are the totals changed (only those are stored).
	written map[string]bool
}

// bulkLoading turns the in-memory counters on; a test turns them off to
// check that loading stores the same either way.
var bulkLoading = true

// bulkCounter is counter while a scenario loads.
func (op *Op) bulkCounter(name string) (int64, error) {
	n, ok := op.bulk.seqs[name]
	if !ok {
		raw, _, err := op.Tx.GetRaw(seqKey(name))
		if err != nil {
			return 0, err
		}
		n, _ = strconv.ParseInt(raw, 10, 64)
	}
	n++
	op.bulk.seqs[name] = n
	return n, nil
}

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

// startBulk makes the operation keep counters and totals in memory.
func (op *Op) startBulk() {
	op.bulk = &bulkCounters{seqs: map[string]int64{}, totals: map[string]*Totals{}, written: map[string]bool{}}
}

// flushBulk stores the counters and totals kept in memory, in key order,
// and returns to writing them through.
func (op *Op) flushBulk() error {
	b := op.bulk
	if b == nil {
		return nil
	}
	op.bulk = nil
	for _, name := range sortedKeys(b.seqs) {
		if err := op.Tx.PutRaw(seqKey(name), strconv.FormatInt(b.seqs[name], 10)); err != nil {
			return err
		}
	}
	for _, key := range sortedKeys(b.written) {
		if err := op.save(kindTotals, key, b.totals[key]); err != nil {
			return err
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
