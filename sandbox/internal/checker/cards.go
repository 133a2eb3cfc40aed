package checker

import (
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

// approvedStatuses are the detailed statuses of a card purchase the
// authorization approved: it went through, whatever happened next.
var approvedStatuses = map[string]bool{"pending": true, "settled": true, "reversed": true, "dispute": true}

// unreplayed are the decline reasons a replay cannot judge: what a past
// balance, credit limit or authorization webhook decided, and the
// sandbox's magic values.
var unreplayed = map[string]bool{"insufficient_funds": true, "credit_limit_exceeded": true, "account_closed": true,
	"authorization_webhook_declined": true, "authorization_webhook_timeout": true}

// checkCards replays every card purchase at its instant with the rules a
// live authorization applies (cards.Replay: the card's status then, single
// use, modifiers, the card's and its group's constraints) and reports a
// purchase recorded as approved that the rules decline, under the rule that
// declines it, and a decline whose reason the rules do not give.
func checkCards(c *check, op *kernel.Op) error {
	now := op.Now
	defer func() { op.Now = now }()
	tried := map[string]*ledger.Transaction{} // a single-use card's first attempt
	err := each(c, op, ledger.KindTransaction, func(t *ledger.Transaction, path string) error {
		req, ok, err := cards.PurchaseOf(op, t)
		if err != nil || !ok {
			return err
		}
		if first := tried[t.CardID]; first == nil || t.CreatedAt.Before(first.CreatedAt) {
			tried[t.CardID] = t
		}
		approved := approvedStatuses[t.DetailedStatus]
		if !approved && (t.DetailedStatus != "declined" || unreplayed[t.DeclineReason] || req.Merchant.ID == "" &&
			req.Merchant.MCC == "") {
			return nil
		}
		op.Now = t.CreatedAt
		if t.AuthorizedAt != nil {
			op.Now = *t.AuthorizedAt
		}
		d, err := cards.Replay(op, req, t.ID)
		if err != nil {
			return err
		}
		what := "the purchase of " + ledger.FormatCents(req.AmountCents) + " at " + req.Merchant.Name + " on card " +
			t.CardID + " on " + day(op.Now)
		switch {
		case approved && !d.Approved:
			c.report(path, d.Rule, "%s is %s, but the rules then decline it (%s): %s", what, t.DetailedStatus, d.Reason,
				d.Detail)
		case !approved && d.Approved:
			c.report(path, "declineReason", "%s is declined as %s, but the rules then approve it", what,
				t.DeclineReason)
		case !approved && d.Reason != t.DeclineReason:
			c.report(path, "declineReason", "%s is declined as %s, but the rules then decline it as %s: %s", what,
				t.DeclineReason, d.Reason, d.Detail)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return checkSingleUse(c, op, tried)
}

// checkSingleUse reports a single-use card that was tried (its first
// purchase attempt, approved or declined, closes it) but is not closed.
func checkSingleUse(c *check, op *kernel.Op, tried map[string]*ledger.Transaction) error {
	return each(c, op, cards.Kind, func(card *cards.Card, path string) error {
		t := tried[card.ID]
		if !card.IsSingleUse || t == nil || card.Status == cards.StatusClosed {
			return nil
		}
		c.report(path, "card.singleUseNotClosed", "card %s is single-use and was tried on %s (%s at %s, %s), "+
			"which closed it, but it is %s", card.ID, day(t.CreatedAt), ledger.FormatCents(-t.AmountCents),
			t.Description, t.DetailedStatus, card.Status)
		return nil
	})
}
