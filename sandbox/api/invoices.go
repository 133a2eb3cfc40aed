package api

import (
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox"
	"github.com/slash-sandbox/slash-sandbox/sandbox/web"
)

func (a *API) routesInvoices(r *mux.Router) {
	// Settings, number validation and series come first: /invoice/{invoiceId}
	// would match their paths too.
	a.routesInvoiceSettings(r)
	a.routesInvoiceSeries(r)
	web.Route(r, web.Gen1, http.MethodGet, "/invoice", "invoice.list", a.listInvoices)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice", "invoice.create", a.createInvoice)
	web.Route(r, web.Gen1, http.MethodGet, "/invoice/{invoiceId}", "invoice.get", a.getInvoice)
	web.Route(r, web.Gen1, http.MethodPatch, "/invoice/{invoiceId}", "invoice.update", a.updateInvoice)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/{invoiceId}/void", "invoice.void", a.voidInvoice)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/{invoiceId}/reconcile", "invoice.reconcile", a.reconcileInvoice)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/{invoiceId}/unreconcile", "invoice.unreconcile", a.unreconcileInvoice)
	web.Route(r, web.Gen1, http.MethodGet, "/invoice/{invoiceId}/send-reminder", "invoice.reminder.get", a.getReminder)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/{invoiceId}/send-reminder", "invoice.reminder.send", a.sendReminder)
}

// sortOf reads sort and sortDirection (ASC or DESC; DESC by default).
func sortOf(q url.Values) (string, bool, error) {
	switch q.Get("sortDirection") {
	case "ASC":
		return q.Get("sort"), true, nil
	case "", "DESC":
		return q.Get("sort"), false, nil
	}
	return "", false, sandbox.InvalidField("sortDirection", "must be ASC or DESC")
}

func (a *API) listInvoices(r *http.Request) (any, error) {
	q := r.URL.Query()
	sort, asc, err := sortOf(q)
	if err != nil {
		return nil, err
	}
	f := sandbox.InvoiceFilter{Status: q.Get("filter:status"), CustomerID: q.Get("filter:legalEntityCustomerId"),
		ContactID: q.Get("filter:legalEntityContactId"), AccountID: q.Get("filter:accountId"), Sort: sort, Asc: asc}
	return listPage(a, r, func(op *sandbox.Op, c *call, req sandbox.PageRequest) (sandbox.Page[sandbox.Invoice], error) {
		return op.ListInvoices(c.Actor, f, req)
	}, invoiceAggregateOf)
}

func (a *API) getInvoice(r *http.Request) (any, error) {
	return a.readOp(r, func(op *sandbox.Op, c *call) (any, error) {
		inv, err := op.InvoiceOf(c.Actor, mux.Vars(r)["invoiceId"])
		if err != nil {
			return nil, err
		}
		return invoiceAggregateOf(op, inv)
	})
}

// invoiceWrite runs an invoice write whose body decodes into body and is
// checked by check; do returns the invoice to show.
func (a *API) invoiceWrite(r *http.Request, body any, check func() error, do func(op *sandbox.Op, c *call) (*sandbox.Invoice, error)) (any, error) {
	return a.doWrite(r, write{
		gen:    web.Gen1,
		noBody: body == nil,
		input: func(c *call, raw []byte) error {
			if body == nil {
				return nil
			}
			if err := web.DecodeBytes(raw, body, true); err != nil {
				return err
			}
			return check()
		},
		run: func(op *sandbox.Op, c *call) (any, error) {
			inv, err := do(op, c)
			if err != nil {
				return nil, err
			}
			return invoiceAggregateOf(op, inv)
		},
	})
}

func (a *API) createInvoice(r *http.Request) (any, error) {
	var body sandbox.InvoiceInput
	return a.invoiceWrite(r, &body, body.Validate, func(op *sandbox.Op, c *call) (*sandbox.Invoice, error) {
		return op.CreateInvoice(c.Actor, &body)
	})
}

func (a *API) updateInvoice(r *http.Request) (any, error) {
	var body sandbox.InvoicePatch
	return a.invoiceWrite(r, &body, body.Validate, func(op *sandbox.Op, c *call) (*sandbox.Invoice, error) {
		return op.UpdateInvoice(c.Actor, mux.Vars(r)["invoiceId"], &body)
	})
}

func (a *API) voidInvoice(r *http.Request) (any, error) {
	return a.invoiceWrite(r, nil, nil, func(op *sandbox.Op, c *call) (*sandbox.Invoice, error) {
		return op.VoidInvoice(c.Actor, mux.Vars(r)["invoiceId"])
	})
}

