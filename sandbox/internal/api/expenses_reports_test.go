package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func expenseBody(user, destination string, amount int) map[string]any {
	return map[string]any{"submittedByUserId": user, "amountCents": amount, "transactionDate": "2026-06-14T12:00:00Z",
		"destinationId": destination, "merchant": map[string]any{"type": "merchantV2", "id": "merchant_v2_uber"},
		"noReceiptReason": "Driver had no printer", "memo": "Airport ride"}
}

type expenseState struct {
	ID                    string         `json:"id"`
	Status                string         `json:"status"`
	AmountCents           int64          `json:"amountCents"`
	Currency              string         `json:"currency"`
	Merchant              map[string]any `json:"merchant"`
	Destination           map[string]any `json:"destination"`
	SubmittedByUser       map[string]any `json:"submittedByUser"`
	ReviewedByUser        map[string]any `json:"reviewedByUser"`
	Review                map[string]any `json:"review"`
	AggregatedTransaction *struct {
		ID     string         `json:"id"`
		Amount map[string]any `json:"amount"`
		Status string         `json:"status"`
	} `json:"aggregatedTransaction"`
	Documents []map[string]any `json:"documents"`
}

func expenseCall(t *testing.T, e *apitest.Env, method, path string, body any) expenseState {
	t.Helper()
	var out struct {
		ExpenseReport expenseState `json:"expenseReport"`
	}
	arDo(e, method, path, apitest.AcmeKey, body).Status(t, http.StatusOK).Decode(t, &out)
	return out.ExpenseReport
}

func TestApprovedExpenseIsReimbursedThroughTheLedger(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	r := expenseCall(t, e, http.MethodPost, "/expense-report", expenseBody("u_bob", "ub_bobchecking", 12345))
	if !strings.HasPrefix(r.ID, "expense_report_") || r.Status != "pending_review" ||
		arMap(r.Merchant, "merchantV2")["name"] != "Uber" ||
		r.Destination["id"] != "ub_bobchecking" ||
		arMap(r.SubmittedByUser, "name")["full"] != "Bob Martinez" ||
		r.AggregatedTransaction != nil {
		t.Fatalf("new report = %+v", r)
	}
	tasks := arItems(e.Get("/task?filter:attr[expenseReportId]="+r.ID, apitest.AcmeKey, "").Status(t, 200).JSON(t))
	if len(tasks) != 1 || tasks[0]["status"] != "action_required" || tasks[0]["type"] != "expense_submission" {
		t.Fatalf("review task = %v", tasks)
	}
	posted0, avail0 := apitest.AccountBalance(t, e, apitest.AcmeKey, apitest.AcmeAccount)
	r = expenseCall(t, e, http.MethodPost, "/expense-report/"+r.ID+"/approve",
		map[string]any{"reviewedByUserId": "u_alice"})
	if r.Status != "payment_processing" || r.Review["decision"] != "approved" || r.ReviewedByUser["id"] != "u_alice" ||
		r.AggregatedTransaction == nil || r.AggregatedTransaction.Status != "pending" ||
		r.AggregatedTransaction.Amount["amount_cents"] != float64(-12345) {
		t.Fatalf("approved report = %+v", r)
	}
	if posted, avail := apitest.AccountBalance(t, e, apitest.AcmeKey, apitest.AcmeAccount); posted != posted0 ||
		avail != avail0-12345 {
		t.Fatalf("after approval posted %v available %v; want %v and %v", posted, avail, posted0, avail0-12345)
	}
	arDo(e, http.MethodPost, "/expense-report/"+r.ID+"/approve", apitest.AcmeKey,
		map[string]any{"reviewedByUserId": "u_alice"}).Gen1(t, 409, "conflict")
	apitest.Advance(t, e, `{"by":"24h"}`)
	r = expenseCall(t, e, http.MethodGet, "/expense-report/"+r.ID, nil)
	if r.Status != "payment_completed" || r.AggregatedTransaction.Status != "settled" {
		t.Fatalf("a day later = %+v", r)
	}
	txn := e.Get("/transaction/"+r.AggregatedTransaction.ID, apitest.AcmeKey, "").Status(t, 200).JSON(t)
	if txn["status"] != "posted" || txn["amountCents"] != float64(-12345) || txn["accountId"] != apitest.AcmeAccount ||
		!strings.Contains(txn["description"].(string), "Bob Martinez") {
		t.Fatalf("reimbursement on the ledger = %v", txn)
	}
	if task := arItems(e.Get("/task?filter:attr[expenseReportId]="+r.ID, apitest.AcmeKey, "").Status(t,
		200).JSON(t)); task[0]["status"] != "completed" {
		t.Fatalf("task after approval = %v", task[0])
	}
	if evs := apitest.AcmeEventsFor(t, e, r.ID); !slices.Equal(evs,
		[]string{"expense_report.create", "expense_report.update", "expense_report.update"}) {
		t.Fatalf("webhook events = %v", evs)
	}
}

