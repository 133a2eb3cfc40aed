package api

import (
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesInvoices(r *mux.Router, docs *openapi.Registry) {
	describeInvoices(docs)
	// Settings, number validation and series come first: /invoice/{invoiceId}
	// would match their paths too.
	a.routesInvoiceSettings(r, docs)
	a.routesInvoiceSeries(r, docs)
	web.Route(r, web.Gen1, http.MethodGet, "/invoice", "invoice.list", a.listInvoices)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice", "invoice.create", a.createInvoice)
	web.Route(r, web.Gen1, http.MethodGet, "/invoice/{invoiceId}", "invoice.get", a.getInvoice)
	web.Route(r, web.Gen1, http.MethodPatch, "/invoice/{invoiceId}", "invoice.update", a.updateInvoice)
	a.shows("invoice.update", listed(currentInvoice))
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/{invoiceId}/void", "invoice.void", a.voidInvoice)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/{invoiceId}/reconcile", "invoice.reconcile", a.reconcileInvoice)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/{invoiceId}/unreconcile", "invoice.unreconcile",
		a.unreconcileInvoice)
	web.Route(r, web.Gen1, http.MethodGet, "/invoice/{invoiceId}/send-reminder", "invoice.reminder.get", a.getReminder)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/{invoiceId}/send-reminder", "invoice.reminder.send", a.sendReminder)
}

// describeInvoices adds the descriptions of these routes, and the components
// they name, to docs.
func describeInvoices(docs *openapi.Registry) {
	invoiceComponents(docs)
	le := []openapi.Param{legalEntityFilter}
	docs.Describe("invoice.list", openapi.Op{Summary: "List invoices", Response: listOf(invoiceAggregate{}),
		Query: []openapi.Param{cursorParam, legalEntityFilter, {Name: "filter:status", Schema: openapi.Ref("InvoiceStatus")},
			{Name: "filter:legalEntityContactId"}, {Name: "filter:legalEntityCustomerId"}, {Name: "filter:accountId"},
			{Name: "sort", Description: "issuedAt by default.", Schema: oneOfStrings("issuedAt", "dueAt")},
			{Name: "sortDirection", Description: "DESC by default.", Schema: oneOfStrings("ASC", "DESC")}}})
	docs.Describe("invoice.create", keyed(openapi.Op{Summary: "Create an invoice", Response: invoiceAggregate{},
		Body: object(openapi.Schema{"accountId": requiredIDSchema, "legalEntityCustomerId": requiredIDSchema,
			"details": invoiceDetailsInput(false), "paymentMethods": openapi.Ref("InvoicePaymentMethods")},
			"accountId", "legalEntityCustomerId", "details")}))
	docs.Describe("invoice.get", openapi.Op{Summary: "Get an invoice", Query: le, Response: invoiceAggregate{}})
	patch := object(openapi.Schema{"accountId": requiredIDSchema, "details": invoiceDetailsInput(true),
		"paymentMethods": openapi.Ref("InvoicePaymentMethods")})
	patch["minProperties"] = 1
	docs.Describe("invoice.update", openapi.Op{Summary: "Update an invoice", Response: invoiceAggregate{}, Body: patch,
		Description: "details, when given, are whole and carry the version last read (optimistic locking)."})
	docs.Describe(
		"invoice.void",
		openapi.Op{Summary: "Void an invoice", Description: "A void invoice can no longer be paid.",
			Response: invoiceAggregate{}},
	)
	reconcile := arrayOf(openapi.Ref("InvoiceTransactionInput"))
	reconcile["minItems"] = 1
	docs.Describe(
		"invoice.reconcile",
		openapi.Op{Summary: "Link transactions to an invoice", Body: reconcile, Response: invoiceAggregate{},
			Description: "Internal entries link posted credits; external ones record a payment made elsewhere (amountCents, a" +
				" sandbox extension, defaults to what remains)."},
	)
	docs.Describe(
		"invoice.unreconcile",
		openapi.Op{Summary: "Unlink transactions from an invoice", Body: reconcile, Response: invoiceAggregate{},
			Description: "Each entry must match one linked to the invoice."},
	)
	docs.Describe("invoice.reminder.get",
		openapi.Op{Summary: "When the next automatic reminder is due", Query: le, Response: reminderSchedule{}})
	docs.Describe("invoice.reminder.send", openapi.Op{Summary: "Email the customer a reminder", Response: reminderResult{},
		Description: "At most one reminder a day: within a day of the last one the answer is success false with reason" +
			" rate_limited."})
}

