package sandboxtest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest"
)

// A test starts a sandbox with sandboxtest.Start(t, …); an example, with
// no test, uses New and Close. The code under test talks to sb.URL with a
// key of the world (an official SDK takes sb.URL as its base URL); the
// test reads what the sandbox sent with WaitForEmail and WaitForDelivery.
func Example() {
	sb, err := sandboxtest.New(sandboxtest.Options{Scenario: "demo"})
	if err != nil {
		panic(err)
	}
	defer sb.Close()

	// The code under test asks a contact for their bank details: the
	// sandbox emails them a secure form.
	body := `{"contactId":"le_c_pixelforge","requestedInformation":{"destinationTypes":["bank_account"]},` +
		`"requesterName":"Alice Chen"}`
	req, _ := http.NewRequest(http.MethodPost, sb.URL+"/v2/information-requests", strings.NewReader(body))
	req.Header.Set("X-API-Key", sb.Key("sk_sandbox_alice"))
	req.Header.Set("x-legal-entity", "le_acme")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Idempotency-Key", "example-1")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	if res.StatusCode != http.StatusOK {
		raw, _ := io.ReadAll(res.Body)
		panic(string(raw))
	}
	var created struct{ ID string }
	json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()

	msg := sb.WaitForEmail(sandboxtest.EmailFilter{To: "hello@pixelforge.test", Timeout: 5 * time.Second})
	fmt.Println(msg.Kind, msg.To, msg.RelatedID == created.ID)

	// A webhook event sent to an endpoint: wait until it has been delivered
	// (the demo's endpoint is paused, so it waits in its queue).
	if _, err := sb.Control.Do(context.Background(), http.MethodPost, "/_sandbox/webhooks/webhook_acmelocal/trigger",
		map[string]string{"event": "card.update", "entityId": "card_acmeaws"}, nil); err != nil {
		panic(err)
	}
	queued := sb.WaitForDelivery(sandboxtest.DeliveryFilter{WebhookID: "webhook_acmelocal", Status: "queued"})
	fmt.Println(queued.Event, queued.EntityID, queued.Status)
	// Output:
	// information_request [hello@pixelforge.test] true
	// card.update card_acmeaws queued
}
