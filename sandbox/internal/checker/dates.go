package checker

import (
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

// checkDates reports records dated before what they need existed: an
// account before its legal entity, a virtual account or a card before its
// account, a transaction before its account, virtual account, card or card
// group, an invoice before its customer or account, a payment before its
// invoice or after the clock start.
func checkDates(c *check, op *kernel.Op) error {
	for _, step := range []func(*check, *kernel.Op) error{accountDates, cardDates, transactionDates, invoiceDates} {
		if err := step(c, op); err != nil {
			return err
		}
	}
	return nil
}

// before reports rule at path when t is before the creation of what it
// needs (when that exists).
func (c *check) before(path, rule, what string, t time.Time, need string, created time.Time) {
	if t.Before(created) {
		c.report(path, rule, "%s is dated %s, before %s existed (created %s)", what, day(t), need, day(created))
	}
}

func accountDates(c *check, op *kernel.Op) error {
	err := each(c, op, ledger.KindAccount, func(a *ledger.Account, path string) error {
		le, err := get[kernel.LegalEntity](c, op, kernel.LegalEntities.Name, a.LegalEntityID)
		if le != nil {
			c.before(path, "date.beforeLegalEntity", "account "+a.ID, a.CreatedAt, "legal entity "+le.ID, le.CreatedAt)
		}
		return err
	})
	if err != nil {
		return err
	}
	return each(c, op, ledger.KindVirtualAccount, func(va *ledger.VirtualAccount, path string) error {
		a, err := get[ledger.Account](c, op, ledger.KindAccount, va.AccountID)
		if a != nil {
			c.before(path, "date.beforeAccount", "virtual account "+va.ID, va.CreatedAt, "account "+a.ID, a.CreatedAt)
		}
		return err
	})
}

func cardDates(c *check, op *kernel.Op) error {
	return each(c, op, cards.Kind, func(card *cards.Card, path string) error {
		a, err := get[ledger.Account](c, op, ledger.KindAccount, card.AccountID)
		if a != nil {
			c.before(path, "date.beforeAccount", "card "+card.ID, card.CreatedAt, "account "+a.ID, a.CreatedAt)
		}
		return err
	})
}

func transactionDates(c *check, op *kernel.Op) error {
	return each(c, op, ledger.KindTransaction, func(t *ledger.Transaction, path string) error {
		what := "transaction " + t.ID
		a, err := get[ledger.Account](c, op, ledger.KindAccount, t.AccountID)
		if err != nil {
			return err
		}
		if a != nil {
			c.before(path, "date.beforeAccount", what, t.CreatedAt, "account "+a.ID, a.CreatedAt)
		}
		va, err := get[ledger.VirtualAccount](c, op, ledger.KindVirtualAccount, t.VirtualAccountID)
		if err != nil {
			return err
		}
		if va != nil && (a == nil || !va.CreatedAt.Equal(a.CreatedAt)) {
			c.before(path, "date.beforeVirtualAccount", what, t.CreatedAt, "virtual account "+va.ID, va.CreatedAt)
		}
		card, err := get[cards.Card](c, op, cards.Kind, t.CardID)
		if err != nil {
			return err
		}
		if card != nil {
			c.before(path, "date.beforeCard", what, t.CreatedAt, "card "+card.ID+" ("+card.Name+")", card.CreatedAt)
		}
		g, err := get[cards.Group](c, op, cards.KindGroup, t.CardGroupID)
		if g != nil {
			c.before(path, "date.beforeCardGroup", what, t.CreatedAt, "card group "+g.ID, g.CreatedAt)
		}
		return err
	})
}

func invoiceDates(c *check, op *kernel.Op) error {
	return each(c, op, invoices.Kind, func(inv *invoices.Invoice, path string) error {
		what := "invoice " + inv.Number
		cust, err := get[parties.Customer](c, op, parties.KindCustomer, inv.CustomerID)
		if err != nil {
			return err
		}
		if cust != nil {
			c.before(path, "date.beforeCustomer", what, inv.IssuedAt, "customer "+cust.ID, cust.CreatedAt)
		}
		a, err := get[ledger.Account](c, op, ledger.KindAccount, inv.AccountID)
		if a != nil {
			c.before(path, "date.beforeAccount", what, inv.IssuedAt, "account "+a.ID, a.CreatedAt)
		}
		for _, p := range inv.Transactions {
			paid, perr := time.Parse(time.RFC3339, p.PaidAt)
			if perr != nil {
				continue
			}
			if paid.Before(inv.IssuedAt) {
				c.report(path, "date.paymentBeforeInvoice", "a payment of %s on %s is dated %s, before it was issued (%s)",
					ledger.FormatCents(p.AmountCents), what, day(paid), day(inv.IssuedAt))
			}
			if paid.After(c.now) {
				c.report(path, "date.paymentInFuture", "a payment of %s on %s is dated %s, after the clock start (%s)",
					ledger.FormatCents(p.AmountCents), what, day(paid), day(c.now))
			}
		}
		return err
	})
}
