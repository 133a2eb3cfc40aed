package record

import (
	"context"
	"net/url"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// cents is the API's money: {"amountCents": n}.
type cents struct {
	AmountCents int64 `json:"amountCents"`
}

// accounts reads the accounts, their posted balances and their virtual
// accounts.
func (rc *recording) accounts(ctx context.Context, le string) error {
	var p struct {
		Items []struct {
			ID, Status, Name, CreatedAt, Type, AccountNumber, RoutingNumber string
		} `json:"items"`
	}
	if err := rc.r.get(ctx, "/account", nil, le, &p); err != nil {
		return err
	}
	rc.count("accounts", len(p.Items))
	start := len(rc.sc.Accounts)
	for _, a := range p.Items {
		acc := scenario.Account{ID: a.ID, LegalEntityID: le, Name: a.Name, Type: a.Type, Status: a.Status,
			CreatedAt: a.CreatedAt, AccountNumber: rc.anon.digits("account", a.AccountNumber),
			RoutingNumber: rc.anon.routing(a.RoutingNumber)}
		var b struct {
			Balances []struct {
				Type      string `json:"type"`
				Posted    cents  `json:"posted"`
				Timestamp string `json:"timestamp"`
			} `json:"balances"`
		}
		if err := rc.r.get(ctx, "/account/"+url.PathEscape(a.ID)+"/balance", nil, le, &b); err != nil {
			return err
		}
		for _, bal := range b.Balances {
			if bal.Type == "debit" || bal.Type == "cash" {
				acc.BalanceCents = bal.Posted.AmountCents
			}
			if t, err := time.Parse(time.RFC3339, bal.Timestamp); err == nil && t.After(rc.now) {
				rc.now = t
			}
		}
		rc.sc.Accounts = append(rc.sc.Accounts, acc)
	}
	vas, err := items[struct {
		VirtualAccount struct {
			ID, Name, AccountID, AccountType, ClosedAt, AccountNumber string
			CommissionRule                                            map[string]any
		} `json:"virtualAccount"`
		Balance cents `json:"balance"`
	}](ctx, rc, "virtual accounts", "/virtual-account", url.Values{"filter:includeClosedAccounts": {"true"}}, le)
	if err != nil {
		return err
	}
	for _, v := range vas {
		va := v.VirtualAccount
		for i := start; i < len(rc.sc.Accounts); i++ {
			acc := &rc.sc.Accounts[i]
			switch {
			case acc.ID != va.AccountID:
			case va.AccountType == "primary":
				acc.Primary = &scenario.PrimaryVirtualAccount{ID: va.ID, Name: va.Name}
			default:
				acc.VirtualAccounts = append(acc.VirtualAccounts, scenario.VirtualAccount{ID: va.ID, Name: va.Name,
					BalanceCents: v.Balance.AmountCents, Closed: va.ClosedAt != "", ClosedAt: va.ClosedAt,
					AccountNumber:  rc.anon.digits("account", va.AccountNumber),
					CommissionRule: whole(va.CommissionRule)})
			}
		}
	}
	return nil
}

// cardGroups reads the card groups, active and archived.
func (rc *recording) cardGroups(ctx context.Context, le string) error {
	type group struct {
		ID, Name, VirtualAccountID string
		SpendingConstraint         map[string]any
	}
	for _, status := range []string{"active", "archived"} {
		gs, err := items[group](ctx, rc, "card groups", "/card-group", url.Values{"filter:status": {status}}, le)
		if err != nil {
			return err
		}
		for _, g := range gs {
			rc.sc.CardGroups = append(rc.sc.CardGroups, scenario.CardGroup{ID: g.ID, LegalEntityID: le,
				Name: g.Name, VirtualAccountID: g.VirtualAccountID, SpendingConstraint: whole(g.SpendingConstraint),
				Status: status})
		}
	}
	return nil
}

// cards reads the cards, with their modifiers; never their numbers.
func (rc *recording) cards(ctx context.Context, le string) error {
	cs, err := items[struct {
		ID, AccountID, VirtualAccountID, CardGroupID, CardProductID, Name, Status, CreatedAt string
		Last4, ExpiryMonth, ExpiryYear                                                       string
		IsSingleUse, IsPhysical                                                              bool
		SpendingConstraint, UserData                                                         map[string]any
	}](ctx, rc, "cards", "/card", nil, le)
	if err != nil {
		return err
	}
	modifiers, events := true, true
	for i, c := range cs {
		if i > 0 && i%100 == 0 {
			rc.progress("card modifiers of %s: %d of %d read", le, i, len(cs))
		}
		card := scenario.Card{ID: c.ID, AccountID: c.AccountID, VirtualAccountID: c.VirtualAccountID,
			CardGroupID: c.CardGroupID, CardProductID: c.CardProductID, Name: c.Name, Status: c.Status,
			IsSingleUse: c.IsSingleUse, SpendingConstraint: whole(c.SpendingConstraint), UserData: whole(c.UserData),
			CreatedAt: c.CreatedAt, Last4: c.Last4, ExpiryMonth: c.ExpiryMonth, ExpiryYear: c.ExpiryYear,
			IsPhysical: c.IsPhysical}
		var m struct {
			Modifiers []scenario.Modifier `json:"modifiers"`
		}
		if modifiers {
			err := rc.r.get(ctx, "/card/"+url.PathEscape(c.ID)+"/modifier", nil, le, &m)
			if modifiers, err = rc.refused(err, "card modifiers", le); err != nil {
				return err
			}
		}
		card.Modifiers = m.Modifiers
		if events {
			if events, err = rc.cardEvents(ctx, c.ID, le); err != nil {
				return err
			}
		}
		rc.sc.Cards = append(rc.sc.Cards, card)
	}
	if len(cs) > 0 {
		rc.note("card numbers and CVVs (never read: a loaded world issues its own)")
	}
	return nil
}

// cardEvents reads a card's network events: authorizations and their
// decisions, reversals, clearings, refunds. It reports false when the
// source does not serve them.
func (rc *recording) cardEvents(ctx context.Context, card, le string) (bool, error) {
	es, err := items[struct {
		ProcessorTransactionID, Timestamp, CardID, Type, TransactionID, OriginalTransactionID string
		Last4, FriendlyName                                                                   string
		AmountCents                                                                           int64
		IsApprovedBySlash                                                                     bool
		MerchantData                                                                          *struct {
			ID, Name, CategoryCode, CategoryID string
			Location                           struct{ City, State, Country, Zip string }
		}
		Decision map[string]any
	}](ctx, rc, "card events", "/card/"+url.PathEscape(card)+"/events", nil, le)
	if read, err := rc.refused(err, "card events", le); !read {
		return false, err
	}
	for _, e := range es {
		ev := scenario.CardEvent{ID: e.ProcessorTransactionID, CardID: e.CardID, Type: e.Type,
			AmountCents: e.AmountCents, Approved: e.IsApprovedBySlash, Decision: whole(e.Decision),
			TransactionID: e.TransactionID, OriginalTransactionID: e.OriginalTransactionID, Last4: e.Last4,
			CardName: e.FriendlyName, At: e.Timestamp}
		if ev.Decision != nil {
			ev.Decision["approved"] = e.IsApprovedBySlash
		}
		if m := e.MerchantData; m != nil {
			ev.Merchant = map[string]any{"id": m.ID, "name": m.Name, "mcc": m.CategoryCode, "city": m.Location.City,
				"state": m.Location.State, "country": m.Location.Country, "zip": m.Location.Zip}
			if m.CategoryID != "" {
				ev.Merchant["categoryId"] = m.CategoryID
			}
		}
		rc.sc.CardEvents = append(rc.sc.CardEvents, ev)
	}
	return true, nil
}
