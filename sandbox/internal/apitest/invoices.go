package apitest

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// Details returns a first-generation error's meta.details.
func Details(t *testing.T, body map[string]any) map[string]any {
	t.Helper()
	meta, _ := body["meta"].(map[string]any)
	d, _ := meta["details"].(map[string]any)
	if d == nil {
		t.Fatalf("error without meta.details: %v", body)
	}
	return d
}

// Outbox lists the outbox with the given filters.
func Outbox(t *testing.T, e *Env, filters url.Values) []client.Message {
	t.Helper()
	var body struct {
		Items    []client.Message `json:"items"`
		Metadata struct {
			Count int `json:"count"`
		} `json:"metadata"`
	}
	e.Get("/_sandbox/outbox?"+filters.Encode(), "", "").Status(t, http.StatusOK).Decode(t, &body)
	if body.Metadata.Count != len(body.Items) {
		t.Fatalf("outbox count %d for %d items", body.Metadata.Count, len(body.Items))
	}
	return body.Items
}

// Upload sends a multipart/form-data body with one file field.
func Upload(e *Env, path, key, field, name string, data []byte) *Resp {
	e.T.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, _ := w.CreateFormFile(field, name)
	part.Write(data)
	w.Close()
	return e.Do(Req{Method: http.MethodPost, Path: path, Key: key, Body: buf.Bytes(),
		Header: map[string]string{"Content-Type": w.FormDataContentType()}})
}

// InvoiceState is the part of an InvoiceAggregate the tests read.
type InvoiceState struct {
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

// GetInvoice reads an invoice as acme.
func GetInvoice(t *testing.T, e *Env, id string) InvoiceState {
	t.Helper()
	var s InvoiceState
	e.Get("/invoice/"+id, AcmeKey, "").Status(t, http.StatusOK).Decode(t, &s)
	return s
}

// AccountBalance is the posted and available cash of an account, in cents.
func AccountBalance(t *testing.T, e *Env, key, account string) (posted, available float64) {
	t.Helper()
	var body struct {
		Balances []struct {
			Available struct{ AmountCents float64 } `json:"available"`
			Posted    struct{ AmountCents float64 } `json:"posted"`
		} `json:"balances"`
	}
	e.Get("/account/"+account+"/balance", key, "").Status(t, http.StatusOK).Decode(t, &body)
	return body.Balances[0].Posted.AmountCents, body.Balances[0].Available.AmountCents
}

// InvoiceBody is a POST /invoice body for the demo's Initech.
func InvoiceBody(number, issued, due string, priceCents int) map[string]any {
	return map[string]any{
		"accountId":             AcmeAccount,
		"legalEntityCustomerId": "le_cust_initech",
		"details": map[string]any{
			"issuedAt": issued, "dueAt": due, "invoiceTz": "America/New_York", "invoiceNumber": number,
			"lineItemsAndTotals": map[string]any{
				"lineItems": []any{map[string]any{"name": "Consulting", "quantity": 1, "priceCents": priceCents}},
			},
		},
	}
}

// CreateInvoice creates an invoice and returns it.
func CreateInvoice(t *testing.T, e *Env, body map[string]any) InvoiceState {
	t.Helper()
	var s InvoiceState
	e.Do(Req{Method: http.MethodPost, Path: "/invoice", Key: AcmeKey, Body: body}).Status(t, http.StatusOK).Decode(t, &s)
	return s
}

// ValidIR is a POST /v2/information-requests body that the demo accepts.
const ValidIR = `{"contactId":"le_c_pixelforge","requestedInformation":{"destinationTypes":["bank_account"]},` +
	`"requesterName":"Alice Chen"}`

// CreateIR creates an information request with key acting on le, with an
// idempotency key when idem is not empty.
func CreateIR(e *Env, key, le, idem, body string) *Resp {
	h := map[string]string{}
	if idem != "" {
		h["X-Idempotency-Key"] = idem
	}
	return e.Do(Req{Method: http.MethodPost, Path: "/v2/information-requests", Key: key, LE: le, Header: h, Body: body})
}

var formLink = regexp.MustCompile(`/_sandbox/(worlds/[a-z0-9_-]+/)?forms/information-requests/[a-z0-9_]+`)

// OutboxLink finds the secure-form link of the latest email to an address.
func OutboxLink(t *testing.T, e *Env, to string) (string, kernel.Message) {
	t.Helper()
	page, err := e.Engine.Default().Outbox(kernel.OutboxFilter{}, kernel.PageRequest{Size: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range page.Items {
		if len(m.To) > 0 && m.To[0] == to {
			link := formLink.FindString(m.Text)
			if link == "" || m.Links["secureForm"] != link || !strings.Contains(m.HTML, link) {
				t.Fatalf("message %+v carries no consistent form link", m)
			}
			return link, m
		}
	}
	t.Fatalf("no email to %s in the outbox", to)
	return "", kernel.Message{}
}

// PostForm posts a secure form as a browser would, form-encoded.
func PostForm(e *Env, path string, v url.Values) *Resp {
	return e.Do(
		Req{
			Method: http.MethodPost,
			Path:   path,
			Body:   v.Encode(),
			Header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"},
		},
	)
}
