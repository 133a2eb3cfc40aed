package invoices

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

// LineItemsInput is the lines of an invoice or a series template.
type LineItemsInput struct {
	LineItems []LineItemInput `json:"lineItems"`
	Discount  *Adjustment     `json:"discount"`
	Tax       *Adjustment     `json:"tax"`
}

// LineItemInput is a line as a request gives it. PriceCents is required:
// a pointer (never null) tells an absent price from a price of 0.
type LineItemInput struct {
	Name       string  `json:"name"`
	Quantity   float64 `json:"quantity"`
	PriceCents *int64  `json:"priceCents,omitempty"`
	CatalogID  string  `json:"catalogItemId,omitempty"`
}

func (l *LineItemsInput) check(d map[string]string, path string) {
	if l == nil {
		d[path] = "required"
		return
	}
	if len(l.LineItems) == 0 {
		d[path+"/lineItems"] = "at least one line item is required"
	}
	before := len(d)
	for i, li := range l.LineItems {
		p := fmt.Sprintf("%s/lineItems/%d", path, i)
		parties.RequireText(d, p+"/name", li.Name, 200)
		if !(li.Quantity > 0) || li.Quantity > 1e9 {
			d[p+"/quantity"] = "must be greater than 0"
		}
		if li.PriceCents == nil {
			d[p+"/priceCents"] = "required: a non-negative amount in cents"
		}
		ledger.CheckAmountOf(d, p+"/priceCents", li.PriceCents, 0)
	}
	checkAdjustment(d, path+"/discount", l.Discount, true)
	checkAdjustment(d, path+"/tax", l.Tax, false)
	if len(d) == before {
		l.checkTotal(d, path)
	}
}

// checkTotal bounds what valid lines come to: the invoice's total, like
// every amount, is at most MaxAmountCents.
func (l *LineItemsInput) checkTotal(d map[string]string, path string) {
	var sub float64
	for _, li := range l.LineItems {
		sub += li.Quantity * float64(*li.PriceCents)
	}
	if sub > ledger.MaxAmountCents || invoiceTotals(l.lines(), l.Discount, l.Tax).Total > ledger.MaxAmountCents {
		d[path] = "the invoice total must be at most " + ledger.FormatCents(ledger.MaxAmountCents)
	}
}

// lines are the invoice's lines, once checked.
func (l *LineItemsInput) lines() []LineItem {
	out := make([]LineItem, len(l.LineItems))
	for i, li := range l.LineItems {
		out[i] = LineItem{Name: li.Name, Quantity: li.Quantity, PriceCents: jsonshape.Value(li.PriceCents),
			CatalogID: li.CatalogID}
	}
	return out
}

func checkAdjustment(d map[string]string, path string, a *Adjustment, fixedAllowed bool) {
	if a == nil {
		return
	}
	switch {
	case a.Type == "percentage":
		if a.Percent == nil || *a.Percent < 0 || *a.Percent > 100 {
			d[path+"/percent"] = "required: a percentage from 0 to 100"
		}
		if a.AmountCents != nil {
			d[path+"/amountCents"] = "does not apply to a percentage"
		}
	case a.Type == "fixed" && fixedAllowed:
		if a.AmountCents == nil {
			d[path+"/amountCents"] = "required: a non-negative amount in cents"
		}
		ledger.CheckAmountOf(d, path+"/amountCents", a.AmountCents, 0)
		if a.Percent != nil {
			d[path+"/percent"] = "does not apply to a fixed discount"
		}
	case fixedAllowed:
		d[path+"/type"] = "must be percentage or fixed"
	default:
		d[path+"/type"] = "must be percentage"
	}
}

// DetailsInput is the details of an invoice being created or
// updated. Dates are YYYY-MM-DD days in invoiceTz.
type DetailsInput struct {
	IssuedAt           string          `json:"issuedAt"`
	DueAt              string          `json:"dueAt"`
	InvoiceTz          string          `json:"invoiceTz"`
	LineItemsAndTotals *LineItemsInput `json:"lineItemsAndTotals,omitempty"`
	InvoiceNumber      string          `json:"invoiceNumber"`
	Memo               *string         `json:"memo,omitempty"`
	Version            *int            `json:"version,omitempty"`
	CCEmails           []string        `json:"ccEmails"`

	loc         *time.Location
	issued, due CalDate
}

