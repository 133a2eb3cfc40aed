package cards

import (
	"fmt"
	"slices"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Card-network event types.
const (
	EventAuthorization = "authorization"
	EventReversal      = "reversal"
	EventClearing      = "clearing"
	EventRefund        = "refund"
	EventVerification  = "verification"
)

// EventTypes lists the event types the simulation records after an
// authorization.
var EventTypes = []string{EventReversal, EventClearing, EventRefund, EventVerification}

// Message types of the published card event log: what a card network
// message is, independent of how the sandbox recorded it. Slash decides
// authorisations (and, in the sandbox, verifications); financials are
// clearings and refunds; reversals drop a pending charge. (An older copy of
// the schema page spells the last one "reversal"; the newer one and the
// filter say "reversals".)
const (
	MessageVerification   = "verification"
	MessageAuthorisations = "authorisations"
	MessageFinancials     = "financials"
	MessageReversal       = "reversals"
)

// MessageTypes lists the message types in the published enum's order.
var MessageTypes = []string{MessageVerification, MessageAuthorisations, MessageFinancials, MessageReversal}

// PrefixEvent starts every card event id.
const PrefixEvent = "card_event_"

// KindEvent is the kind of record a card event is.
const KindEvent = "card_event"

const indexCardEventCard = "card_event.card"

func cardEventIndex(e *Event) string {
	return kernel.IndexKey(indexCardEventCard, e.CardID, store.Millis(e.CreatedAt), store.Seq(e.Seq), e.ID)
}

// Merchant is the merchant of a card-network event: one of the fixtures
// catalogue (ID set) or one described in full.
type Merchant struct {
	ID         string `json:"id,omitempty"`
	Name       string `json:"name"`
	MCC        string `json:"mcc"`
	CategoryID string `json:"categoryId,omitempty"`
	City       string `json:"city,omitempty"`
	State      string `json:"state,omitempty"`
	Country    string `json:"country"`
	Zip        string `json:"zip,omitempty"`
}

// data is the merchant as a transaction's merchantData.
func (m *Merchant) data() *ledger.MerchantData {
	return &ledger.MerchantData{Description: m.Name, CategoryCode: m.MCC, MerchantID: m.ID,
		Location: &ledger.MerchantLocation{City: m.City, State: m.State, Country: m.Country, Zip: m.Zip}}
}

// merchantOfTransaction rebuilds the merchant of a card transaction.
func merchantOfTransaction(t *ledger.Transaction) *Merchant {
	if t.Merchant == nil {
		return nil
	}
	m := &Merchant{ID: t.Merchant.MerchantID, Name: t.Merchant.Description, MCC: t.Merchant.CategoryCode}
	if l := t.Merchant.Location; l != nil {
		m.City, m.State, m.Country, m.Zip = l.City, l.State, l.Country, l.Zip
	}
	return m
}

// Decision says how an authorization ended and which rule decided it.
type Decision struct {
	Approved bool   `json:"approved"`
	Rule     string `json:"rule"`
	Reason   string `json:"reason"`
	Detail   string `json:"detail"`
	// Scope is card or cardGroup for a spending-constraint rule.
	Scope       string `json:"scope,omitempty"`
	CardGroupID string `json:"cardGroupId,omitempty"`
	// FallbackApplied says the authorization webhook gave no valid answer
	// in time and its configured fallback decided.
	FallbackApplied bool `json:"fallbackApplied,omitempty"`
}

// Event is one card-network event of a card: an authorization (with
// the decision), a reversal, a clearing, a refund or a verification.
type Event struct {
	ID            string    `json:"id"`
	CardID        string    `json:"cardId"`
	LegalEntityID string    `json:"legalEntityId"`
	Type          string    `json:"type"`
	AmountCents   int64     `json:"amountCents"`
	Merchant      *Merchant `json:"merchant,omitempty"`
	Approved      bool      `json:"approved"`
	Decision      *Decision `json:"decision,omitempty"`
	// Recurring marks an authorization of a recurring payment.
	Recurring bool `json:"recurring,omitempty"`
	// TransactionID is the transaction the event made or changed.
	TransactionID string `json:"transactionId,omitempty"`
	// OriginalTransactionID is the purchase a refund gives money back for.
	OriginalTransactionID string `json:"originalTransactionId,omitempty"`
	// Last4 and CardName are the card's as the event was recorded.
	Last4     string    `json:"last4,omitempty"`
	CardName  string    `json:"cardName,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	Seq       int64     `json:"seq"`
}

// MessageType is the event's type in the published card event log.
func (e *Event) MessageType() string {
	switch e.Type {
	case EventAuthorization:
		return MessageAuthorisations
	case EventReversal:
		return MessageReversal
	case EventClearing, EventRefund:
		return MessageFinancials
	}
	return MessageVerification
}

// LifeCycleID ties together the events of one purchase: its
// authorization, then its reversal or clearing and its refunds, all carry
// the purchase transaction's id. An event of no purchase (a verification,
// an authorization declined before any transaction) is its own life cycle.
func (e *Event) LifeCycleID() string {
	switch {
	case e.OriginalTransactionID != "":
		return e.OriginalTransactionID
	case e.TransactionID != "":
		return e.TransactionID
	}
	return e.ID
}

// ApprovedBySlash says whether Slash approved the event: only the events
// it decides (authorisations and verifications) can be approved.
func (e *Event) ApprovedBySlash() bool {
	switch e.Type {
	case EventAuthorization, EventVerification:
		return e.Approved
	}
	return false
}

// DeclineReason is the reason of a declined event ("" otherwise).
func (e *Event) DeclineReason() string {
	if e.Approved || e.Decision == nil {
		return ""
	}
	return e.Decision.Reason
}

// recordCardEvent stores a new event of a card at the current instant.
func recordCardEvent(op *kernel.Op, e *Event) error {
	id, err := op.NewID(PrefixEvent)
	if err != nil {
		return err
	}
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	card, ok, err := ByID(op, e.CardID)
	if err != nil {
		return err
	}
	if ok {
		e.Last4, e.CardName = card.Last4(), card.Name
	}
	e.ID, e.Seq, e.CreatedAt = id, seq, op.Now
	return op.Save(KindEvent, e.ID, e, cardEventIndex(e))
}

// SaveEvent stores a card event as it was recorded elsewhere: its id, time,
// card name and last four digits kept.
func SaveEvent(op *kernel.Op, e *Event) error {
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	e.Seq = seq
	return op.Save(KindEvent, e.ID, e, cardEventIndex(e))
}

// Events lists a card's network events, newest first; messageTypes,
// when not empty, keeps the events of those message types.
func Events(
	op *kernel.Op,
	a *kernel.Actor,
	cardID string,
	messageTypes []string,
	req kernel.PageRequest,
) (kernel.Page[Event], error) {
	if _, err := CardOf(op, a, cardID, ""); err != nil {
		return kernel.Page[Event]{}, err
	}
	req.Desc = true
	var keep func(*Event) bool
	if len(messageTypes) > 0 {
		keep = func(e *Event) bool { return slices.Contains(messageTypes, e.MessageType()) }
	}
	return kernel.List(op, KindEvent, kernel.IndexPrefix(indexCardEventCard, cardID), req, keep)
}

// cardEventsWhere loads a card's events recorded at or after since that
// keep accepts, oldest first.
func cardEventsWhere(op *kernel.Op, cardID string, since time.Time, keep func(*Event) bool) ([]Event, error) {
	var out []Event
	prefix := kernel.IndexPrefix(indexCardEventCard, cardID)
	after := ""
	if !since.IsZero() {
		after = prefix + store.Millis(since)
	}
	for {
		p, err := kernel.List(op, KindEvent, prefix,
			kernel.PageRequest{After: after, Size: 500}, keep)
		if err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		if p.Next == "" {
			return out, nil
		}
		after = p.Next
	}
}

// NetworkEvent asks the simulation for a network event after an
// authorization: a reversal, clearing or refund of a card transaction, or
// a $0 verification of a card at a merchant.
type NetworkEvent struct {
	Type          string
	TransactionID string
	// AmountCents is the final amount of a clearing or the amount of a
	// refund (nil: the authorized amount, or what is left to refund).
	AmountCents *int64
	CardID      string
	Merchant    *Merchant
}

// NetworkResult is what a network event did.
type NetworkResult struct {
	Event       *Event
	Transaction *ledger.Transaction
	Decision    *Decision
}

// SimulateEvent applies a network event.
func SimulateEvent(op *kernel.Op, n NetworkEvent) (*NetworkResult, error) {
	if n.Type == EventVerification {
		return verify(op, n)
	}
	t, ok, err := ledger.FindTransaction(op, n.TransactionID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, kernel.NotFound("transaction", "transactionId", n.TransactionID)
	}
	if t.Category != "card" || t.CardID == "" || t.AmountCents >= 0 {
		return nil, kernel.InvalidField("/transactionId", "transaction "+t.ID+" is not a card purchase")
	}
	switch n.Type {
	case EventReversal:
		return reverse(op, t)
	case EventClearing:
		return clear(op, t, n.AmountCents)
	case EventRefund:
		return refund(op, t, n.AmountCents)
	}
	return nil, kernel.InvalidField("/type", "must be one of reversal, clearing, refund, verification")
}

func notPending(t *ledger.Transaction, what string) error {
	return kernel.Errorf(kernel.CodeConflict, "transaction %s is %s; only a pending authorization can be %s", t.ID,
		t.DetailedStatus, what).
		With("detailedStatus", t.DetailedStatus)
}

// reverse cancels a pending authorization: it stops counting against the
// balance and the limits.
func reverse(op *kernel.Op, t *ledger.Transaction) (*NetworkResult, error) {
	if t.DetailedStatus != "pending" {
		return nil, notPending(t, "reversed")
	}
	if err := ledger.SetTransactionStatus(op, t, "reversed"); err != nil {
		return nil, err
	}
	ev := &Event{
		CardID:        t.CardID,
		LegalEntityID: t.LegalEntityID,
		Type:          EventReversal,
		AmountCents:   -t.AmountCents,
		Merchant:      merchantOfTransaction(t),
		Approved:      true,
		TransactionID: t.ID,
	}
	return &NetworkResult{Event: ev, Transaction: t}, recordCardEvent(op, ev)
}

// clear settles a pending authorization now, at its final amount: a
// partial or larger clearing changes the transaction's amount.
func clear(op *kernel.Op, t *ledger.Transaction, amount *int64) (*NetworkResult, error) {
	if t.DetailedStatus != "pending" {
		return nil, notPending(t, "cleared")
	}
	if amount != nil && *amount <= 0 {
		return nil, kernel.InvalidField("/amountCents", "must be a positive number of cents")
	}
	if amount != nil && *amount != -t.AmountCents {
		// Take the pending amount off the ledger, then post the final one.
		if err := ledger.SetTransactionStatus(op, t, "reversed"); err != nil {
			return nil, err
		}
		t.AmountCents = -*amount
	}
	if err := ledger.SetTransactionStatus(op, t, "settled"); err != nil {
		return nil, err
	}
	ev := &Event{
		CardID:        t.CardID,
		LegalEntityID: t.LegalEntityID,
		Type:          EventClearing,
		AmountCents:   -t.AmountCents,
		Merchant:      merchantOfTransaction(t),
		Approved:      true,
		TransactionID: t.ID,
	}
	return &NetworkResult{Event: ev, Transaction: t}, recordCardEvent(op, ev)
}

// refund gives back part or all of a settled purchase as a new posted
// credit with detailed status refund.
func refund(op *kernel.Op, t *ledger.Transaction, amount *int64) (*NetworkResult, error) {
	if t.DetailedStatus != "settled" {
		return nil, kernel.Errorf(kernel.CodeConflict, "transaction %s is %s; only a settled purchase can be refunded"+
			" (reverse a pending one)",
			t.ID, t.DetailedStatus).
			With("detailedStatus", t.DetailedStatus)
	}
	prior, err := cardEventsWhere(op, t.CardID, t.CreatedAt, func(e *Event) bool {
		return e.Type == EventRefund && e.OriginalTransactionID == t.ID
	})
	if err != nil {
		return nil, err
	}
	left := -t.AmountCents
	for _, e := range prior {
		left -= e.AmountCents
	}
	if left <= 0 {
		return nil, kernel.Errorf(kernel.CodeConflict, "transaction %s is already fully refunded", t.ID)
	}
	n := left
	if amount != nil {
		n = *amount
	}
	if n <= 0 || n > left {
		return nil, kernel.InvalidField("/amountCents",
			"must be between 1 and the "+ledger.FormatCents(left)+" left to refund")
	}
	return postRefund(op, t, n)
}

// RefundPast refunds in full, at op.Now, a settled purchase of the
// world's history that no refund has touched yet (one the caller has just
// recorded): the refund transaction and card event SimulateEvent's refund
// makes, without looking for earlier refunds.
func RefundPast(op *kernel.Op, id string) (*NetworkResult, error) {
	t, ok, err := ledger.FindTransaction(op, id)
	if err != nil || !ok {
		return nil, fmt.Errorf("transaction %s: not found (%v)", id, err)
	}
	if t.DetailedStatus != "settled" || t.Category != "card" || t.CardID == "" || t.AmountCents >= 0 {
		return nil, fmt.Errorf("transaction %s: only a settled card purchase can be refunded, not a %s %s", t.ID,
			t.DetailedStatus, t.Category)
	}
	return postRefund(op, t, -t.AmountCents)
}

// postRefund gives n cents of purchase t back: a refund transaction and its
// card event.
func postRefund(op *kernel.Op, t *ledger.Transaction, n int64) (*NetworkResult, error) {
	r := &ledger.Transaction{LegalEntityID: t.LegalEntityID, AccountID: t.AccountID, VirtualAccountID: t.VirtualAccountID,
		AccountSubtype: t.AccountSubtype, CardID: t.CardID, CardGroupID: t.CardGroupID, Category: "card",
		AmountCents: n, DetailedStatus: "refund", Merchant: t.Merchant, Description: "Refund: " + t.Description}
	if err := ledger.PostTransaction(op, r); err != nil {
		return nil, err
	}
	ev := &Event{CardID: t.CardID, LegalEntityID: t.LegalEntityID, Type: EventRefund, AmountCents: n,
		Merchant: merchantOfTransaction(t), Approved: true, TransactionID: r.ID, OriginalTransactionID: t.ID}
	return &NetworkResult{Event: ev, Transaction: r}, recordCardEvent(op, ev)
}

// verify is a $0 authorization: the card's status and the merchant rules
// of the card and its group decide it; no transaction is made and a
// single-use card stays unused.
func verify(op *kernel.Op, n NetworkEvent) (*NetworkResult, error) {
	card, ok, err := ByID(op, n.CardID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, kernel.NotFound("card", "cardId", n.CardID)
	}
	if n.Merchant == nil {
		return nil, kernel.InvalidField("/merchantId", "give merchantId or merchant")
	}
	ac, err := authContextOf(op, card, AuthorizationRequest{CardID: card.ID, Merchant: *n.Merchant})
	if err != nil {
		return nil, err
	}
	d := ac.checkStatus()
	for _, s := range ac.scopes() {
		if d == nil {
			d = s.merchantRules(ac.req.Merchant)
		}
	}
	if d == nil {
		d = &Decision{Approved: true, Rule: "standardAuthorization", Reason: "approved",
			Detail: "the card is active and the merchant passes every merchant rule"}
	}
	ev := &Event{CardID: card.ID, LegalEntityID: card.LegalEntityID, Type: EventVerification,
		Merchant: n.Merchant, Approved: d.Approved, Decision: d}
	return &NetworkResult{Event: ev, Decision: d}, recordCardEvent(op, ev)
}
