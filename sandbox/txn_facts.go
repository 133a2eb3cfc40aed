package sandbox

import (
	"strconv"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/store"
)

// The txn.le index entry of a transaction keeps, after its id, the facts a
// transaction filter looks at, so that an aggregation over 100,000
// transactions scans one index instead of decoding every record. The
// entry's value is "<id>\x1e<facts>"; an entry's id is everything before
// factsSep (older entries hold the id alone).
const factsSep = "\x1e"

// txnFacts is what TransactionFilter.match reads of a transaction, and its
// amount and status.
type txnFacts struct {
	account, virtualAccount, card, cardGroup string
	status, detailedStatus, category         string
	providerAuthorizationID                  string
	date, authorizedAt                       int64 // Unix nanoseconds
	authorized                               bool
	amount                                   int64
}

// splitIndexValue splits an index entry's value into the record id and the
// facts it keeps ("" for none).
func splitIndexValue(val string) (id, facts string) {
	id, facts, _ = strings.Cut(val, factsSep)
	return id, facts
}

// covering names the index whose entries keep the transaction's facts and
// encodes them; "" when a field holds a separator (the entry then keeps
// the id alone and readers load the record).
func (t *Transaction) covering() (string, string) {
	if !nanosFit(t.Date) || (t.AuthorizedAt != nil && !nanosFit(*t.AuthorizedAt)) {
		return indexTxnLE, ""
	}
	auth := ""
	if t.AuthorizedAt != nil {
		auth = strconv.FormatInt(t.AuthorizedAt.UnixNano(), 10)
	}
	fields := []string{t.AccountID, t.VirtualAccountID, t.CardID, t.CardGroupID, t.Status, t.DetailedStatus,
		t.Category, t.ProviderAuthorizationID, strconv.FormatInt(t.Date.UnixNano(), 10), auth,
		strconv.FormatInt(t.AmountCents, 10)}
	for _, f := range fields {
		if strings.ContainsAny(f, store.Sep+factsSep) {
			return indexTxnLE, ""
		}
	}
	return indexTxnLE, strings.Join(fields, store.Sep)
}

// parseTxnFacts decodes what covering encoded.
func parseTxnFacts(s string) (txnFacts, bool) {
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
	f.account, f.virtualAccount, f.card, f.cardGroup = p[0], p[1], p[2], p[3]
	f.status, f.detailedStatus, f.category, f.providerAuthorizationID = p[4], p[5], p[6], p[7]
	var err1, err2, err3 error
	f.date, err1 = strconv.ParseInt(p[8], 10, 64)
	if f.authorized = p[9] != ""; f.authorized {
		f.authorizedAt, err2 = strconv.ParseInt(p[9], 10, 64)
	}
	f.amount, err3 = strconv.ParseInt(p[10], 10, 64)
	return f, err1 == nil && err2 == nil && err3 == nil
}

// match is TransactionFilter.match on the facts of a transaction of the
// filter's legal entity.
func (x *txnFacts) match(f *TransactionFilter) bool {
	eq := func(want, got string) bool { return want == "" || want == got }
	ok := eq(f.AccountID, x.account) && eq(f.VirtualAccountID, x.virtualAccount) && eq(f.CardID, x.card) &&
		eq(f.CardGroupID, x.cardGroup) && eq(f.Status, x.status) && eq(f.DetailedStatus, x.detailedStatus) &&
		eq(f.Category, x.category) && eq(f.ProviderAuthorizationID, x.providerAuthorizationID) &&
		within(time.Unix(0, x.date), f.FromDate, f.ToDate)
	if ok && (f.FromAuthorized != nil || f.ToAuthorized != nil) {
		ok = x.authorized && within(time.Unix(0, x.authorizedAt), f.FromAuthorized, f.ToAuthorized)
	}
	return ok
}

// nanosFit reports whether Unix nanoseconds represent t exactly.
func nanosFit(t time.Time) bool { return t.Year() > 1700 && t.Year() < 2200 }
