package control_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func TestSimulatedInvoicePaymentCreditsTheAccount(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	posted0, _ := apitest.AccountBalance(t, e, apitest.AcmeKey, apitest.AcmeAccount)
	pay := func(body map[string]any) *apitest.Resp {
		return e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/simulate/invoice-payment", Body: body})
	}
	var first struct {
		Status               string `json:"status"`
		CollectedAmountCents int64  `json:"collectedAmountCents"`
		TransactionID        string `json:"transactionId"`
		Category             string `json:"category"`
		DetailedStatus       string `json:"detailedStatus"`
	}
	pay(
		map[string]any{"invoiceId": "invoice_acme1002", "amountCents": 300000, "method": "inbound_wire_transfer"},
	).Status(t, 200).
		Decode(t, &first)
	if first.Status != "paid_partially" || first.CollectedAmountCents != 300000 || first.Category != "wire" ||
		first.DetailedStatus != "settled" {
		t.Fatalf("partial payment = %+v", first)
	}
	if posted, _ := apitest.AccountBalance(t, e, apitest.AcmeKey, apitest.AcmeAccount); posted != posted0+300000 {
		t.Fatalf("posted balance %v, want %v", posted, posted0+300000)
	}
	txn := e.Get("/transaction/"+first.TransactionID, apitest.AcmeKey, "").Status(t, 200).JSON(t)
	if txn["amountCents"] != float64(300000) || txn["status"] != "posted" ||
		!strings.Contains(txn["description"].(string), "ACME-1002") {
		t.Fatalf("credit = %v", txn)
	}
	inv := apitest.GetInvoice(t, e, "invoice_acme1002")
	if tx := inv.Invoice.InvoiceTransactions; len(tx) != 1 ||
		tx[0].Transaction["aggregatedTransactionId"] != first.TransactionID {
		t.Fatalf("the credit is not reconciled: %+v", tx)
	}
	pay(map[string]any{"invoiceId": "invoice_acme1002"}).Status(t, 200).Decode(t, &first)
	if first.Status != "paid" || first.CollectedAmountCents != 1300000 || first.Category != "ach" {
		t.Fatalf("paying the rest = %+v", first)
	}
	if posted, _ := apitest.AccountBalance(t, e, apitest.AcmeKey, apitest.AcmeAccount); posted != posted0+1300000 {
		t.Fatalf("posted balance %v, want %v", posted, posted0+1300000)
	}
	if s := apitest.GetInvoice(t, e, "invoice_acme1002"); s.Invoice.ClosedAt == "" {
		t.Fatal("a paid invoice has no closedAt")
	}
	t.Run("refusals", func(t *testing.T) {
		pay(map[string]any{"invoiceId": "invoice_acme1002"}).Gen2(t, 409, "conflict")
		d := pay(map[string]any{"invoiceId": "invoice_acme1004", "amountCents": 99999999}).Gen2(t, 400, "invalid_request")
		if d["/amountCents"] == "" || d["remaining"] == "" {
			t.Fatalf("details = %v", d)
		}
		pay(map[string]any{"invoiceId": "invoice_acme1006"}).Gen2(t, 409, "conflict")
		pay(map[string]any{"invoiceId": "invoice_nope"}).Gen2(t, 404, "not_found")
		pay(map[string]any{"invoiceId": "invoice_acme1004", "method": "carrier_pigeon"}).Gen2(t, 400, "invalid_request")
		pay(map[string]any{"invoiceId": "invoice_acme1004", "amountCents": -5}).Gen2(t, 400, "invalid_request")
	})
	t.Run("only a method the invoice offers", func(t *testing.T) {
		body := apitest.InvoiceBody("PM-1", "2026-06-15", "2026-07-15", 5000)
		body["paymentMethods"] = []any{map[string]any{"method": "inbound_rtp", "config": map[string]any{}}}
		inv := apitest.CreateInvoice(t, e, body)
		pay(map[string]any{"invoiceId": inv.Invoice.ID, "method": "inbound_wire_transfer"}).Gen2(t, 400, "invalid_request")
		pay(map[string]any{"invoiceId": inv.Invoice.ID}).Status(t, 200).Decode(t, &first)
		if first.Category != "rtp" || first.Status != "paid" {
			t.Fatalf("default method payment = %+v", first)
		}
	})
}
