package agentrequests_test

import (
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/agentrequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// deferWrite stores a pending request of key for a card.
func deferWrite(t *testing.T, w *kernel.World, key string) *agentrequests.Request {
	t.Helper()
	ar := &agentrequests.Request{LegalEntityID: "le_empty", APIKey: key, Route: "card.create", Method: "POST",
		Path: "/card", Body: []byte(`{"name":"Figma"}`), Display: agentrequests.Display{Title: "Create a card"}}
	enginetest.Must(t, w.Update(func(op *kernel.Op) error { return agentrequests.Create(op, ar) }))
	return ar
}

// find reads an agent request as it is stored now.
func find(t *testing.T, w *kernel.World, id string) *agentrequests.Request {
	t.Helper()
	var ar *agentrequests.Request
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		var err error
		ar, _, err = agentrequests.Find(op, id)
		return err
	}))
	return ar
}

// A pending request waits 72 hours for a person by default, then expires
// on the world's clock; one decided before then stays as it was decided.
func TestPendingRequestsExpire(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "empty"))
	start := w.Now()
	waiting := deferWrite(t, w, "sk_ro")
	decided := deferWrite(t, w, "sk_ro")
	if waiting.Status != agentrequests.Pending || !waiting.ExpiresAt.Equal(start.Add(72*time.Hour)) {
		t.Fatalf("new request %s, expiring %v; want pending, expiring 72 hours on", waiting.Status, waiting.ExpiresAt)
	}
	decided.Status = agentrequests.Rejected
	enginetest.Must(t, w.Update(func(op *kernel.Op) error { return agentrequests.Save(op, decided) }))

	_, err := w.Advance(waiting.ExpiresAt.Add(-time.Second))
	enginetest.Must(t, err)
	if got := find(t, w, waiting.ID); got.Status != agentrequests.Pending {
		t.Errorf("a second before its expiry the request is %s, want pending", got.Status)
	}
	_, err = w.Advance(waiting.ExpiresAt)
	enginetest.Must(t, err)
	if got := find(t, w, waiting.ID); got.Status != agentrequests.Expired || !got.UpdatedAt.Equal(waiting.ExpiresAt) {
		t.Errorf("at its expiry the request is %s (updated %v), want expired then", got.Status, got.UpdatedAt)
	}
	if got := find(t, w, decided.ID); got.Status != agentrequests.Rejected {
		t.Errorf("the rejected request became %s", got.Status)
	}
}

// A world's expiry applies to the requests made after it is set.
func TestAgentExpiryIsTheWorlds(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "empty"))
	before := deferWrite(t, w, "sk_ro")
	enginetest.Must(t, w.Update(func(op *kernel.Op) error { return agentrequests.SetExpiry(op, 90*time.Minute) }))
	after := deferWrite(t, w, "sk_ro")
	if got, want := after.ExpiresAt.Sub(after.CreatedAt), 90*time.Minute; got != want {
		t.Errorf("a request made after the change waits %v, want %v", got, want)
	}
	_, err := w.Advance(after.ExpiresAt)
	enginetest.Must(t, err)
	if a, b := find(t, w, after.ID).Status, find(t, w, before.ID).Status; a != agentrequests.Expired ||
		b != agentrequests.Pending {
		t.Errorf("after 90 minutes: the new request is %s, the earlier one %s; want expired, pending", a, b)
	}
}

// A key lists its own requests, newest first, filtered by status.
func TestAgentRequestsOfKey(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "empty"))
	first := deferWrite(t, w, "sk_ro")
	second := deferWrite(t, w, "sk_ro")
	other := deferWrite(t, w, "sk_other")
	second.Status = agentrequests.Approved
	enginetest.Must(t, w.Update(func(op *kernel.Op) error { return agentrequests.Save(op, second) }))

	list := func(key, status string) []string {
		t.Helper()
		var ids []string
		enginetest.Must(t, w.View(func(op *kernel.Op) error {
			var page kernel.Page[agentrequests.Request]
			var err error
			if key == "" {
				page, err = agentrequests.List(op, status, kernel.PageRequest{})
			} else {
				page, err = agentrequests.ListOfKey(op, key, status, kernel.PageRequest{})
			}
			for _, ar := range page.Items {
				ids = append(ids, ar.ID)
			}
			return err
		}))
		return ids
	}
	if got := list("sk_ro", ""); len(got) != 2 || got[0] != second.ID || got[1] != first.ID {
		t.Errorf("sk_ro's requests %v, want %s then %s", got, second.ID, first.ID)
	}
	if got := list("sk_ro", agentrequests.Pending); len(got) != 1 || got[0] != first.ID {
		t.Errorf("sk_ro's pending requests %v, want %s alone", got, first.ID)
	}
	if got := list("", agentrequests.Pending); len(got) != 2 || got[0] != other.ID {
		t.Errorf("the world's pending requests %v, want %s and %s", got, other.ID, first.ID)
	}
}
