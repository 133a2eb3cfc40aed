package webhooks_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

type notificationPage struct {
	Items    []notificationJSON `json:"items"`
	Metadata struct {
		NextCursor string `json:"nextCursor"`
		Count      int    `json:"count"`
	} `json:"metadata"`
}

// TestWebhookNotificationHistory reads GET /webhook/{webhookId}/notification:
// an endpoint's notifications newest first, a page at a time, to every key
// of its legal entity (read-only ones too) and to no other.
func TestWebhookNotificationHistory(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	hook := apitest.CreateHook(t, e, "http://127.0.0.1:1/unused")
	apitest.PatchHook(t, e, hook.ID, "paused")
	var created []apitest.DeliveryJSON
	for range 53 {
		created = append(created, apitest.Trigger(t, e, hook.ID, "card.update", "card_acmeaws"))
	}
	path := "/webhook/" + hook.ID + "/notification"

	var first, second notificationPage
	e.Get(path, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &first)
	if first.Metadata.Count != 50 || len(first.Items) != 50 || first.Metadata.NextCursor == "" {
		t.Fatalf("first page: %d items, count %d, cursor %q", len(first.Items), first.Metadata.Count,
			first.Metadata.NextCursor)
	}
	e.Get(path+"?cursor="+url.QueryEscape(first.Metadata.NextCursor), "sk_sandbox_acme", "").
		Status(t, 200).
		Decode(t, &second)
	if len(second.Items) != 3 || second.Metadata.NextCursor != "" {
		t.Fatalf("second page: %d items, cursor %q", len(second.Items), second.Metadata.NextCursor)
	}
	all := append(first.Items, second.Items...)
	for i, n := range all {
		want := created[len(created)-1-i]
		if n.ID != want.ID || n.EventID != want.EventID || n.Event != "card.update" || n.EntityID != "card_acmeaws" ||
			n.Status != "queued" || n.Attempts != 0 || n.CreatedAt == "" || n.LastAttemptAt != "" || n.ResponseStatus != 0 {
			t.Fatalf("item %d = %+v, want the queued notification %s", i, n, want.ID)
		}
	}

	t.Run("read-only keys read it", func(t *testing.T) {
		e.Get(path, "sk_sandbox_acme_readonly", "").Status(t, 200)
		e.Get(path, "sk_sandbox_carol_readonly", "le_acme").Status(t, 200)
	})
	t.Run("a user key needs x-legal-entity", func(t *testing.T) {
		r := e.Get(path, "sk_sandbox_carol_readonly", "")
		if r.StatusCode != http.StatusBadRequest {
			t.Fatalf("without x-legal-entity: %d %s", r.StatusCode, r.Raw)
		}
	})
	t.Run("another legal entity's endpoint is not found", func(t *testing.T) {
		e.Get(path, "sk_sandbox_globex", "").Gen1(t, 404, "not_found")
		e.Get(path, "sk_sandbox_alice", "le_globex").Gen1(t, 404, "not_found")
	})
	t.Run("an unknown endpoint is not found", func(t *testing.T) {
		e.Get("/webhook/webhook_nosuch/notification", "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
	})
	t.Run("a cursor of another list is refused", func(t *testing.T) {
		e.Get("/webhook/webhook_acmelocal/notification?cursor="+url.QueryEscape(first.Metadata.NextCursor),
			"sk_sandbox_acme", "").Gen1(t, 400, "invalid_request")
	})
	t.Run("without a key it is unauthorized", func(t *testing.T) {
		if r := e.Get(path, "", ""); r.StatusCode != http.StatusUnauthorized {
			t.Fatalf("no key: %d", r.StatusCode)
		}
	})
}
