package seed_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// exactInvoices is a world with an invoice and a series declared as they
// are.
const exactInvoices = `clockStart: 2026-06-15T14:00:00Z
legalEntities: [{id: le_a, name: A}]
accounts: [{id: sa_a, legalEntityId: le_a, name: Ops}]
customers: [{id: le_cust_a, legalEntityId: le_a, name: C, email: c@a.test}]
invoiceSettings: [{legalEntityId: le_a, companyName: A, email: billing@a.test, address: {addressLine: 1 Main St}}]
transactions: [{id: txn_in, accountId: sa_a, amountCents: 500, category: ach, date: -1d}]
invoices:
  - {id: invoice_one, accountId: sa_a, customerId: le_cust_a, number: ONE, issuedAt: -3d, dueAt: -1d,
     detailsId: invoice_details_one, documentId: doc_one, version: 3, lastReminderAt: -2h,
     payments: [{type: internal, transactionId: txn_in, amountCents: 500}],
     lineItems: [{name: Work, quantity: 1, priceCents: 1000}]}
  - {id: invoice_ret2, accountId: sa_a, customerId: le_cust_a, number: SRET-002, seriesId: invoice_series_ret,
     issuedAt: 2026-06-22T04:00:00Z, dueAt: 2026-06-22T04:00:00Z, scheduledSendAt: 2026-06-22T04:00:00Z,
     lineItems: [{name: Retainer, quantity: 1, priceCents: 900}]}
invoiceSeries:
  - {id: invoice_series_ret, accountId: sa_a, customerId: le_cust_a, recurrence: {type: weekly, dayOfWeek: 1},
     startDate: 2026-06-15, end: {type: after_count, count: 3}, status: active, occurrences: 1,
     lastDate: 2026-06-15, nextScheduledAt: 2026-06-22T04:00:00Z, pendingInvoiceId: invoice_ret2,
     lineItems: [{name: Retainer, quantity: 1, priceCents: 900}]}
idCounters: {invoice_: 7}
`

// TestExactInvoicesLoadAsTheyAre: a declared invoice keeps its ids and
// payments and posts nothing; a series declared with its status issues
// nothing on load and schedules its next issue; the invoices' events are
// planned from their state; the id counters go on from where they were.
func TestExactInvoicesLoadAsTheyAre(t *testing.T) {
	sc, err := scenario.Parse("exact.yaml", []byte(exactInvoices))
	if err != nil {
		t.Fatal(err)
	}
	w := enginetest.MustWorld(t, sc)
	err = w.View(func(op *kernel.Op) error {
		all, err := kernel.All[invoices.Invoice](op, invoices.Kind, kernel.IndexPrefix(invoices.IndexLE, "le_a"))
		if err != nil {
			return err
		}
		if len(all) != 2 {
			t.Fatalf("%d invoices, want the 2 declared", len(all))
		}
		var one invoices.Invoice
		if _, err := op.Get(invoices.Kind, "invoice_one", &one); err != nil {
			return err
		}
		got := fmt.Sprintf("%s %s %s %d %d %s %s", one.Status, one.DetailsID, one.DocumentID, one.Version,
			one.CollectedCents, one.Transactions[0].TransactionID, one.LastReminderAt.Format(time.RFC3339))
		if want := "paid_partially invoice_details_one doc_one 3 500 txn_in 2026-06-15T12:00:00Z"; got != want {
			t.Errorf("invoice_one = %s, want %s", got, want)
		}
		if _, err := invoices.DocumentOf(op, "le_a", "doc_one", "documentId"); err != nil {
			t.Errorf("its document: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	page, err := w.Events(kernel.StatusScheduled, kernel.PageRequest{Size: 100})
	if err != nil {
		t.Fatal(err)
	}
	var planned []string
	for _, ev := range page.Items {
		if ev.Kind != "token_prices.tick" {
			planned = append(planned, ev.Kind+" "+ev.At.Format(time.RFC3339))
		}
	}
	// invoice_one, due 2026-06-14 in New York, is overdue since the start
	// of the 15th: its next reminder is 7 days on; the series' invoice is
	// sent, then issued by the series, and overdue the day after.
	want := []string{"invoice.remind 2026-06-22T04:00:00Z", "invoice.send 2026-06-22T04:00:00Z",
		"invoice_series.issue 2026-06-22T04:00:00Z", "invoice.overdue 2026-06-23T04:00:00Z"}
	if !slices.Equal(planned, want) {
		t.Errorf("scheduled events %q, want %q", planned, want)
	}
	err = w.Update(func(op *kernel.Op) error {
		id, err := op.NewID(invoices.Prefix)
		if want := kernel.DeriveID(w.Seed, invoices.Prefix, 8); id != want {
			t.Errorf("the next invoice id is %s, want number 8 (%s)", id, want)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
