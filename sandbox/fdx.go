package sandbox

import (
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/store"
)

// AccountTransactionsAfter pages an account's transactions, newest first,
// continuing after the transaction with id afterID ("" for the first
// page), as FDX's offset does. from and to bound the transaction date.
func (op *Op) AccountTransactionsAfter(a *Actor, accountID, afterID string, from, to *time.Time, limit int) (Page[Transaction], error) {
	if _, err := op.Account(a, accountID, ""); err != nil {
		return Page[Transaction]{}, err
	}
	after := ""
	if afterID != "" {
		t, ok, err := op.Transaction(afterID)
		if err != nil {
			return Page[Transaction]{}, err
		}
		if !ok || t.AccountID != accountID {
			return Page[Transaction]{}, InvalidField("offset", "is not the id of a transaction of this account")
		}
		after = IndexKey(indexTxnAccount, t.AccountID, store.Millis(t.CreatedAt), store.Seq(t.Seq), t.ID)
	}
	f := TransactionFilter{AccountID: accountID, FromDate: from, ToDate: to}
	return list(op, kindTransaction, f.prefix(a.LegalEntityID()), PageRequest{After: after, Desc: true, Size: limit},
		func(t *Transaction) bool { return f.match(a.LegalEntityID(), t) })
}

// AccountLedger returns every transaction of one of the actor's accounts,
// oldest first.
func (op *Op) AccountLedger(a *Actor, accountID string) ([]Transaction, error) {
	if _, err := op.Account(a, accountID, ""); err != nil {
		return nil, err
	}
	return all[Transaction](op, kindTransaction, IndexPrefix(indexTxnAccount, accountID))
}
