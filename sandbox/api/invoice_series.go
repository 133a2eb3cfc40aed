package api

import (
	"encoding/json"
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox"
	"github.com/slash-sandbox/slash-sandbox/sandbox/web"
)

func (a *API) routesInvoiceSeries(r *mux.Router) {
	web.Route(r, web.Gen1, http.MethodGet, "/invoice/series", "invoice_series.list", a.listSeries)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/series", "invoice_series.create", a.createSeries)
	web.Route(r, web.Gen1, http.MethodGet, "/invoice/series/{invoiceSeriesId}", "invoice_series.get", a.getSeries)
	web.Route(r, web.Gen1, http.MethodPatch, "/invoice/series/{invoiceSeriesId}", "invoice_series.update", a.updateSeries)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/series/{invoiceSeriesId}/cancel", "invoice_series.cancel", a.cancelSeries)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/series/{invoiceSeriesId}/skip-next", "invoice_series.skip_next", a.skipNext)
}

// seriesView is the InvoiceSeries schema.
type seriesView struct {
	Entity                string          `json:"$entity"`
	ID                    string          `json:"id"`
	Status                string          `json:"status"`
	RecurrenceRule        map[string]any  `json:"recurrenceRule"`
	PaymentTermsDays      int             `json:"paymentTermsDays"`
	InvoiceTz             string          `json:"invoiceTz"`
	StartDate             string          `json:"startDate"`
	EndCondition          map[string]any  `json:"endCondition"`
	NextScheduledDate     string          `json:"nextScheduledDate,omitempty"`
	Template              templateView    `json:"template"`
	PaymentMethods        json.RawMessage `json:"paymentMethods"`
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
	LineItems []sandbox.LineItem  `json:"lineItems"`
	Discount  *sandbox.Adjustment `json:"discount,omitempty"`
	Tax       *sandbox.Adjustment `json:"tax,omitempty"`
}

func seriesOf(s *sandbox.InvoiceSeries) seriesView {
	rule := map[string]any{"type": s.Rule.Type}
	switch s.Rule.Type {
	case sandbox.RecurWeekly:
		rule["dayOfWeek"] = s.Rule.DayOfWeek
	case sandbox.RecurDayOfMonth:
		rule["dayOfMonth"] = s.Rule.DayOfMonth
	default:
		rule["dayOfWeek"], rule["nth"] = s.Rule.DayOfWeek, any(s.Rule.Nth)
		if s.Rule.Nth < 0 {
			rule["nth"] = "last"
		}
	}
	end := map[string]any{"type": s.End.Type}
	if s.End.Type == sandbox.EndAfterCount {
		end["count"] = s.End.Count
	}
	if s.End.Type == sandbox.EndOnDate {
		end["date"] = s.End.Date
	}
	v := seriesView{Entity: "invoice_series", ID: s.ID, Status: s.Status, RecurrenceRule: rule, PaymentTermsDays: s.PaymentTermsDays,
		InvoiceTz: s.Timezone, StartDate: timestamp(s.StartAt()), EndCondition: end, PaymentMethods: s.PaymentMethods,
		AccountID: s.AccountID, LegalEntityContactID: s.ContactID, LegalEntityCustomerID: s.CustomerID,
		Template: templateView{Memo: s.Template.Memo, CCEmails: s.Template.CCEmails, LineItemsAndTotals: lineItemsInputView{
			LineItems: s.Template.LineItems, Discount: s.Template.Discount, Tax: s.Template.Tax}}}
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
	f := sandbox.SeriesFilter{Status: q.Get("filter:status"), CustomerID: q.Get("filter:legalEntityCustomerId"),
		ContactID: q.Get("filter:legalEntityContactId"), AccountID: q.Get("filter:accountId"), Sort: sort, Asc: asc}
	return listPage(a, r, func(op *sandbox.Op, c *call, req sandbox.PageRequest) (sandbox.Page[sandbox.InvoiceSeries], error) {
		return op.ListSeries(c.Actor, f, req)
	}, func(_ *sandbox.Op, s *sandbox.InvoiceSeries) (seriesView, error) { return seriesOf(s), nil })
}

func (a *API) getSeries(r *http.Request) (any, error) {
	return a.readOp(r, func(op *sandbox.Op, c *call) (any, error) {
		s, err := op.SeriesOf(c.Actor, mux.Vars(r)["invoiceSeriesId"])
		if err != nil {
			return nil, err
		}
		return seriesOf(s), nil
	})
}

// seriesResult answers a series write: the series and the invoice the
// write made, changed or voided, under the given name.
func seriesResult(op *sandbox.Op, s *sandbox.InvoiceSeries, inv *sandbox.Invoice, name string) (any, error) {
	out := map[string]any{"invoiceSeries": seriesOf(s)}
	if inv != nil {
		agg, err := invoiceAggregateOf(op, inv)
		if err != nil {
			return nil, err
		}
		out[name] = agg
	}
	return out, nil
}

// seriesWrite runs a series write with an InvoiceSeriesInput body (nil for
// the actions that take none).
func (a *API) seriesWrite(r *http.Request, body *sandbox.SeriesInput, name string,
	do func(op *sandbox.Op, c *call) (*sandbox.InvoiceSeries, *sandbox.Invoice, error)) (any, error) {
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
			return body.Validate()
		},
		run: func(op *sandbox.Op, c *call) (any, error) {
			s, inv, err := do(op, c)
			if err != nil {
				return nil, err
			}
			return seriesResult(op, s, inv, name)
		},
	})
}

func (a *API) createSeries(r *http.Request) (any, error) {
	var body sandbox.SeriesInput
	return a.seriesWrite(r, &body, "invoiceAggregate", func(op *sandbox.Op, c *call) (*sandbox.InvoiceSeries, *sandbox.Invoice, error) {
		return op.CreateSeries(c.Actor, &body)
	})
}

func (a *API) updateSeries(r *http.Request) (any, error) {
	var body sandbox.SeriesInput
	return a.seriesWrite(r, &body, "invoiceAggregate", func(op *sandbox.Op, c *call) (*sandbox.InvoiceSeries, *sandbox.Invoice, error) {
		return op.UpdateSeries(c.Actor, mux.Vars(r)["invoiceSeriesId"], &body)
	})
}

func (a *API) cancelSeries(r *http.Request) (any, error) {
	return a.seriesWrite(r, nil, "voidedInvoice", func(op *sandbox.Op, c *call) (*sandbox.InvoiceSeries, *sandbox.Invoice, error) {
		return op.CancelSeries(c.Actor, mux.Vars(r)["invoiceSeriesId"])
	})
}

func (a *API) skipNext(r *http.Request) (any, error) {
	return a.seriesWrite(r, nil, "voidedInvoice", func(op *sandbox.Op, c *call) (*sandbox.InvoiceSeries, *sandbox.Invoice, error) {
		return op.SkipNextInvoice(c.Actor, mux.Vars(r)["invoiceSeriesId"])
	})
}
