package record

import (
	"cmp"
	"context"
	"net/url"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// lineItems are the API's invoice lines and totals.
type lineItems struct {
	LineItems []struct {
		Name          string
		Quantity      float64
		PriceCents    int64
		CatalogItemID string
	}
	Discount, Tax *scenario.Adjustment
}

// lines are the lines as a scenario declares them.
func (l lineItems) lines() []scenario.LineItem {
	out := make([]scenario.LineItem, len(l.LineItems))
	for i, li := range l.LineItems {
		out[i] = scenario.LineItem{Name: li.Name, Quantity: li.Quantity, PriceCents: li.PriceCents,
			CatalogID: li.CatalogItemID}
	}
	return out
}

// recordedInvoice is an invoice as GET /invoice shows it.
type recordedInvoice struct {
	Invoice struct {
		ID, Status, InvoiceDetailsID, AccountID, LegalEntityCustomerID, LegalEntityContactID string
		InvoiceSeriesID, ScheduledSendDate, ClosedAt                                         string
		InvoicePaymentMethods                                                                []map[string]any
		InvoiceTransactions                                                                  []struct {
			TransactionType string
			Transaction     struct {
				AmountCents             int64
				AggregatedTransactionID string
				PaymentMethod           any
				PaidAt                  string
			}
		}
	}
	InvoiceDetails struct {
		ID, IssuedAt, DueAt, InvoiceTz, InvoiceNumber, Memo, DocumentID string
		Version                                                         int
		LineItemsAndTotals                                              lineItems
		BilledTo                                                        struct {
			Name, Email string
			Address     *scenario.Address
			CCEmails    []string
		}
	}
}

// invoices reads the invoices, in any status, with their ids, payments and
// who they billed: those a series issued too, the series being recorded
// with what it has done so that it does not issue them again.
func (rc *recording) invoices(ctx context.Context, le string) error {
	is, err := items[recordedInvoice](ctx, rc, "invoices", "/invoice", url.Values{"filter:legalEntityId": {le}}, le)
	if err != nil {
		return err
	}
	if len(is) > 0 {
		rc.note("invoices' creation, send and last reminder times (a loaded invoice was created and sent on its " +
			"issue date)")
	}
	recorded := map[string]bool{}
	for _, t := range rc.sc.Transactions {
		recorded[t.ID] = true
	}
	for _, it := range is {
		inv, d := it.Invoice, it.InvoiceDetails
		b := d.BilledTo
		out := scenario.Invoice{ID: inv.ID, AccountID: inv.AccountID, CustomerID: inv.LegalEntityCustomerID,
			ContactID: inv.LegalEntityContactID, Number: d.InvoiceNumber, IssuedAt: d.IssuedAt, DueAt: d.DueAt,
			Timezone: d.InvoiceTz, LineItems: d.LineItemsAndTotals.lines(), Memo: d.Memo, Void: inv.Status == "void",
			ScheduledSend: inv.ScheduledSendDate, DetailsID: cmp.Or(d.ID, inv.InvoiceDetailsID),
			DocumentID: d.DocumentID, SeriesID: inv.InvoiceSeriesID, Version: d.Version,
			Discount: d.LineItemsAndTotals.Discount, Tax: d.LineItemsAndTotals.Tax,
			ClosedAt: inv.ClosedAt,
			BilledTo: &scenario.BilledTo{Name: rc.anon.company(b.Name), Email: rc.anon.email(b.Email),
				Address: rc.anon.address(b.Address), CCEmails: rc.anonEmails(b.CCEmails)}}
		if inv.InvoicePaymentMethods != nil {
			out.PaymentMethods = &inv.InvoicePaymentMethods
		}
		for _, p := range inv.InvoiceTransactions {
			t := p.Transaction
			if p.TransactionType == "internal" && !recorded[t.AggregatedTransactionID] {
				rc.note("invoice payments by transactions the recording did not read (left out)")
				continue
			}
			out.Payments = append(out.Payments, scenario.InvoicePayment{Type: p.TransactionType,
				TransactionID: t.AggregatedTransactionID, PaymentMethod: t.PaymentMethod, PaidAt: t.PaidAt,
				AmountCents: t.AmountCents})
		}
		rc.sc.Invoices = append(rc.sc.Invoices, out)
	}
	return nil
}

// anonEmails replaces each address of a list.
func (rc *recording) anonEmails(in []string) []string {
	var out []string
	for _, e := range in {
		out = append(out, rc.anon.email(e))
	}
	return out
}

// invoiceSeries reads the recurring invoices in any status. What a series
// has done is read from its invoices: each but its scheduled next one used
// one of its dates, the last of them its last date.
func (rc *recording) invoiceSeries(ctx context.Context, le string) error {
	ss, err := items[struct {
		ID, Status, AccountID, LegalEntityCustomerID, LegalEntityContactID, InvoiceTz, StartDate string
		NextScheduledDate                                                                        string
		PaymentTermsDays                                                                         int
		RecurrenceRule                                                                           scenario.Recurrence
		EndCondition                                                                             *struct {
			Type  string
			Count int
			Date  string
		}
		PaymentMethods []map[string]any
		Template       struct {
			LineItemsAndTotals lineItems
			Memo               string
			CCEmails           []string
		}
	}](ctx, rc, "invoice series", "/invoice/series", url.Values{"filter:legalEntityId": {le}}, le)
	if err != nil {
		return err
	}
	for _, s := range ss {
		l := s.Template.LineItemsAndTotals
		out := scenario.InvoiceSeries{ID: s.ID, AccountID: s.AccountID, CustomerID: s.LegalEntityCustomerID,
			ContactID: s.LegalEntityContactID, Recurrence: s.RecurrenceRule, PaymentTermsDays: s.PaymentTermsDays,
			Timezone: s.InvoiceTz, StartDate: s.StartDate, LineItems: l.lines(), Memo: s.Template.Memo,
			Status: s.Status, Discount: l.Discount, Tax: l.Tax, CCEmails: rc.anonEmails(s.Template.CCEmails),
			PaymentMethods: s.PaymentMethods, NextScheduledAt: s.NextScheduledDate}
		if e := s.EndCondition; e != nil {
			out.End = &scenario.SeriesEnd{Type: e.Type, Count: e.Count, Date: dateOf(e.Date)}
		}
		rc.seriesDone(&out)
		rc.sc.InvoiceSeries = append(rc.sc.InvoiceSeries, out)
	}
	return nil
}

// seriesDone fills in what a recorded series has done from its recorded
// invoices: its scheduled next invoice, the dates it used, the last one.
func (rc *recording) seriesDone(s *scenario.InvoiceSeries) {
	loc, err := time.LoadLocation(s.Timezone)
	if err != nil {
		loc = time.UTC
	}
	next, _ := time.Parse(time.RFC3339, s.NextScheduledAt)
	var last time.Time
	for _, inv := range rc.sc.Invoices {
		if inv.SeriesID != s.ID {
			continue
		}
		sched, _ := time.Parse(time.RFC3339, inv.ScheduledSend)
		if s.NextScheduledAt != "" && !inv.Void && sched.Equal(next) {
			s.PendingInvoiceID = inv.ID
			continue
		}
		s.Occurrences++
		if issued, err := time.Parse(time.RFC3339, inv.IssuedAt); err == nil && issued.After(last) {
			last = issued
		}
	}
	if !last.IsZero() {
		s.LastDate = last.In(loc).Format(time.DateOnly)
	}
}

// dateOf is the YYYY-MM-DD of an RFC 3339 time or a date.
func dateOf(s string) string {
	if len(s) > 10 {
		return s[:10]
	}
	return s
}

// invoiceSettings reads the legal entity's invoice settings, when it has
// some.
func (rc *recording) invoiceSettings(ctx context.Context, le string) error {
	var s struct {
		InvoiceSettings *struct {
			Settings struct {
				CompanyName, Email, DefaultMemo, InvoiceTerms string
				Address                                       *scenario.Address
				DefaultPaymentTermsDays                       *int
			}
		}
	}
	err := rc.r.get(ctx, "/invoice/settings", nil, le, &s)
	if isStatus(err, 404) || err == nil && s.InvoiceSettings == nil {
		return nil
	}
	if err != nil {
		return err
	}
	st := s.InvoiceSettings.Settings
	rc.sc.InvoiceSettings = append(rc.sc.InvoiceSettings, scenario.InvoiceSettings{LegalEntityID: le,
		CompanyName: rc.anon.company(st.CompanyName), Email: rc.anon.email(st.Email),
		Address: rc.anon.address(st.Address), DefaultMemo: st.DefaultMemo, InvoiceTerms: st.InvoiceTerms,
		DefaultPaymentTermsDays: st.DefaultPaymentTermsDays})
	rc.count("invoice settings", 1)
	return nil
}

// webhooks reads the webhook endpoints; their signing secrets are not
// readable.
func (rc *recording) webhooks(ctx context.Context, le string) error {
	ws, err := items[struct {
		ID, URL, Name, Status, CreatedAt string
	}](ctx, rc, "webhooks", "/webhook", url.Values{"filter:legalEntityId": {le}}, le)
	if err != nil {
		return err
	}
	for _, w := range ws {
		rc.sc.Webhooks = append(rc.sc.Webhooks, scenario.Webhook{ID: w.ID, LegalEntityID: le, URL: w.URL,
			Name: w.Name, Status: w.Status, CreatedAt: w.CreatedAt})
	}
	if len(ws) > 0 {
		rc.note("webhook signing secrets, and deliveries waiting or failing (a loaded world has its own)")
	}
	return nil
}
