package seed

import (
	"fmt"
	"strings"
	"time"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// weighted picks a value by weight.
type weighted struct {
	value  string
	weight int
}

func pick(f *gofakeit.Faker, ws []weighted) string {
	total := 0
	for _, w := range ws {
		total += w.weight
	}
	n := f.IntN(total)
	for _, w := range ws {
		if n < w.weight {
			return w.value
		}
		n -= w.weight
	}
	return ws[len(ws)-1].value
}

var cardStatusWeights = []weighted{
	{"settled", 80}, {"pending", 6}, {"declined", 6}, {"reversed", 3}, {"refund", 3}, {"dispute", 2},
}

var bankStatusWeights = []weighted{
	{"settled", 78}, {"pending", 8}, {"pending_approval", 3}, {"canceled", 3}, {"failed", 3}, {"returned", 5},
}

var declineReasons = []string{
	"insufficient_funds",
	"merchant_blocked",
	"merchant_category_blocked",
	"transaction_size_exceeded",
	"spending_limit_exceeded",
	"card_paused",
}

// generate makes the bulk data the scenario asks for.
func (l *loader) generate() error {
	for i, g := range l.sc.Generate {
		l.op.SetOrigin(fmt.Sprintf("generate[%d]", i))
		over := 90 * 24 * time.Hour
		if g.Over != "" {
			over, _ = scenario.ParseDuration(g.Over)
		}
		var err error
		switch g.Kind {
		case "card_transactions":
			err = l.generateCard(i, g, over)
		case "bank_transactions":
			err = l.generateBank(i, g, over)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) generatedCards(g scenario.Generate) []*cards.Card {
	var out []*cards.Card
	for _, c := range l.cards {
		inEntity := g.LegalEntityID == "" || c.LegalEntityID == g.LegalEntityID
		named := len(g.Cards) == 0
		for _, id := range g.Cards {
			named = named || id == c.ID
		}
		if inEntity && named && c.Status != "inactive" {
			out = append(out, c)
		}
	}
	return out
}

// when spreads generated items over the period before the clock start;
// pending items are always recent, as real pending items are.
func when(f *gofakeit.Faker, now time.Time, over time.Duration, status string) time.Time {
	if status == "pending" || status == "pending_approval" {
		over = min(over, 36*time.Hour)
	}
	return now.Add(-time.Duration(f.Uint64() % uint64(over))).Truncate(time.Second)
}

func (l *loader) generateCard(i int, g scenario.Generate, over time.Duration) error {
	generated := l.generatedCards(g)
	if len(generated) == 0 {
		return l.problem(fmt.Sprintf("generate[%d]", i), "no card matches; declare generated first")
	}
	cat := l.op.W.Catalog
	for n := range g.Count {
		f := l.op.W.Faker(fmt.Sprintf("generate:%d", i), int64(n))
		card := generated[f.IntN(len(generated))]
		m := &cat.Merchants[f.IntN(len(cat.Merchants))]
		status := pick(f, cardStatusWeights)
		amount := max(100, m.TypicalCents/2+int64(f.Uint64()%uint64(max(1, m.TypicalCents))))
		acc, va, sub := l.cardBucket(card)
		t := &ledger.Transaction{
			LegalEntityID:    acc.LegalEntityID,
			AccountID:        acc.ID,
			VirtualAccountID: va,
			AccountSubtype:   sub,
			CardID:           card.ID,
			CardGroupID:      card.CardGroupID,
			Category:         "card",
			AmountCents:      -amount,
			DetailedStatus:   status,
			Merchant:         merchantData(m),
			Description:      m.Name,
			CreatedAt:        when(f, l.op.Now, over, status),
		}
		t.Date = t.CreatedAt
		authorized := t.CreatedAt
		t.AuthorizedAt = &authorized
		t.ProviderAuthorizationID = "auth_" + f.LetterN(16)
		switch status {
		case "declined":
			t.DeclineReason = declineReasons[f.IntN(len(declineReasons))]
		case "refund":
			t.AmountCents = amount
			t.Description = "Refund: " + m.Name
		case "pending", "settled":
			t.ApprovalReason = "approved"
		}
		if err := l.postGenerated(t); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) generateBank(i int, g scenario.Generate, over time.Duration) error {
	var accounts []*ledger.Account
	for _, s := range l.sc.Accounts {
		a := l.accs[s.ID]
		if a != nil && (g.AccountID == "" || g.AccountID == a.ID) &&
			(g.LegalEntityID == "" || g.LegalEntityID == a.LegalEntityID) {
			accounts = append(accounts, a)
		}
	}
	if len(accounts) == 0 {
		return l.problem(fmt.Sprintf("generate[%d]", i), "no account matches; declare accounts first")
	}
	for n := range g.Count {
		f := l.op.W.Faker(fmt.Sprintf("generate:%d", i), int64(n))
		acc := accounts[f.IntN(len(accounts))]
		status := pick(f, bankStatusWeights)
		category := pick(f, []weighted{{"ach", 60}, {"wire", 25}, {"rtp", 10}, {"international_wire", 5}})
		amount := int64(f.IntRange(5_000, 2_500_000))
		if f.IntN(3) > 0 {
			amount = -amount
		}
		if status == "returned" && amount > 0 {
			amount = -amount
		}
		t := &ledger.Transaction{
			LegalEntityID:    acc.LegalEntityID,
			AccountID:        acc.ID,
			VirtualAccountID: acc.PrimaryVirtualAccountID,
			AccountSubtype:   "cash",
			Category:         category,
			AmountCents:      amount,
			DetailedStatus:   status,
			CreatedAt:        when(f, l.op.Now, over, status),
		}
		t.Date = t.CreatedAt
		ledger.FillRail(f, t, "")
		t.Description = counterpartyLine(f, t)
		if err := l.postGenerated(t); err != nil {
			return err
		}
	}
	return nil
}

func counterpartyLine(f *gofakeit.Faker, t *ledger.Transaction) string {
	rail := ledger.RailName(t.Category)
	rail = strings.ToUpper(rail[:1]) + rail[1:]
	if t.AmountCents > 0 {
		return fmt.Sprintf("%s from %s", rail, f.Company())
	}
	return fmt.Sprintf("%s to %s", rail, f.Company())
}

// postGenerated posts a generated transaction; a pending one settles two
// days after it was made.
func (l *loader) postGenerated(t *ledger.Transaction) error {
	if err := ledger.PostTransaction(l.op, t); err != nil {
		return err
	}
	if t.DetailedStatus != "pending" {
		return nil
	}
	return ledger.ScheduleSettlement(l.op, t, ledger.At(t.CreatedAt.Add(48*time.Hour)), "settled")
}