func (in *DetailsInput) check(d map[string]string, path string, update bool) {
	if in == nil {
		d[path] = "required"
		return
	}
	loc, err := Zone(in.InvoiceTz)
	if err != nil {
		d[path+"/invoiceTz"] = err.Error()
	}
	in.loc = loc
	var ok1, ok2 bool
	if in.issued, ok1 = ParseCalDate(in.IssuedAt); !ok1 {
		d[path+"/issuedAt"] = "required: a YYYY-MM-DD date"
	}
	if in.due, ok2 = ParseCalDate(in.DueAt); !ok2 {
		d[path+"/dueAt"] = "required: a YYYY-MM-DD date"
	}
	if ok1 && ok2 && in.due.Before(in.issued) {
		d[path+"/dueAt"] = "must not be before issuedAt"
	}
	in.LineItemsAndTotals.check(d, path+"/lineItemsAndTotals")
	if p := NumberProblem(in.InvoiceNumber); p != "" {
		d[path+"/invoiceNumber"] = p
	}
	if in.Memo != nil && (len([]rune(*in.Memo)) < 1 || len([]rune(*in.Memo)) > 500) {
		d[path+"/memo"] = "must be 1 to 500 characters"
	}
	switch {
	case update && in.Version == nil:
		d[path+"/version"] = "required on update: the version you last read (optimistic locking)"
	case in.Version != nil && *in.Version < 1:
		d[path+"/version"] = "must be at least 1"
	}
	checkEmails(d, path+"/ccEmails", in.CCEmails, 10)
}

// checkEmails checks a list of unique email addresses.
func checkEmails(d map[string]string, path string, emails []string, max int) {
	if len(emails) > max {
		d[path] = fmt.Sprintf("at most %d addresses", max)
	}
	for i, e := range emails {
		parties.CheckEmail(d, fmt.Sprintf("%s/%d", path, i), e)
		if slices.Index(emails, e) != i {
			d[fmt.Sprintf("%s/%d", path, i)] = "is listed twice"
		}
	}
}

// apply writes the details onto an invoice.
func (in *DetailsInput) apply(inv *Invoice) {
	inv.IssuedAt, inv.DueAt = in.issued.Start(in.loc), in.due.Start(in.loc)
	inv.Timezone, inv.Number = in.InvoiceTz, in.InvoiceNumber
	l := in.LineItemsAndTotals
	inv.LineItems, inv.Discount, inv.Tax = l.lines(), l.Discount, l.Tax
	inv.Memo = ""
	if in.Memo != nil {
		inv.Memo = *in.Memo
	}
	inv.BilledTo.CCEmails = in.CCEmails
}

// Input is the body of POST /invoice.
type Input struct {
	AccountID             string          `json:"accountId"`
	LegalEntityContactID  *string         `json:"legalEntityContactId,omitempty"`
	LegalEntityCustomerID string          `json:"legalEntityCustomerId"`
	Details               *DetailsInput   `json:"details,omitempty"`
	PaymentMethods        json.RawMessage `json:"paymentMethods,omitempty" ref:"InvoicePaymentMethods"`
}

// Validate checks a new invoice's body.
func (in *Input) Validate() error {
	d := map[string]string{}
	if strings.TrimSpace(in.AccountID) == "" {
		d["/accountId"] = "required"
	}
	if in.LegalEntityContactID != nil {
		d["/legalEntityContactId"] = "is no longer accepted: bill a customer with legalEntityCustomerId"
	}
	if strings.TrimSpace(in.LegalEntityCustomerID) == "" {
		d["/legalEntityCustomerId"] = "required"
	}
	in.Details.check(d, "/details", false)
	checkPaymentMethods(d, "/paymentMethods", in.PaymentMethods)
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

// Patch is the body of PATCH /invoice/{id}.
type Patch struct {
	AccountID      *string         `json:"accountId,omitempty"`
	Details        *DetailsInput   `json:"details,omitempty"`
	PaymentMethods json.RawMessage `json:"paymentMethods,omitempty" ref:"InvoicePaymentMethods"`
}

// Validate checks an invoice update: details, when given, are whole and
// carry the version last read.
func (p *Patch) Validate() error {
	d := map[string]string{}
	if p.AccountID != nil && strings.TrimSpace(*p.AccountID) == "" {
		d["/accountId"] = "must not be empty"
	}
	if p.Details != nil {
		p.Details.check(d, "/details", true)
	}
	checkPaymentMethods(d, "/paymentMethods", p.PaymentMethods)
	if p.AccountID == nil && p.Details == nil && p.PaymentMethods == nil {
		d["body"] = "give at least one of accountId, details, paymentMethods"
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}
