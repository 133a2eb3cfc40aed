package record

import (
	"context"
	"net/url"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// lineItems are the API's invoice lines.
type lineItems struct {
	LineItems []scenario.LineItem `json:"lineItems"`
}

// invoices reads the invoices. A series' invoices are left to the series,
// which issues them again when the scenario loads.
func (rc *recording) invoices(ctx context.Context, le string) error {
	is, err := items[struct {
		Invoice struct {
			ID, Status, AccountID, LegalEntityCustomerID, LegalEntityContactID, InvoiceSeriesID, ScheduledSendDate string
			CollectedAmountCents                                                                                   int64
		}
		InvoiceDetails struct {
			IssuedAt, DueAt, InvoiceTz, InvoiceNumber, Memo string
			LineItemsAndTotals                              lineItems
		}
	}](ctx, rc, "invoices", "/invoice", url.Values{"filter:legalEntityId": {le}}, le)
	if err != nil {
		return err
	}
	if len(is) > 0 {
		rc.note("invoices' details and document ids (a loaded invoice gets its own)")
	}
	for _, it := range is {
		inv, d := it.Invoice, it.InvoiceDetails
		switch {
		case inv.InvoiceSeriesID != "":
			rc.note("the ids of invoices a series issued (the series issues them again when the world loads)")
			continue
		case inv.LegalEntityCustomerID == "":
			rc.note("invoices billed to a contact rather than a customer (left out)")
			continue
		}
		out := scenario.Invoice{ID: inv.ID, AccountID: inv.AccountID, CustomerID: inv.LegalEntityCustomerID,
			Number: d.InvoiceNumber, IssuedAt: d.IssuedAt, DueAt: d.DueAt, Timezone: d.InvoiceTz,
			LineItems: d.LineItemsAndTotals.LineItems, Memo: d.Memo, PaidCents: inv.CollectedAmountCents,
			Void: inv.Status == "void"}
		if inv.Status == "scheduled" {
			out.ScheduledSend = inv.ScheduledSendDate
		}
		rc.sc.Invoices = append(rc.sc.Invoices, out)
	}
	return nil
}

// invoiceSeries reads the recurring invoices.
func (rc *recording) invoiceSeries(ctx context.Context, le string) error {
	ss, err := items[struct {
		ID, Status, AccountID, LegalEntityCustomerID, LegalEntityContactID, InvoiceTz, StartDate string
		PaymentTermsDays                                                                         int
		RecurrenceRule                                                                           scenario.Recurrence
		EndCondition                                                                             *struct {
			Type  string
			Count int
			Date  string
		}
		Template struct {
			LineItemsAndTotals lineItems
			Memo               string
		}
	}](ctx, rc, "invoice series", "/invoice/series", url.Values{"filter:legalEntityId": {le}}, le)
	if err != nil {
		return err
	}
	for _, s := range ss {
		if s.Status != "active" {
			rc.note("invoice series that ended or were cancelled (left out)")
			continue
		}
		out := scenario.InvoiceSeries{ID: s.ID, AccountID: s.AccountID, CustomerID: s.LegalEntityCustomerID,
			ContactID: s.LegalEntityContactID, Recurrence: s.RecurrenceRule, PaymentTermsDays: s.PaymentTermsDays,
			Timezone: s.InvoiceTz, StartDate: s.StartDate, LineItems: s.Template.LineItemsAndTotals.LineItems,
			Memo: s.Template.Memo}
		if e := s.EndCondition; e != nil {
			out.End = &scenario.SeriesEnd{Type: e.Type, Count: e.Count, Date: dateOf(e.Date)}
		}
		rc.sc.InvoiceSeries = append(rc.sc.InvoiceSeries, out)
	}
	return nil
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
