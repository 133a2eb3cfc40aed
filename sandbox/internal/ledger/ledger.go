package ledger

import (
	"encoding/json"
	"fmt"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Transaction indexes. Every list order and filter the API offers has one,
// ordered by creation time and then by sequence.
const (
	IndexTxnLE      = "txn.le"
	IndexTxnAccount = "txn.account"
	IndexTxnVA      = "txn.va"
	IndexTxnCard    = "txn.card"
	IndexTxnGroup   = "txn.group"
	IndexTxnFee     = "txn.fee"
)

// TxnIndexes are the index keys of a transaction: by legal entity, account
// and virtual account and, when it has them, by card, card group and the
// transaction a fee is for.
func TxnIndexes(t *Transaction) []string {
	at, seq := store.Millis(t.CreatedAt), store.Seq(t.Seq)
	keys := []string{
		kernel.IndexKey(IndexTxnLE, t.LegalEntityID, at, seq, t.ID),
		kernel.IndexKey(IndexTxnAccount, t.AccountID, at, seq, t.ID),
		kernel.IndexKey(IndexTxnVA, t.VirtualAccountID, at, seq, t.ID),
	}
	if t.CardID != "" {
		keys = append(keys, kernel.IndexKey(IndexTxnCard, t.CardID, at, seq, t.ID))
	}
	if t.CardGroupID != "" {
		keys = append(keys, kernel.IndexKey(IndexTxnGroup, t.CardGroupID, at, seq, t.ID))
	}
	if t.FeeInfo != nil {
		keys = append(keys, kernel.IndexKey(IndexTxnFee, t.FeeInfo.RelatedTransaction.ID, at, seq, t.ID))
	}
	return keys
}

// TotalsOf reads the running totals of an account subtype or a virtual
// account (TotalsKey), from the bulk load's cache while a scenario
// loads; missing totals are zero.
func TotalsOf(op *kernel.Op, owner, bucket string) (Totals, error) {
	if b := bulkOf(op); b != nil {
		t, err := b.get(op, owner, bucket)
		if err != nil {
			return Totals{}, err
		}
		return *t, nil
	}
	var t Totals
	_, err := op.Get(KindTotals, TotalsKey(owner, bucket), &t)
	return t, err
}

// Effect is what a transaction in a given detailed status adds to totals.
func Effect(t *Transaction, detailed string) Totals {
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

func applyTotals(op *kernel.Op, owner, bucket string, e Totals, sign int64) error {
	if b := bulkOf(op); b != nil {
		t, err := b.get(op, owner, bucket)
		if err != nil {
			return err
		}
		t.Add(e, sign)
		b.written[TotalsKey(owner, bucket)] = true
		return nil
	}
	t, err := TotalsOf(op, owner, bucket)
	if err != nil {
		return err
	}
	t.Add(e, sign)
	return op.Save(KindTotals, TotalsKey(owner, bucket), &t)
}

// applyEffect adds (sign 1) or removes (sign -1) a transaction's effect on
// its account subtype and its virtual account.
func applyEffect(op *kernel.Op, t *Transaction, detailed string, sign int64) error {
	e := Effect(t, detailed)
	if err := applyTotals(op, t.AccountID, t.AccountSubtype, e, sign); err != nil {
		return err
	}
	return applyTotals(op, t.VirtualAccountID, "virtual", e, sign)
}

// PostTransaction stores a new transaction and applies it to the ledger in
// the same operation. It fills the id, sequence, status and dates.
func PostTransaction(op *kernel.Op, t *Transaction) error {
	if t.AccountID == "" || t.VirtualAccountID == "" || t.LegalEntityID == "" {
		return fmt.Errorf("transaction without account, virtual account or legal entity")
	}
	if t.ID == "" {
		id, err := op.NewID(PrefixTransaction)
		if err != nil {
			return err
		}
		t.ID = id
	}
	seq, err := op.NextSeq()
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
	if err := applyEffect(op, t, t.DetailedStatus, 1); err != nil {
		return err
	}
	if err := op.Save(KindTransaction, t.ID, t, TxnIndexes(t)...); err != nil {
		return err
	}
	return op.Emit(t.LegalEntityID, deliveries.EventTransactionCreate, t.ID)
}

// SetTransactionStatus moves a transaction to a new detailed status,
// replacing its old effect on the ledger with the new one.
func SetTransactionStatus(op *kernel.Op, t *Transaction, detailed string) error {
	if err := applyEffect(op, t, t.DetailedStatus, -1); err != nil {
		return err
	}
	t.DetailedStatus = detailed
	t.Status = StatusOf(detailed)
	if t.Status == StatusPosted {
		t.Date = op.Now
	}
	if err := applyEffect(op, t, detailed, 1); err != nil {
		return err
	}
	if err := op.Save(KindTransaction, t.ID, t, TxnIndexes(t)...); err != nil {
		return err
	}
	return op.Emit(t.LegalEntityID, deliveries.EventTransactionUpdate, t.ID)
}

// FindTransaction loads a transaction by id, whatever its legal entity.
func FindTransaction(op *kernel.Op, id string) (*Transaction, bool, error) {
	var t Transaction
	ok, err := op.Get(KindTransaction, id, &t)
	return &t, ok, err
}

type settlePayload struct {
	TransactionID  string `json:"transactionId"`
	DetailedStatus string `json:"detailedStatus"`
}

// ScheduleSettlement moves a pending transaction to a final detailed status
// at a later virtual time.
func ScheduleSettlement(op *kernel.Op, t *Transaction, at Instant, detailed string) error {
	_, err := op.Schedule("transaction.settle", at.Time, settlePayload{TransactionID: t.ID, DetailedStatus: detailed})
	return err
}

// RunSettle moves the event's pending transaction to its final detailed
// status (settled when the event names none); a transaction no longer
// pending is left as it is.
func RunSettle(op *kernel.Op, ev *kernel.Event) (string, error) {
	var p settlePayload
	if err := json.Unmarshal(ev.Payload, &p); err != nil {
		return "", err
	}
	t, ok, err := FindTransaction(op, p.TransactionID)
	if err != nil {
		return "", fmt.Errorf("transaction %s: not found (%w)", p.TransactionID, err)
	}
	if !ok {
		return "", fmt.Errorf("transaction %s: not found", p.TransactionID)
	}
	if t.Status != StatusPending {
		return fmt.Sprintf("transaction %s already %s", t.ID, t.DetailedStatus), nil
	}
	if p.DetailedStatus == "" {
		p.DetailedStatus = "settled"
	}
	if err := SetTransactionStatus(op, t, p.DetailedStatus); err != nil {
		return "", err
	}
	return fmt.Sprintf("transaction %s %s", t.ID, p.DetailedStatus), nil
}

// endpoint is one side of a movement: the account and the virtual account
// whose balances move.
type endpoint struct {
	Account *Account
	VA      *VirtualAccount
}

// LegalEntityID is the legal entity that owns the endpoint.
func (e *endpoint) LegalEntityID() string { return e.Account.LegalEntityID }

// name is how statements name the endpoint: the virtual account's name, or
// the account's for its primary virtual account.
func (e *endpoint) name() string {
	if e.VA.Primary {
		return e.Account.Name
	}
	return e.VA.Name
}

// Endpoint loads an account (whose primary virtual account moves) or a
// virtual account by id, whatever its legal entity; ok is false when
// neither exists.
func Endpoint(op *kernel.Op, id string) (*endpoint, bool, error) {
	var acc Account
	var va VirtualAccount
	ok, err := op.Get(KindAccount, id, &acc)
	if err != nil {
		return nil, false, err
	}
	if ok {
		if _, err := op.Get(KindVirtualAccount, acc.PrimaryVirtualAccountID, &va); err != nil {
			return nil, false, err
		}
		return &endpoint{Account: &acc, VA: &va}, true, nil
	}
	if ok, err = op.Get(KindVirtualAccount, id, &va); err != nil || !ok {
		return nil, false, err
	}
	if ok, err = op.Get(KindAccount, va.AccountID, &acc); err != nil || !ok {
		return nil, false, err
	}
	return &endpoint{Account: &acc, VA: &va}, true, nil
}

// OwnEndpoint loads an account or virtual account of the actor's legal
// entity; anything else is not found, naming the request field.
func OwnEndpoint(op *kernel.Op, a *kernel.Actor, id, field string) (*endpoint, error) {
	e, ok, err := Endpoint(op, id)
	if err != nil {
		return nil, err
	}
	if !ok || e.LegalEntityID() != a.LegalEntityID() {
		return nil, kernel.NotFound(endpointKind(id), field, id)
	}
	return e, nil
}

func endpointKind(id string) string {
	if len(id) >= len(PrefixAccount) && id[:len(PrefixAccount)] == PrefixAccount {
		return "account"
	}
	return "virtual account"
}

// Open refuses movement on a closed account or virtual account.
func (e *endpoint) Open(field string) error {
	switch {
	case e.Account.Status == "closed":
		return kernel.InvalidField("/"+field, fmt.Sprintf("account %s is closed", e.Account.ID))
	case e.VA.ClosedAt != nil:
		return kernel.InvalidField("/"+field,
			fmt.Sprintf("virtual account %s is closed and accepts no new movement", e.VA.ID))
	}
	return nil
}

// Available is what an endpoint can send: the account's cash available
// balance, and no more than its virtual account's own available balance.
// A charge card's primary virtual account also carries the card spend,
// which is credit, so there only the cash balance counts.
func Available(op *kernel.Op, e *endpoint) (int64, error) {
	cash, err := TotalsOf(op, e.Account.ID, "cash")
	if err != nil {
		return 0, err
	}
	avail := cash.Available()
	if e.Account.Type != "charge_card" || !e.VA.Primary {
		va, err := TotalsOf(op, e.VA.ID, "virtual")
		if err != nil {
			return 0, err
		}
		avail = min(avail, va.Available())
	}
	return avail, nil
}

// CheckFunds refuses a movement larger than the source's available
// balance with insufficient_funds and the two amounts.
func CheckFunds(op *kernel.Op, e *endpoint, amount int64) error {
	avail, err := Available(op, e)
	if err != nil {
		return err
	}
	if amount > avail {
		return kernel.Errorf(
			kernel.CodeInsufficientFunds,
			"insufficient funds: %s requested, %s available on %s",
			FormatCents(amount),
			FormatCents(avail),
			e.VA.ID,
		).With("available", FormatCents(avail)).With("requested", FormatCents(amount))
	}
	return nil
}

// Leg is a new, not yet posted transaction on an endpoint.
func Leg(e *endpoint, amount int64, category, detailed, description, memo, transferID string) *Transaction {
	return &Transaction{LegalEntityID: e.LegalEntityID(), AccountID: e.Account.ID, VirtualAccountID: e.VA.ID,
		AccountSubtype: "cash", Category: category, AmountCents: amount, DetailedStatus: detailed,
		Description: description, Memo: memo, TransferID: transferID}
}

// internalMove is an instant movement on the ledger between two endpoints.
type internalMove struct {
	from, to              *endpoint
	amount                int64
	memo                  string
	debitText, creditText string
}

// postInternal checks the source's funds and posts a balanced pair of
// settled internal transactions sharing a new transfer id.
func postInternal(op *kernel.Op, m internalMove) (string, *Transaction, error) {
	if err := CheckFunds(op, m.from, m.amount); err != nil {
		return "", nil, err
	}
	id, err := op.NewID(PrefixTransfer)
	if err != nil {
		return "", nil, err
	}
	ref := op.W.Faker("transfer:"+id, 0).DigitN(12)
	debit := Leg(m.from, -m.amount, "internal", "settled", m.debitText, m.memo, id)
	credit := Leg(m.to, m.amount, "internal", "settled", m.creditText, m.memo, id)
	debit.ReferenceNumber, credit.ReferenceNumber = ref, ref
	if err := PostTransaction(op, debit); err != nil {
		return "", nil, err
	}
	return id, debit, PostTransaction(op, credit)
}
