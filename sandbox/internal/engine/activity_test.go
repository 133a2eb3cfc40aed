package engine_test

import (
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/agentrequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

const activityScenario = `name: activity
clockStart: 2026-01-10T12:00:00Z
legalEntities:
  - {id: le_one, name: One Inc.}
keys:
  - {key: sk_one_ro, kind: legal_entity, legalEntityId: le_one, readOnly: true}
accounts:
  - {id: sa_group_one, legalEntityId: le_one, name: Operating, balanceCents: 1000000}
cards:
  - {id: card_1, accountId: sa_group_one, name: Travel}
  - {id: card_2, accountId: sa_group_one, name: Old}
contacts:
  - {id: le_c_vendor, legalEntityId: le_one, name: Vendor, recipientEmail: ap@vendor.test}
informationRequests:
  - {contactId: le_c_vendor, requesterName: Me, requestedInformation: {destinationTypes: [bank_account]}, sentAt: -2h,
     queuedAch: {from: sa_group_one, amountCents: 25000, memo: Rent}}
deferredWrites:
  - {key: sk_one_ro, method: PATCH, path: /card/card_1, body: {name: New}, at: -5m}
webhooks:
  - {id: webhook_down, legalEntityId: le_one, url: "http://127.0.0.1:9/h", name: Down,
     failing: {since: -1h, attempts: 3, events: [{event: card.update, entityId: card_1}, {event: card.delete,` +
	` entityId: card_2}]}}
`

// TestActivityIsWrittenAsItHappened loads a scenario with work under way:
// each piece is dated when the scenario says, as the API would have left it.
func TestActivityIsWrittenAsItHappened(t *testing.T) {
	sc, err := scenario.Parse("activity.yaml", []byte(activityScenario))
	if err != nil {
		t.Fatal(err)
	}
	w := enginetest.MustWorld(t, sc)
	start := w.Now()
	page, err := w.Outbox(kernel.OutboxFilter{}, kernel.PageRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 1 || page.Items[0].To[0] != "ap@vendor.test" ||
		!page.Items[0].CreatedAt.Equal(start.Add(-2*time.Hour)) {
		t.Fatalf("the outbox holds %+v, want the request's email sent 2 hours before the start", page.Items)
	}
	err = w.View(func(op *kernel.Op) error {
		ars, err := agentrequests.List(op, agentrequests.Pending, kernel.PageRequest{})
		if err != nil {
			return err
		}
		if len(ars.Items) != 1 || ars.Items[0].APIKey != "sk_one_ro" || string(ars.Items[0].Body) != `{"name":"New"}` ||
			!ars.Items[0].CreatedAt.Equal(start.Add(-5*time.Minute)) || ars.Items[0].Route != "" {
			t.Errorf("pending agent requests: %+v, want the declared write, for the API to complete", ars.Items)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ds, err := deliveries.List(w, deliveries.Filter{WebhookID: "webhook_down"}, kernel.PageRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds.Items) != 2 {
		t.Fatalf("%d deliveries, want 2", len(ds.Items))
	}
	head, next := ds.Items[0], ds.Items[1]
	if head.Event != "card.update" {
		head, next = next, head
	}
	wantNext := start.Add(-time.Hour).Add(deliveries.RetryDelay(1) + deliveries.RetryDelay(2) + deliveries.RetryDelay(3))
	if head.Status != deliveries.StatusRetrying || len(head.Attempts) != 3 || head.NextAttemptAt == nil ||
		!head.NextAttemptAt.Equal(wantNext) ||
		!strings.HasSuffix(head.Attempts[2].Error, "dial tcp 127.0.0.1:9: connect: connection refused") {
		t.Errorf("the refused delivery: %+v, want 3 attempts and the next at %s", head, wantNext)
	}
	if next.Status != deliveries.StatusQueued || len(next.Attempts) != 0 {
		t.Errorf("the delivery behind it: %+v, want queued", next)
	}
}

// TestActivityProblemsNameTheirLine refuses, at load, what only the engine
// can check: an ACH the account cannot pay. (The scenario package checks
// the rest before any engine exists.)
func TestActivityProblemsNameTheirLine(t *testing.T) {
	for _, tc := range []struct{ name, from, to, want string }{
		{"ACH beyond the balance", "amountCents: 25000", "amountCents: 2500000",
			"activity.yaml:16:6: informationRequests[0].queuedAch: insufficient_funds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := scenario.Parse("activity.yaml", []byte(strings.Replace(activityScenario, tc.from, tc.to, 1)))
			if err != nil {
				t.Fatal(err)
			}
			eng, err := engine.New(nil)
			if err != nil {
				t.Fatal(err)
			}
			defer eng.Close()
			_, err = eng.CreateWorld(kernel.WorldSpec{Scenario: sc})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("loading answered %v, want a problem with %q and its line", err, tc.want)
			}
		})
	}
}
