package control_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// randomInvoices sends a seeded sequence of invoice writes as acme:
// invoices issued now or scheduled, with discounts, taxes, payment methods
// and copies; payments in part or in full through the simulate route and
// reconciled from elsewhere; updates, voids and reminders (some refused,
// as the invoice's state has it); series billing a
// customer or a contact, skipped, cancelled and issuing as the clock moves.
func randomInvoices(t *testing.T, e *apitest.Env, seed int64) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(seed), 35))
	const acme = apitest.AcmeKey
	customers := []string{"le_cust_initech", "le_cust_hooli", "le_cust_vandelay"}
	var open, series []string
	day := func(offset int) string { return apitest.ClockNow(t, e).AddDate(0, 0, offset).Format(time.DateOnly) }
	for i := range 24 {
		switch op := r.IntN(10); {
		case op <= 2 || len(open) == 0:
			issued := r.IntN(12) - 8
			details := map[string]any{"issuedAt": day(issued), "dueAt": day(issued + r.IntN(20)),
				"invoiceTz":     []string{"America/New_York", "Europe/Paris", "Asia/Tokyo"}[r.IntN(3)],
				"invoiceNumber": fmt.Sprintf("RND-%d-%d", seed, i), "memo": fmt.Sprintf("Random invoice %d", i),
				"ccEmails": []string{fmt.Sprintf("copy%d@random.test", i)},
				"lineItemsAndTotals": map[string]any{
					"lineItems": []any{map[string]any{"name": "Work", "quantity": 1 + r.IntN(3),
						"priceCents": 1000 + r.IntN(90000), "catalogItemId": fmt.Sprintf("cat_%d", r.IntN(3))}},
					"discount": map[string]any{"type": "fixed", "amountCents": r.IntN(500)},
					"tax":      map[string]any{"type": "percentage", "percent": r.IntN(12)},
				}}
			body := map[string]any{"accountId": apitest.AcmeAccount, "legalEntityCustomerId": customers[r.IntN(3)],
				"details": details}
			if r.IntN(2) == 0 {
				body["paymentMethods"] = []any{map[string]any{"method": "inbound_ach_transfer", "config": map[string]any{}},
					map[string]any{"method": "ach_debit", "config": map[string]any{"passFeeToPayer": true}}}
			}
			open = append(open, apitest.CreateInvoice(t, e, body).Invoice.ID)
		case op == 3:
			pay := map[string]any{"invoiceId": open[r.IntN(len(open))]}
			if r.IntN(2) == 0 {
				pay["amountCents"] = 100 + r.IntN(900)
			}
			e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/simulate/invoice-payment", Body: pay})
		case op == 4:
			e.Do(apitest.Req{Method: http.MethodPost, Path: "/invoice/" + open[r.IntN(len(open))] + "/reconcile",
				Key: acme, Body: []any{map[string]any{"transactionType": "external", "transaction": map[string]any{
					"paymentMethod": "other", "paidAt": day(-1), "amountCents": 50 + r.IntN(500)}}}})
		case op == 5:
			e.Do(apitest.Req{Method: http.MethodPost, Path: "/invoice/" + open[r.IntN(len(open))] + "/void", Key: acme})
		case op == 6:
			e.Do(apitest.Req{Method: http.MethodPost, Path: "/invoice/" + open[r.IntN(len(open))] + "/send-reminder",
				Key: acme})
		case op == 7:
			series = append(series, randomSeries(t, e, r, i, day(r.IntN(10))))
		case op == 8 && len(series) > 0:
			action := []string{"/cancel", "/skip-next"}[r.IntN(2)]
			e.Do(apitest.Req{Method: http.MethodPost, Path: "/invoice/series/" + series[r.IntN(len(series))] + action,
				Key: acme})
		case op == 9 && r.IntN(2) == 0:
			methods := [][]any{{}, {map[string]any{"method": "inbound_rtp", "config": map[string]any{}}}}[r.IntN(2)]
			e.Do(apitest.Req{Method: http.MethodPatch, Path: "/invoice/" + open[r.IntN(len(open))], Key: acme,
				Body: map[string]any{"paymentMethods": methods}})
		default:
			apitest.Advance(t, e, fmt.Sprintf(`{"by":"%dh"}`, 12+r.IntN(200)))
		}
	}
}

