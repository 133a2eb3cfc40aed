package sandbox

import "fmt"

// Aggregation sums the transactions a list filter selects.
type Aggregation struct {
	Count    int
	TotalIn  int64
	TotalOut int64
}

// NetChange is the money the transactions added, less what they took.
func (g Aggregation) NetChange() int64 { return g.TotalIn + g.TotalOut }

func (g *Aggregation) add(amount int64) {
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
func (op *Op) AggregateTransactions(a *Actor, f TransactionFilter) (Aggregation, error) {
	var g Aggregation
	if err := f.Validate(); err != nil {
		return g, err
	}
	le := a.LegalEntityID()
	var loadErr error
	err := op.Tx.Scan(IndexPrefix(indexTxnLE, le), "", false, func(key, val string) bool {
		id, raw := splitIndexValue(val)
		if facts, ok := parseTxnFacts(raw); ok {
			if facts.status != StatusFailed && facts.match(&f) {
				g.add(facts.amount)
			}
			return true
		}
		t, found, err := op.Transaction(id)
		if err != nil || !found {
			loadErr = fmt.Errorf("index %q names missing transaction %q: %v", key, id, err)
			return false
		}
		if t.Status != StatusFailed && f.match(le, t) {
			g.add(t.AmountCents)
		}
		return true
	})
	if err == nil {
		err = loadErr
	}
	return g, err
}
