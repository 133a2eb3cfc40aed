package api_test

import (
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func available(t *testing.T, e *apitest.Env, key, number string) bool {
	t.Helper()
	body := e.Get("/invoice/validate-number?invoiceNumber="+url.QueryEscape(number), key, "").Status(t, 200).JSON(t)
	ok, present := body["isAvailable"].(bool)
	if !present {
		t.Fatalf("validate-number body = %v", body)
	}
	return ok
}

func TestInvoiceNumbersAreUniqueAndValidateNumberAgrees(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	if available(t, e, apitest.AcmeKey, "ACME-1002") {
		t.Fatal("a number in use is available")
	}
	if !available(t, e, apitest.GlobexKey, "ACME-1002") {
		t.Fatal("numbers are unique per legal entity, yet globex may not use acme's")
	}
	if !available(t, e, apitest.AcmeKey, "NEW-1") {
		t.Fatal("a fresh number is not available")
	}
	apitest.CreateInvoice(t, e, apitest.InvoiceBody("NEW-1", "2026-06-15", "2026-07-15", 1000))
	if available(t, e, apitest.AcmeKey, "NEW-1") {
		t.Fatal("validate-number disagrees with POST: NEW-1 was just used")
	}
	r := arDo(e, http.MethodPost, "/invoice", apitest.AcmeKey,
		apitest.InvoiceBody("NEW-1", "2026-06-15", "2026-07-15", 1000)).Gen1(t, 409, "conflict")
	if d := apitest.Details(t, r); d["invoiceNumber"] != "NEW-1" || d["field"] != "/details/invoiceNumber" {
		t.Fatalf("details = %v", d)
	}
	t.Run("voided numbers stay taken", func(t *testing.T) {
		arDo(e, http.MethodPost, "/invoice/invoice_acme1004/void", apitest.AcmeKey, nil).Status(t, 200)
		if available(t, e, apitest.AcmeKey, "ACME-1004") {
			t.Fatal("a void invoice's number became available")
		}
	})
	t.Run("malformed numbers", func(t *testing.T) {
		e.Get("/invoice/validate-number?invoiceNumber=bad%20one", apitest.AcmeKey, "").Gen1(t, 400, "invalid_request")
		e.Get("/invoice/validate-number", apitest.AcmeKey, "").Gen1(t, 400, "invalid_request")
		d := apitest.Details(
			t,
			arDo(
				e,
				http.MethodPost,
				"/invoice",
				apitest.AcmeKey,
				apitest.InvoiceBody("bad one", "2026-06-15", "2026-07-15", 1),
			).Gen1(t, 400, "invalid_request"),
		)
		if d["/details/invoiceNumber"] == nil {
			t.Fatalf("details = %v", d)
		}
	})
}

func TestInvoiceUpdatesNeedTheCurrentVersion(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	inv := apitest.CreateInvoice(t, e, apitest.InvoiceBody("VER-1", "2026-06-15", "2026-07-15", 1000))
	path := "/invoice/" + inv.Invoice.ID
	details := func(version any, price int) map[string]any {
		d := apitest.InvoiceBody("VER-1", "2026-06-15", "2026-07-20", price)["details"].(map[string]any)
		if version != nil {
			d["version"] = version
		}
		return map[string]any{"details": d}
	}
	d := apitest.Details(
		t,
		arDo(e, http.MethodPatch, path, apitest.AcmeKey, details(nil, 2000)).Gen1(t, 400, "invalid_request"),
	)
	if d["/details/version"] == nil {
		t.Fatalf("details = %v", d)
	}
	r := arDo(e, http.MethodPatch, path, apitest.AcmeKey, details(7, 2000)).Gen1(t, 409, "conflict")
	if d := apitest.Details(t, r); d["currentVersion"] != "1" {
		t.Fatalf("details = %v", d)
	}
	if got := apitest.GetInvoice(t, e,
		inv.Invoice.ID); got.InvoiceDetails.LineItemsAndTotals.TotalAmountCents != 1000 ||
		got.InvoiceDetails.Version != 1 {
		t.Fatalf("a refused update changed the invoice: %+v", got.InvoiceDetails)
	}
	var got apitest.InvoiceState
	arDo(e, http.MethodPatch, path, apitest.AcmeKey, details(1, 2500)).Status(t, 200).Decode(t, &got)
	if got.InvoiceDetails.Version != 2 || got.InvoiceDetails.LineItemsAndTotals.TotalAmountCents != 2500 ||
		got.InvoiceDetails.DueAt != "2026-07-20T04:00:00.000Z" {
		t.Fatalf("updated details = %+v", got.InvoiceDetails)
	}
	arDo(e, http.MethodPatch, path, apitest.AcmeKey, details(1, 3000)).Gen1(t, 409, "conflict")
	t.Run("into a virtual account", func(t *testing.T) {
		var got apitest.InvoiceState
		arDo(
			e,
			http.MethodPatch,
			path,
			apitest.AcmeKey,
			map[string]any{"accountId": "subaccount_acmeengineering"},
		).Status(t, 200).
			Decode(t, &got)
		acc := got.InvoiceAccount
		if acc["id"] != "subaccount_acmeengineering" || acc["accountType"] != "default" ||
			acc["slashAccountGroupId"] != apitest.AcmeAccount ||
			got.InvoiceDetails.Version != 3 {
			t.Fatalf("invoiceAccount = %v, version %d", acc, got.InvoiceDetails.Version)
		}
		arDo(
			e,
			http.MethodPatch,
			path,
			apitest.AcmeKey,
			map[string]any{"accountId": "subaccount_acmeoldproject"},
		).Gen1(t, 400, "invalid_request")
	})
	t.Run("a taken number", func(t *testing.T) {
		body := details(3, 1000)
		body["details"].(map[string]any)["invoiceNumber"] = "ACME-1001"
		arDo(e, http.MethodPatch, path, apitest.AcmeKey, body).Gen1(t, 409, "conflict")
	})
	t.Run("discount and tax", func(t *testing.T) {
		body := details(3, 10000)
		lines := body["details"].(map[string]any)["lineItemsAndTotals"].(map[string]any)
		lines["discount"] = map[string]any{"type": "percentage", "percent": 10}
		lines["tax"] = map[string]any{"type": "percentage", "percent": 8.25}
		var got apitest.InvoiceState
		arDo(e, http.MethodPatch, path, apitest.AcmeKey, body).Status(t, 200).Decode(t, &got)
		if s := got.InvoiceDetails.LineItemsAndTotals; s.SubtotalCents != 10000 || s.TotalAmountCents != 9743 {
			t.Fatalf("totals = %+v, want subtotal 10000 and total 9000 + 8.25%% = 9743", s)
		}
	})
	arDo(e, http.MethodPatch, "/invoice/invoice_acme1001", apitest.AcmeKey,
		map[string]any{"accountId": apitest.AcmeAccount}).Gen1(t, 409, "conflict")
}

func TestInvoiceCreateRefusals(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	mutate := func(f func(b map[string]any)) map[string]any {
		b := apitest.InvoiceBody("REF-1", "2026-06-15", "2026-07-15", 1000)
		f(b)
		return b
	}
	det := func(b map[string]any) map[string]any { return b["details"].(map[string]any) }
	cases := []struct {
		name, field string
		status      int
		body        map[string]any
	}{
		{
			"customer missing",
			"/legalEntityCustomerId",
			400,
			mutate(func(b map[string]any) { delete(b, "legalEntityCustomerId") }),
		},
		{
			"contact no longer accepted",
			"/legalEntityContactId",
			400,
			mutate(func(b map[string]any) { b["legalEntityContactId"] = "le_c_pixelforge" }),
		},
		{
			"archived customer",
			"/legalEntityCustomerId",
			400,
			mutate(func(b map[string]any) { b["legalEntityCustomerId"] = "le_cust_oldclient" }),
		},
		{
			"another entity's customer",
			"field",
			404,
			mutate(func(b map[string]any) { b["legalEntityCustomerId"] = "le_cust_umbrella" }),
		},
		{
			"another entity's account",
			"field",
			404,
			mutate(func(b map[string]any) { b["accountId"] = "sa_group_globexmain" }),
		},
		{"bad zone", "/details/invoiceTz", 400, mutate(func(b map[string]any) { det(b)["invoiceTz"] = "EST" })},
		{"due before issue", "/details/dueAt", 400, mutate(func(b map[string]any) { det(b)["dueAt"] = "2026-06-01" })},
		{
			"date-time instead of date",
			"/details/issuedAt",
			400,
			mutate(func(b map[string]any) { det(b)["issuedAt"] = "2026-06-15T00:00:00Z" }),
		},
		{"no line items", "/details/lineItemsAndTotals/lineItems", 400, mutate(func(b map[string]any) {
			det(b)["lineItemsAndTotals"] = map[string]any{"lineItems": []any{}}
		})},
		{"bad payment method", "/paymentMethods/0/config/passFeeToPayer", 400, mutate(func(b map[string]any) {
			b["paymentMethods"] = []any{
				map[string]any{"method": "acquiring_payment", "config": map[string]any{"passFeeToPayer": true}},
			}
		})},
		{"unknown property", "/colour", 400, mutate(func(b map[string]any) { b["colour"] = "red" })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := map[int]string{400: "invalid_request", 404: "not_found"}[c.status]
			d := apitest.Details(
				t,
				arDo(e, http.MethodPost, "/invoice", apitest.AcmeKey, c.body).Gen1(t, c.status, want),
			)
			if d[c.field] == nil {
				t.Fatalf("details = %v, want %s", d, c.field)
			}
		})
	}
	if !available(t, e, apitest.AcmeKey, "REF-1") {
		t.Fatal("a refused invoice took its number")
	}
	t.Run("another entity's invoice is not found", func(t *testing.T) {
		e.Get("/invoice/invoice_acme1004", apitest.GlobexKey, "").Gen1(t, 404, "not_found")
		arDo(e, http.MethodPost, "/invoice/invoice_acme1004/void", apitest.GlobexKey, nil).Gen1(t, 404, "not_found")
		e.Get("/invoice/invoice_acme1004", apitest.AliceKey, "le_globex").Gen1(t, 404, "not_found")
	})
	t.Run("a read-only key's write is deferred and changes nothing", func(t *testing.T) {
		apitest.Deferred(
			t,
			arDo(
				e,
				http.MethodPost,
				"/invoice",
				apitest.AcmeRO,
				apitest.InvoiceBody("RO-1", "2026-06-15", "2026-07-15", 1000),
			),
		)
		if !available(t, e, apitest.AcmeKey, "RO-1") {
			t.Fatal("a deferred create made the invoice")
		}
		apitest.Deferred(t, arDo(e, http.MethodPost, "/invoice/invoice_acme1004/void", apitest.AcmeRO, nil))
		if s := apitest.GetInvoice(t, e, "invoice_acme1004"); s.Invoice.Status != "unpaid" {
			t.Fatalf("a deferred void changed the status to %s", s.Invoice.Status)
		}
	})
}

