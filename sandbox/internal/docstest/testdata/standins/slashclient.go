package recipe

// The code a recipe of docs/testing.md calls "yours": a client of the
// public API with its base URL changed, a receiver registered as a webhook
// endpoint, and the request for a vendor's bank details.

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

type slashClient struct{ baseURL, key string }

var receivers atomic.Int64

// newSlashClient is your client, pointed at the sandbox. Your receiver
// (one that answers 200) is registered as a webhook endpoint of Acme.
func newSlashClient(baseURL, key string) *slashClient {
	c := &slashClient{baseURL: baseURL, key: key}
	app := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	n := receivers.Add(1)
	if status, body := c.post("/webhook", fmt.Sprintf("r%d", n),
		`{"url":"`+app.URL+`/hooks","name":"My app","legalEntityId":"le_acme"}`); status != http.StatusCreated {
		panic(fmt.Sprintf("registering the receiver: %d %s", status, body))
	}
	return c
}

// post sends a JSON body with the key, Acme as the legal entity and an
// idempotency key.
func (c *slashClient) post(path, idempotencyKey, body string) (int, string) {
	req, err := http.NewRequest("POST", c.baseURL+path, strings.NewReader(body))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("X-API-Key", c.key)
	req.Header.Set("x-legal-entity", "le_acme")
	req.Header.Set("X-Idempotency-Key", idempotencyKey)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(res.Body)
	return res.StatusCode, b.String()
}

// askVendorForBankDetails asks a contact for its bank account:
// POST /v2/information-requests with a user key, x-legal-entity and an
// X-Idempotency-Key.
func askVendorForBankDetails(t *testing.T, c *slashClient, contactID string) {
	t.Helper()
	status, body := c.post("/v2/information-requests", "ask-"+contactID,
		`{"contactId":"`+contactID+`","requestedInformation":{"destinationTypes":["bank_account"]},`+
			`"requesterName":"Alice Chen"}`)
	if status != http.StatusOK && status != http.StatusCreated {
		t.Fatalf("information request: %d %s", status, body)
	}
}

// listCards lists the cards of Acme the client's key sees, failing t
// unless the API answers 200.
func listCards(t *testing.T, c *slashClient) {
	t.Helper()
	req, err := http.NewRequest("GET", c.baseURL+"/card", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-Key", c.key)
	req.Header.Set("x-legal-entity", "le_acme")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /card: %d", res.StatusCode)
	}
}