func TestPayoutToAnInactiveAccountFails(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	r := expenseCall(t, e, http.MethodPost, "/expense-report", expenseBody("u_bob", "ub_bobsavingsold", 5000))
	r = expenseCall(t, e, http.MethodPost, "/expense-report/"+r.ID+"/approve",
		map[string]any{"reviewedByUserId": "u_carol"})
	if r.Status != "payment_processing" {
		t.Fatalf("approved = %s", r.Status)
	}
	apitest.Advance(t, e, `{"by":"24h"}`)
	r = expenseCall(t, e, http.MethodGet, "/expense-report/"+r.ID, nil)
	if r.Status != "payment_failed" || r.AggregatedTransaction.Status != "failed" {
		t.Fatalf("payout to an inactive account = %+v", r)
	}
	txn := e.Get("/transaction/"+r.AggregatedTransaction.ID, apitest.AcmeKey, "").Status(t, 200).JSON(t)
	if txn["status"] != "failed" || txn["amountCents"] != float64(-5000) {
		t.Fatalf("failed reimbursement on the ledger = %v", txn)
	}
}

func TestExpenseReportRules(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	with := func(f func(b map[string]any)) map[string]any {
		b := expenseBody("u_bob", "ub_bobchecking", 1000)
		f(b)
		return b
	}
	cases := []struct {
		name, field string
		status      int
		body        map[string]any
	}{
		{
			"foreign currency without a rate",
			"/fxRateToUsd",
			400,
			with(func(b map[string]any) { b["currency"] = "EUR" }),
		},
		{
			"no receipt and no reason",
			"/noReceiptReason",
			400,
			with(func(b map[string]any) { delete(b, "noReceiptReason") }),
		},
		{"someone else's account", "field", 404, with(func(b map[string]any) { b["submittedByUserId"] = "u_carol" })},
		{
			"not a user bank account",
			"/destinationId",
			400,
			with(func(b map[string]any) { b["destinationId"] = "le_c_dest_danaach" }),
		},
		{
			"in the future",
			"/transactionDate",
			400,
			with(func(b map[string]any) { b["transactionDate"] = "2027-01-01T00:00:00Z" }),
		},
		{
			"unknown merchant",
			"field",
			404,
			with(
				func(b map[string]any) { b["merchant"] = map[string]any{"type": "merchantV2", "id": "merchant_v2_nope"} },
			),
		},
		{"unknown user", "field", 404, with(func(b map[string]any) { b["submittedByUserId"] = "u_mallory" })},
		{"zero amount", "/amountCents", 400, with(func(b map[string]any) { b["amountCents"] = 0 })},
		{
			"bad rate",
			"/fxRateToUsd",
			400,
			with(func(b map[string]any) { b["currency"], b["fxRateToUsd"] = "EUR", "-1" }),
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := map[int]string{400: "invalid_request", 404: "not_found"}[c.status]
			d := apitest.Details(
				t,
				arDo(e, http.MethodPost, "/expense-report", apitest.AcmeKey, c.body).Gen1(t, c.status, want),
			)
			if d[c.field] == nil {
				t.Fatalf("details = %v, want %s", d, c.field)
			}
		})
	}
	t.Run("a foreign currency with its rate", func(t *testing.T) {
		r := expenseCall(t, e, http.MethodPost, "/expense-report",
			with(func(b map[string]any) { b["currency"], b["fxRateToUsd"] = "EUR", "0.8" }))
		r = expenseCall(t, e, http.MethodPost, "/expense-report/"+r.ID+"/approve",
			map[string]any{"reviewedByUserId": "u_alice"})
		if r.Currency != "EUR" || r.AggregatedTransaction.Amount["amount_cents"] != float64(-1250) {
			t.Fatalf("EUR 10.00 at 0.8 per dollar should pay $12.50: %+v", r.AggregatedTransaction)
		}
	})
	t.Run("reviews", func(t *testing.T) {
		id := "expense_report_bobtaxi"
		d := apitest.Details(
			t,
			arDo(
				e,
				http.MethodPost,
				"/expense-report/"+id+"/approve",
				apitest.AcmeKey,
				map[string]any{"reviewedByUserId": "u_bob"},
			).Gen1(t, 400, "invalid_request"),
		)
		if !strings.Contains(d["/reviewedByUserId"].(string), "submitted") {
			t.Fatalf("self-approval details = %v", d)
		}
		arDo(
			e,
			http.MethodPost,
			"/expense-report/"+id+"/reject",
			apitest.AcmeKey,
			map[string]any{"reviewedByUserId": "u_alice"},
		).Gen1(t, 400, "invalid_request")
		r := expenseCall(t, e, http.MethodPost, "/expense-report/"+id+"/reject",
			map[string]any{"reviewedByUserId": "u_alice", "reason": "Use the corporate card"})
		if r.Status != "rejected" || r.Review["rejectionReason"] != "Use the corporate card" ||
			r.AggregatedTransaction != nil {
			t.Fatalf("rejected = %+v", r)
		}
	})
	t.Run("entities and read-only keys", func(t *testing.T) {
		e.Get("/expense-report/expense_report_carollunch", apitest.GlobexKey, "").Gen1(t, 404, "not_found")
		if n := len(arItems(e.Get("/expense-report", apitest.GlobexKey, "").Status(t, 200).JSON(t))); n != 0 {
			t.Fatalf("globex lists %d of acme's reports", n)
		}
		before := len(arItems(e.Get("/expense-report", apitest.AcmeKey, "").Status(t, 200).JSON(t)))
		apitest.Deferred(
			t,
			arDo(e, http.MethodPost, "/expense-report", apitest.AcmeRO, expenseBody("u_bob", "ub_bobchecking", 700)),
		)
		apitest.Deferred(
			t,
			arDo(e, http.MethodPost, "/expense-report/expense_report_carollunch/approve", apitest.AcmeRO,
				map[string]any{"reviewedByUserId": "u_alice"}),
		)
		if after := len(arItems(e.Get("/expense-report", apitest.AcmeKey, "").Status(t, 200).JSON(t))); after != before {
			t.Fatalf("a deferred create made a report: %d → %d", before, after)
		}
		if r := expenseCall(t, e, http.MethodGet, "/expense-report/expense_report_carollunch",
			nil); r.Status != "pending_review" {
			t.Fatalf("a deferred approval changed the report to %s", r.Status)
		}
	})
}

