package cards_test

import (
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

const acmeKey = "sk_sandbox_acme"

// books is a catalogue merchant every test buys from (a bookshop).
var books = cards.Merchant{Name: "Corner Books", MCC: "5942", Country: "US"}

// history is a demo world with one fresh card of acme's, and a way to act
// on it at chosen instants.
type history struct {
	t    *testing.T
	w    *kernel.World
	card string
	// start is the world's clock start.
	start time.Time
}

func newHistory(t *testing.T, c cards.NewCard) *history {
	t.Helper()
	h := &history{t: t, w: enginetest.Demo(t)}
	h.start = h.w.Now()
	enginetest.Must(t, enginetest.As(t, h.w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		op.Now = h.start.Add(-30 * 24 * time.Hour)
		card, err := cards.Create(op, a, c)
		h.card = card.ID
		return err
	}))
	return h
}

// at runs fn in one write whose instant is the clock start moved by d.
func (h *history) at(d time.Duration, fn func(op *kernel.Op, a *kernel.Actor) error) {
	h.t.Helper()
	enginetest.Must(h.t, enginetest.As(h.t, h.w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		op.Now = h.start.Add(d)
		return fn(op, a)
	}))
}

// buy makes a live purchase of amount cents at the clock start moved by d.
func (h *history) buy(d time.Duration, amount int64) *cards.Authorization {
	h.t.Helper()
	var auth *cards.Authorization
	h.at(d, func(op *kernel.Op, _ *kernel.Actor) error {
		var err error
		auth, err = cards.SimulateAuthorization(op,
			cards.AuthorizationRequest{CardID: h.card, AmountCents: amount, Merchant: books})
		return err
	})
	return auth
}

// replay replays a purchase of amount cents at the clock start moved by d.
func (h *history) replay(d time.Duration, amount int64, exclude string) *cards.Decision {
	h.t.Helper()
	var got *cards.Decision
	h.at(d, func(op *kernel.Op, _ *kernel.Actor) error {
		var err error
		got, err = cards.Replay(op, cards.AuthorizationRequest{CardID: h.card, AmountCents: amount, Merchant: books},
			exclude)
		return err
	})
	return got
}

func (h *history) setStatus(d time.Duration, status string) {
	h.t.Helper()
	h.at(d, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := cards.Update(op, a, h.card, cards.CardUpdate{Status: cards.Patch[string]{Set: true, Value: status}})
		return err
	})
}

func (h *history) load() *cards.Card {
	h.t.Helper()
	var c *cards.Card
	enginetest.Must(h.t, h.w.View(func(op *kernel.Op) error {
		var err error
		c, _, err = cards.ByID(op, h.card)
		return err
	}))
	return c
}

func wantDecision(t *testing.T, what string, d *cards.Decision, approved bool, reason string) {
	t.Helper()
	if d.Approved != approved || d.Reason != reason {
		t.Fatalf("%s: got approved=%v reason %q (%s: %s); want approved=%v reason %q", what, d.Approved, d.Reason,
			d.Rule, d.Detail, approved, reason)
	}
}

func maxConstraint(cents int64) *cards.SpendingConstraint {
	return &cards.SpendingConstraint{SpendingRule: &cards.SpendingRule{
		TransactionSizeLimit: &cards.TransactionSizeLimit{Maximum: &ledger.Money{AmountCents: cents}}}}
}

const hour = time.Hour

