package ledger

import (
	"strconv"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// txnFacts is what TransactionFilter.match reads of a transaction, and its
// amount and status.
type txnFacts struct {
	Account, virtualAccount, Card, CardGroup string
	status, DetailedStatus, category         string
	providerAuthorizationID                  string
	Date, authorizedAt                       int64 // Unix nanoseconds
	Authorized                               bool
	Amount                                   int64
}

// Covering names the index whose entries keep the transaction's facts and
// encodes them; "" when a field holds a separator (the entry then keeps
// the id alone and readers load the record).
func (t *Transaction) Covering() (string, string) {
	if !nanosFit(t.Date) || (t.AuthorizedAt != nil && !nanosFit(*t.AuthorizedAt)) {
		return IndexTxnLE, ""
	}
	auth := ""
	if t.AuthorizedAt != nil {
		auth = strconv.FormatInt(t.AuthorizedAt.UnixNano(), 10)
	}
	fields := []string{t.AccountID, t.VirtualAccountID, t.CardID, t.CardGroupID, t.Status, t.DetailedStatus,
		t.Category, t.ProviderAuthorizationID, strconv.FormatInt(t.Date.UnixNano(), 10), auth,
		strconv.FormatInt(t.AmountCents, 10)}
	for _, f := range fields {
		if strings.ContainsAny(f, store.Sep+kernel.FactsSep) {
			return IndexTxnLE, ""
		}
	}
	return IndexTxnLE, strings.Join(fields, store.Sep)
}

// CoveringAlso keeps the transaction's card spend in its entries of the
// card and card group indexes, which utilization limits sum.
func (t *Transaction) CoveringAlso() ([]string, string) {
	if t.CardID == "" && t.CardGroupID == "" {
		return nil, ""
	}
	return []string{IndexTxnCard, IndexTxnGroup}, strconv.FormatInt(t.CardSpend(), 10)
}

// CardSpend is what a transaction adds to its card's and group's
// utilization: card purchases that are pending or posted count, refunds
// count against them, declined, reversed and failed ones count nothing.
func (t *Transaction) CardSpend() int64 {
	if t.Category != "card" || StatusOf(t.DetailedStatus) == StatusFailed {
		return 0
	}
	return -t.AmountCents
}

// CardSpendOf reads the spend an entry of the card or card group index
// keeps (see CoveringAlso); false for an entry that keeps none.
func CardSpendOf(val string) (int64, bool) {
	_, facts := kernel.SplitIndexValue(val)
	if facts == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(facts, 10, 64)
	return n, err == nil
}

// ParseTxnFacts decodes what covering encoded.
func ParseTxnFacts(s string) (txnFacts, bool) {
	var f txnFacts
	if s == "" {
		return f, false
	}
	var p [11]string
	for i := range p {
		var ok bool
		if i == len(p)-1 {
			p[i], ok = s, !strings.Contains(s, store.Sep)
		} else {
			p[i], s, ok = strings.Cut(s, store.Sep)
		}
		if !ok {
			return f, false
		}
	}
	f.Account, f.virtualAccount, f.Card, f.CardGroup = p[0], p[1], p[2], p[3]
	f.status, f.DetailedStatus, f.category, f.providerAuthorizationID = p[4], p[5], p[6], p[7]
	var err1, err2, err3 error
	f.Date, err1 = strconv.ParseInt(p[8], 10, 64)
	if f.Authorized = p[9] != ""; f.Authorized {
		f.authorizedAt, err2 = strconv.ParseInt(p[9], 10, 64)
	}
	f.Amount, err3 = strconv.ParseInt(p[10], 10, 64)
	return f, err1 == nil && err2 == nil && err3 == nil
}

// match is TransactionFilter.match on the facts of a transaction of the
// filter's legal entity.
func (x *txnFacts) match(f *TransactionFilter) bool {
	eq := func(want, got string) bool { return want == "" || want == got }
	ok := eq(f.AccountID, x.Account) && eq(f.VirtualAccountID, x.virtualAccount) && eq(f.CardID, x.Card) &&
		eq(f.CardGroupID, x.CardGroup) && eq(f.Status, x.status) && eq(f.DetailedStatus, x.DetailedStatus) &&
		eq(f.Category, x.category) && eq(f.ProviderAuthorizationID, x.providerAuthorizationID) &&
		within(time.Unix(0, x.Date), f.FromDate, f.ToDate)
	if ok && (f.FromAuthorized != nil || f.ToAuthorized != nil) {
		ok = x.Authorized && within(time.Unix(0, x.authorizedAt), f.FromAuthorized, f.ToAuthorized)
	}
	return ok
}

// nanosFit reports whether Unix nanoseconds represent t exactly.
func nanosFit(t time.Time) bool { return t.Year() > 1700 && t.Year() < 2200 }
