package scenario

import (
	"fmt"
	"time"
)

// invoiceRecord checks the keys that restore an invoice exactly.
func (v *validator) invoiceRecord(p string, inv Invoice, owner string) {
	if inv.CustomerID == "" && inv.ContactID == "" {
		v.add(p, "needs customerId or contactId")
	}
	if o, ok := v.owner("contact", inv.ContactID); ok {
		v.sameEntity(p+".contactId", owner, o)
	}
	v.prefixed(p+".detailsId", inv.DetailsID, "invoice_details_")
	v.prefixed(p+".documentId", inv.DocumentID, "doc_")
	if inv.Version < 0 {
		v.add(p+".version", "must be 1 or more")
	}
	for _, k := range []struct{ key, spec string }{{"createdAt", inv.CreatedAt}, {"sentAt", inv.SentAt},
		{"lastReminderAt", inv.LastReminderAt}, {"closedAt", inv.ClosedAt}} {
		v.time(p+"."+k.key, k.spec)
	}
	v.adjustment(p+".discount", inv.Discount, true)
	v.adjustment(p+".tax", inv.Tax, false)
	if inv.PaymentMethods != nil {
		v.paymentMethods(p+".paymentMethods", *inv.PaymentMethods)
	}
	if len(inv.Payments) > 0 && inv.PaidCents != 0 {
		v.add(p+".paidCents", "not with payments: the payments make what is paid")
	}
	for i, pay := range inv.Payments {
		v.invoicePayment(fmt.Sprintf("%s.payments[%d]", p, i), pay)
	}
}

func (v *validator) invoicePayment(p string, pay InvoicePayment) {
	if pay.AmountCents < 1 {
		v.add(p+".amountCents", "must be at least 1")
	}
	if pay.Type == "internal" {
		if pay.TransactionID == "" {
			v.add(p+".transactionId", "required for an internal payment")
		}
		if pay.PaymentMethod != nil || pay.PaidAt != "" {
			v.add(p, "an internal payment names its transaction only, not paymentMethod or paidAt")
		}
		return
	}
	if pay.TransactionID != "" {
		v.add(p+".transactionId", "applies only to an internal payment")
	}
	switch m := pay.PaymentMethod.(type) {
	case string:
		if m != "other" {
			v.add(p+".paymentMethod", `must be "other" or a payment method object`)
		}
	case map[string]any:
		v.paymentMethod(p+".paymentMethod", m)
	default:
		v.add(p+".paymentMethod", `required for an external payment: "other" or a payment method object`)
	}
	if _, err := time.Parse(time.RFC3339, pay.PaidAt); err != nil {
		if _, err := time.Parse(time.DateOnly, pay.PaidAt); err != nil {
			v.add(p+".paidAt", "required for an external payment: an RFC 3339 time or a YYYY-MM-DD day")
		}
	}
}

// paymentMethods checks a list of payment methods.
func (v *validator) paymentMethods(p string, ms []map[string]any) {
	for i, m := range ms {
		v.paymentMethod(fmt.Sprintf("%s[%d]", p, i), m)
	}
}

// paymentMethod checks that a payment method names its method and carries
// a config object; the load checks the rest as the API does.
func (v *validator) paymentMethod(p string, m map[string]any) {
	if s, _ := m["method"].(string); s == "" {
		v.add(p+".method", "required: the payment method's name")
	}
	if _, ok := m["config"].(map[string]any); !ok {
		v.add(p+".config", "required: an object")
	}
}

// adjustment checks a discount or tax.
func (v *validator) adjustment(p string, a *Adjustment, fixedAllowed bool) {
	if a == nil {
		return
	}
	switch a.Type {
	case "percentage":
		if a.Percent == nil || *a.Percent < 0 || *a.Percent > 100 {
			v.add(p+".percent", "required: a percentage from 0 to 100")
		}
		if a.AmountCents != nil {
			v.add(p+".amountCents", "does not apply to a percentage")
		}
	case "fixed":
		if !fixedAllowed {
			v.add(p+".type", "a tax is a percentage")
		}
		if a.AmountCents == nil || *a.AmountCents < 0 {
			v.add(p+".amountCents", "required: a non-negative amount in cents")
		}
		if a.Percent != nil {
			v.add(p+".percent", "does not apply to a fixed discount")
		}
	}
}

// seriesRecord checks the keys that restore a series exactly: they go
// with its status.
func (v *validator) seriesRecord(p string, s InvoiceSeries) {
	v.adjustment(p+".discount", s.Discount, true)
	v.adjustment(p+".tax", s.Tax, false)
	v.paymentMethods(p+".paymentMethods", s.PaymentMethods)
	v.time(p+".createdAt", s.CreatedAt)
	if s.Status == "" {
		for _, k := range []struct {
			key   string
			given bool
		}{{"occurrences", s.Occurrences != 0}, {"lastDate", s.LastDate != ""},
			{"nextScheduledAt", s.NextScheduledAt != ""}, {"pendingInvoiceId", s.PendingInvoiceID != ""}} {
			if k.given {
				v.add(p+"."+k.key, "applies only to a series declared with its status")
			}
		}
		return
	}
	if s.Occurrences < 0 {
		v.add(p+".occurrences", "must be 0 or more")
	}
	if _, err := time.Parse(time.DateOnly, s.LastDate); s.LastDate != "" && err != nil {
		v.add(p+".lastDate", "must be a YYYY-MM-DD date")
	}
	v.time(p+".nextScheduledAt", s.NextScheduledAt)
	switch {
	case s.Status == "active" && s.NextScheduledAt == "":
		v.add(p+".nextScheduledAt", "required for an active series: when it issues its next invoice")
	case s.Status != "active" && (s.NextScheduledAt != "" || s.PendingInvoiceID != ""):
		v.add(p+".nextScheduledAt", "a series that is %s schedules nothing", s.Status)
	}
}
