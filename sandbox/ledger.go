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
	indexTxnFee     = "txn.fee"
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
	if t.FeeInfo != nil {
		keys = append(keys, IndexKey(indexTxnFee, t.FeeInfo.RelatedTransaction.ID, at, seq, t.ID))
	}
	return keys
}

// totalsKey names the running totals of an account subtype or a virtual
// account.
func totalsKey(owner, bucket string) string { return store.Key(owner, bucket) }

func (op *Op) totals(owner, bucket string) (Totals, error) {
	if op.bulk != nil {
		t, err := op.bulkTotals(owner, bucket)
		if err != nil {
			return Totals{}, err
		}
		return *t, nil
	}
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

// add adds (sign 1) or removes (sign -1) an effect.
func (t *Totals) add(e Totals, sign int64) {
	t.Posted += sign * e.Posted
	t.PendingDebits += sign * e.PendingDebits
	t.PendingCredits += sign * e.PendingCredits
	t.Spend += sign * e.Spend
}

func (op *Op) applyTotals(owner, bucket string, e Totals, sign int64) error {
	if op.bulk != nil {
		t, err := op.bulkTotals(owner, bucket)
		if err != nil {
			return err
		}
		t.add(e, sign)
		op.bulk.written[totalsKey(owner, bucket)] = true
		return nil
	}
	t, err := op.totals(owner, bucket)
	if err != nil {
		return err
	}
	t.add(e, sign)
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

// endpoint loads an account (whose primary virtual account moves) or a
// virtual account by id, whatever its legal entity; ok is false when
// neither exists.
func (op *Op) endpoint(id string) (*endpoint, bool, error) {
	var acc Account
	var va VirtualAccount
	ok, err := op.get(kindAccount, id, &acc)
	if err != nil {
		return nil, false, err
	}
	if ok {
		if _, err := op.get(kindVirtualAccount, acc.PrimaryVirtualAccountID, &va); err != nil {
			return nil, false, err
		}
		return &endpoint{Account: &acc, VA: &va}, true, nil
	}
	if ok, err = op.get(kindVirtualAccount, id, &va); err != nil || !ok {
		return nil, false, err
	}
	if ok, err = op.get(kindAccount, va.AccountID, &acc); err != nil || !ok {
		return nil, false, err
	}
	return &endpoint{Account: &acc, VA: &va}, true, nil
}

// ownEndpoint loads an account or virtual account of the actor's legal
// entity; anything else is not found, naming the request field.
func (op *Op) ownEndpoint(a *Actor, id, field string) (*endpoint, error) {
	e, ok, err := op.endpoint(id)
	if err != nil {
		return nil, err
	}
	if !ok || e.LegalEntityID() != a.LegalEntityID() {
		return nil, NotFound(endpointKind(id), field, id)
	}
	return e, nil
}

func endpointKind(id string) string {
	if len(id) >= len(PrefixAccount) && id[:len(PrefixAccount)] == PrefixAccount {
		return "account"
	}
	return "virtual account"
}

// open refuses movement on a closed account or virtual account.
func (e *endpoint) open(field string) error {
	switch {
	case e.Account.Status == "closed":
		return InvalidField("/"+field, fmt.Sprintf("account %s is closed", e.Account.ID))
	case e.VA.ClosedAt != nil:
		return InvalidField("/"+field, fmt.Sprintf("virtual account %s is closed and accepts no new movement", e.VA.ID))
	}
	return nil
}

// available is what an endpoint can send: the account's cash available
// balance, and no more than its virtual account's own available balance.
// A charge card's primary virtual account also carries the card spend,
// which is credit, so there only the cash balance counts.
func (op *Op) available(e *endpoint) (int64, error) {
	cash, err := op.totals(e.Account.ID, "cash")
	if err != nil {
		return 0, err
	}
	avail := cash.Available()
	if e.Account.Type != "charge_card" || !e.VA.Primary {
		va, err := op.totals(e.VA.ID, "virtual")
		if err != nil {
			return 0, err
		}
		avail = min(avail, va.Available())
	}
	return avail, nil
}

// checkFunds refuses a movement larger than the source's available
// balance with insufficient_funds and the two amounts.
func (op *Op) checkFunds(e *endpoint, amount int64) error {
	avail, err := op.available(e)
	if err != nil {
		return err
	}
	if amount > avail {
		return Errorf(CodeInsufficientFunds, "insufficient funds: %s requested, %s available on %s",
			FormatCents(amount), FormatCents(avail), e.VA.ID).With("available", FormatCents(avail)).With("requested", FormatCents(amount))
	}
	return nil
}

// leg is a new, not yet posted transaction on an endpoint.
func leg(e *endpoint, amount int64, category, detailed, description, memo, transferID string) *Transaction {
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
func (op *Op) postInternal(m internalMove) (string, *Transaction, error) {
	if err := op.checkFunds(m.from, m.amount); err != nil {
		return "", nil, err
	}
	id, err := op.newID(PrefixTransfer)
	if err != nil {
		return "", nil, err
	}
	ref := op.W.faker("transfer:"+id, 0).DigitN(12)
	debit := leg(m.from, -m.amount, "internal", "settled", m.debitText, m.memo, id)
	credit := leg(m.to, m.amount, "internal", "settled", m.creditText, m.memo, id)
	debit.ReferenceNumber, credit.ReferenceNumber = ref, ref
	if err := op.PostTransaction(debit); err != nil {
		return "", nil, err
	}
	return id, debit, op.PostTransaction(credit)
}
