package ledger

import (
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// AccountTransactionsAfter pages an account's transactions, newest first,
// continuing after the transaction with id afterID ("" for the first
// page), as FDX's offset does. from and to bound the transaction date.
func AccountTransactionsAfter(
	op *kernel.Op,
	a *kernel.Actor,
	accountID, afterID string,
	from, to *time.Time,
	limit int,
) (kernel.Page[Transaction], error) {
	if _, err := AccountOf(op, a, accountID, ""); err != nil {
		return kernel.Page[Transaction]{}, err
	}
	after := ""
	if afterID != "" {
		t, ok, err := FindTransaction(op, afterID)
		if err != nil {
			return kernel.Page[Transaction]{}, err
		}
		if !ok || t.AccountID != accountID {
			return kernel.Page[Transaction]{}, kernel.InvalidField("offset", "is not the id of a transaction of this account")
		}
		after = kernel.IndexKey(IndexTxnAccount, t.AccountID, store.Millis(t.CreatedAt), store.Seq(t.Seq), t.ID)
	}
	f := TransactionFilter{AccountID: accountID, FromDate: from, ToDate: to}
	return kernel.List(op, KindTransaction, f.prefix(a.LegalEntityID()),
		kernel.PageRequest{After: after, Desc: true, Size: limit},
		func(t *Transaction) bool { return f.Match(a.LegalEntityID(), t) })
}

// AccountLedger returns every transaction of one of the actor's accounts,
// oldest first.
func AccountLedger(op *kernel.Op, a *kernel.Actor, accountID string) ([]Transaction, error) {
	if _, err := AccountOf(op, a, accountID, ""); err != nil {
		return nil, err
	}
	return kernel.All[Transaction](op, KindTransaction, kernel.IndexPrefix(IndexTxnAccount, accountID))
}
