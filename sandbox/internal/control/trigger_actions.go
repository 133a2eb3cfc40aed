package control

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/expenses"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

// eventTrigger is how the world is made to raise one event type.
type eventTrigger struct {
	// noun and kind name what entityId is for this event type, and the
	// record kind it is looked up as to find its legal entity ("" when it
	// has none of its own: a user).
	noun, kind string
	// run performs the action, on the named entity or a new one, and
	// returns the id of the entity the event is about.
	run func(t *triggerRun, entityID string) (string, error)
}

// eventTriggers are the actions that raise each webhook event type. A
// creation event makes something new; the others act on the named entity,
// or on something they make first, never on the scenario's own data unless
// it is named.
var eventTriggers = map[string]eventTrigger{
	deliveries.EventCardCreation:      {noun: "account", kind: ledger.KindAccount, run: (*triggerRun).issueCard},
	deliveries.EventCardUpdate:        {noun: "card", kind: cards.Kind, run: (*triggerRun).updateCard},
	deliveries.EventCardDelete:        {noun: "card", kind: cards.Kind, run: (*triggerRun).closeCard},
	deliveries.EventTransactionCreate: {noun: "card", kind: cards.Kind, run: (*triggerRun).purchase},
	deliveries.EventTransactionUpdate: {noun: "transaction", kind: ledger.KindTransaction,
		run: (*triggerRun).clearPurchase},
	deliveries.EventExpenseReportNew: {noun: "user", run: (*triggerRun).submitExpense},
	deliveries.EventExpenseReportUpdate: {
		noun: "expense report",
		kind: expenses.KindReport,
		run:  (*triggerRun).editExpense,
	},
}

// What triggers make: a card named for its purpose, a purchase of an
// amount no magic value declines at a catalogue merchant, and an expense
// report at the same merchant.
const (
	triggerCardName    = "slash-sandbox trigger"
	triggerMerchantID  = "merchant_v2_staples"
	triggerAmountCents = 1234
	triggerMemo        = "Raised by slash-sandbox trigger"
)

// triggerRun is one trigger in progress: the world's operation, the legal
// entity acting and what has been done so far.
type triggerRun struct {
	op      *kernel.Op
	actor   *kernel.Actor
	actions []string
}

func (t *triggerRun) did(format string, args ...any) {
	t.actions = append(t.actions, fmt.Sprintf(format, args...))
}

// issueCard issues a card on the named account, else on the legal
// entity's first open commercial account.
func (t *triggerRun) issueCard(accountID string) (string, error) {
	c, err := cards.Create(t.op, t.actor, cards.NewCard{AccountID: accountID, Name: triggerCardName})
	if err != nil {
		return "", err
	}
	t.did("issued card %s (%q) on account %s", c.ID, c.Name, c.AccountID)
	return c.ID, nil
}

// cardOrNew is the named card, else a card issued for the trigger.
func (t *triggerRun) cardOrNew(cardID string) (*cards.Card, error) {
	if cardID == "" {
		id, err := t.issueCard("")
		if err != nil {
			return nil, err
		}
		cardID = id
	}
	return cards.CardOf(t.op, t.actor, cardID, "entityId")
}

// updateCard renames a card issued for the trigger; a named card is saved
// with its own name, which raises card.update and changes nothing.
func (t *triggerRun) updateCard(cardID string) (string, error) {
	name := ""
	if cardID == "" {
		name = triggerCardName + " (updated)"
	}
	c, err := t.cardOrNew(cardID)
	if err != nil {
		return "", err
	}
	if name == "" {
		name = c.Name
	}
	if _, err := cards.Update(t.op, t.actor, c.ID, cards.CardUpdate{Name: cards.Patch[string]{Set: true,
		Value: name}}); err != nil {
		return "", err
	}
	t.did("updated card %s: name %q", c.ID, name)
	return c.ID, nil
}

// closeCard closes the named card, else one issued for the trigger.
func (t *triggerRun) closeCard(cardID string) (string, error) {
	c, err := t.cardOrNew(cardID)
	if err != nil {
		return "", err
	}
	if c.Status == cards.StatusClosed {
		return "", kernel.Errorf(kernel.CodeConflict, "card %s is already closed; card.delete is raised when a card closes",
			c.ID).
			With("field", "entityId")
	}
	if _, err := cards.Update(t.op, t.actor, c.ID, cards.CardUpdate{Status: cards.Patch[string]{Set: true,
		Value: cards.StatusClosed}}); err != nil {
		return "", err
	}
	t.did("closed card %s", c.ID)
	return c.ID, nil
}

// purchase runs a simulated card purchase through the real authorization
// decision, on the named card or one issued for the trigger. Approved or
// declined, it posts a transaction.
func (t *triggerRun) purchase(cardID string) (string, error) {
	res, err := t.authorize(cardID)
	if err != nil {
		return "", err
	}
	return res.Transaction.ID, nil
}