func (a *API) reconcileInvoice(r *http.Request) (any, error) {
	var body []sandbox.InvoiceTransactionInput
	return a.invoiceWrite(r, &body, func() error { return sandbox.ValidateInvoiceTransactions(body) },
		func(op *sandbox.Op, c *call) (*sandbox.Invoice, error) {
			return op.ReconcileInvoice(c.Actor, mux.Vars(r)["invoiceId"], body)
		})
}

func (a *API) unreconcileInvoice(r *http.Request) (any, error) {
	var body []sandbox.InvoiceTransactionInput
	return a.invoiceWrite(r, &body, func() error { return sandbox.ValidateInvoiceTransactions(body) },
		func(op *sandbox.Op, c *call) (*sandbox.Invoice, error) {
			return op.UnreconcileInvoice(c.Actor, mux.Vars(r)["invoiceId"], body)
		})
}

func (a *API) getReminder(r *http.Request) (any, error) {
	return a.readOp(r, func(op *sandbox.Op, c *call) (any, error) {
		inv, err := op.InvoiceOf(c.Actor, mux.Vars(r)["invoiceId"])
		if err != nil {
			return nil, err
		}
		out := map[string]string{}
		if at := inv.NextAutoReminderAt(); at != nil {
			out["nextAutoReminderAt"] = timestamp(*at)
		}
		return out, nil
	})
}

type reminderResult struct {
	Success bool   `json:"success"`
	Reason  string `json:"reason,omitempty"`
}

// sendReminder emails a reminder; within a day of the last one it answers
// 200 with success false and reason rate_limited.
func (a *API) sendReminder(r *http.Request) (any, error) {
	return a.doWrite(r, write{gen: web.Gen1, noBody: true, run: func(op *sandbox.Op, c *call) (any, error) {
		sent, err := op.RemindInvoice(c.Actor, mux.Vars(r)["invoiceId"])
		if err != nil {
			return nil, err
		}
		if !sent {
			return reminderResult{Reason: "rate_limited"}, nil
		}
		return reminderResult{Success: true}, nil
	}})
}

// invoiceAggregate is the InvoiceAggregate schema.
type invoiceAggregate struct {
	Invoice        invoiceView        `json:"invoice"`
	InvoiceDetails invoiceDetailsView `json:"invoiceDetails"`
	InvoiceAccount any                `json:"invoiceAccount"`
}

type invoiceView struct {
	ID                    string           `json:"id"`
	Status                string           `json:"status"`
	CollectedAmountCents  int64            `json:"collectedAmountCents"`
	InvoiceDetailsID      string           `json:"invoiceDetailsId"`
	AccountID             string           `json:"accountId"`
	LegalEntityContactID  string           `json:"legalEntityContactId,omitempty"`
	LegalEntityCustomerID string           `json:"legalEntityCustomerId,omitempty"`
	InvoicePaymentMethods json.RawMessage  `json:"invoicePaymentMethods,omitempty"`
	InvoiceTransactions   []invoiceTxnView `json:"invoiceTransactions"`
	ClosedAt              string           `json:"closedAt,omitempty"`
	InvoiceSeriesID       string           `json:"invoiceSeriesId,omitempty"`
	ScheduledSendDate     string           `json:"scheduledSendDate,omitempty"`
}

type invoiceTxnView struct {
	TransactionType string         `json:"transactionType"`
	Transaction     map[string]any `json:"transaction"`
}

type lineItemsView struct {
	LineItems        []sandbox.LineItem  `json:"lineItems"`
	Discount         *sandbox.Adjustment `json:"discount,omitempty"`
	Tax              *sandbox.Adjustment `json:"tax,omitempty"`
	SubtotalCents    int64               `json:"subtotalCents"`
	TotalAmountCents int64               `json:"totalAmountCents"`
}

type invoiceDetailsView struct {
	ID                 string           `json:"id"`
	IssuedAt           string           `json:"issuedAt"`
	DueAt              string           `json:"dueAt"`
	InvoiceTz          string           `json:"invoiceTz"`
	Currency           string           `json:"currency"`
	LineItemsAndTotals lineItemsView    `json:"lineItemsAndTotals"`
	InvoiceNumber      string           `json:"invoiceNumber"`
	Memo               string           `json:"memo,omitempty"`
	DocumentID         string           `json:"documentId"`
	BilledTo           sandbox.BilledTo `json:"billedTo"`
	Version            int              `json:"version"`
}

