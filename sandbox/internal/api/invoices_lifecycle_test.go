package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func TestInvoiceGoesScheduledUnpaidOverdueWithTheClock(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	// The clock starts 2026-06-15T14:00Z, 10:00 in New York.
	inv := apitest.CreateInvoice(t, e, apitest.InvoiceBody("LC-1", "2026-06-16", "2026-06-17", 120000))
	id := inv.Invoice.ID
	if got, want := inv.Invoice.Status, "scheduled"; got != want {
		t.Fatalf("status = %s, want %s", got, want)
	}
	if got, want := inv.Invoice.ScheduledSendDate, "2026-06-16T04:00:00.000Z"; got != want {
		t.Fatalf("scheduledSendDate = %s, want %s (midnight in New York)", got, want)
	}
	if inv.InvoiceDetails.Version != 1 || inv.InvoiceDetails.LineItemsAndTotals.TotalAmountCents != 120000 ||
		inv.Invoice.ClosedAt != "" {
		t.Fatalf("new invoice = %+v", inv)
	}
	if got := apitest.Outbox(t, e, url.Values{"relatedId": {id}}); len(got) != 0 {
		t.Fatalf("a scheduled invoice was emailed: %+v", got)
	}
	next := e.Get("/invoice/"+id+"/send-reminder", apitest.AcmeKey, "").Status(t, 200).JSON(t)
	if got, want := next["nextAutoReminderAt"], "2026-06-18T04:00:00.000Z"; got != want {
		t.Fatalf("nextAutoReminderAt = %v, want %s (the day after the due date)", got, want)
	}
	arDo(e, http.MethodPost, "/invoice/"+id+"/send-reminder", apitest.AcmeKey, nil).Gen1(t, 409, "conflict")

	apitest.Advance(t, e, `{"by":"15h"}`)
	inv = apitest.GetInvoice(t, e, id)
	if got, want := inv.Invoice.Status, "unpaid"; got != want {
		t.Fatalf("after the send date status = %s, want %s", got, want)
	}
	sent := apitest.Outbox(t, e, url.Values{"relatedId": {id}, "kind": {"invoice"}})
	if len(sent) != 1 || sent[0].To[0] != "ap@initech.test" || !strings.Contains(sent[0].Subject, "LC-1") {
		t.Fatalf("invoice email = %+v", sent)
	}
	doc := e.Get(strings.TrimPrefix(sent[0].Links["invoice"], e.Server.URL), "", "").Status(t, 200)
	if ct := doc.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") ||
		!strings.Contains(string(doc.Raw), "LC-1") {
		t.Fatalf("invoice document: %s %s", ct, doc.Raw)
	}

	apitest.Advance(t, e, `{"to":"2026-06-18T04:00:00Z"}`)
	inv = apitest.GetInvoice(t, e, id)
	if got, want := inv.Invoice.Status, "overdue"; got != want {
		t.Fatalf("after the due date status = %s, want %s", got, want)
	}
	if reminders := apitest.Outbox(t, e, url.Values{"relatedId": {id}, "kind": {"invoice_reminder"}}); len(
		reminders,
	) != 1 ||
		!strings.Contains(reminders[0].Subject, "overdue") {
		t.Fatalf("automatic reminder = %+v", reminders)
	}
	next = e.Get("/invoice/"+id+"/send-reminder", apitest.AcmeKey, "").Status(t, 200).JSON(t)
	if got, want := next["nextAutoReminderAt"], "2026-06-25T04:00:00.000Z"; got != want {
		t.Fatalf("nextAutoReminderAt = %v, want %s (a week later)", got, want)
	}
}

// firstCredit returns a posted credit of acme's operating account.
func firstCredit(t *testing.T, e *apitest.Env, skip map[string]bool) (string, int64) {
	t.Helper()
	var page struct {
		Items []struct {
			ID          string `json:"id"`
			AmountCents int64  `json:"amountCents"`
		} `json:"items"`
	}
	e.Get("/transaction?filter:status=posted&filter:accountId="+apitest.AcmeAccount, apitest.AcmeKey, "").
		Status(t, 200).
		Decode(t, &page)
	for _, it := range page.Items {
		if it.AmountCents > 0 && !skip[it.ID] {
			return it.ID, it.AmountCents
		}
	}
	t.Fatal("no posted credit on the operating account")
	return "", 0
}

