package api_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func seriesBody(rule, end map[string]any, start string, price int) map[string]any {
	return map[string]any{
		"accountId": apitest.AcmeAccount, "legalEntityCustomerId": "le_cust_vandelay", "recurrenceRule": rule,
		"paymentTermsDays": 14, "invoiceTz": "America/New_York", "startDate": start, "endCondition": end,
		"template": map[string]any{"memo": "Retainer", "lineItemsAndTotals": map[string]any{
			"lineItems": []any{map[string]any{"name": "Retainer", "quantity": 1, "priceCents": price}}}},
	}
}

type seriesState struct {
	ID                string         `json:"id"`
	Status            string         `json:"status"`
	NextScheduledDate string         `json:"nextScheduledDate"`
	StartDate         string         `json:"startDate"`
	RecurrenceRule    map[string]any `json:"recurrenceRule"`
}

type seriesAnswer struct {
	InvoiceSeries    seriesState           `json:"invoiceSeries"`
	InvoiceAggregate *apitest.InvoiceState `json:"invoiceAggregate"`
	VoidedInvoice    *apitest.InvoiceState `json:"voidedInvoice"`
}

func seriesWrite(t *testing.T, e *apitest.Env, method, path string, body any) seriesAnswer {
	t.Helper()
	var a seriesAnswer
	arDo(e, method, path, apitest.AcmeKey, body).Status(t, 200).Decode(t, &a)
	return a
}

func getSeries(t *testing.T, e *apitest.Env, id string) seriesState {
	t.Helper()
	var s seriesState
	e.Get("/invoice/series/"+id, apitest.AcmeKey, "").Status(t, 200).Decode(t, &s)
	return s
}

// seriesInvoices lists the invoices of a series, oldest first.
func seriesInvoices(t *testing.T, e *apitest.Env, id string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, it := range arItems(e.Get("/invoice?sortDirection=ASC", apitest.AcmeKey, "").Status(t, 200).JSON(t)) {
		if arMap(it, "invoice")["invoiceSeriesId"] == id {
			out = append(out, arMap(it, "invoice"))
		}
	}
	return out
}

func TestSeriesIssuesInvoicesOnScheduleAndEnds(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	// Wednesdays from Tuesday 2026-06-16, three times.
	a := seriesWrite(
		t,
		e,
		http.MethodPost,
		"/invoice/series",
		seriesBody(map[string]any{"type": "weekly", "dayOfWeek": 3}, map[string]any{"type": "after_count", "count": 3},
			"2026-06-16", 50000),
	)
	s, first := a.InvoiceSeries, a.InvoiceAggregate
	if s.Status != "active" || s.NextScheduledDate != "2026-06-17T04:00:00.000Z" || first == nil {
		t.Fatalf("new series = %+v, invoice %+v", s, first)
	}
	if first.Invoice.Status != "scheduled" || first.Invoice.InvoiceSeriesID != s.ID ||
		first.InvoiceDetails.DueAt != "2026-07-01T04:00:00.000Z" {
		t.Fatalf("first invoice = %+v", first)
	}
	apitest.Advance(t, e, `{"to":"2026-06-17T04:00:00Z"}`)
	invs := seriesInvoices(t, e, s.ID)
	if len(invs) != 2 || invs[0]["status"] != "unpaid" || invs[1]["status"] != "scheduled" ||
		invs[1]["scheduledSendDate"] != "2026-06-24T04:00:00.000Z" {
		t.Fatalf("after the first Wednesday: %v", invs)
	}
	if got := getSeries(t, e, s.ID); got.NextScheduledDate != "2026-06-24T04:00:00.000Z" || got.Status != "active" {
		t.Fatalf("series = %+v", got)
	}
	if sent := apitest.Outbox(t, e, url.Values{"relatedId": {first.Invoice.ID}, "kind": {"invoice"}}); len(
		sent,
	) != 1 ||
		sent[0].To[0] != "art@vandelay.test" {
		t.Fatalf("first invoice email = %+v", sent)
	}
	apitest.Advance(t, e, `{"to":"2026-07-02T00:00:00Z"}`)
	got := getSeries(t, e, s.ID)
	if got.Status != "ended" || got.NextScheduledDate != "" {
		t.Fatalf("after the third Wednesday series = %+v, want ended", got)
	}
	invs = seriesInvoices(t, e, s.ID)
	if len(invs) != 3 {
		t.Fatalf("%d invoices, want 3", len(invs))
	}
	for _, inv := range invs {
		if inv["status"] == "scheduled" || inv["status"] == "void" {
			t.Fatalf("an ended series left %v", inv)
		}
	}
	ended := arItems(e.Get("/invoice/series?filter:status=ended", apitest.AcmeKey, "").Status(t, 200).JSON(t))
	if len(ended) != 1 || ended[0]["id"] != s.ID {
		t.Fatalf("filter:status=ended = %v", ended)
	}
}

