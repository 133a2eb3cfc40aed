package sandbox

import (
	"slices"
	"time"
)

// TransactionFilter holds the transaction list's filters; zero values mean
// "any".
type TransactionFilter struct {
	AccountID               string
	VirtualAccountID        string
	CardID                  string
	CardGroupID             string
	Status                  string
	DetailedStatus          string
	Category                string
	ProviderAuthorizationID string
	FromDate, ToDate        *time.Time
	FromAuthorized          *time.Time
	ToAuthorized            *time.Time
}

// prefix picks the narrowest index the filter allows.
func (f *TransactionFilter) prefix(legalEntityID string) string {
	switch {
	case f.CardID != "":
		return IndexPrefix(indexTxnCard, f.CardID)
	case f.CardGroupID != "":
		return IndexPrefix(indexTxnGroup, f.CardGroupID)
	case f.VirtualAccountID != "":
		return IndexPrefix(indexTxnVA, f.VirtualAccountID)
	case f.AccountID != "":
		return IndexPrefix(indexTxnAccount, f.AccountID)
	}
	return IndexPrefix(indexTxnLE, legalEntityID)
}

func within(t time.Time, from, to *time.Time) bool {
	return (from == nil || !t.Before(*from)) && (to == nil || !t.After(*to))
}

// match applies every filter to a transaction of the right legal entity.
func (f *TransactionFilter) match(legalEntityID string, t *Transaction) bool {
	eq := func(want, got string) bool { return want == "" || want == got }
	ok := t.LegalEntityID == legalEntityID && eq(f.AccountID, t.AccountID) && eq(f.VirtualAccountID, t.VirtualAccountID) &&
		eq(f.CardID, t.CardID) && eq(f.CardGroupID, t.CardGroupID) && eq(f.Status, t.Status) &&
		eq(f.DetailedStatus, t.DetailedStatus) && eq(f.Category, t.Category) &&
		eq(f.ProviderAuthorizationID, t.ProviderAuthorizationID) && within(t.Date, f.FromDate, f.ToDate)
	if ok && (f.FromAuthorized != nil || f.ToAuthorized != nil) {
		ok = t.AuthorizedAt != nil && within(*t.AuthorizedAt, f.FromAuthorized, f.ToAuthorized)
	}
	return ok
}

// Validate checks the filter's enumerations.
func (f *TransactionFilter) Validate() error {
	d := map[string]string{}
	if f.Status != "" && !slices.Contains([]string{StatusPending, StatusPosted, StatusFailed}, f.Status) {
		d["filter:status"] = "must be pending, posted or failed"
	}
	if f.DetailedStatus != "" && !slices.Contains(DetailedStatuses, f.DetailedStatus) {
		d["filter:detailed_status"] = "is not a detailed status"
	}
	if f.Category != "" && !slices.Contains(Categories, f.Category) {
		d["filter:category"] = "must be one of card, ach, wire, international_wire, rtp, fee, internal"
	}
	if len(d) > 0 {
		return Invalid(d)
	}
	return nil
}

// Transactions lists the actor's transactions, newest first.
func (op *Op) Transactions(a *Actor, f TransactionFilter, req PageRequest) (Page[Transaction], error) {
	if err := f.Validate(); err != nil {
		return Page[Transaction]{}, err
	}
	le := a.LegalEntityID()
	req.Desc = true
	return list(op, kindTransaction, f.prefix(le), req, func(t *Transaction) bool { return f.match(le, t) })
}

// TransactionOf loads one of the actor's transactions.
func (op *Op) TransactionOf(a *Actor, id string) (*Transaction, error) {
	t, ok, err := op.Transaction(id)
	if err != nil {
		return nil, err
	}
	if !ok || t.LegalEntityID != a.LegalEntityID() {
		return nil, NotFound("transaction", "", id)
	}
	return t, nil
}

// Contacts lists the actor's contacts in creation order.
func (op *Op) Contacts(a *Actor, req PageRequest) (Page[Contact], error) {
	return list[Contact](op, kindContact, IndexPrefix(indexContactLE, a.LegalEntityID()), req, nil)
}

// SetTransactionNote attaches a note to one of the actor's transactions.
func (op *Op) SetTransactionNote(a *Actor, id, note string) error {
	t, err := op.TransactionOf(a, id)
	if err != nil {
		return err
	}
	t.Note = note
	return op.save(kindTransaction, t.ID, t, txnIndexes(t)...)
}

// Fee is a Slash fee transaction and the transaction it was charged for,
// when it names one.
type Fee struct {
	Transaction Transaction
	Original    *Transaction
}

// FeeType names what a fee was charged for ("international_wire_fee").
func (f *Fee) FeeType() string {
	if f.Original == nil {
		return "slash_fee"
	}
	return f.Original.Category + "_fee"
}

// FeeDetails lists the fees of one of the actor's transactions: the fees
// charged for it or, for a fee transaction, the fee itself.
func (op *Op) FeeDetails(a *Actor, id string) ([]Fee, error) {
	t, err := op.TransactionOf(a, id)
	if err != nil {
		return nil, err
	}
	if t.Category == "fee" {
		fee := Fee{Transaction: *t}
		if t.FeeInfo != nil {
			orig, ok, err := op.Transaction(t.FeeInfo.RelatedTransaction.ID)
			if err != nil {
				return nil, err
			}
			if ok {
				fee.Original = orig
			}
		}
		return []Fee{fee}, nil
	}
	fees, err := all[Transaction](op, kindTransaction, IndexPrefix(indexTxnFee, t.ID))
	out := make([]Fee, len(fees))
	for i := range fees {
		out[i] = Fee{Transaction: fees[i], Original: t}
	}
	return out, err
}