func TestOnlyPendingReportsChange(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	r := arDo(e, http.MethodPatch, "/expense-report/expense_report_bobhotel", apitest.AcmeKey,
		map[string]any{"updatedByUserId": "u_bob", "amountCents": 1}).Gen1(t, 409, "conflict")
	if d := apitest.Details(t, r); d["status"] != "payment_completed" {
		t.Fatalf("details = %v", d)
	}
	arDo(
		e,
		http.MethodPatch,
		"/expense-report/expense_report_bobtaxi",
		apitest.AcmeKey,
		map[string]any{"amountCents": 1},
	).Gen1(t, 400, "invalid_request")
	got := expenseCall(
		t,
		e,
		http.MethodPatch,
		"/expense-report/expense_report_bobtaxi",
		map[string]any{"updatedByUserId": "u_bob", "amountCents": 4800,
			"memo": nil, "merchant": map[string]any{"type": "customMerchant", "id": "custom_merchant_acmecornerdeli"}},
	)
	if got.AmountCents != 4800 || got.Status != "pending_review" || got.Merchant["type"] != "customMerchant" ||
		arMap(got.Merchant, "customMerchant")["merchantName"] != "Corner Deli" {
		t.Fatalf("edited = %+v", got)
	}
	d := apitest.Details(
		t,
		arDo(
			e,
			http.MethodPatch,
			"/expense-report/expense_report_bobtaxi",
			apitest.AcmeKey,
			map[string]any{"updatedByUserId": "u_bob", "currency": "EUR"},
		).Gen1(t, 400, "invalid_request"),
	)
	if d["/currency"] == nil {
		t.Fatalf("details = %v", d)
	}
	got = expenseCall(t, e, http.MethodPatch, "/expense-report/expense_report_bobtaxi",
		map[string]any{"updatedByUserId": "u_bob", "status": "cancelled"})
	if got.Status != "cancelled" {
		t.Fatalf("cancelled = %+v", got)
	}
	arDo(e, http.MethodPatch, "/expense-report/expense_report_bobtaxi", apitest.AcmeKey,
		map[string]any{"updatedByUserId": "u_bob", "amountCents": 1}).Gen1(t, 409, "conflict")
	arDo(
		e,
		http.MethodPatch,
		"/expense-report/expense_report_carollunch",
		apitest.AcmeKey,
		map[string]any{"updatedByUserId": "u_bob", "status": "rejected"},
	).Gen1(t, 400, "invalid_request")
	list := arItems(
		e.Get("/expense-report?filter:status=cancelled&sort=amountCents&sortDirection=ASC", apitest.AcmeKey, "").
			Status(t, 200).
			JSON(t),
	)
	if len(list) != 2 || list[0]["amountCents"].(float64) > list[1]["amountCents"].(float64) {
		t.Fatalf("cancelled reports by amount = %v", list)
	}
	e.Get("/expense-report?sort=merchant", apitest.AcmeKey, "").Gen1(t, 400, "invalid_request")
}