func TestInvoiceRemindersAreRateLimited(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	path := "/invoice/invoice_acme1004/send-reminder"
	if r := arDo(e, http.MethodPost, path, apitest.AcmeKey, nil).Status(t, 200).JSON(t); r["success"] != true ||
		r["reason"] != nil {
		t.Fatalf("first reminder = %v", r)
	}
	sent := apitest.Outbox(t, e, url.Values{"relatedId": {"invoice_acme1004"}, "kind": {"invoice_reminder"}})
	if len(sent) != 1 || sent[0].To[0] != "ap@initech.test" || !strings.Contains(sent[0].Text, "ACME-1004") {
		t.Fatalf("reminder = %+v", sent)
	}
	if r := arDo(e, http.MethodPost, path, apitest.AcmeKey, nil).Status(t, 200).JSON(t); r["success"] != false ||
		r["reason"] != "rate_limited" {
		t.Fatalf("second reminder within a day = %v", r)
	}
	// The invoice's own email (the demo sent it on its issue date) and one reminder.
	if n := len(apitest.Outbox(t, e, url.Values{"relatedId": {"invoice_acme1004"}})); n != 2 {
		t.Fatalf("%d messages after a rate-limited reminder, want 2", n)
	}
	apitest.Advance(t, e, `{"by":"24h"}`)
	if r := arDo(e, http.MethodPost, path, apitest.AcmeKey, nil).Status(t, 200).JSON(t); r["success"] != true {
		t.Fatalf("a day later = %v", r)
	}
	msg := apitest.Outbox(t, e,
		url.Values{"to": {"AP@initech.test"}, "relatedId": {"invoice_acme1004"}, "kind": {"invoice_reminder"}})
	if len(msg) != 2 {
		t.Fatalf("%d reminders, want 2", len(msg))
	}
	one := e.Get("/_sandbox/outbox/"+msg[0].ID, "", "").Status(t, 200).JSON(t)
	if one["id"] != msg[0].ID || one["subject"] != msg[0].Subject ||
		!strings.HasPrefix(arMap(one, "links")["invoice"].(string), "http://") {
		t.Fatalf("outbox message = %v", one)
	}
	e.Get("/_sandbox/outbox/msg_nope", "", "").Gen2(t, 404, "not_found")
}