func firstDebit(t *testing.T, e *apitest.Env) string {
	t.Helper()
	var page struct {
		Items []struct {
			ID          string `json:"id"`
			AmountCents int64  `json:"amountCents"`
		} `json:"items"`
	}
	e.Get("/transaction?filter:status=posted&filter:accountId="+apitest.AcmeAccount, apitest.AcmeKey, "").
		Status(t, 200).
		Decode(t, &page)
	for _, it := range page.Items {
		if it.AmountCents < 0 {
			return it.ID
		}
	}
	t.Fatal("no posted debit")
	return ""
}

func TestReconcileMovesCollectedAmountAndStatus(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	inv := apitest.CreateInvoice(t, e, apitest.InvoiceBody("RC-1", "2026-06-15", "2026-07-15", 100000))
	id := inv.Invoice.ID
	if inv.Invoice.Status != "unpaid" ||
		len(apitest.Outbox(t, e, url.Values{"relatedId": {id}, "kind": {"invoice"}})) != 1 {
		t.Fatalf("an invoice issued today is sent at once: %+v", inv.Invoice)
	}
	external := []any{map[string]any{"transactionType": "external", "transaction": map[string]any{
		"paymentMethod": "other", "paidAt": "2026-06-15", "amountCents": 40000}}}
	got := arInvoiceAction(t, e, "/invoice/"+id+"/reconcile", external)
	if got.Invoice.Status != "paid_partially" || got.Invoice.CollectedAmountCents != 40000 ||
		got.Invoice.ClosedAt != "" {
		t.Fatalf("after a partial external payment: %+v", got.Invoice)
	}
	credit, amount := firstCredit(t, e, nil)
	internal := []any{
		map[string]any{"transactionType": "internal", "transaction": map[string]any{"aggregatedTransactionId": credit}},
	}
	got = arInvoiceAction(t, e, "/invoice/"+id+"/reconcile", internal)
	if got.Invoice.Status != "paid" || got.Invoice.CollectedAmountCents != 40000+amount || got.Invoice.ClosedAt == "" {
		t.Fatalf("after the credit: %+v", got.Invoice)
	}
	if tx := got.Invoice.InvoiceTransactions; len(tx) != 2 || tx[1].TransactionType != "internal" ||
		tx[1].Transaction["aggregatedTransactionId"] != credit {
		t.Fatalf("invoiceTransactions = %+v", tx)
	}
	t.Run("a credit pays one invoice only", func(t *testing.T) {
		other := apitest.CreateInvoice(t, e, apitest.InvoiceBody("RC-2", "2026-06-15", "2026-07-15", 5000))
		r := arDo(
			e,
			http.MethodPost,
			"/invoice/"+other.Invoice.ID+"/reconcile",
			apitest.AcmeKey,
			internal,
		).Gen1(t, 409, "conflict")
		if d := apitest.Details(t, r); d["invoiceId"] != id {
			t.Fatalf("details = %v, want invoiceId %s", d, id)
		}
		debit := []any{
			map[string]any{
				"transactionType": "internal",
				"transaction":     map[string]any{"aggregatedTransactionId": firstDebit(t, e)},
			},
		}
		d := apitest.Details(
			t,
			arDo(
				e,
				http.MethodPost,
				"/invoice/"+other.Invoice.ID+"/reconcile",
				apitest.AcmeKey,
				debit,
			).Gen1(t, 400, "invalid_request"),
		)
		if !strings.Contains(d["/0/transaction/aggregatedTransactionId"].(string), "debit") {
			t.Fatalf("details = %v", d)
		}
		unknown := []any{
			map[string]any{
				"transactionType": "internal",
				"transaction":     map[string]any{"aggregatedTransactionId": "txn_nope"},
			},
		}
		arDo(
			e,
			http.MethodPost,
			"/invoice/"+other.Invoice.ID+"/reconcile",
			apitest.AcmeKey,
			unknown,
		).Gen1(t, 404, "not_found")
	})
	got = arInvoiceAction(t, e, "/invoice/"+id+"/unreconcile", internal)
	if got.Invoice.Status != "paid_partially" || got.Invoice.CollectedAmountCents != 40000 ||
		got.Invoice.ClosedAt != "" {
		t.Fatalf("after unlinking the credit: %+v", got.Invoice)
	}
	wrong := []any{
		map[string]any{
			"transactionType": "external",
			"transaction":     map[string]any{"paymentMethod": "other", "paidAt": "2026-06-14"},
		},
	}
	arDo(e, http.MethodPost, "/invoice/"+id+"/unreconcile", apitest.AcmeKey, wrong).Gen1(t, 400, "invalid_request")
	got = arInvoiceAction(t, e, "/invoice/"+id+"/unreconcile", external)
	if got.Invoice.Status != "unpaid" || got.Invoice.CollectedAmountCents != 0 ||
		len(got.Invoice.InvoiceTransactions) != 0 {
		t.Fatalf("after unlinking everything: %+v", got.Invoice)
	}
	t.Run("bad bodies", func(t *testing.T) {
		for name, body := range map[string]any{
			"empty array":  []any{},
			"unknown type": []any{map[string]any{"transactionType": "cheque", "transaction": map[string]any{}}},
			"external sans date": []any{map[string]any{"transactionType": "external",
				"transaction": map[string]any{"paymentMethod": "other"}}},
			"bad method config": []any{map[string]any{"transactionType": "external", "transaction": map[string]any{
				"paymentMethod": map[string]any{"method": "ach_debit", "config": map[string]any{}}, "paidAt": "2026-06-15"}}},
			"object not array": map[string]any{"transactionType": "external"},
		} {
			t.Run(name, func(t *testing.T) {
				arDo(
					e,
					http.MethodPost,
					"/invoice/"+id+"/reconcile",
					apitest.AcmeKey,
					body,
				).Gen1(t, 400, "invalid_request")
			})
		}
	})
}