// invoiceComponents names the invoice schemas in docs.
func invoiceComponents(docs *openapi.Registry) {
	docs.Component("InvoiceAggregate", invoiceAggregate{})
	docs.Component("Invoice", invoiceView{})
	docs.Component("InvoiceDetails", invoiceDetailsView{})
	docs.Component(
		"InvoiceStatus",
		oneOfStrings(invoices.StatusScheduled, invoices.StatusUnpaid, invoices.StatusOverdue,
			invoices.StatusPaidPartially, invoices.StatusPaid, invoices.StatusVoid),
	)
	docs.Component("InvoiceLineItem", invoices.LineItem{})
	docs.Component("InvoiceAdjustment", invoices.Adjustment{})
	docs.Component("InvoiceSubaccount", subaccountView{})
	docs.Component("InvoiceAccountGroup", accountGroupView{})
	docs.Component("InvoiceNumber", openapi.Schema{"type": "string", "pattern": "^[A-Z0-9-_]{1,50}$"})
	fee := openapi.Schema{"passFeeToPayer": booleanType}
	method := func(name string, config openapi.Schema, required ...string) openapi.Schema {
		return object(openapi.Schema{"method": oneOfStrings(name), "config": object(config, required...)}, "method", "config")
	}
	docs.Component("InvoicePaymentMethod", openapi.Schema{"oneOf": []any{
		method("ach_debit", fee, "passFeeToPayer"),
		method("acquiring_payment", openapi.Schema{"passFeeToPayer": openapi.Schema{"type": "boolean", "enum": []any{false}}},
			"passFeeToPayer"),
		method("crypto_deposit",
			openapi.Schema{"passFeeToPayer": booleanType, "fiatRail": oneOfStrings("wire", "ach", "instant")}, "passFeeToPayer"),
		method("inbound_ach_transfer", openapi.Schema{}), method("inbound_international_wire", openapi.Schema{}),
		method("inbound_rtp", openapi.Schema{}), method("inbound_wire_transfer", openapi.Schema{}),
	}})
	methods := arrayOf(openapi.Ref("InvoicePaymentMethod"))
	methods["description"] = "Each method at most once."
	docs.Component("InvoicePaymentMethods", methods)
	docs.Component("InvoiceReconciliationPaymentMethod",
		openapi.Schema{"oneOf": []any{openapi.Ref("InvoicePaymentMethod"), oneOfStrings("other")}})
	docs.Component("InvoiceTransactionInput", openapi.Schema{"oneOf": []any{
		object(openapi.Schema{"transactionType": oneOfStrings("internal"),
			"transaction": object(
				openapi.Schema{"aggregatedTransactionId": described(requiredIDSchema, "A posted credit of the legal entity.")},
				"aggregatedTransactionId",
			)}, "transactionType", "transaction"),
		object(openapi.Schema{"transactionType": oneOfStrings("external"),
			"transaction": object(openapi.Schema{"paymentMethod": openapi.Ref("InvoiceReconciliationPaymentMethod"),
				"paidAt": described(stringType, "An RFC 3339 date-time or a YYYY-MM-DD date."),
				"amountCents": described(openapi.Schema{"type": "integer", "exclusiveMinimum": 0},
					"Sandbox extension: the amount paid; what remains by default.")},
				"paymentMethod", "paidAt")}, "transactionType", "transaction"),
	}})
}

// invoiceDetailsInput is the details of an invoice being created or, with
// update, changed: dates are YYYY-MM-DD days in invoiceTz.
func invoiceDetailsInput(update bool) openapi.Schema {
	required := []string{"issuedAt", "dueAt", "invoiceTz", "lineItemsAndTotals", "invoiceNumber"}
	if update {
		required = append(required, "version")
	}
	day := openapi.Schema{"type": "string", "format": "date"}
	return object(openapi.Schema{"issuedAt": day, "dueAt": described(day, "Not before issuedAt."),
		"invoiceTz": described(stringType, "A canonical IANA time zone."), "lineItemsAndTotals": lineItemsInput(),
		"invoiceNumber": openapi.Ref("InvoiceNumber"), "memo": openapi.Schema{"type": "string", "minLength": 1,
			"maxLength": 500},
		"version":  described(openapi.Schema{"type": "integer", "minimum": 1}, "The version last read; required on update."),
		"ccEmails": ccEmailList()}, required...)
}

