package api

import (
	"encoding/json"
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesInvoiceSeries(r *mux.Router, docs *openapi.Registry) {
	describeInvoiceSeries(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/invoice/series", "invoice_series.list", a.listSeries)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/series", "invoice_series.create", a.createSeries)
	web.Route(r, web.Gen1, http.MethodGet, "/invoice/series/{invoiceSeriesId}", "invoice_series.get", a.getSeries)
	web.Route(r, web.Gen1, http.MethodPatch, "/invoice/series/{invoiceSeriesId}", "invoice_series.update", a.updateSeries)
	a.shows("invoice_series.update", listed(currentSeries))
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/series/{invoiceSeriesId}/cancel", "invoice_series.cancel",
		a.cancelSeries)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/series/{invoiceSeriesId}/skip-next", "invoice_series.skip_next",
		a.skipNext)
}

// describeInvoiceSeries adds the descriptions of these routes, and
// the components they name, to docs.
func describeInvoiceSeries(docs *openapi.Registry) {
	docs.Component("InvoiceSeries", seriesView{})
	weekday := described(openapi.Schema{"type": "integer", "minimum": 0, "maximum": 6}, "0 is Sunday, 6 Saturday.")
	docs.Component("InvoiceSeriesRecurrenceRule", openapi.Schema{"oneOf": []any{
		object(openapi.Schema{"type": oneOfStrings(invoices.RecurWeekly), "dayOfWeek": weekday}, "type", "dayOfWeek"),
		object(openapi.Schema{"type": oneOfStrings(invoices.RecurDayOfMonth),
			"dayOfMonth": described(openapi.Schema{"type": "integer", "minimum": 1, "maximum": 31},
				"Clamped to the month's last day.")}, "type", "dayOfMonth"),
		object(openapi.Schema{"type": oneOfStrings(invoices.RecurNthWeekday), "dayOfWeek": weekday,
			"nth": openapi.Schema{
				"oneOf": []any{openapi.Schema{"type": "integer", "minimum": 1, "maximum": 4}, oneOfStrings("last")},
			}},
			"type", "dayOfWeek", "nth"),
	}})
	docs.Component("InvoiceSeriesEndCondition", openapi.Schema{"oneOf": []any{
		object(openapi.Schema{"type": oneOfStrings(invoices.EndNever)}, "type"),
		object(
			openapi.Schema{"type": oneOfStrings(invoices.EndAfterCount),
				"count": openapi.Schema{"type": "integer", "minimum": 1}},
			"type",
			"count",
		),
		object(openapi.Schema{"type": oneOfStrings(invoices.EndOnDate),
			"date": described(openapi.Schema{"type": "string", "format": "date"},
				"In the series' time zone; not before startDate.")}, "type", "date"),
	}})
	input := object(openapi.Schema{"accountId": requiredIDSchema, "legalEntityCustomerId": stringType,
		"legalEntityContactId": described(stringType,
			"Accepted during the transition when no legalEntityCustomerId is given."),
		"recurrenceRule": openapi.Ref("InvoiceSeriesRecurrenceRule"),
		"paymentTermsDays": described(openapi.Schema{"type": "integer", "minimum": 0, "maximum": 3650},
			"0 is due on receipt."),
		"invoiceTz":    described(stringType, "A canonical IANA time zone."),
		"startDate":    described(openapi.Schema{"type": "string", "format": "date"}, "Today or later, in invoiceTz."),
		"endCondition": openapi.Ref("InvoiceSeriesEndCondition"),
		"template": object(
			openapi.Schema{"lineItemsAndTotals": lineItemsInput(), "memo": openapi.Schema{"type": "string", "maxLength": 500},
				"ccEmails": ccEmailList()},
			"lineItemsAndTotals",
		),
		"paymentMethods": openapi.Ref("InvoicePaymentMethods")},
		"accountId", "recurrenceRule", "paymentTermsDays", "invoiceTz", "startDate", "endCondition", "template")
	docs.Describe("invoice_series.list", openapi.Op{Summary: "List invoice series", Response: listOf(seriesView{}),
		Query: []openapi.Param{cursorParam, legalEntityFilter,
			{Name: "filter:status", Schema: oneOfStrings(invoices.SeriesActive, invoices.SeriesEnded, invoices.SeriesCancelled)},
			{Name: "filter:legalEntityContactId"}, {Name: "filter:legalEntityCustomerId"}, {Name: "filter:accountId"},
			{Name: "sort", Description: "startDate by default.", Schema: oneOfStrings("startDate", "nextScheduledDate")},
			{Name: "sortDirection", Description: "DESC by default.", Schema: oneOfStrings("ASC", "DESC")}}})
	docs.Describe(
		"invoice_series.create",
		keyed(openapi.Op{Summary: "Create a recurring invoice series", Body: input, Response: seriesIssued{},
			Description: "invoiceAggregate is the series' first invoice."}),
	)
	docs.Describe("invoice_series.get",
		openapi.Op{Summary: "Get an invoice series", Query: []openapi.Param{legalEntityFilter}, Response: seriesView{}})
	docs.Describe(
		"invoice_series.update",
		openapi.Op{Summary: "Replace an invoice series' terms", Body: input, Response: seriesIssued{},
			Description: "The whole InvoiceSeriesInput; the customer cannot change. invoiceAggregate is the scheduled invoice" +
				" rewritten to the new terms, if any."},
	)
	docs.Describe("invoice_series.cancel", openapi.Op{Summary: "Cancel an invoice series", Response: seriesVoided{},
		Description: "Invoices already issued stay; the next scheduled one, if any, is voided and returned."})
	docs.Describe(
		"invoice_series.skip_next",
		openapi.Op{Summary: "Skip the next invoice of a series", Response: seriesVoided{},
			Description: "Voids the next scheduled invoice and moves the series on."},
	)
}

