package seed_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// demoAt makes the demo world at a seed and clock start.
func demoAt(t *testing.T, seed int64, start time.Time) *kernel.World {
	t.Helper()
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	w, err := eng.CreateWorld(kernel.WorldSpec{Scenario: enginetest.MustScenario(t, "demo"), Seed: &seed,
		ClockStart: &start})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// generatedPurchase is a card purchase of the generated history with the
// authorization event that recorded it.
type generatedPurchase struct {
	t  ledger.Transaction
	ev cards.Event
}

// generatedHistory is every generated card purchase of a world, with the
// world's cards by id. Generated purchases are those recorded with an
// authorization event (the scenario's explicit transactions have none).
func generatedHistory(t *testing.T, op *kernel.Op) ([]generatedPurchase, map[string]*cards.Card) {
	t.Helper()
	byCard := map[string]*cards.Card{}
	events := map[string]cards.Event{}
	for _, key := range []string{"sk_sandbox_acme", "sk_sandbox_globex"} {
		a := enginetest.ActorInOp(t, op, key)
		cs, err := kernel.All[cards.Card](op, cards.Kind, kernel.IndexPrefix(cards.IndexCardLE, a.LegalEntityID()))
		enginetest.Must(t, err)
		for i := range cs {
			c := &cs[i]
			byCard[c.ID] = c
			for after := ""; ; {
				p, err := cards.Events(op, a, c.ID, nil, kernel.PageRequest{After: after, Size: 500})
				enginetest.Must(t, err)
				for _, e := range p.Items {
					if e.Type == cards.EventAuthorization {
						events[e.TransactionID] = e
					}
				}
				if after = p.Next; after == "" {
					break
				}
			}
		}
	}
	txns, err := kernel.All[ledger.Transaction](op, ledger.KindTransaction, kernel.IndexPrefix(ledger.IndexTxnLE))
	enginetest.Must(t, err)
	var out []generatedPurchase
	for _, tx := range txns {
		if ev, ok := events[tx.ID]; ok {
			out = append(out, generatedPurchase{t: tx, ev: ev})
		}
	}
	return out, byCard
}

// Every generated card purchase is what a live authorization at its
// instant decides: replayed, it gets its own outcome and reason. It is
// dated after its card was issued and before the clock start; a single-use
// card is tried at most once; every card with generated history has
// purchases approved and declined.
func TestGeneratedHistoryReplaysToItsOwnOutcome(t *testing.T) {
	base := time.Date(2026, 6, 15, 14, 0, 0, 0, time.UTC)
	for _, seed := range []int64{1, 7, 1234} {
		for _, start := range []time.Time{base, base.AddDate(1, 0, 0), base.AddDate(-1, 2, 3)} {
			t.Run(fmt.Sprintf("seed %d at %s", seed, start.Format(time.DateOnly)), func(t *testing.T) {
				w := demoAt(t, seed, start)
				enginetest.Must(t, w.View(func(op *kernel.Op) error {
					checkHistory(t, op, start)
					return nil
				}))
			})
		}
	}
}

func checkHistory(t *testing.T, op *kernel.Op, start time.Time) {
	t.Helper()
	history, byCard := generatedHistory(t, op)
	if len(history) < 300 {
		t.Fatalf("%d generated purchases, want the demo's hundreds", len(history))
	}
	approved, declined, attempts := map[string]int{}, map[string]int{}, map[string]int{}
	reasons := map[string]bool{}
	for _, g := range history {
		tx, c := g.t, byCard[g.t.CardID]
		if !tx.CreatedAt.After(c.CreatedAt) || !tx.CreatedAt.Before(start) {
			t.Fatalf("%s on %s at %s: card created %s, clock start %s", tx.ID, c.Name, tx.CreatedAt, c.CreatedAt, start)
		}
		req, ok, err := cards.PurchaseOf(op, &tx)
		if err != nil || !ok {
			t.Fatalf("%s: PurchaseOf %v %v", tx.ID, ok, err)
		}
		op.Now = tx.CreatedAt
		d, err := cards.Replay(op, req, tx.ID)
		enginetest.Must(t, err)
		isDeclined := tx.DetailedStatus == "declined"
		if d.Approved == isDeclined || (isDeclined && d.Reason != tx.DeclineReason) ||
			d.Rule != g.ev.Decision.Rule || d.Reason != g.ev.Decision.Reason {
			t.Fatalf("%s on %s at %s (%s %s at %s): status %s %q, event %s/%s; replayed %v %s/%s (%s)", tx.ID, c.Name,
				tx.CreatedAt, ledger.FormatCents(req.AmountCents), req.Merchant.Name, req.Merchant.CategoryID,
				tx.DetailedStatus, tx.DeclineReason, g.ev.Decision.Rule, g.ev.Decision.Reason, d.Approved, d.Rule,
				d.Reason, d.Detail)
		}
		attempts[c.ID]++
		if isDeclined {
			declined[c.ID]++
			reasons[tx.DeclineReason] = true
		} else {
			approved[c.ID]++
		}
	}
	for id, n := range attempts {
		c := byCard[id]
		if c.IsSingleUse && n > 1 {
			t.Errorf("single-use card %s was tried %d times", c.Name, n)
		}
		if !c.IsSingleUse && (approved[id] == 0 || declined[id] == 0) {
			t.Errorf("card %s: %d approved, %d declined; want both", c.Name, approved[id], declined[id])
		}
	}
	for _, r := range []string{"merchant_category_blocked", "transaction_size_exceeded", "card_paused",
		"recurring_payments_only", "merchant_blocked"} {
		if !reasons[r] {
			t.Errorf("no generated purchase declined with %s; reasons %v", r, reasons)
		}
	}
}

// The demo's cards keep their own rules: Team meals approves restaurants
// only, Office supplies nothing above its $500.00 maximum, and the
// single-use Conference ticket is tried at most once, never before it was
// issued.
func TestDemoCardsKeepTheirRules(t *testing.T) {
	for _, seed := range []int64{1, 42, 1234} {
		w := demoAt(t, seed, time.Date(2027, 1, 10, 9, 0, 0, 0, time.UTC))
		enginetest.Must(t, w.View(func(op *kernel.Op) error {
			txns, err := kernel.All[ledger.Transaction](op, ledger.KindTransaction, kernel.IndexPrefix(ledger.IndexTxnLE))
			enginetest.Must(t, err)
			meals, office, oneoff := 0, 0, 0
			card, _, err := cards.ByID(op, "card_acmeoneoff")
			enginetest.Must(t, err)
			for _, tx := range txns {
				if tx.AmountCents >= 0 || tx.Category != "card" {
					continue
				}
				ok := tx.DetailedStatus != "declined"
				mcc := ""
				if tx.Merchant != nil {
					mcc = tx.Merchant.CategoryCode
				}
				switch tx.CardID {
				case "card_acmemeals":
					meals++
					if m, found := op.W.Catalog.MCC(mcc); ok && (!found || m.CategoryID != "merchant_category_restaurants") {
						t.Errorf("seed %d: Team meals approved %s (MCC %s)", seed, tx.Description, mcc)
					}
				case "card_acmeoffice":
					office++
					if ok && -tx.AmountCents > 50000 {
						t.Errorf("seed %d: Office supplies approved %s at %s", seed, ledger.FormatCents(-tx.AmountCents),
							tx.Description)
					}
				case "card_acmeoneoff":
					oneoff++
					if !tx.CreatedAt.After(card.CreatedAt) {
						t.Errorf("seed %d: Conference ticket used at %s, before it was issued at %s", seed, tx.CreatedAt,
							card.CreatedAt)
					}
				}
			}
			if meals < 5 || office < 5 || oneoff > 1 {
				t.Errorf("seed %d: %d Team meals purchases, %d Office supplies, %d Conference ticket; want several, several,"+
					" at most one", seed, meals, office, oneoff)
			}
			return nil
		}))
	}
}

// The same seed and clock start make the same world, byte for byte.
func TestGeneratedHistoryIsDeterministic(t *testing.T) {
	start := time.Date(2026, 6, 15, 14, 0, 0, 0, time.UTC)
	a, err := demoAt(t, 7, start).Db.Items()
	enginetest.Must(t, err)
	b, err := demoAt(t, 7, start).Db.Items()
	enginetest.Must(t, err)
	if !slices.Equal(a, b) {
		t.Fatal("two loads of the demo at seed 7 differ")
	}
}

const sinceScenario = `
name: since
clockStart: 2026-06-15T14:00:00Z
legalEntities: [{id: le_s, name: S}]
accounts: [{id: sa_group_s, legalEntityId: le_s, name: S, type: debit, balanceCents: 5000000}]
cards:
  - {id: card_s, accountId: sa_group_s, name: Paused, createdAt: -60d, STATUS}
generate:
  - {kind: card_transactions, count: 80, over: 30d, legalEntityId: le_s}
`

// A paused card's statusSince is when it was paused: generated purchases
// before it are decided on an active card, those after it decline with
// card_paused.
func TestStatusSinceDatesThePause(t *testing.T) {
	sc, err := scenario.Parse("since.yaml", []byte(strings.Replace(sinceScenario, "STATUS",
		"status: paused, statusSince: -10d", 1)))
	enginetest.Must(t, err)
	w := enginetest.MustWorld(t, sc)
	paused := w.Now().Add(-10 * 24 * time.Hour)
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		c, _, err := cards.ByID(op, "card_s")
		enginetest.Must(t, err)
		if cards.StatusAt(c, paused.Add(-time.Second)) != cards.StatusActive || cards.StatusAt(c, paused.Add(time.Second)) !=
			cards.StatusPaused || c.Status != cards.StatusPaused {
			t.Fatalf("card %s with history %+v", c.Status, c.StatusHistory)
		}
		txns, err := kernel.All[ledger.Transaction](op, ledger.KindTransaction,
			kernel.IndexPrefix(ledger.IndexTxnCard, "card_s"))
		enginetest.Must(t, err)
		before, after := 0, 0
		for _, tx := range txns {
			if tx.AmountCents > 0 {
				continue // a refund
			}
			if tx.CreatedAt.After(paused) {
				after++
				if tx.DeclineReason != "card_paused" {
					t.Errorf("%s after the pause: %s %q", tx.ID, tx.DetailedStatus, tx.DeclineReason)
				}
			} else {
				before++
			}
		}
		if before == 0 || after == 0 {
			t.Fatalf("%d purchases before the pause, %d after; want both", before, after)
		}
		return nil
	}))
}

// statusSince must fall after the card's creation and by the clock start,
// and only a card that is not active has one.
func TestStatusSinceMistakes(t *testing.T) {
	_, err := scenario.Parse("since.yaml", []byte(strings.Replace(sinceScenario, "STATUS", "statusSince: -10d", 1)))
	if err == nil || !strings.Contains(err.Error(), "statusSince") ||
		!strings.Contains(err.Error(), "only a card whose status is not active has one") {
		t.Fatalf("statusSince on an active card: %v", err)
	}
	sc, err := scenario.Parse("since.yaml", []byte(strings.Replace(sinceScenario, "STATUS",
		"status: closed, statusSince: -90d", 1)))
	enginetest.Must(t, err)
	eng, err := engine.New(nil)
	enginetest.Must(t, err)
	defer eng.Close()
	_, err = eng.CreateWorld(kernel.WorldSpec{Scenario: sc})
	if err == nil || !strings.Contains(err.Error(), "cards[0].statusSince") ||
		!strings.Contains(err.Error(), "must be at or after the card's createdAt") {
		t.Fatalf("statusSince before createdAt: %v", err)
	}
}