// lineItemsInput is the lines of an invoice or series template as a
// request gives them.
func lineItemsInput() openapi.Schema {
	line := object(openapi.Schema{"name": openapi.Schema{"type": "string", "minLength": 1, "maxLength": 200},
		"quantity":      openapi.Schema{"type": "number", "exclusiveMinimum": 0},
		"priceCents":    openapi.Schema{"type": "integer", "minimum": 0},
		"catalogItemId": stringType}, "name", "quantity", "priceCents")
	percent := openapi.Schema{"type": "number", "minimum": 0, "maximum": 100}
	discount := openapi.Schema{"oneOf": []any{
		object(openapi.Schema{"type": oneOfStrings("percentage"), "percent": percent}, "type", "percent"),
		object(openapi.Schema{"type": oneOfStrings("fixed"), "amountCents": openapi.Schema{"type": "integer", "minimum": 0}},
			"type", "amountCents"),
	}}
	lines := arrayOf(line)
	lines["minItems"] = 1
	return object(openapi.Schema{"lineItems": lines, "discount": openapi.Nullable(discount),
		"tax": openapi.Nullable(
			object(openapi.Schema{"type": oneOfStrings("percentage"), "percent": percent}, "type", "percent"),
		)}, "lineItems")
}

// ccEmailList is up to ten distinct email addresses.
func ccEmailList() openapi.Schema {
	return openapi.Schema{
		"type":        "array",
		"maxItems":    10,
		"uniqueItems": true,
		"items":       openapi.Schema{"type": "string", "format": "email"},
	}
}

// reminderSchedule is the body of GET /invoice/{invoiceId}/send-reminder.
type reminderSchedule struct {
	NextAutoReminderAt string `json:"nextAutoReminderAt,omitempty" format:"date-time"`
}

// sortOf reads sort and sortDirection (ASC or DESC; DESC by default).
func sortOf(q url.Values) (string, bool, error) {
	switch q.Get("sortDirection") {
	case "ASC":
		return q.Get("sort"), true, nil
	case "", "DESC":
		return q.Get("sort"), false, nil
	}
	return "", false, kernel.InvalidField("sortDirection", "must be ASC or DESC")
}

func (a *API) listInvoices(r *http.Request) (any, error) {
	q := r.URL.Query()
	sort, asc, err := sortOf(q)
	if err != nil {
		return nil, err
	}
	f := invoices.Filter{Status: q.Get("filter:status"), CustomerID: q.Get("filter:legalEntityCustomerId"),
		ContactID: q.Get("filter:legalEntityContactId"), AccountID: q.Get("filter:accountId"), Sort: sort, Asc: asc}
	return listPage(a, r, func(op *kernel.Op, c *call, req kernel.PageRequest) (kernel.Page[invoices.Invoice], error) {
		return invoices.List(op, c.Actor, f, req)
	}, invoiceAggregateOf)
}

func (a *API) getInvoice(r *http.Request) (any, error) {
	return a.readOp(r, func(op *kernel.Op, c *call) (any, error) {
		inv, err := invoices.InvoiceOf(op, c.Actor, mux.Vars(r)["invoiceId"])
		if err != nil {
			return nil, err
		}
		return invoiceAggregateOf(op, inv)
	})
}

// invoiceWrite runs an invoice write whose body decodes into body and is
// checked by check; do returns the invoice to show.
func (a *API) invoiceWrite(r *http.Request, idem idemMode, body any, check func() error,
	do func(op *kernel.Op, c *call) (*invoices.Invoice, error)) (any, error) {
	return a.doWrite(r, write{
		gen:    web.Gen1,
		idem:   idem,
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
		run: func(op *kernel.Op, c *call) (any, error) {
			inv, err := do(op, c)
			if err != nil {
				return nil, err
			}
			return invoiceAggregateOf(op, inv)
		},
	})
}

func (a *API) createInvoice(r *http.Request) (any, error) {
	var body invoices.Input
	return a.invoiceWrite(r, idemOptional, &body, body.Validate, func(op *kernel.Op, c *call) (*invoices.Invoice, error) {
		return invoices.Create(op, c.Actor, &body)
	})
}

func (a *API) updateInvoice(r *http.Request) (any, error) {
	var body invoices.Patch
	return a.invoiceWrite(r, idemNone, &body, body.Validate, func(op *kernel.Op, c *call) (*invoices.Invoice, error) {
		return invoices.Update(op, c.Actor, mux.Vars(r)["invoiceId"], &body)
	})
}