// seriesIssued answers a series create or update: the series and the
// invoice the write made or changed.
type seriesIssued struct {
	InvoiceSeries    seriesView        `json:"invoiceSeries"`
	InvoiceAggregate *invoiceAggregate `json:"invoiceAggregate,omitempty"`
}

// seriesVoided answers a series cancel or skip: the series and the
// invoice voided.
type seriesVoided struct {
	InvoiceSeries seriesView        `json:"invoiceSeries"`
	VoidedInvoice *invoiceAggregate `json:"voidedInvoice,omitempty"`
}

// seriesView is the InvoiceSeries schema.
type seriesView struct {
	Entity                string          `json:"$entity" enum:"invoice_series"`
	ID                    string          `json:"id"`
	Status                string          `json:"status" enum:"active,ended,cancelled"`
	RecurrenceRule        map[string]any  `json:"recurrenceRule" ref:"InvoiceSeriesRecurrenceRule"`
	PaymentTermsDays      int             `json:"paymentTermsDays"`
	InvoiceTz             string          `json:"invoiceTz"`
	StartDate             string          `json:"startDate" format:"date-time"`
	EndCondition          map[string]any  `json:"endCondition" ref:"InvoiceSeriesEndCondition"`
	NextScheduledDate     string          `json:"nextScheduledDate,omitempty" format:"date-time"`
	Template              templateView    `json:"template"`
	PaymentMethods        json.RawMessage `json:"paymentMethods" ref:"InvoicePaymentMethods"`
	AccountID             string          `json:"accountId"`
	LegalEntityContactID  string          `json:"legalEntityContactId,omitempty"`
	LegalEntityCustomerID string          `json:"legalEntityCustomerId,omitempty"`
}

type templateView struct {
	LineItemsAndTotals lineItemsInputView `json:"lineItemsAndTotals"`
	Memo               string             `json:"memo,omitempty"`
	CCEmails           []string           `json:"ccEmails,omitempty"`
}

type lineItemsInputView struct {
	LineItems []invoices.LineItem  `json:"lineItems"`
	Discount  *invoices.Adjustment `json:"discount,omitempty"`
	Tax       *invoices.Adjustment `json:"tax,omitempty"`
}

func seriesOf(s *invoices.Series) seriesView {
	rule := map[string]any{"type": s.Rule.Type}
	switch s.Rule.Type {
	case invoices.RecurWeekly:
		rule["dayOfWeek"] = s.Rule.DayOfWeek
	case invoices.RecurDayOfMonth:
		rule["dayOfMonth"] = s.Rule.DayOfMonth
	default:
		rule["dayOfWeek"], rule["nth"] = s.Rule.DayOfWeek, any(s.Rule.Nth)
		if s.Rule.Nth < 0 {
			rule["nth"] = "last"
		}
	}
	end := map[string]any{"type": s.End.Type}
	if s.End.Type == invoices.EndAfterCount {
		end["count"] = s.End.Count
	}
	if s.End.Type == invoices.EndOnDate {
		end["date"] = s.End.Date
	}
	v := seriesView{
		Entity:                "invoice_series",
		ID:                    s.ID,
		Status:                s.Status,
		RecurrenceRule:        rule,
		PaymentTermsDays:      s.PaymentTermsDays,
		InvoiceTz:             s.Timezone,
		StartDate:             timestamp(s.StartAt()),
		EndCondition:          end,
		PaymentMethods:        s.PaymentMethods,
		AccountID:             s.AccountID,
		LegalEntityContactID:  s.ContactID,
		LegalEntityCustomerID: s.CustomerID,
		Template: templateView{Memo: s.Template.Memo, CCEmails: s.Template.CCEmails, LineItemsAndTotals: lineItemsInputView{
			LineItems: s.Template.LineItems, Discount: s.Template.Discount, Tax: s.Template.Tax}},
	}
	if len(v.PaymentMethods) == 0 {
		v.PaymentMethods = json.RawMessage("[]")
	}
	if s.NextScheduledDate != nil {
		v.NextScheduledDate = timestamp(*s.NextScheduledDate)
	}
	return v
}

