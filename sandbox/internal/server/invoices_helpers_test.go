package server_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
)

// Keys of the demo scenario used by the receivables and spend tests.
const (
	acmeKey     = "sk_sandbox_acme"
	acmeRO      = "sk_sandbox_acme_readonly"
	globexKey   = "sk_sandbox_globex"
	aliceKey    = "sk_sandbox_alice"
	bobKey      = "sk_sandbox_bob"
	acmeAccount = "sa_group_acmeoperating"
)

// arDo sends a request with a JSON body (or none when body is nil).
func arDo(e *env, method, path, key string, body any) *resp {
	e.t.Helper()
	return e.do(req{method: method, path: path, key: key, body: body})
}

// arAs sends a request as a user key acting on le.
func arAs(e *env, method, path, key, le string, body any) *resp {
	e.t.Helper()
	return e.do(req{method: method, path: path, key: key, le: le, body: body})
}

// arDetails returns a first-generation error's meta.details.
func arDetails(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	meta, _ := body["meta"].(map[string]any)
	d, _ := meta["details"].(map[string]any)
	if d == nil {
		t.Fatalf("error without meta.details: %v", body)
	}
	return d
}

// arMap reads a nested object of a decoded JSON body.
func arMap(v any, path ...string) map[string]any {
	m, _ := v.(map[string]any)
	for _, p := range path {
		m, _ = m[p].(map[string]any)
	}
	return m
}

// arItems reads the items of a list body.
func arItems(body map[string]any) []map[string]any {
	raw, _ := body["items"].([]any)
	out := make([]map[string]any, len(raw))
	for i, it := range raw {
		out[i], _ = it.(map[string]any)
	}
	return out
}

// arOutbox lists the outbox with the given filters.
func arOutbox(t *testing.T, e *env, filters url.Values) []client.Message {
	t.Helper()
	var body struct {
		Items    []client.Message `json:"items"`
		Metadata struct {
			Count int `json:"count"`
		} `json:"metadata"`
	}
	e.get("/_sandbox/outbox?"+filters.Encode(), "", "").status(t, http.StatusOK).decode(t, &body)
	if body.Metadata.Count != len(body.Items) {
		t.Fatalf("outbox count %d for %d items", body.Metadata.Count, len(body.Items))
	}
	return body.Items
}

// arUpload sends a multipart/form-data body with one file field.
func arUpload(e *env, path, key, field, name string, data []byte) *resp {
	e.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, _ := w.CreateFormFile(field, name)
	part.Write(data)
	w.Close()
	return e.do(req{method: http.MethodPost, path: path, key: key, body: buf.Bytes(),
		header: map[string]string{"Content-Type": w.FormDataContentType()}})
}

// arInvoice is a POST /invoice body for the demo's Initech.
func arInvoice(number, issued, due string, priceCents int) map[string]any {
	return map[string]any{
		"accountId":             acmeAccount,
		"legalEntityCustomerId": "le_cust_initech",
		"details": map[string]any{
			"issuedAt": issued, "dueAt": due, "invoiceTz": "America/New_York", "invoiceNumber": number,
			"lineItemsAndTotals": map[string]any{
				"lineItems": []any{map[string]any{"name": "Consulting", "quantity": 1, "priceCents": priceCents}},
			},
		},
	}
}

// arInvoiceState is the part of an InvoiceAggregate the tests read.
type arInvoiceState struct {
	Invoice struct {
		ID                   string `json:"id"`
		Status               string `json:"status"`
		CollectedAmountCents int64  `json:"collectedAmountCents"`
		ClosedAt             string `json:"closedAt"`
		ScheduledSendDate    string `json:"scheduledSendDate"`
		InvoiceSeriesID      string `json:"invoiceSeriesId"`
		InvoiceTransactions  []struct {
			TransactionType string         `json:"transactionType"`
			Transaction     map[string]any `json:"transaction"`
		} `json:"invoiceTransactions"`
	} `json:"invoice"`
	InvoiceDetails struct {
		ID                 string `json:"id"`
		IssuedAt           string `json:"issuedAt"`
		DueAt              string `json:"dueAt"`
		InvoiceNumber      string `json:"invoiceNumber"`
		Version            int    `json:"version"`
		DocumentID         string `json:"documentId"`
		LineItemsAndTotals struct {
			SubtotalCents    int64 `json:"subtotalCents"`
			TotalAmountCents int64 `json:"totalAmountCents"`
		} `json:"lineItemsAndTotals"`
		BilledTo struct {
			Name  string `json:"name"`
			Email string `json:"email"`
		} `json:"billedTo"`
	} `json:"invoiceDetails"`
	InvoiceAccount map[string]any `json:"invoiceAccount"`
}

// arGetInvoice reads an invoice as acme.
func arGetInvoice(t *testing.T, e *env, id string) arInvoiceState {
	t.Helper()
	var s arInvoiceState
	e.get("/invoice/"+id, acmeKey, "").status(t, http.StatusOK).decode(t, &s)
	return s
}

// arCreateInvoice creates an invoice and returns it.
func arCreateInvoice(t *testing.T, e *env, body map[string]any) arInvoiceState {
	t.Helper()
	var s arInvoiceState
	arDo(e, http.MethodPost, "/invoice", acmeKey, body).status(t, http.StatusOK).decode(t, &s)
	return s
}

// arBalance is the posted and available cash of an account, in cents.
func arBalance(t *testing.T, e *env, key, account string) (posted, available float64) {
	t.Helper()
	var body struct {
		Balances []struct {
			Available struct{ AmountCents float64 } `json:"available"`
			Posted    struct{ AmountCents float64 } `json:"posted"`
		} `json:"balances"`
	}
	e.get("/account/"+account+"/balance", key, "").status(t, http.StatusOK).decode(t, &body)
	return body.Balances[0].Posted.AmountCents, body.Balances[0].Available.AmountCents
}

// arInvoiceAction POSTs to an invoice action as acme and returns the
// invoice it answers with.
func arInvoiceAction(t *testing.T, e *env, path string, body any) arInvoiceState {
	t.Helper()
	var s arInvoiceState
	arDo(e, http.MethodPost, path, acmeKey, body).status(t, http.StatusOK).decode(t, &s)
	return s
}