func TestSeriesSkipAndCancel(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	// The 31st, clamped to the month's last day: June 30, then July 31.
	a := seriesWrite(
		t,
		e,
		http.MethodPost,
		"/invoice/series",
		seriesBody(map[string]any{"type": "monthly_day_of_month", "dayOfMonth": 31}, map[string]any{"type": "never"},
			"2026-06-16", 90000),
	)
	id := a.InvoiceSeries.ID
	if a.InvoiceSeries.NextScheduledDate != "2026-06-30T04:00:00.000Z" {
		t.Fatalf("first date = %s, want June 30", a.InvoiceSeries.NextScheduledDate)
	}
	skip := seriesWrite(t, e, http.MethodPost, "/invoice/series/"+id+"/skip-next", nil)
	if skip.VoidedInvoice == nil || skip.VoidedInvoice.Invoice.ID != a.InvoiceAggregate.Invoice.ID ||
		skip.VoidedInvoice.Invoice.Status != "void" {
		t.Fatalf("skip-next voided %+v", skip.VoidedInvoice)
	}
	if skip.InvoiceSeries.NextScheduledDate != "2026-07-31T04:00:00.000Z" {
		t.Fatalf("after skipping, next = %s", skip.InvoiceSeries.NextScheduledDate)
	}
	cancel := seriesWrite(t, e, http.MethodPost, "/invoice/series/"+id+"/cancel", nil)
	if cancel.InvoiceSeries.Status != "cancelled" || cancel.InvoiceSeries.NextScheduledDate != "" ||
		cancel.VoidedInvoice == nil ||
		cancel.VoidedInvoice.InvoiceDetails.IssuedAt != "2026-07-31T04:00:00.000Z" ||
		cancel.VoidedInvoice.Invoice.Status != "void" {
		t.Fatalf("cancel = %+v", cancel)
	}
	arDo(e, http.MethodPost, "/invoice/series/"+id+"/cancel", apitest.AcmeKey, nil).Gen1(t, 409, "conflict")
	arDo(e, http.MethodPost, "/invoice/series/"+id+"/skip-next", apitest.AcmeKey, nil).Gen1(t, 409, "conflict")
	apitest.Advance(t, e, `{"by":"60d"}`)
	if invs := seriesInvoices(t, e, id); len(invs) != 2 {
		t.Fatalf("a cancelled series issued more: %v", invs)
	}
	t.Run("voiding the scheduled invoice skips it", func(t *testing.T) {
		demo := getSeries(t, e, "invoice_series_acmeinitechsupport")
		pending := seriesInvoices(t, e, "invoice_series_acmeinitechsupport")
		last := pending[len(pending)-1]
		if last["status"] != "scheduled" {
			t.Fatalf("the demo series' last invoice = %v", last)
		}
		arDo(e, http.MethodPost, "/invoice/"+last["id"].(string)+"/void", apitest.AcmeKey, nil).Status(t, 200)
		if now := getSeries(t, e, demo.ID); now.NextScheduledDate <= demo.NextScheduledDate || now.Status != "active" {
			t.Fatalf("after voiding its scheduled invoice the series = %+v (was %+v)", now, demo)
		}
	})
}

func TestSeriesUpdateRewritesTheScheduledInvoice(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	lastFriday := map[string]any{"type": "monthly_nth_weekday", "nth": "last", "dayOfWeek": 5}
	a := seriesWrite(t, e, http.MethodPost, "/invoice/series",
		seriesBody(lastFriday, map[string]any{"type": "never"}, "2026-06-16", 1000))
	if a.InvoiceSeries.NextScheduledDate != "2026-06-26T04:00:00.000Z" ||
		a.InvoiceSeries.RecurrenceRule["nth"] != "last" {
		t.Fatalf("last Friday of June = %+v", a.InvoiceSeries)
	}
	firstMonday := map[string]any{"type": "monthly_nth_weekday", "nth": 1, "dayOfWeek": 1}
	body := seriesBody(firstMonday, map[string]any{"type": "on_date", "date": "2026-12-31"}, "2026-06-16", 2500)
	u := seriesWrite(t, e, http.MethodPatch, "/invoice/series/"+a.InvoiceSeries.ID, body)
	inv := u.InvoiceAggregate
	if u.InvoiceSeries.NextScheduledDate != "2026-07-06T04:00:00.000Z" || inv == nil ||
		inv.Invoice.ID != a.InvoiceAggregate.Invoice.ID {
		t.Fatalf("update = %+v", u)
	}
	if inv.InvoiceDetails.IssuedAt != "2026-07-06T04:00:00.000Z" ||
		inv.InvoiceDetails.LineItemsAndTotals.TotalAmountCents != 2500 ||
		inv.Invoice.Status != "scheduled" {
		t.Fatalf("the scheduled invoice was not rewritten: %+v", inv)
	}
	body["legalEntityContactId"] = "le_c_pixelforge"
	d := apitest.Details(
		t,
		arDo(
			e,
			http.MethodPatch,
			"/invoice/series/"+a.InvoiceSeries.ID,
			apitest.AcmeKey,
			body,
		).Gen1(t, 400, "invalid_request"),
	)
	if d["/legalEntityContactId"] == nil {
		t.Fatalf("details = %v", d)
	}
}

