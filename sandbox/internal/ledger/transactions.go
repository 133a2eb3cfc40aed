package ledger

import (
	"slices"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
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
		return kernel.IndexPrefix(IndexTxnCard, f.CardID)
	case f.CardGroupID != "":
		return kernel.IndexPrefix(IndexTxnGroup, f.CardGroupID)
	case f.VirtualAccountID != "":
		return kernel.IndexPrefix(IndexTxnVA, f.VirtualAccountID)
	case f.AccountID != "":
		return kernel.IndexPrefix(IndexTxnAccount, f.AccountID)
	}
	return kernel.IndexPrefix(IndexTxnLE, legalEntityID)
}

func within(t time.Time, from, to *time.Time) bool {
	return (from == nil || !t.Before(*from)) && (to == nil || !t.After(*to))
}

// Match applies every filter to a transaction of the right legal entity.
func (f *TransactionFilter) Match(legalEntityID string, t *Transaction) bool {
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
		return kernel.Invalid(d)
	}
	return nil
}

// Transactions lists the actor's transactions, newest first.
func Transactions(
	op *kernel.Op,
	a *kernel.Actor,
	f TransactionFilter,
	req kernel.PageRequest,
) (kernel.Page[Transaction], error) {
	if err := f.Validate(); err != nil {
		return kernel.Page[Transaction]{}, err
	}
	le := a.LegalEntityID()
	req.Desc = true
	return kernel.List(op, KindTransaction, f.prefix(le), req, func(t *Transaction) bool { return f.Match(le, t) })
}

// TransactionOf loads one of the actor's transactions.
func TransactionOf(op *kernel.Op, a *kernel.Actor, id string) (*Transaction, error) {
	t, ok, err := FindTransaction(op, id)
	if err != nil {
		return nil, err
	}
	if !ok || t.LegalEntityID != a.LegalEntityID() {
		return nil, kernel.NotFound("transaction", "", id)
	}
	return t, nil
}

// Contacts lists the actor's contacts in creation order.
func Contacts(op *kernel.Op, a *kernel.Actor, req kernel.PageRequest) (kernel.Page[parties.Contact], error) {
	return kernel.List[parties.Contact](op, parties.KindContact,
		kernel.IndexPrefix(parties.IndexContactLE, a.LegalEntityID()), req, nil)
}

// SetTransactionNote attaches a note to one of the actor's transactions.
func SetTransactionNote(op *kernel.Op, a *kernel.Actor, id, note string) error {
	t, err := TransactionOf(op, a, id)
	if err != nil {
		return err
	}
	t.Note = note
	return op.Save(KindTransaction, t.ID, t, TxnIndexes(t)...)
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
func FeeDetails(op *kernel.Op, a *kernel.Actor, id string) ([]Fee, error) {
	t, err := TransactionOf(op, a, id)
	if err != nil {
		return nil, err
	}
	if t.Category == "fee" {
		fee := Fee{Transaction: *t}
		if t.FeeInfo != nil {
			orig, ok, err := FindTransaction(op, t.FeeInfo.RelatedTransaction.ID)
			if err != nil {
				return nil, err
			}
			if ok {
				fee.Original = orig
			}
		}
		return []Fee{fee}, nil
	}
	fees, err := kernel.All[Transaction](op, KindTransaction, kernel.IndexPrefix(IndexTxnFee, t.ID))
	out := make([]Fee, len(fees))
	for i := range fees {
		out[i] = Fee{Transaction: fees[i], Original: t}
	}
	return out, err
}
