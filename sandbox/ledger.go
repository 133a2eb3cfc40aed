package sandbox

import (
	"fmt"

	"github.com/slash-sandbox/slash-sandbox/sandbox/store"
)

// Transaction indexes. Every list order and filter the API offers has one,
// ordered by creation time and then by sequence.
const (
	indexTxnLE      = "txn.le"
	indexTxnAccount = "txn.account"
	indexTxnVA      = "txn.va"
	indexTxnCard    = "txn.card"
	indexTxnGroup   = "txn.group"
)

func txnIndexes(t *Transaction) []string {
	at, seq := store.Millis(t.CreatedAt), store.Seq(t.Seq)
	keys := []string{
		IndexKey(indexTxnLE, t.LegalEntityID, at, seq, t.ID),
		IndexKey(indexTxnAccount, t.AccountID, at, seq, t.ID),
		IndexKey(indexTxnVA, t.VirtualAccountID, at, seq, t.ID),
	}
	if t.CardID != "" {
		keys = append(keys, IndexKey(indexTxnCard, t.CardID, at, seq, t.ID))
	}
	if t.CardGroupID != "" {
		keys = append(keys, IndexKey(indexTxnGroup, t.CardGroupID, at, seq, t.ID))
	}
	return keys
}

// totalsKey names the running totals of an account subtype or a virtual
// account.
func totalsKey(owner, bucket string) string { return store.Key(owner, bucket) }

func (op *Op) totals(owner, bucket string) (Totals, error) {
	var t Totals
	_, err := op.get(kindTotals, totalsKey(owner, bucket), &t)
	return t, err
}

// effect is what a transaction in a given detailed status adds to totals.
func effect(t *Transaction, detailed string) Totals {
	var e Totals
	switch StatusOf(detailed) {
	case StatusPosted:
		e.Posted = t.AmountCents
	case StatusPending:
		if t.AmountCents < 0 {
			e.PendingDebits = t.AmountCents
		} else {
			e.PendingCredits = t.AmountCents
		}
	}
	if t.Category == "card" && StatusOf(detailed) != StatusFailed {
		e.Spend = -t.AmountCents
	}
	return e
}

func (op *Op) applyTotals(owner, bucket string, e Totals, sign int64) error {
	t, err := op.totals(owner, bucket)
	if err != nil {
		return err
	}
	t.Posted += sign * e.Posted
	t.PendingDebits += sign * e.PendingDebits
	t.PendingCredits += sign * e.PendingCredits
	t.Spend += sign * e.Spend
	return op.save(kindTotals, totalsKey(owner, bucket), &t)
}

// applyEffect adds (sign 1) or removes (sign -1) a transaction's effect on
// its account subtype and its virtual account.
func (op *Op) applyEffect(t *Transaction, detailed string, sign int64) error {
	e := effect(t, detailed)
	if err := op.applyTotals(t.AccountID, t.AccountSubtype, e, sign); err != nil {
		return err
	}
	return op.applyTotals(t.VirtualAccountID, "virtual", e, sign)
}

// PostTransaction stores a new transaction and applies it to the ledger in
// the same operation. It fills the id, sequence, status and dates.
func (op *Op) PostTransaction(t *Transaction) error {
	if t.AccountID == "" || t.VirtualAccountID == "" || t.LegalEntityID == "" {
		return fmt.Errorf("transaction without account, virtual account or legal entity")
	}
	if t.ID == "" {
		id, err := op.newID(PrefixTransaction)
		if err != nil {
			return err
		}
		t.ID = id
	}
	seq, err := op.nextSeq()
	if err != nil {
		return err
	}
	t.Seq = seq
	if t.CreatedAt.IsZero() {
		t.CreatedAt = op.Now
	}
	if t.Date.IsZero() {
		t.Date = t.CreatedAt
	}
	if t.AccountSubtype == "" {
		t.AccountSubtype = "cash"
	}
	t.Status = StatusOf(t.DetailedStatus)
	if err := op.applyEffect(t, t.DetailedStatus, 1); err != nil {
		return err
	}
	if err := op.save(kindTransaction, t.ID, t, txnIndexes(t)...); err != nil {
		return err
	}
	return op.Emit(t.LegalEntityID, EventTransactionCreate, t.ID)
}

// SetTransactionStatus moves a transaction to a new detailed status,
// replacing its old effect on the ledger with the new one.
func (op *Op) SetTransactionStatus(t *Transaction, detailed string) error {
	if err := op.applyEffect(t, t.DetailedStatus, -1); err != nil {
		return err
	}
	t.DetailedStatus = detailed
	t.Status = StatusOf(detailed)
	if t.Status == StatusPosted {
		t.Date = op.Now
	}
	if err := op.applyEffect(t, detailed, 1); err != nil {
		return err
	}
	if err := op.save(kindTransaction, t.ID, t, txnIndexes(t)...); err != nil {
		return err
	}
	return op.Emit(t.LegalEntityID, EventTransactionUpdate, t.ID)
}

// Transaction loads a transaction by id, whatever its legal entity.
func (op *Op) Transaction(id string) (*Transaction, bool, error) {
	var t Transaction
	ok, err := op.get(kindTransaction, id, &t)
	return &t, ok, err
}

type settlePayload struct {
	TransactionID  string `json:"transactionId"`
	DetailedStatus string `json:"detailedStatus"`
}

func init() {
	RegisterEvent("transaction.settle", runSettle)
}

// ScheduleSettlement moves a pending transaction to a final detailed status
// at a later virtual time.
func (op *Op) ScheduleSettlement(t *Transaction, at Instant, detailed string) error {
	_, err := op.Schedule("transaction.settle", at.Time, settlePayload{TransactionID: t.ID, DetailedStatus: detailed})
	return err
}

func runSettle(op *Op, ev *Event) (string, error) {
	var p settlePayload
	if err := jsonUnmarshal(ev.Payload, &p); err != nil {
		return "", err
	}
	t, ok, err := op.Transaction(p.TransactionID)
	if err != nil || !ok {
		return "", fmt.Errorf("transaction %s: not found (%v)", p.TransactionID, err)
	}
	if t.Status != StatusPending {
		return fmt.Sprintf("transaction %s already %s", t.ID, t.DetailedStatus), nil
	}
	if p.DetailedStatus == "" {
		p.DetailedStatus = "settled"
	}
	if err := op.SetTransactionStatus(t, p.DetailedStatus); err != nil {
		return "", err
	}
	return fmt.Sprintf("transaction %s %s", t.ID, p.DetailedStatus), nil
}