func (a *API) voidInvoice(r *http.Request) (any, error) {
	return a.invoiceWrite(r, idemNone, nil, nil, func(op *kernel.Op, c *call) (*invoices.Invoice, error) {
		return invoices.Void(op, c.Actor, mux.Vars(r)["invoiceId"])
	})
}

func (a *API) reconcileInvoice(r *http.Request) (any, error) {
	var body []invoices.TransactionInput
	return a.invoiceWrite(r, idemNone, &body, func() error { return invoices.ValidateTransactions(body) },
		func(op *kernel.Op, c *call) (*invoices.Invoice, error) {
			return invoices.Reconcile(op, c.Actor, mux.Vars(r)["invoiceId"], body)
		})
}

func (a *API) unreconcileInvoice(r *http.Request) (any, error) {
	var body []invoices.TransactionInput
	return a.invoiceWrite(r, idemNone, &body, func() error { return invoices.ValidateTransactions(body) },
		func(op *kernel.Op, c *call) (*invoices.Invoice, error) {
			return invoices.Unreconcile(op, c.Actor, mux.Vars(r)["invoiceId"], body)
		})
}

func (a *API) getReminder(r *http.Request) (any, error) {
	return a.readOp(r, func(op *kernel.Op, c *call) (any, error) {
		inv, err := invoices.InvoiceOf(op, c.Actor, mux.Vars(r)["invoiceId"])
		if err != nil {
			return nil, err
		}
		var out reminderSchedule
		if at := inv.NextAutoReminderAt(); at != nil {
			out.NextAutoReminderAt = timestamp(*at)
		}
		return out, nil
	})
}

type reminderResult struct {
	Success bool   `json:"success"`
	Reason  string `json:"reason,omitempty" enum:"rate_limited"`
}