func (a *API) listSeries(r *http.Request) (any, error) {
	q := r.URL.Query()
	sort, asc, err := sortOf(q)
	if err != nil {
		return nil, err
	}
	f := invoices.SeriesFilter{Status: q.Get("filter:status"), CustomerID: q.Get("filter:legalEntityCustomerId"),
		ContactID: q.Get("filter:legalEntityContactId"), AccountID: q.Get("filter:accountId"), Sort: sort, Asc: asc}
	return listPage(
		a,
		r,
		func(op *kernel.Op, c *call, req kernel.PageRequest) (kernel.Page[invoices.Series], error) {
			return invoices.ListSeries(op, c.Actor, f, req)
		},
		func(_ *kernel.Op, s *invoices.Series) (seriesView, error) { return seriesOf(s), nil },
	)
}

func (a *API) getSeries(r *http.Request) (any, error) {
	return a.readOp(r, func(op *kernel.Op, c *call) (any, error) {
		s, err := invoices.SeriesOf(op, c.Actor, mux.Vars(r)["invoiceSeriesId"])
		if err != nil {
			return nil, err
		}
		return seriesOf(s), nil
	})
}

// seriesResult answers a series write: the series and the invoice the
// write made, changed or voided, under the given name.
func seriesResult(op *kernel.Op, s *invoices.Series, inv *invoices.Invoice, name string) (any, error) {
	var agg *invoiceAggregate
	if inv != nil {
		v, err := invoiceAggregateOf(op, inv)
		if err != nil {
			return nil, err
		}
		agg = &v
	}
	if name == "voidedInvoice" {
		return seriesVoided{InvoiceSeries: seriesOf(s), VoidedInvoice: agg}, nil
	}
	return seriesIssued{InvoiceSeries: seriesOf(s), InvoiceAggregate: agg}, nil
}

// seriesWrite runs a series write with an InvoiceSeriesInput body (nil for
// the actions that take none).
func (a *API) seriesWrite(r *http.Request, idem idemMode, body *invoices.SeriesInput, name string,
	do func(op *kernel.Op, c *call) (*invoices.Series, *invoices.Invoice, error)) (any, error) {
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
			return body.Validate()
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			s, inv, err := do(op, c)
			if err != nil {
				return nil, err
			}
			return seriesResult(op, s, inv, name)
		},
	})
}

func (a *API) createSeries(r *http.Request) (any, error) {
	var body invoices.SeriesInput
	return a.seriesWrite(
		r,
		idemOptional,
		&body,
		"invoiceAggregate",
		func(op *kernel.Op, c *call) (*invoices.Series, *invoices.Invoice, error) {
			return invoices.CreateSeries(op, c.Actor, &body)
		},
	)
}

func (a *API) updateSeries(r *http.Request) (any, error) {
	var body invoices.SeriesInput
	return a.seriesWrite(
		r,
		idemNone,
		&body,
		"invoiceAggregate",
		func(op *kernel.Op, c *call) (*invoices.Series, *invoices.Invoice, error) {
			return invoices.UpdateSeries(op, c.Actor, mux.Vars(r)["invoiceSeriesId"], &body)
		},
	)
}

func (a *API) cancelSeries(r *http.Request) (any, error) {
	return a.seriesWrite(
		r,
		idemNone,
		nil,
		"voidedInvoice",
		func(op *kernel.Op, c *call) (*invoices.Series, *invoices.Invoice, error) {
			return invoices.CancelSeries(op, c.Actor, mux.Vars(r)["invoiceSeriesId"])
		},
	)
}

func (a *API) skipNext(r *http.Request) (any, error) {
	return a.seriesWrite(
		r,
		idemNone,
		nil,
		"voidedInvoice",
		func(op *kernel.Op, c *call) (*invoices.Series, *invoices.Invoice, error) {
			return invoices.SkipNextInvoice(op, c.Actor, mux.Vars(r)["invoiceSeriesId"])
		},
	)
}

// currentSeries is an invoice series as GET shows it.
func currentSeries(op *kernel.Op, c *call, vars map[string]string) (any, error) {
	s, err := invoices.SeriesOf(op, c.Actor, vars["invoiceSeriesId"])
	if err != nil {
		return nil, err
	}
	return seriesOf(s), nil
}