func TestBulkExpenseActions(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	bulk := func(body map[string]any) map[string]any {
		return arDo(e, http.MethodPatch, "/expense-report/bulk-action", apitest.AcmeKey, body).Status(t, 200).JSON(t)
	}
	r := bulk(map[string]any{"action": "reject", "reviewedByUserId": "u_alice", "reason": "Duplicate",
		"expenseReportIds": []string{
			"expense_report_bobtaxi",
			"expense_report_carollunch",
			"expense_report_bobhotel",
			"expense_report_nope",
		}})
	failed, _ := r["failedIds"].([]any)
	if r["successCount"] != float64(2) || len(failed) != 2 || failed[0] != "expense_report_bobhotel" ||
		failed[1] != "expense_report_nope" {
		t.Fatalf("bulk reject = %v", r)
	}
	if got := expenseCall(t, e, http.MethodGet, "/expense-report/expense_report_carollunch",
		nil); got.Status != "rejected" {
		t.Fatalf("carol's lunch is %s", got.Status)
	}
	for name, body := range map[string]map[string]any{
		"reject without reason": {"action": "reject", "reviewedByUserId": "u_alice",
			"expenseReportIds": []string{"expense_report_bobtaxi"}},
		"cancel without user": {"action": "cancel", "expenseReportIds": []string{"expense_report_bobtaxi"}},
		"approve without ids": {"action": "approve", "reviewedByUserId": "u_alice", "expenseReportIds": []string{}},
		"unknown action":      {"action": "archive", "expenseReportIds": []string{"expense_report_bobtaxi"}},
		"the same report twice": {"action": "cancel", "cancelledByUserId": "u_bob",
			"expenseReportIds": []string{"a", "a"}},
		"approve without reviewer": {"action": "approve", "expenseReportIds": []string{"expense_report_bobtaxi"}},
	} {
		t.Run(name, func(t *testing.T) {
			arDo(
				e,
				http.MethodPatch,
				"/expense-report/bulk-action",
				apitest.AcmeKey,
				body,
			).Gen1(t, 400, "invalid_request")
		})
	}
	alices := sources(t, e, "u_alice")
	mine := expenseCall(t, e, http.MethodPost, "/expense-report", expenseBody("u_alice", alices[0]["id"].(string), 900))
	own := expenseCall(t, e, http.MethodPost, "/expense-report", expenseBody("u_bob", "ub_bobchecking", 800))
	r = bulk(
		map[string]any{"action": "approve", "reviewedByUserId": "u_bob", "expenseReportIds": []string{mine.ID, own.ID}},
	)
	if failed, _ := r["failedIds"].([]any); r["successCount"] != float64(1) || len(failed) != 1 || failed[0] != own.ID {
		t.Fatalf("bob approving his own report in bulk = %v", r)
	}
	if got := expenseCall(t, e, http.MethodGet, "/expense-report/"+own.ID, nil); got.Status != "pending_review" ||
		got.Review != nil {
		t.Fatalf("a failed bulk item changed: %+v", got)
	}
}

func sources(t *testing.T, e *apitest.Env, user string) []map[string]any {
	t.Helper()
	body := e.Get("/expense-report/reimbursement-sources?userId="+user, apitest.AcmeKey, "").Status(t, 200).JSON(t)
	raw, _ := body["data"].([]any)
	out := make([]map[string]any, len(raw))
	for i := range raw {
		out[i], _ = raw[i].(map[string]any)
	}
	return out
}

