package checker

import (
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

// checkInvoices reports invoices whose paid amount or status is not what
// their payments make them: the collected amount is the sum of the payments
// recorded, the status follows from it (and from the dates), and a paid
// invoice cannot be void.
func checkInvoices(c *check, op *kernel.Op) error {
	return each(c, op, invoices.Kind, func(inv *invoices.Invoice, path string) error {
		what := "invoice " + inv.Number
		var paid int64
		for _, p := range inv.Transactions {
			paid += p.AmountCents
		}
		if paid != inv.CollectedCents {
			c.report(path, "invoice.payments", "%s has collected %s, but its %d payments sum to %s", what,
				ledger.FormatCents(inv.CollectedCents), len(inv.Transactions), ledger.FormatCents(paid))
		}
		void := inv.Status == invoices.StatusVoid
		total := inv.TotalCents()
		if void && total > 0 && inv.CollectedCents >= total {
			c.report(path, "invoice.voidPaid", "%s is void but paid in full (%s of %s): a paid invoice cannot be voided "+
				"until its payments are unreconciled", what, ledger.FormatCents(inv.CollectedCents), ledger.FormatCents(total))
		}
		if want := invoices.StatusOf(inv, void, c.now); inv.Status != want {
			c.report(path, "invoice.status", "%s is %s, but with %s of %s collected it is %s", what, inv.Status,
				ledger.FormatCents(inv.CollectedCents), ledger.FormatCents(total), want)
		}
		return nil
	})
}
