package seed

import (
	"fmt"
	"slices"
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

// lifeWeights give an approved generated purchase older than the
// clearing delay the rest of its life.
var lifeWeights = []weighted{{"settled", 88}, {"reversed", 4}, {"refund", 5}, {"dispute", 3}}

var bankStatusWeights = []weighted{
	{"settled", 78}, {"pending", 8}, {"pending_approval", 3}, {"canceled", 3}, {"failed", 3}, {"returned", 5},
}

// generate makes the bulk data the scenario asks for: every entry's card
// purchases first, together in the order they were made, then the bank
// transactions.
func (l *loader) generate() error {
	var plan []purchase
	used := map[string]bool{} // the single-use cards given their one attempt
	for i, g := range l.sc.Generate {
		if g.Kind != "card_transactions" {
			continue
		}
		p, err := l.planCard(i, g, overOf(g), used)
		if err != nil {
			return err
		}
		for k := range p {
			p[k].origin = fmt.Sprintf("generate[%d]", i)
		}
		plan = append(plan, p...)
	}
	slices.SortStableFunc(plan, func(a, b purchase) int { return a.at.Compare(b.at) })
	for _, p := range plan {
		l.op.SetOrigin(p.origin)
		if err := l.makePurchase(p); err != nil {
			return err
		}
	}
	for i, g := range l.sc.Generate {
		if g.Kind == "bank_transactions" {
			l.op.SetOrigin(fmt.Sprintf("generate[%d]", i))
			if err := l.generateBank(i, g, overOf(g)); err != nil {
				return err
			}
		}
	}
	return nil
}

// overOf is how far back an entry's items spread.
func overOf(g scenario.Generate) time.Duration {
	if g.Over == "" {
		return 90 * 24 * time.Hour
	}
	over, _ := scenario.ParseDuration(g.Over)
	return over
}

func (l *loader) generatedCards(g scenario.Generate) []*cards.Card {
	var out []*cards.Card
	for _, c := range l.cards {
		inEntity := g.LegalEntityID == "" || c.LegalEntityID == g.LegalEntityID
		named := len(g.Cards) == 0
		for _, id := range g.Cards {
			named = named || id == c.ID
		}
		if inEntity && named && c.Status != cards.StatusInactive {
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

// between is an instant in [from, to), to the second.
func between(f *gofakeit.Faker, from, to time.Time) time.Time {
	span := to.Sub(from).Truncate(time.Second)
	if span <= time.Second {
		return from
	}
	return from.Add(time.Duration(f.Uint64()%uint64(span/time.Second)) * time.Second)
}

// purchase is a generated card purchase, planned before it is made.
type purchase struct {
	at  time.Time
	req cards.AuthorizationRequest
	f   *gofakeit.Faker
	// origin is the path of the entry that asked for it.
	origin string
}

// stock is a catalogue merchant with the usual size of its purchases.
type stock struct {
	m       cards.Merchant
	typical int64
}

// cardProfile is what generating purchases on a card needs to know.
type cardProfile struct {
	card *cards.Card
	// from and to bound the instants of its purchases: after its creation
	// (and the period's start), before the clock start; active is when it
	// stopped being active (to when it still is).
	from, to, active time.Time
	// allowed and refused are the catalogue's merchants its merchant rules
	// let through and turn away.
	allowed, refused   []stock
	minCents, maxCents int64 // 0 when it has none
	recurringOnly      bool
	// planned counts the purchases planned on it.
	planned int
}

// profile describes a card for an entry's period, or returns nil for a
// card that gets no purchases: a single-use card declared active (its one
// use is still to come), one already used, or one that was active at no
// time of the period.
func (l *loader) profile(c *cards.Card, over time.Duration) (*cardProfile, error) {
	p := &cardProfile{card: c, to: l.op.Now, active: l.op.Now, recurringOnly: c.Modifier(cards.ModifierRecurringOnly)}
	p.from = c.CreatedAt.Truncate(time.Second).Add(time.Second)
	if start := l.op.Now.Add(-over); start.After(p.from) {
		p.from = start
	}
	if n := len(c.StatusHistory); n > 0 {
		p.active = c.StatusHistory[n-1].At
	}
	if c.IsSingleUse && c.Status == cards.StatusActive || !p.active.After(p.from.Add(time.Second)) {
		return nil, nil
	}
	constraints := []*cards.SpendingConstraint{c.SpendingConstraint}
	if g := l.groups[c.CardGroupID]; g != nil {
		constraints = append(constraints, g.SpendingConstraint)
	}
	for _, sc := range constraints {
		if sc == nil || sc.SpendingRule == nil || sc.SpendingRule.TransactionSizeLimit == nil {
			continue
		}
		if m := sc.SpendingRule.TransactionSizeLimit.Minimum; m != nil {
			p.minCents = max(p.minCents, m.AmountCents)
		}
		if m := sc.SpendingRule.TransactionSizeLimit.Maximum; m != nil && (p.maxCents == 0 || m.AmountCents < p.maxCents) {
			p.maxCents = m.AmountCents
		}
	}
	cat := l.op.W.Catalog
	ms := make([]cards.Merchant, len(cat.Merchants))
	for i, m := range cat.Merchants {
		ms[i], _ = cards.CatalogMerchant(cat, m.ID)
	}
	ok, err := cards.MerchantsAllowed(l.op, c, ms)
	if err != nil {
		return nil, err
	}
	for i, m := range cat.Merchants {
		if ok[i] {
			p.allowed = append(p.allowed, stock{ms[i], m.TypicalCents})
		} else {
			p.refused = append(p.refused, stock{ms[i], m.TypicalCents})
		}
	}
	if len(p.allowed) == 0 {
		return nil, nil
	}
	return p, nil
}

// planCard plans an entry's purchases. Each card's first purchase is one
// its rules allow, made while it was active, and its second one its rules
// refuse, so every card's history has both; of the rest most are allowed.
// A single-use card that is closed gets its one attempt, just before it
// closed.
func (l *loader) planCard(i int, g scenario.Generate, over time.Duration,
	used map[string]bool) ([]purchase, error) {
	var eligible, once []*cardProfile
	for _, c := range l.generatedCards(g) {
		p, err := l.profile(c, over)
		switch {
		case err != nil:
			return nil, err
		case p == nil:
		case c.IsSingleUse:
			if !used[c.ID] {
				used[c.ID] = true
				once = append(once, p)
			}
		default:
			eligible = append(eligible, p)
		}
	}
	if len(eligible)+len(once) == 0 {
		return nil, l.problem(fmt.Sprintf("generate[%d]", i),
			"no card matches; declare generated first (a card must have been active during the period,"+
				" and a single-use one must be closed, its one use made)")
	}
	var plan []purchase
	for n := range g.Count {
		f := l.op.W.Faker(fmt.Sprintf("generate:%d", i), int64(n))
		if n < len(once) {
			p := once[n]
			plan = append(plan, purchase{at: p.active.Add(-time.Second), req: p.allowedPurchase(f), f: f})
			continue
		}
		if len(eligible) == 0 {
			break
		}
		p := eligible[f.IntN(len(eligible))]
		k := p.planned
		p.planned++
		pu := purchase{at: between(f, p.from, p.to), f: f}
		switch {
		case k == 0:
			pu.at, pu.req = between(f, p.from, p.active), p.allowedPurchase(f)
		case k == 1 || f.IntN(100) < 12:
			pu.req = p.refusedPurchase(f)
		default:
			pu.req = p.allowedPurchase(f)
			if recent := p.to.Add(-36 * time.Hour); f.IntN(100) < 6 && p.active.Equal(p.to) && recent.After(p.from) {
				pu.at = between(f, recent, p.to)
			}
		}
		// What is younger than the clearing delay is still pending; keep
		// that to the last 36 hours, so nothing settles in the world's
		// first hours.
		if age := p.to.Sub(pu.at); age > 36*time.Hour && age <= cards.ClearingDelay {
			if earlier := pu.at.Add(-12 * time.Hour); earlier.After(p.from) {
				pu.at = earlier
			}
		}
		plan = append(plan, pu)
	}
	return plan, nil
}

// amountAt is a purchase's amount around a merchant's typical one.
func amountAt(f *gofakeit.Faker, m stock) int64 {
	return max(100, m.typical/2+int64(f.Uint64()%uint64(max(1, m.typical))))
}

// request is a purchase on the card at a catalogue merchant.
func (p *cardProfile) request(m stock, amount int64, recurring bool) cards.AuthorizationRequest {
	return cards.AuthorizationRequest{CardID: p.card.ID, AmountCents: amount, Recurring: recurring, Merchant: m.m}
}

// allowedPurchase is a purchase the card's rules allow: at a merchant they
// let through, within its size limits, recurring when it takes only that.
func (p *cardProfile) allowedPurchase(f *gofakeit.Faker) cards.AuthorizationRequest {
	m := p.allowed[f.IntN(len(p.allowed))]
	amount := amountAt(f, m)
	if p.maxCents > 0 && amount > p.maxCents {
		amount = max(p.minCents, p.maxCents/2+int64(f.Uint64()%uint64(max(1, p.maxCents/2))))
	}
	return p.request(m, max(amount, p.minCents), p.recurringOnly)
}

// refusedPurchase is a purchase one of the card's rules refuses, picked
// among those it has: a merchant turned away, an amount above the maximum
// or below the minimum, a payment that is not recurring. A card without any
// such rule gets an allowed purchase.
func (p *cardProfile) refusedPurchase(f *gofakeit.Faker) cards.AuthorizationRequest {
	var ways []func() cards.AuthorizationRequest
	if len(p.refused) > 0 {
		ways = append(ways, func() cards.AuthorizationRequest {
			m := p.refused[f.IntN(len(p.refused))]
			return p.request(m, amountAt(f, m), p.recurringOnly)
		})
	}
	if p.maxCents > 0 {
		ways = append(ways, func() cards.AuthorizationRequest {
			m := p.allowed[f.IntN(len(p.allowed))]
			return p.request(m, p.maxCents+1+int64(f.Uint64()%uint64(max(1, p.maxCents))), p.recurringOnly)
		})
	}
	if p.minCents > 1 {
		ways = append(ways, func() cards.AuthorizationRequest {
			m := p.allowed[f.IntN(len(p.allowed))]
			return p.request(m, 1+int64(f.Uint64()%uint64(p.minCents-1)), p.recurringOnly)
		})
	}
	if p.recurringOnly {
		ways = append(ways, func() cards.AuthorizationRequest {
			m := p.allowed[f.IntN(len(p.allowed))]
			return p.request(m, amountAt(f, m), false)
		})
	}
	if len(ways) == 0 {
		return p.allowedPurchase(f)
	}
	return ways[f.IntN(len(ways))]()
}

// makePurchase makes a planned purchase at its instant, decided and
// recorded as the card's history records one (cards.RecordPast), then
// gives an approved one the rest of its life: pending when it is younger
// than the clearing delay (settling when the delay ends), else settled,
// reversed before it settled, refunded after, or disputed. A settled
// purchase keeps its purchase instant as its date, so the spend a
// dashboard sums by date is the spend the limits count.
func (l *loader) makePurchase(p purchase) error {
	now := l.op.Now
	defer func() { l.op.Now = now }()
	l.op.Now = p.at
	cleared := p.at.Add(cards.ClearingDelay)
	young := !cleared.Before(now)
	life := "pending"
	if !young {
		life = pick(p.f, lifeWeights)
	}
	auth, err := cards.RecordPast(l.op, p.req, life != "pending" && life != "reversed")
	if err != nil || !auth.Decision.Approved {
		return err
	}
	t := auth.Transaction
	switch life {
	case "pending":
		return ledger.ScheduleSettlement(l.op, t, ledger.At(cleared), "settled")
	case "reversed":
		l.op.Now = between(p.f, p.at.Add(time.Hour), cleared)
		_, err := cards.SimulateEvent(l.op, cards.NetworkEvent{Type: cards.EventReversal, TransactionID: t.ID})
		return err
	}
	later := cleared.Add(time.Duration(1+p.f.IntN(14*24)) * time.Hour)
	switch {
	case life == "settled" || !later.Before(now):
		return nil
	case life == "dispute":
		return ledger.SetTransactionStatus(l.op, t, "dispute")
	}
	l.op.Now = later
	_, err = cards.RefundPast(l.op, t.ID)
	return err
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