func TestVoidIsFinal(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	got := arInvoiceAction(t, e, "/invoice/invoice_acme1002/void", nil)
	if got.Invoice.Status != "void" || got.Invoice.ClosedAt == "" {
		t.Fatalf("voided invoice = %+v", got.Invoice)
	}
	external := []any{
		map[string]any{
			"transactionType": "external",
			"transaction":     map[string]any{"paymentMethod": "other", "paidAt": "2026-06-15"},
		},
	}
	r := arDo(
		e,
		http.MethodPost,
		"/invoice/invoice_acme1002/reconcile",
		apitest.AcmeKey,
		external,
	).Gen1(t, 409, "conflict")
	if msg := r["message"].(string); !strings.Contains(msg, "void") || apitest.Details(t, r)["status"] != "void" {
		t.Fatalf("reconciling a void invoice: %v", r)
	}
	arDo(
		e,
		http.MethodPost,
		"/invoice/invoice_acme1002/unreconcile",
		apitest.AcmeKey,
		external,
	).Gen1(t, 409, "conflict")
	arDo(e, http.MethodPost, "/invoice/invoice_acme1002/void", apitest.AcmeKey, nil).Gen1(t, 409, "conflict")
	arDo(e, http.MethodPatch, "/invoice/invoice_acme1002", apitest.AcmeKey,
		map[string]any{"accountId": apitest.AcmeAccount}).Gen1(t, 409, "conflict")
	arDo(e, http.MethodPost, "/invoice/invoice_acme1002/send-reminder", apitest.AcmeKey, nil).Gen1(t, 409, "conflict")
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/simulate/invoice-payment",
		Body: map[string]any{"invoiceId": "invoice_acme1002"}}).
		Gen2(t, 409, "conflict")
	if s := apitest.GetInvoice(t, e, "invoice_acme1002"); s.Invoice.Status != "void" ||
		s.Invoice.CollectedAmountCents != 0 {
		t.Fatalf("a refused payment changed the invoice: %+v", s.Invoice)
	}
	arDo(e, http.MethodPost, "/invoice/invoice_acme1001/void", apitest.AcmeKey, nil).Gen1(t, 409, "conflict")
}