func TestInvoiceListFiltersAndSorts(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	overdue := arItems(e.Get("/invoice?filter:status=overdue", apitest.AcmeKey, "").Status(t, 200).JSON(t))
	if len(overdue) == 0 {
		t.Fatal("no overdue invoice in the demo")
	}
	for _, it := range overdue {
		if arMap(it, "invoice")["status"] != "overdue" {
			t.Fatalf("filter:status=overdue listed %v", arMap(it, "invoice"))
		}
	}
	hooli := arItems(
		e.Get("/invoice?filter:legalEntityCustomerId=le_cust_hooli", apitest.AcmeKey, "").Status(t, 200).JSON(t),
	)
	for _, it := range hooli {
		if arMap(it, "invoice")["legalEntityCustomerId"] != "le_cust_hooli" {
			t.Fatalf("customer filter listed %v", arMap(it, "invoice"))
		}
	}
	statuses := map[string]bool{}
	var dues []string
	for _, it := range arItems(e.Get("/invoice?sort=dueAt&sortDirection=ASC", apitest.AcmeKey, "").Status(t,
		200).JSON(t)) {
		dues = append(dues, arMap(it, "invoiceDetails")["dueAt"].(string))
		statuses[arMap(it, "invoice")["status"].(string)] = true
	}
	if !sort.StringsAreSorted(dues) || len(dues) < 7 {
		t.Fatalf("sort=dueAt ASC gave %v", dues)
	}
	for _, s := range []string{"scheduled", "unpaid", "overdue", "paid_partially", "paid", "void"} {
		if !statuses[s] {
			t.Errorf("the demo has no %s invoice", s)
		}
	}
	if got := arItems(e.Get("/invoice", apitest.GlobexKey, "").Status(t, 200).JSON(t)); len(got) != 1 {
		t.Fatalf("globex sees %d invoices, want its one", len(got))
	}
	e.Get("/invoice?filter:status=late", apitest.AcmeKey, "").Gen1(t, 400, "invalid_request")
	e.Get("/invoice?sortDirection=UP", apitest.AcmeKey, "").Gen1(t, 400, "invalid_request")
	e.Get("/invoice?filter:legalEntityId=le_globex", apitest.AliceKey, "le_acme").Gen1(t, 400, "invalid_request")
}