func invoiceAggregateOf(op *sandbox.Op, inv *sandbox.Invoice) (invoiceAggregate, error) {
	v := invoiceView{ID: inv.ID, Status: inv.Status, CollectedAmountCents: inv.CollectedCents, InvoiceDetailsID: inv.DetailsID,
		AccountID: inv.AccountID, LegalEntityContactID: inv.ContactID, LegalEntityCustomerID: inv.CustomerID,
		InvoicePaymentMethods: inv.PaymentMethods, InvoiceTransactions: []invoiceTxnView{}, InvoiceSeriesID: inv.SeriesID}
	for _, p := range inv.Transactions {
		t := map[string]any{"amountCents": p.AmountCents}
		if p.Type == "internal" {
			t["aggregatedTransactionId"] = p.TransactionID
		} else {
			t["paymentMethod"], t["paidAt"] = p.PaymentMethod, p.PaidAt
		}
		v.InvoiceTransactions = append(v.InvoiceTransactions, invoiceTxnView{TransactionType: p.Type, Transaction: t})
	}
	if inv.ClosedAt != nil {
		v.ClosedAt = timestamp(*inv.ClosedAt)
	}
	if inv.ScheduledSendDate != nil {
		v.ScheduledSendDate = timestamp(*inv.ScheduledSendDate)
	}
	sums := inv.Sums()
	d := invoiceDetailsView{ID: inv.DetailsID, IssuedAt: timestamp(inv.IssuedAt), DueAt: timestamp(inv.DueAt), InvoiceTz: inv.Timezone,
		Currency: inv.Currency, InvoiceNumber: inv.Number, Memo: inv.Memo, DocumentID: inv.DocumentID, BilledTo: inv.BilledTo,
		Version: inv.Version, LineItemsAndTotals: lineItemsView{LineItems: inv.LineItems, Discount: inv.Discount, Tax: inv.Tax,
			SubtotalCents: sums.Subtotal, TotalAmountCents: sums.Total}}
	acc, va, err := op.InvoiceAccount(inv)
	if err != nil {
		return invoiceAggregate{}, err
	}
	return invoiceAggregate{Invoice: v, InvoiceDetails: d, InvoiceAccount: invoiceAccountOf(acc, va)}, nil
}

// subaccountView is Subaccount.Model: an invoice paid into a virtual
// account.
type subaccountView struct {
	ID                  string `json:"id"`
	Name                string `json:"name"`
	AccountNumber       string `json:"accountNumber,omitempty"`
	RoutingNumber       string `json:"routingNumber,omitempty"`
	SlashAccountGroupID string `json:"slashAccountGroupId"`
	ClosedAt            string `json:"closedAt,omitempty"`
	AccountType         string `json:"accountType"`
}

// accountGroupView is SlashAccount.Group.Model: an invoice paid into an
// account.
type accountGroupView struct {
	Entity        string `json:"$entity"`
	ID            string `json:"id"`
	LegalEntityID string `json:"legalEntityId"`
	GroupType     string `json:"groupType"`
	AccountType   string `json:"accountType"`
	GroupName     string `json:"groupName"`
	Provider      string `json:"provider"`
	Currency      string `json:"currency"`
	AccountNumber string `json:"accountNumber,omitempty"`
	RoutingNumber string `json:"routingNumber,omitempty"`
	Timestamp     string `json:"timestamp"`
}

func invoiceAccountOf(acc *sandbox.Account, va *sandbox.VirtualAccount) any {
	if va != nil {
		v := subaccountView{ID: va.ID, Name: va.Name, AccountNumber: va.AccountNumber, RoutingNumber: va.RoutingNumber,
			SlashAccountGroupID: va.AccountID, AccountType: "default"}
		if va.Primary {
			v.AccountType = "primary"
		}
		if va.ClosedAt != nil {
			v.ClosedAt = timestamp(*va.ClosedAt)
		}
		return v
	}
	v := accountGroupView{Entity: "slash_account_group", ID: acc.ID, LegalEntityID: acc.LegalEntityID, GroupType: "checking",
		AccountType: "commercial", GroupName: acc.Name, Provider: "slash", Currency: "USD", AccountNumber: acc.AccountNumber,
		RoutingNumber: acc.RoutingNumber, Timestamp: timestamp(acc.CreatedAt)}
	if acc.Type == "charge_card" {
		v.GroupType = "charge_card"
	}
	if !acc.Commercial {
		v.AccountType = "consumer"
	}
	return v
}
