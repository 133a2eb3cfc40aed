package ledger

import (
	"fmt"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// Aggregation sums the transactions a list filter selects.
type Aggregation struct {
	Count    int
	TotalIn  int64
	TotalOut int64
}

// NetChange is the money the transactions added, less what they took.
func (g Aggregation) NetChange() int64 { return g.TotalIn + g.TotalOut }

// Add counts one transaction of amount cents, into TotalIn when it is a
// credit and into TotalOut otherwise.
func (g *Aggregation) Add(amount int64) {
	g.Count++
	if amount > 0 {
		g.TotalIn += amount
	} else {
		g.TotalOut += amount
	}
}

// AggregateTransactions counts and sums the transactions the list returns
// for the same filter, leaving out failed ones (declined, canceled,
// reversed, failed), which never moved money: credits add to TotalIn,
// debits to TotalOut (zero or less). Pending transactions count.
//
// It walks the legal entity's txn.le index, whose entries keep the facts a
// filter needs (see txnFacts), so it reads no transaction record; an entry
// without them (written before they existed) has its record read instead.
func AggregateTransactions(op *kernel.Op, a *kernel.Actor, f TransactionFilter) (Aggregation, error) {
	var g Aggregation
	if err := f.Validate(); err != nil {
		return g, err
	}
	le := a.LegalEntityID()
	var loadErr error
	err := op.Tx.Scan(kernel.IndexPrefix(IndexTxnLE, le), "", false, func(key, val string) bool {
		id, raw := kernel.SplitIndexValue(val)
		if facts, ok := ParseTxnFacts(raw); ok {
			if facts.status != StatusFailed && facts.match(&f) {
				g.Add(facts.Amount)
			}
			return true
		}
		t, found, err := FindTransaction(op, id)
		if err != nil {
			loadErr = fmt.Errorf("index %q names missing transaction %q: %w", key, id, err)
			return false
		}
		if !found {
			loadErr = fmt.Errorf("index %q names missing transaction %q", key, id)
			return false
		}
		if t.Status != StatusFailed && f.Match(le, t) {
			g.Add(t.AmountCents)
		}
		return true
	})
	if err == nil {
		err = loadErr
	}
	return g, err
}
