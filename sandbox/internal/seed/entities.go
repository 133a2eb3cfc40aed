package seed

import (
	"cmp"
	"fmt"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

func (l *loader) createdAt(spec string, fallback time.Time) time.Time {
	if spec == "" {
		return fallback
	}
	return l.time(spec)
}

func (l *loader) accounts() error {
	for i, s := range l.sc.Accounts {
		path := fmt.Sprintf("accounts[%d]", i)
		l.op.SetOrigin(path)
		id, err := l.id(s.ID, ledger.PrefixAccount)
		if err != nil {
			return err
		}
		f := l.op.W.Faker("account", int64(i))
		acc := &ledger.Account{ID: id, LegalEntityID: s.LegalEntityID, Name: s.Name, Type: s.Type, Status: s.Status,
			Commercial: s.Commercial == nil ||
				*s.Commercial, AccountNumber: f.DigitN(12), RoutingNumber: parties.RoutingNumber(f),
			CreatedAt: l.createdAt(s.CreatedAt, l.op.Now.AddDate(-1, 0, 0)), Seq: l.seq()}
		if acc.Type == "" {
			acc.Type = "debit"
		}
		if acc.Type == "charge_card" {
			acc.CreditLimitCents = cards.DefaultCreditLimitCents
			if s.CreditLimitCents != nil {
				acc.CreditLimitCents = *s.CreditLimitCents
			}
		}
		if acc.Status == "" {
			acc.Status = "open"
		}
		acc.AccountNumber = cmp.Or(s.AccountNumber, acc.AccountNumber)
		acc.RoutingNumber = cmp.Or(s.RoutingNumber, acc.RoutingNumber)
		ps := scenario.VirtualAccount{Name: "Primary account", CreatedAt: s.CreatedAt}
		if p := s.Primary; p != nil {
			ps.ID, ps.Name, ps.CreatedAt = p.ID, cmp.Or(p.Name, ps.Name), cmp.Or(p.CreatedAt, ps.CreatedAt)
		}
		primary, err := l.virtualAccount(acc, ps, true, i*100)
		if err != nil {
			return err
		}
		acc.PrimaryVirtualAccountID = primary.ID
		l.accs[acc.ID] = acc
		if err := l.op.Save(ledger.KindAccount, acc.ID, acc, ledger.AccountIndex(acc)); err != nil {
			return err
		}
		rest := s.BalanceCents
		for j, vs := range s.VirtualAccounts {
			l.op.SetOrigin(fmt.Sprintf("%s.virtualAccounts[%d]", path, j))
			va, err := l.virtualAccount(acc, vs, false, i*100+j+1)
			if err != nil {
				return err
			}
			l.balances[va.ID] = vs.BalanceCents
			rest -= vs.BalanceCents
		}
		l.balances[primary.ID] = rest
	}
	return nil
}

func (l *loader) virtualAccount(
	acc *ledger.Account,
	s scenario.VirtualAccount,
	primary bool,
	n int,
) (*ledger.VirtualAccount, error) {
	id, err := l.id(s.ID, ledger.PrefixVirtualAccount)
	if err != nil {
		return nil, err
	}
	f := l.op.W.Faker("virtual_account", int64(n))
	va := &ledger.VirtualAccount{
		ID:            id,
		AccountID:     acc.ID,
		LegalEntityID: acc.LegalEntityID,
		Name:          s.Name,
		Primary:       primary,
		AccountNumber: cmp.Or(s.AccountNumber, f.DigitN(12)),
		RoutingNumber: acc.RoutingNumber,
		CreatedAt:     l.createdAt(s.CreatedAt, acc.CreatedAt),
		Seq:           l.seq(),
	}
	if primary {
		va.AccountNumber = acc.AccountNumber
	}
	if s.Closed {
		closed := l.createdAt(s.ClosedAt, l.op.Now)
		va.ClosedAt = &closed
	}
	if s.CommissionRule != nil {
		va.CommissionRule = l.rawJSON(s.CommissionRule)
	}
	l.vas[va.ID] = va
	return va, l.op.Save(ledger.KindVirtualAccount, va.ID, va, ledger.VaIndex(va))
}

func (l *loader) cardGroups() error {
	for i, s := range l.sc.CardGroups {
		l.op.SetOrigin(fmt.Sprintf("cardGroups[%d]", i))
		id, err := l.id(s.ID, cards.PrefixGroup)
		if err != nil {
			return err
		}
		c, err := l.constraint(fmt.Sprintf("cardGroups[%d].spendingConstraint", i), s.SpendingConstraint)
		if err != nil {
			return err
		}
		g := &cards.Group{ID: id, LegalEntityID: s.LegalEntityID, Name: s.Name, VirtualAccountID: s.VirtualAccountID,
			Status: cmp.Or(s.Status, cards.GroupActive), SpendingConstraint: c,
			CreatedAt: l.createdAt(s.CreatedAt, l.op.Now.AddDate(0, -6, 0)), Seq: l.seq()}
		l.groups[g.ID] = g
		if err := l.op.Save(cards.KindGroup, g.ID, g, cards.GroupIndexes(g)...); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) cards_() error {
	for i, s := range l.sc.Cards {
		l.op.SetOrigin(fmt.Sprintf("cards[%d]", i))
		c, err := l.constraint(fmt.Sprintf("cards[%d].spendingConstraint", i), s.SpendingConstraint)
		if err != nil {
			return err
		}
		acc := l.accs[s.AccountID]
		card := &cards.Card{AccountID: acc.ID, LegalEntityID: acc.LegalEntityID, VirtualAccountID: s.VirtualAccountID,
			CardGroupID: s.CardGroupID, CardProductID: s.CardProductID, Name: s.Name, Status: s.Status,
			IsSingleUse: s.IsSingleUse, SpendingConstraint: c, UserData: l.rawJSON(s.UserData),
			CreatedAt: l.createdAt(s.CreatedAt, l.op.Now.AddDate(0, -3, 0)), PAN: s.Last4, ExpiryMonth: s.ExpiryMonth,
			ExpiryYear: s.ExpiryYear, IsPhysical: s.IsPhysical}
		for _, m := range s.Modifiers {
			card.Modifiers = append(card.Modifiers, cards.Modifier{Name: m.Name, Value: m.Value})
		}
		if card.Status == "" {
			card.Status = "active"
		}
		if err := l.statusSince(i, s, card); err != nil {
			return err
		}
		if err := cards.Issue(l.op, card, s.ID); err != nil {
			return err
		}
		l.cards = append(l.cards, card)
	}
	return nil
}

// statusSince gives a paused or closed card the instant it took its status,
// so purchases before it were made on an active card and those after it
// decline: its statusSince, else halfway between its creation and the
// clock start.
func (l *loader) statusSince(i int, s scenario.Card, card *cards.Card) error {
	if card.Status != cards.StatusPaused && card.Status != cards.StatusClosed {
		return nil
	}
	since := card.CreatedAt.Add(max(0, l.op.Now.Sub(card.CreatedAt)/2)).Truncate(time.Second)
	if s.StatusSince != "" {
		since = l.time(s.StatusSince)
		if since.Before(card.CreatedAt) || since.After(l.op.Now) {
			return l.problem(fmt.Sprintf("cards[%d].statusSince", i),
				"must be at or after the card's createdAt and not after the clock start")
		}
	}
	card.StatusHistory = []cards.StatusChange{{At: since, From: cards.StatusActive, To: card.Status}}
	return nil
}