// A card's status at a past instant is the one its changes had given it
// before that instant; a change at the instant itself is not yet in force.
func TestStatusAtFollowsTheChanges(t *testing.T) {
	h := newHistory(t, cards.NewCard{Name: "Paused later"})
	h.setStatus(-48*hour, cards.StatusPaused)
	h.setStatus(-24*hour, cards.StatusActive)
	h.setStatus(-1*hour, cards.StatusClosed)
	c := h.load()
	cases := []struct {
		at   time.Duration
		want string
	}{
		{-60 * 24 * hour, cards.StatusActive}, // before the card existed: its status at creation
		{-72 * hour, cards.StatusActive},
		{-48 * hour, cards.StatusActive},
		{-48*hour + time.Millisecond, cards.StatusPaused},
		{-30 * hour, cards.StatusPaused},
		{-23 * hour, cards.StatusActive},
		{0, cards.StatusClosed},
	}
	for _, tc := range cases {
		if got := cards.StatusAt(c, h.start.Add(tc.at)); got != tc.want {
			t.Errorf("StatusAt(start%v) = %s, want %s", tc.at, got, tc.want)
		}
	}
	if len(c.StatusHistory) != 3 || c.StatusHistory[0].From != cards.StatusActive ||
		c.StatusHistory[2].To != cards.StatusClosed {
		t.Fatalf("history %+v, want three changes from active to closed", c.StatusHistory)
	}
	if fresh := (&cards.Card{Status: cards.StatusInactive}); cards.StatusAt(fresh, h.start) != cards.StatusInactive {
		t.Fatal("a card without history should answer its status")
	}
}

// A card paused later replays as active before its pause, and declines
// with the status reason after it.
func TestReplayUsesTheStatusOfTheTime(t *testing.T) {
	h := newHistory(t, cards.NewCard{Name: "Paused later"})
	h.setStatus(-24*hour, cards.StatusPaused)
	wantDecision(t, "before the pause", h.replay(-25*hour, 1000, ""), true, "approved")
	d := h.replay(-23*hour, 1000, "")
	wantDecision(t, "after the pause", d, false, "card_paused")
	if d.Rule != "card.status" {
		t.Fatalf("rule %s, want card.status", d.Rule)
	}
}

// A purchase over the card's maximum replays as declined by that rule; one
// under it is approved.
func TestReplayDeclinesAboveTheMaximum(t *testing.T) {
	h := newHistory(t, cards.NewCard{Name: "Capped", Constraint: maxConstraint(50000)})
	d := h.replay(-5*hour, 62661, "")
	wantDecision(t, "$626.61 over a $500.00 maximum", d, false, "transaction_size_exceeded")
	if d.Rule != "spendingRule.transactionSizeLimit.maximum" || d.Scope != "card" {
		t.Fatalf("rule %s scope %s, want the card's maximum", d.Rule, d.Scope)
	}
	wantDecision(t, "$120.00", h.replay(-5*hour, 12000, ""), true, "approved")
}

// Replay skips what history cannot know: the sandbox's magic amounts and
// the funds (it approves $999.99, which a live purchase always declines).
func TestReplayLeavesOutMagicValuesAndFunds(t *testing.T) {
	h := newHistory(t, cards.NewCard{Name: "Plain"})
	wantDecision(t, "live $999.99", h.buy(-hour, 99999).Event.Decision, false, "insufficient_funds")
	wantDecision(t, "replayed $999.99", h.replay(-2*hour, 99999, ""), true, "approved")
	wantDecision(t, "replayed $9,000,000.00", h.replay(-2*hour, 900_000_000, ""), true, "approved")
}

// Utilization replays count only the spend made before the instant, in
// the window of that instant, and leave out the purchase being replayed.
func TestReplayCountsOnlyEarlierSpend(t *testing.T) {
	daily := &cards.SpendingConstraint{SpendingRule: &cards.SpendingRule{UtilizationLimit: &cards.UtilizationLimit{
		LimitAmount: ledger.Money{AmountCents: 10000}, Preset: "daily"}}}
	h := newHistory(t, cards.NewCard{Name: "Daily $100", Constraint: daily})
	first := h.buy(-2*24*hour+12*hour, 8000) // noon, two days before the clock start
	wantDecision(t, "live $80.00", &first.Decision, true, "approved")

	wantDecision(t, "$50.00 an hour before it", h.replay(-2*24*hour+11*hour, 5000, ""), true, "approved")
	d := h.replay(-2*24*hour+13*hour, 5000, "")
	wantDecision(t, "$50.00 an hour after it", d, false, "spending_limit_exceeded")
	if d.Rule != "spendingRule.utilizationLimit" {
		t.Fatalf("rule %s, want spendingRule.utilizationLimit", d.Rule)
	}
	wantDecision(t, "$50.00 the next day", h.replay(-24*hour+13*hour, 5000, ""), true, "approved")
	wantDecision(t, "the $80.00 itself", h.replay(-2*24*hour+12*hour, 8000, first.Transaction.ID), true, "approved")

	// Live: the next purchase of the same instant sees the first one.
	second := h.buy(-2*24*hour+12*hour, 5000)
	wantDecision(t, "live $50.00 at the same instant", &second.Decision, false, "spending_limit_exceeded")
	wantDecision(t, "the $50.00 replayed", h.replay(-2*24*hour+12*hour, 5000, second.Transaction.ID), false,
		"spending_limit_exceeded")
	wantDecision(t, "the $80.00 replayed after the $50.00", h.replay(-2*24*hour+12*hour, 8000,
		first.Transaction.ID), true, "approved")
}

