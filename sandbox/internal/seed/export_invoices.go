package seed

import (
	"encoding/json"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// invoices writes every invoice and invoice series as it is: an invoice
// with its ids, dates, payments and who it billed; a series with its
// status and what it has done, so the load issues nothing again. The
// scheduled events both rely on follow from what is written: the load
// plans an invoice's send, overdue and reminder events, and an active
// series' next issue, at the times the world has them.
func (x *exporter) invoices() error {
	all, err := records[invoices.Invoice](x.op, invoices.Kind)
	if err != nil {
		return err
	}
	for _, inv := range all {
		s, err := exportInvoice(&inv)
		if err != nil {
			return err
		}
		x.sc.Invoices = append(x.sc.Invoices, s)
	}
	series, err := records[invoices.Series](x.op, invoices.KindSeries)
	if err != nil {
		return err
	}
	for _, s := range series {
		out, err := exportSeries(&s)
		if err != nil {
			return err
		}
		x.sc.InvoiceSeries = append(x.sc.InvoiceSeries, out)
	}
	return nil
}

// exportInvoice is an invoice as a scenario declares it exactly.
func exportInvoice(inv *invoices.Invoice) (scenario.Invoice, error) {
	s := scenario.Invoice{ID: inv.ID, AccountID: inv.AccountID, CustomerID: inv.CustomerID, ContactID: inv.ContactID,
		Number: inv.Number, IssuedAt: stamp(inv.IssuedAt), DueAt: stamp(inv.DueAt), Timezone: inv.Timezone,
		LineItems: exportLines(inv.LineItems), Memo: inv.Memo, Void: inv.Status == invoices.StatusVoid,
		ScheduledSend: stampPtr(inv.ScheduledSendDate), DetailsID: inv.DetailsID, DocumentID: inv.DocumentID,
		SeriesID: inv.SeriesID, Version: inv.Version, Discount: exportAdjustment(inv.Discount),
		Tax: exportAdjustment(inv.Tax), CreatedAt: stamp(inv.CreatedAt), SentAt: stampPtr(inv.SentAt),
		LastReminderAt: stampPtr(inv.LastReminderAt), ClosedAt: stampPtr(inv.ClosedAt),
		BilledTo: &scenario.BilledTo{Name: inv.BilledTo.Name, Email: inv.BilledTo.Email,
			Address: addressOf(inv.BilledTo.Address), CCEmails: inv.BilledTo.CCEmails}}
	methods, err := exportMethods(inv.PaymentMethods)
	if err != nil {
		return s, err
	}
	if methods != nil {
		s.PaymentMethods = &methods
	}
	for _, p := range inv.Transactions {
		pay := scenario.InvoicePayment{Type: p.Type, TransactionID: p.TransactionID, PaidAt: p.PaidAt,
			AmountCents: p.AmountCents}
		if len(p.PaymentMethod) > 0 {
			if err := json.Unmarshal(p.PaymentMethod, &pay.PaymentMethod); err != nil {
				return s, err
			}
			pay.PaymentMethod = plainNumbers(pay.PaymentMethod)
		}
		s.Payments = append(s.Payments, pay)
	}
	return s, nil
}

// exportSeries is a series as a scenario declares it exactly.
func exportSeries(s *invoices.Series) (scenario.InvoiceSeries, error) {
	out := scenario.InvoiceSeries{ID: s.ID, AccountID: s.AccountID, CustomerID: s.CustomerID, ContactID: s.ContactID,
		Recurrence: exportRule(s.Rule), PaymentTermsDays: s.PaymentTermsDays, Timezone: s.Timezone,
		StartDate: s.StartDate, LineItems: exportLines(s.Template.LineItems), Memo: s.Template.Memo, Status: s.Status,
		Discount: exportAdjustment(s.Template.Discount), Tax: exportAdjustment(s.Template.Tax),
		CCEmails: s.Template.CCEmails, Occurrences: s.Occurrences, LastDate: s.LastDate,
		NextScheduledAt: stampPtr(s.NextScheduledDate), PendingInvoiceID: s.PendingInvoiceID,
		CreatedAt: stamp(s.CreatedAt)}
	if s.End.Type != invoices.EndNever {
		out.End = &scenario.SeriesEnd{Type: s.End.Type, Count: s.End.Count, Date: s.End.Date}
	}
	var err error
	out.PaymentMethods, err = exportMethods(s.PaymentMethods)
	return out, err
}

// exportRule is a series' recurrence rule as a scenario writes it.
func exportRule(r invoices.RecurrenceRule) scenario.Recurrence {
	out := scenario.Recurrence{Type: r.Type}
	switch r.Type {
	case invoices.RecurDayOfMonth:
		out.DayOfMonth = &r.DayOfMonth
	case invoices.RecurWeekly:
		out.DayOfWeek = &r.DayOfWeek
	default:
		out.DayOfWeek, out.Nth = &r.DayOfWeek, r.Nth
		if r.Nth == invoices.NthLast {
			out.Nth = "last"
		}
	}
	return out
}

func exportLines(in []invoices.LineItem) []scenario.LineItem {
	out := make([]scenario.LineItem, len(in))
	for i, li := range in {
		out[i] = scenario.LineItem{Name: li.Name, Quantity: li.Quantity, PriceCents: li.PriceCents,
			CatalogID: li.CatalogID}
	}
	return out
}

func exportAdjustment(a *invoices.Adjustment) *scenario.Adjustment {
	if a == nil {
		return nil
	}
	return &scenario.Adjustment{Type: a.Type, Percent: a.Percent, AmountCents: a.AmountCents}
}

// exportMethods is a stored list of payment methods as a scenario writes
// it (nil for none).
func exportMethods(raw json.RawMessage) ([]map[string]any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var out []map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	for i := range out {
		out[i] = plainNumbers(out[i]).(map[string]any)
	}
	return out, nil
}