func TestReimbursementSources(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	bob := sources(t, e, "u_bob")
	if len(bob) != 2 || bob[0]["id"] != "ub_bobchecking" || bob[0]["latestStatus"] != "active" ||
		arMap(bob[0], "institution")["name"] != "Chase" {
		t.Fatalf("bob's sources = %v", bob)
	}
	if bob[1]["latestStatus"] != "inactive" || bob[1]["error"] == nil {
		t.Fatalf("bob's inactive account = %v", bob[1])
	}
	alice := sources(t, e, "u_alice")
	if len(alice) != 1 || !strings.HasPrefix(alice[0]["id"].(string), "ub_") || alice[0]["userId"] != "u_alice" ||
		alice[0]["type"] != "depository" {
		t.Fatalf("alice's generated source = %v", alice)
	}
	e.Get("/expense-report/reimbursement-sources", apitest.AcmeKey, "").Gen1(t, 400, "invalid_request")
	e.Get("/expense-report/reimbursement-sources?userId=u_mallory", apitest.AcmeKey, "").Gen1(t, 404, "not_found")
	e.Get("/expense-report/reimbursement-sources?userId=u_carol", apitest.GlobexKey, "").Gen1(t, 404, "not_found")
}

func TestReceiptsAreParsedDeterministically(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	jpeg := append([]byte{0xFF, 0xD8, 0xFF, 0xE0}, []byte("a lunch receipt")...)
	first := apitest.Upload(e, "/expense-report/receipt", apitest.AcmeKey, "file", "lunch.jpg", jpeg).
		Status(t, 200).
		JSON(t)
	again := apitest.Upload(e, "/expense-report/receipt", apitest.AcmeKey, "file", "lunch-copy.jpg", jpeg).
		Status(t, 200).
		JSON(t)
	p1, p2 := arMap(first, "parsedReceipt"), arMap(again, "parsedReceipt")
	m := arMap(p1, "merchant")
	if first["documentId"] == again["documentId"] || !strings.HasPrefix(m["merchantV2Id"].(string), "merchant_v2_") ||
		arMap(m, "merchantV2")["name"] != m["name"] || arMap(p1, "amount")["valueCents"].(float64) <= 0 ||
		first["expiresAt"] == nil {
		t.Fatalf("receipt = %v", first)
	}
	for _, k := range []string{"amount", "date", "merchant"} {
		if arMap(p1, k)["rawText"] != arMap(p2, k)["rawText"] ||
			arMap(p1, k)["confidence"] != arMap(p2, k)["confidence"] {
			t.Fatalf("the same file read differently: %v vs %v", p1, p2)
		}
	}
	other := arMap(
		apitest.Upload(e, "/expense-report/receipt", apitest.AcmeKey, "file", "taxi.pdf", []byte("%PDF-1.4 taxi")).
			Status(t, 200).
			JSON(t),
		"parsedReceipt",
	)
	if arMap(other, "amount")["rawText"] == arMap(p1, "amount")["rawText"] &&
		arMap(other, "merchant")["name"] == m["name"] {
		t.Fatalf("two different files read the same: %v", other)
	}
	served := e.Get("/_sandbox/documents/"+first["documentId"].(string), "", "").Status(t, 200)
	if served.Header.Get("Content-Type") != "image/jpeg" || string(served.Raw) != string(jpeg) {
		t.Fatalf("served receipt: %s", served.Header.Get("Content-Type"))
	}
	apitest.Upload(e, "/expense-report/receipt", apitest.AcmeKey, "file", "x.svg", []byte("<svg/>")).
		Gen1(t, 400, "invalid_request")
	apitest.Upload(e, "/expense-report/receipt", apitest.AcmeKey, "file", "x.txt", []byte("hello")).
		Gen1(t, 400, "invalid_request")
	body := expenseBody("u_bob", "ub_bobchecking", 1890)
	delete(body, "noReceiptReason")
	body["documentIds"] = []string{first["documentId"].(string)}
	r := expenseCall(t, e, http.MethodPost, "/expense-report", body)
	if len(r.Documents) != 1 || arMap(r.Documents[0], "document")["documentType"] != "receipt" ||
		!strings.HasSuffix(r.Documents[0]["url"].(string), first["documentId"].(string)) {
		t.Fatalf("documents = %v", r.Documents)
	}
	body["documentIds"] = []string{"doc_nope"}
	arDo(e, http.MethodPost, "/expense-report", apitest.AcmeKey, body).Gen1(t, 404, "not_found")
}