// sendReminder emails a reminder; within a day of the last one it answers
// 200 with success false and reason rate_limited.
func (a *API) sendReminder(r *http.Request) (any, error) {
	return a.doWrite(r, write{gen: web.Gen1, noBody: true, run: func(op *kernel.Op, c *call) (any, error) {
		sent, err := invoices.Remind(op, c.Actor, mux.Vars(r)["invoiceId"])
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
	InvoiceAccount any                `json:"invoiceAccount" ref:"InvoiceSubaccount,InvoiceAccountGroup"`
}

type invoiceView struct {
	ID                    string           `json:"id"`
	Status                string           `json:"status" ref:"InvoiceStatus"`
	CollectedAmountCents  int64            `json:"collectedAmountCents"`
	InvoiceDetailsID      string           `json:"invoiceDetailsId"`
	AccountID             string           `json:"accountId"`
	LegalEntityContactID  string           `json:"legalEntityContactId,omitempty"`
	LegalEntityCustomerID string           `json:"legalEntityCustomerId,omitempty"`
	InvoicePaymentMethods json.RawMessage  `json:"invoicePaymentMethods,omitempty" ref:"InvoicePaymentMethods"`
	InvoiceTransactions   []invoiceTxnView `json:"invoiceTransactions"`
	ClosedAt              string           `json:"closedAt,omitempty" format:"date-time"`
	InvoiceSeriesID       string           `json:"invoiceSeriesId,omitempty"`
	ScheduledSendDate     string           `json:"scheduledSendDate,omitempty" format:"date-time"`
}

// invoiceTxnView is an InvoiceTransaction: an internal one names the
// transaction, an external one the payment method and day.
type invoiceTxnView struct {
	TransactionType string           `json:"transactionType" enum:"internal,external"`
	Transaction     invoiceTxnDetail `json:"transaction"`
}

type invoiceTxnDetail struct {
	// AmountCents is a sandbox extension: what the entry paid.
	AmountCents             int64           `json:"amountCents"`
	AggregatedTransactionID string          `json:"aggregatedTransactionId,omitempty"`
	PaymentMethod           json.RawMessage `json:"paymentMethod,omitempty" ref:"InvoiceReconciliationPaymentMethod"`
	PaidAt                  string          `json:"paidAt,omitempty"`
}

type lineItemsView struct {
	LineItems        []invoices.LineItem  `json:"lineItems"`
	Discount         *invoices.Adjustment `json:"discount,omitempty"`
	Tax              *invoices.Adjustment `json:"tax,omitempty"`
	SubtotalCents    int64                `json:"subtotalCents"`
	TotalAmountCents int64                `json:"totalAmountCents"`
}

type invoiceDetailsView struct {
	ID                 string            `json:"id"`
	IssuedAt           string            `json:"issuedAt" format:"date-time"`
	DueAt              string            `json:"dueAt" format:"date-time"`
	InvoiceTz          string            `json:"invoiceTz"`
	Currency           string            `json:"currency"`
	LineItemsAndTotals lineItemsView     `json:"lineItemsAndTotals"`
	InvoiceNumber      string            `json:"invoiceNumber" ref:"InvoiceNumber"`
	Memo               string            `json:"memo,omitempty"`
	DocumentID         string            `json:"documentId"`
	BilledTo           invoices.BilledTo `json:"billedTo"`
	Version            int               `json:"version"`
}

func invoiceAggregateOf(op *kernel.Op, inv *invoices.Invoice) (invoiceAggregate, error) {
	v := invoiceView{
		ID:                    inv.ID,
		Status:                inv.Status,
		CollectedAmountCents:  inv.CollectedCents,
		InvoiceDetailsID:      inv.DetailsID,
		AccountID:             inv.AccountID,
		LegalEntityContactID:  inv.ContactID,
		LegalEntityCustomerID: inv.CustomerID,
		InvoicePaymentMethods: inv.PaymentMethods,
		InvoiceTransactions:   []invoiceTxnView{},
		InvoiceSeriesID:       inv.SeriesID,
	}
	for _, p := range inv.Transactions {
		t := invoiceTxnDetail{AmountCents: p.AmountCents}
		if p.Type == "internal" {
			t.AggregatedTransactionID = p.TransactionID
		} else {
			t.PaymentMethod, t.PaidAt = p.PaymentMethod, p.PaidAt
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
	d := invoiceDetailsView{
		ID:            inv.DetailsID,
		IssuedAt:      timestamp(inv.IssuedAt),
		DueAt:         timestamp(inv.DueAt),
		InvoiceTz:     inv.Timezone,
		Currency:      inv.Currency,
		InvoiceNumber: inv.Number,
		Memo:          inv.Memo,
		DocumentID:    inv.DocumentID,
		BilledTo:      inv.BilledTo,
		Version:       inv.Version,
		LineItemsAndTotals: lineItemsView{LineItems: inv.LineItems, Discount: inv.Discount, Tax: inv.Tax,
			SubtotalCents: sums.Subtotal, TotalAmountCents: sums.Total},
	}
	acc, va, err := invoices.AccountOf(op, inv)
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
	ClosedAt            string `json:"closedAt,omitempty" format:"date-time"`
	AccountType         string `json:"accountType" enum:"default,primary"`
}

// accountGroupView is SlashAccount.Group.Model: an invoice paid into an
// account.
type accountGroupView struct {
	Entity        string `json:"$entity" enum:"slash_account_group"`
	ID            string `json:"id"`
	LegalEntityID string `json:"legalEntityId"`
	GroupType     string `json:"groupType" enum:"checking,charge_card"`
	AccountType   string `json:"accountType" enum:"commercial,consumer"`
	GroupName     string `json:"groupName"`
	Provider      string `json:"provider"`
	Currency      string `json:"currency"`
	AccountNumber string `json:"accountNumber,omitempty"`
	RoutingNumber string `json:"routingNumber,omitempty"`
	Timestamp     string `json:"timestamp" format:"date-time"`
}

func invoiceAccountOf(acc *ledger.Account, va *ledger.VirtualAccount) any {
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
	v := accountGroupView{
		Entity:        "slash_account_group",
		ID:            acc.ID,
		LegalEntityID: acc.LegalEntityID,
		GroupType:     "checking",
		AccountType:   "commercial",
		GroupName:     acc.Name,
		Provider:      "slash",
		Currency:      "USD",
		AccountNumber: acc.AccountNumber,
		RoutingNumber: acc.RoutingNumber,
		Timestamp:     timestamp(acc.CreatedAt),
	}
	if acc.Type == "charge_card" {
		v.GroupType = "charge_card"
	}
	if !acc.Commercial {
		v.AccountType = "consumer"
	}
	return v
}

// currentInvoice is an invoice as GET shows it.
func currentInvoice(op *kernel.Op, c *call, vars map[string]string) (any, error) {
	inv, err := invoices.InvoiceOf(op, c.Actor, vars["invoiceId"])
	if err != nil {
		return nil, err
	}
	return invoiceAggregateOf(op, inv)
}