// randomSeries starts a series billing a customer or a contact and
// returns its id.
func randomSeries(t *testing.T, e *apitest.Env, r *rand.Rand, i int, start string) string {
	t.Helper()
	body := map[string]any{"accountId": apitest.AcmeAccount, "paymentTermsDays": r.IntN(20),
		"invoiceTz": "America/Chicago", "startDate": start,
		"recurrenceRule": []map[string]any{{"type": "weekly", "dayOfWeek": r.IntN(7)},
			{"type": "monthly_day_of_month", "dayOfMonth": 1 + r.IntN(31)},
			{"type": "monthly_nth_weekday", "dayOfWeek": r.IntN(7), "nth": []any{2, "last"}[r.IntN(2)]}}[r.IntN(3)],
		"endCondition": []map[string]any{{"type": "never"}, {"type": "after_count", "count": 1 + r.IntN(4)}}[r.IntN(2)],
		"template": map[string]any{"memo": fmt.Sprintf("Series %d", i), "ccEmails": []string{"books@random.test"},
			"lineItemsAndTotals": map[string]any{"lineItems": []any{map[string]any{"name": "Retainer", "quantity": 1,
				"priceCents": 5000 + r.IntN(50000)}}, "discount": map[string]any{"type": "percentage", "percent": 5}}},
		"paymentMethods": []any{map[string]any{"method": "inbound_wire_transfer", "config": map[string]any{}}}}
	if r.IntN(2) == 0 {
		body["legalEntityContactId"] = "le_c_northwindsupply"
	} else {
		body["legalEntityCustomerId"] = "le_cust_vandelay"
	}
	var a struct {
		InvoiceSeries struct {
			ID string `json:"id"`
		} `json:"invoiceSeries"`
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/invoice/series", Key: apitest.AcmeKey, Body: body}).
		Status(t, http.StatusOK).Decode(t, &a)
	return a.InvoiceSeries.ID
}

// TestExportedInvoicesRunAlike: the events invoices and series rely on
// come along in an export, and the id counters: advanced 45 days, the
// world and its export send, make overdue, remind and issue alike, with
// the same new ids and the same emails.
func TestExportedInvoicesRunAlike(t *testing.T) {
	e := apitest.New(t, apitest.Options{})
	randomInvoices(t, e, 7)
	copy, _ := exported(t, e)
	since := apitest.ClockNow(t, e)
	if before, after := invoiceEmails(t, e, time.Time{}), invoiceEmails(t, copy, time.Time{}); len(after) > len(before) {
		t.Errorf("the load emailed invoices again: %d invoice emails, the world has %d", len(after), len(before))
	}
	var sent [2][]string
	for i, env := range []*apitest.Env{e, copy} {
		for range 3 {
			apitest.Advance(t, env, `{"by":"15d"}`)
		}
		sent[i] = invoiceEmails(t, env, since)
	}
	if len(sent[0]) == 0 || !slices.Equal(sent[0], sent[1]) {
		t.Errorf("the invoice emails sent in 45 days differ:\n world  %q\n export %q", sent[0], sent[1])
	}
	routes := []string{"/invoice", "/invoice/{invoiceId}", "/invoice/series", "/invoice/series/{invoiceSeriesId}",
		"/invoice/{invoiceId}/send-reminder", "/transaction"}
	results := map[string]*routeResult{}
	compareRoutes(t, e, copy, routes, results)
	for _, r := range routes {
		res := results[r]
		if res == nil || res.reads == 0 {
			t.Fatalf("%s was not read", r)
		}
		if res.differ > 0 {
			t.Errorf("%s: %d of %d answers differ after 45 days; first:\n%s", r, res.differ, res.reads, res.example)
		}
	}
}

// invoiceEmails are the invoices and reminders a world emailed after an
// instant, oldest first: kind, recipient, subject, invoice and time.
func invoiceEmails(t *testing.T, e *apitest.Env, after time.Time) []string {
	t.Helper()
	var page struct {
		Items []struct {
			Kind, Subject, RelatedID string
			To                       []string
			CreatedAt                time.Time
		}
	}
	e.Get("/_sandbox/outbox", "", "").Status(t, http.StatusOK).Decode(t, &page)
	var out []string
	for _, m := range slices.Backward(page.Items) {
		if strings.HasPrefix(m.Kind, "invoice") && m.CreatedAt.After(after) {
			out = append(out, fmt.Sprintf("%s %v %s %s %s", m.Kind, m.To, m.Subject, m.RelatedID, m.CreatedAt))
		}
	}
	return out
}