// A single-use card's attempt replays as approved; after it the card is
// closed, and another attempt declines.
func TestReplaySingleUse(t *testing.T) {
	h := newHistory(t, cards.NewCard{Name: "Once", IsSingleUse: true})
	auth := h.buy(-10*hour, 2500)
	wantDecision(t, "live attempt", &auth.Decision, true, "approved")
	if c := h.load(); c.Status != cards.StatusClosed || cards.StatusAt(c, h.start.Add(-10*hour)) != cards.StatusActive {
		t.Fatalf("status %s, at the attempt %s; want closed after it, active at it", c.Status,
			cards.StatusAt(c, h.start.Add(-10*hour)))
	}
	wantDecision(t, "the attempt replayed", h.replay(-10*hour, 2500, auth.Transaction.ID), true, "approved")
	wantDecision(t, "a later attempt", h.replay(-9*hour, 2500, ""), false, "card_closed")
}

// A status change and a purchase in the same frozen instant keep their
// order: the pause came first, so the replay declines as the live one did.
func TestReplayKeepsTheOrderWithinAnInstant(t *testing.T) {
	h := newHistory(t, cards.NewCard{Name: "Paused then used"})
	h.setStatus(-hour, cards.StatusPaused)
	auth := h.buy(-hour, 1000)
	wantDecision(t, "live", &auth.Decision, false, "card_paused")
	wantDecision(t, "replayed", h.replay(-hour, 1000, auth.Transaction.ID), false, "card_paused")
}

// PurchaseOf rebuilds a purchase from its transaction and authorization
// event, recurring flag included, so its replay decides as the live one did.
func TestPurchaseOfRebuildsTheRequest(t *testing.T) {
	h := newHistory(t, cards.NewCard{Name: "Subscriptions"})
	h.at(-5*hour, func(op *kernel.Op, a *kernel.Actor) error {
		return cards.SetModifier(op, a, h.card, cards.Modifier{Name: cards.ModifierRecurringOnly, Value: true})
	})
	var auth *cards.Authorization
	h.at(-4*hour, func(op *kernel.Op, _ *kernel.Actor) error {
		var err error
		auth, err = cards.SimulateAuthorization(op, cards.AuthorizationRequest{CardID: h.card, AmountCents: 1999,
			Merchant: books, Recurring: true})
		return err
	})
	wantDecision(t, "live recurring", &auth.Decision, true, "approved")
	h.at(-4*hour, func(op *kernel.Op, _ *kernel.Actor) error {
		req, ok, err := cards.PurchaseOf(op, auth.Transaction)
		if err != nil || !ok {
			t.Fatalf("PurchaseOf: %v, %v", ok, err)
		}
		if !req.Recurring || req.AmountCents != 1999 || req.Merchant.Name != books.Name || req.CardID != h.card {
			t.Fatalf("rebuilt %+v", req)
		}
		d, err := cards.Replay(op, req, auth.Transaction.ID)
		wantDecision(t, "replayed", d, true, "approved")
		req.Recurring = false
		d, _ = cards.Replay(op, req, auth.Transaction.ID)
		wantDecision(t, "replayed as not recurring", d, false, "recurring_payments_only")
		return err
	})
}
