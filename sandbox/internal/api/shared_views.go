package api

import (
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

// The control API's simulations answer with the public API's own shapes;
// these are the views it shares, so both describe one shape.

// Transaction is the public Transaction shape.
type Transaction = transaction

// CardEvent is the shape of GET /card/{cardId}/events items.
type CardEvent = cardEvent

// Decision says which rule decided an authorization or verification.
type Decision = decision

// TransactionView renders a transaction in the public shape.
func TransactionView(t *ledger.Transaction) Transaction { return transactionView(t) }

// CardEventView renders a card event in the public shape.
func CardEventView(e *cards.Event) CardEvent { return cardEventView(e) }

// DecisionView renders a decision; nil stays nil.
func DecisionView(d *cards.Decision) *Decision {
	if d == nil {
		return nil
	}
	return &decision{Rule: d.Rule, Reason: d.Reason, Detail: d.Detail, Scope: d.Scope, CardGroupID: d.CardGroupID,
		FallbackApplied: d.FallbackApplied}
}
