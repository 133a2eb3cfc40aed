package invoices

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

// paymentCategory is the transaction category a customer's payment by an
// invoice payment method arrives as. Card and crypto collections arrive as
// internal credits from Slash.
var paymentCategory = map[string]string{
	"ach_debit":                  "ach",
	"inbound_ach_transfer":       "ach",
	"inbound_wire_transfer":      "wire",
	"inbound_rtp":                "rtp",
	"inbound_international_wire": "international_wire",
	"acquiring_payment":          "internal",
	"crypto_deposit":             "internal",
}

// SimulatedPayment is a customer paying an invoice: the control API's
// simulate call.
type SimulatedPayment struct {
	InvoiceID string `json:"invoiceId"`
	// AmountCents defaults to what remains to be paid.
	AmountCents *int64 `json:"amountCents,omitempty"`
	// Method is an invoice payment method; it defaults to the invoice's
	// first one, else inbound_ach_transfer.
	Method string `json:"method"`
}

// Validate checks the simulate body.
func (p *SimulatedPayment) Validate() error {
	d := map[string]string{}
	if strings.TrimSpace(p.InvoiceID) == "" {
		d["/invoiceId"] = "required"
	}
	ledger.CheckAmountOf(d, "/amountCents", p.AmountCents, 1)
	if _, ok := paymentCategory[p.Method]; p.Method != "" && !ok {
		d["/method"] = "must be one of " + strings.Join(PaymentMethodNames(), ", ")
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

// invoiceMethods lists the payment methods an invoice offers.
func invoiceMethods(inv *Invoice) []string {
	var items []struct {
		Method string `json:"method"`
	}
	_ = json.Unmarshal(inv.PaymentMethods, &items)
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Method
	}
	return out
}

// SimulatePayment makes a customer pay a sent invoice: a posted
// credit of the method's category lands on the invoice's account through
// the ledger and is reconciled to the invoice.
func SimulatePayment(op *kernel.Op, p *SimulatedPayment) (*Invoice, *ledger.Transaction, error) {
	if err := p.Validate(); err != nil {
		return nil, nil, err
	}
	var inv Invoice
	ok, err := op.Get(Kind, p.InvoiceID, &inv)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, kernel.NotFound("invoice", "invoiceId", p.InvoiceID)
	}
	if err := refuseSettling(&inv); err != nil {
		return nil, nil, err
	}
	if inv.Status == StatusScheduled {
		return nil, nil, kernel.Errorf(kernel.CodeConflict, "invoice %s is scheduled and has not been sent yet", inv.ID).
			With("status", inv.Status)
	}
	amount, method, err := paymentTerms(&inv, p)
	if err != nil {
		return nil, nil, err
	}
	acc, va, err := invoiceTarget(op, inv.LegalEntityID, inv.AccountID, "invoiceId")
	if err != nil {
		return nil, nil, err
	}
	t := &ledger.Transaction{
		LegalEntityID:    inv.LegalEntityID,
		AccountID:        acc.ID,
		VirtualAccountID: va.ID,
		AccountSubtype:   "cash",
		Category:         paymentCategory[method],
		AmountCents:      amount,
		DetailedStatus:   "settled",
		CreatedAt:        op.Now,
		Description:      fmt.Sprintf("Payment for invoice %s from %s", inv.Number, inv.BilledTo.Name),
		Memo:             inv.Number,
	}
	ledger.FillRail(op.W.Faker("invoice-payment:"+inv.ID, int64(len(inv.Transactions))), t, "")
	if err := ledger.PostTransaction(op, t); err != nil {
		return nil, nil, err
	}
	inv.Transactions = append(inv.Transactions, Payment{Type: "internal", TransactionID: t.ID, AmountCents: amount})
	inv.CollectedCents += amount
	return &inv, t, Store(op, &inv)
}

// paymentTerms settles a simulated payment's amount and method against
// what the invoice still expects and the methods it offers.
func paymentTerms(inv *Invoice, p *SimulatedPayment) (int64, string, error) {
	remaining := inv.TotalCents() - inv.CollectedCents
	amount := remaining
	if p.AmountCents != nil {
		amount = *p.AmountCents
	}
	if amount > remaining {
		return 0, "", kernel.InvalidField("/amountCents", fmt.Sprintf("is more than the %s that remains to be paid",
			ledger.FormatCents(remaining))).
			With("remaining", ledger.FormatCents(remaining))
	}
	offered := invoiceMethods(inv)
	method := p.Method
	switch {
	case method == "" && len(offered) > 0:
		method = offered[0]
	case method == "":
		method = "inbound_ach_transfer"
	case len(offered) > 0 && !slices.Contains(offered, method):
		return 0, "", kernel.InvalidField("/method", "invoice "+inv.ID+" offers only "+strings.Join(offered, ", "))
	}
	return amount, method, nil
}
