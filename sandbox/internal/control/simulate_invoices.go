package control

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (c *Control) routesSimulateInvoices(s *mux.Router) {
	web.Route(s, web.Gen2, http.MethodPost, "/simulate/invoice-payment", "sandbox.simulate.invoice_payment",
		c.invoicePayment)
}

type invoicePaymentView struct {
	InvoiceID            string `json:"invoiceId"`
	Status               string `json:"status"`
	CollectedAmountCents int64  `json:"collectedAmountCents"`
	TotalAmountCents     int64  `json:"totalAmountCents"`
	TransactionID        string `json:"transactionId"`
	AccountID            string `json:"accountId"`
	VirtualAccountID     string `json:"virtualAccountId"`
	AmountCents          int64  `json:"amountCents"`
	Category             string `json:"category"`
	DetailedStatus       string `json:"detailedStatus"`
}

// invoicePayment makes an invoice's customer pay it: a posted credit on the
// invoice's account, reconciled to the invoice.
func (c *Control) invoicePayment(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var body invoices.SimulatedPayment
	if err := web.Decode(r, &body, true); err != nil {
		return nil, err
	}
	if err := body.Validate(); err != nil {
		return nil, err
	}
	var out invoicePaymentView
	err = w.Update(func(op *kernel.Op) error {
		inv, t, err := invoices.SimulatePayment(op, &body)
		if err != nil {
			return err
		}
		out = invoicePaymentView{InvoiceID: inv.ID, Status: inv.Status, CollectedAmountCents: inv.CollectedCents,
			TotalAmountCents: inv.TotalCents(), TransactionID: t.ID, AccountID: t.AccountID,
			VirtualAccountID: t.VirtualAccountID,
			AmountCents:      t.AmountCents, Category: t.Category, DetailedStatus: t.DetailedStatus}
		return nil
	})
	return out, err
}