func (t *triggerRun) authorize(cardID string) (*cards.Authorization, error) {
	c, err := t.cardOrNew(cardID)
	if err != nil {
		return nil, err
	}
	m, ok := cards.CatalogMerchant(t.op.W.Catalog, triggerMerchantID)
	if !ok {
		return nil, fmt.Errorf("trigger: merchant %s is not in the catalogue", triggerMerchantID)
	}
	res, err := cards.SimulateAuthorization(t.op,
		cards.AuthorizationRequest{CardID: c.ID, AmountCents: triggerAmountCents, Merchant: m})
	if err != nil {
		return nil, err
	}
	outcome := "approved: transaction " + res.Transaction.ID + " pending"
	if !res.Decision.Approved {
		outcome = "declined (" + res.Decision.Reason + "): transaction " + res.Transaction.ID
	}
	t.did("card %s bought %s at %s, %s", c.ID, ledger.FormatCents(triggerAmountCents), m.Name, outcome)
	return res, nil
}

// clearPurchase settles a pending card purchase, the named one or one
// made for the trigger, by the network's clearing.
func (t *triggerRun) clearPurchase(txnID string) (string, error) {
	var tx *ledger.Transaction
	if txnID == "" {
		made, err := t.authorize("")
		if err != nil {
			return "", err
		}
		if !made.Decision.Approved {
			return "", kernel.Errorf(kernel.CodeConflict, "a purchase on a new card of %s was declined (%s), so there is"+
				" nothing to settle; nothing was kept",
				t.actor.LegalEntityID(), made.Decision.Reason).
				With("rule", made.Decision.Rule)
		}
		tx = made.Transaction
	} else {
		found, ok, err := ledger.FindTransaction(t.op, txnID)
		if err != nil {
			return "", err
		}
		if !ok {
			return "", kernel.NotFound("transaction", "entityId", txnID)
		}
		if found.Category != "card" || found.CardID == "" || found.AmountCents >= 0 {
			return "", kernel.InvalidField("/entityId", "transaction "+txnID+" is not a card purchase;"+
				" aggregated_transaction.update settles a pending card purchase")
		}
		tx = found
	}
	res, err := cards.SimulateEvent(t.op, cards.NetworkEvent{Type: cards.EventClearing, TransactionID: tx.ID})
	if err != nil {
		return "", err
	}
	t.did("cleared transaction %s: %s", tx.ID, res.Transaction.DetailedStatus)
	return tx.ID, nil
}

// submitExpense submits an expense report for the named member, else for
// the first member with a reimbursement account, paid to their first
// active one.
func (t *triggerRun) submitExpense(userID string) (string, error) {
	submitter, bank, err := t.expenseSubmitter(userID)
	if err != nil {
		return "", err
	}
	amount, memo, reason := int64(triggerAmountCents), triggerMemo, "No receipt: "+triggerMemo
	r, err := expenses.CreateExpenseReport(t.op, t.actor, &expenses.ReportInput{SubmittedByUserID: submitter,
		AmountCents: &amount, TransactionDate: t.op.Now.UTC().Format(time.RFC3339), Memo: &memo, DestinationID: bank,
		Merchant: &expenses.MerchantRef{Type: "merchantV2", ID: triggerMerchantID}, NoReceiptReason: &reason})
	if err != nil {
		return "", err
	}
	t.did("submitted expense report %s for %s by %s, paid to %s", r.ID, ledger.FormatCents(amount), submitter, bank)
	return r.ID, nil
}

// expenseSubmitter is the member an expense report is submitted for and
// the reimbursement account it is paid to.
func (t *triggerRun) expenseSubmitter(userID string) (string, string, error) {
	members, err := t.op.LegalEntityUsers(t.actor.LegalEntityID())
	if err != nil {
		return "", "", err
	}
	for _, u := range members {
		if userID != "" && u.ID != userID {
			continue
		}
		banks, err := expenses.ReimbursementSources(t.op, t.actor, u.ID)
		if err != nil {
			return "", "", err
		}
		for _, b := range banks {
			if b.Status != "inactive" {
				return u.ID, b.ID, nil
			}
		}
		if userID != "" {
			return "", "", kernel.InvalidField("/entityId", "user "+userID+" has no active reimbursement account to be paid to")
		}
	}
	if userID != "" {
		return "", "", kernel.NotFound("user", "entityId", userID)
	}
	return "", "", kernel.Errorf(
		kernel.CodeConflict,
		"no member of %s has an active reimbursement account, so no expense report can be submitted; name a legal entity"+
			" whose members have one",
		t.actor.LegalEntityID(),
	)
}

// editExpense edits an expense report submitted for the trigger; a named
// report (pending review) is saved as it is, which raises
// expense_report.update and changes nothing.
func (t *triggerRun) editExpense(reportID string) (string, error) {
	patch := &expenses.ReportPatch{}
	if reportID == "" {
		id, err := t.submitExpense("")
		if err != nil {
			return "", err
		}
		reportID, patch.Memo = id, json.RawMessage(fmt.Sprintf("%q", triggerMemo+" (updated)"))
	}
	r, err := expenses.ExpenseReportOf(t.op, t.actor, reportID)
	if err != nil {
		return "", err
	}
	patch.UpdatedByUserID = r.SubmittedByUserID
	if _, err := expenses.UpdateExpenseReport(t.op, t.actor, r.ID, patch); err != nil {
		return "", err
	}
	what := "saved unchanged"
	if patch.Memo != nil {
		what = "memo " + string(patch.Memo)
	}
	t.did("updated expense report %s: %s", r.ID, what)
	return r.ID, nil
}