func TestSeriesRefusals(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	weekly := map[string]any{"type": "weekly", "dayOfWeek": 2}
	never := map[string]any{"type": "never"}
	cases := []struct {
		name, field string
		status      int
		body        func() map[string]any
	}{
		{
			"start in the past",
			"/startDate",
			400,
			func() map[string]any { return seriesBody(weekly, never, "2026-06-01", 100) },
		},
		{"weekly without a day", "/recurrenceRule/dayOfWeek", 400, func() map[string]any {
			return seriesBody(map[string]any{"type": "weekly"}, never, "2026-06-16", 100)
		}},
		{"fifth weekday", "/recurrenceRule/nth", 400, func() map[string]any {
			return seriesBody(
				map[string]any{"type": "monthly_nth_weekday", "nth": 5, "dayOfWeek": 1},
				never,
				"2026-06-16",
				100,
			)
		}},
		{"end before start", "/endCondition/date", 400, func() map[string]any {
			return seriesBody(weekly, map[string]any{"type": "on_date", "date": "2026-06-01"}, "2026-06-16", 100)
		}},
		{"count zero", "/endCondition/count", 400, func() map[string]any {
			return seriesBody(weekly, map[string]any{"type": "after_count", "count": 0}, "2026-06-16", 100)
		}},
		{"nobody billed", "/legalEntityCustomerId", 400, func() map[string]any {
			b := seriesBody(weekly, never, "2026-06-16", 100)
			delete(b, "legalEntityCustomerId")
			return b
		}},
		{"contact without email", "/legalEntityContactId", 400, func() map[string]any {
			b := seriesBody(weekly, never, "2026-06-16", 100)
			delete(b, "legalEntityCustomerId")
			b["legalEntityContactId"] = "le_c_walkincourier"
			return b
		}},
		{"another entity's customer", "field", 404, func() map[string]any {
			b := seriesBody(weekly, never, "2026-06-16", 100)
			b["legalEntityCustomerId"] = "le_cust_umbrella"
			return b
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := map[int]string{400: "invalid_request", 404: "not_found"}[c.status]
			d := apitest.Details(
				t,
				arDo(e, http.MethodPost, "/invoice/series", apitest.AcmeKey, c.body()).Gen1(t, c.status, want),
			)
			if d[c.field] == nil {
				t.Fatalf("details = %v, want %s", d, c.field)
			}
		})
	}
	t.Run("a contact with an email may be billed", func(t *testing.T) {
		b := seriesBody(weekly, never, "2026-06-16", 100)
		delete(b, "legalEntityCustomerId")
		b["legalEntityContactId"] = "le_c_pixelforge"
		a := seriesWrite(t, e, http.MethodPost, "/invoice/series", b)
		if a.InvoiceAggregate.InvoiceDetails.BilledTo.Email != "hello@pixelforge.test" {
			t.Fatalf("billedTo = %+v", a.InvoiceAggregate.InvoiceDetails.BilledTo)
		}
	})
	e.Get("/invoice/series/invoice_series_acmeinitechsupport", apitest.GlobexKey, "").Gen1(t, 404, "not_found")
	if n := len(arItems(e.Get("/invoice/series", apitest.GlobexKey, "").Status(t, 200).JSON(t))); n != 0 {
		t.Fatalf("globex lists %d of acme's series", n)
	}
	apitest.Deferred(
		t,
		arDo(e, http.MethodPost, "/invoice/series/invoice_series_acmeinitechsupport/cancel", apitest.AcmeRO, nil),
	)
	if getSeries(t, e, "invoice_series_acmeinitechsupport").Status != "active" {
		t.Fatal("a deferred cancel cancelled the series")
	}
	sorted := arItems(
		e.Get("/invoice/series?sort=nextScheduledDate&sortDirection=ASC", apitest.AcmeKey, "").Status(t, 200).JSON(t),
	)
	if len(sorted) < 2 || sorted[0]["nextScheduledDate"].(string) > sorted[1]["nextScheduledDate"].(string) {
		t.Fatalf("sort=nextScheduledDate ASC = %v", sorted)
	}
	e.Get("/invoice/series?sort=price", apitest.AcmeKey, "").Gen1(t, 400, "invalid_request")
}
