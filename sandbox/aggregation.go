package sandbox

// Aggregation sums the transactions a list filter selects.
type Aggregation struct {
	Count    int
	TotalIn  int64
	TotalOut int64
}

// NetChange is the money the transactions added, less what they took.
func (g Aggregation) NetChange() int64 { return g.TotalIn + g.TotalOut }

// AggregateTransactions counts and sums the transactions the list returns
// for the same filter, leaving out failed ones (declined, canceled,
// reversed, failed), which never moved money: credits add to TotalIn,
// debits to TotalOut (zero or less). Pending transactions count.
func (op *Op) AggregateTransactions(a *Actor, f TransactionFilter) (Aggregation, error) {
	var g Aggregation
	if err := f.Validate(); err != nil {
		return g, err
	}
	le := a.LegalEntityID()
	keep := func(t *Transaction) bool {
		if !f.match(le, t) || t.Status == StatusFailed {
			return false
		}
		g.Count++
		if t.AmountCents > 0 {
			g.TotalIn += t.AmountCents
		} else {
			g.TotalOut += t.AmountCents
		}
		return false
	}
	_, err := list(op, kindTransaction, f.prefix(le), PageRequest{}, keep)
	return g, err
}
