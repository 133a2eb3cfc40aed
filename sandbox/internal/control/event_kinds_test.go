package control_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// TestEveryEventKindFiresAtItsInstant sets off every kind of scheduled
// effect in the demo world, then walks the queue event by event: a
// millisecond before an event's instant nothing runs, and at it the event
// runs at exactly that virtual time. (A contact's scheduled submission is
// checked the same way in TestScheduledSubmission.)
func TestEveryEventKindFiresAtItsInstant(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	acme := "sk_sandbox_acme"
	e.Post("/transfers/ach", acme, "", "k-ach", map[string]any{"accountId": "sa_group_acmeoperating",
		"destinationId": "le_c_dest_northwindold", "amountCents": 1000}).
		Status(t, 200)
	e.Post("/transfers/wire", acme, "", "k-wire", map[string]any{"accountId": "sa_group_acmeoperating",
		"destinationId": "le_c_dest_northwindach", "amountCents": 2000}).
		Status(t, 200)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/simulate/incoming-transfer",
		Body: `{"accountId":"sa_group_acmeoperating","rail":"ach","amountCents":3000}`}).
		Status(t, 201)
	txn, _ := apitest.FirstTransaction(t, e)
	apitest.DeferNote(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"expires"}`)
	hook := e.Post("/webhook", acme, "", "", map[string]any{"url": "http://127.0.0.1:1/refused",
		"name": "Down"}).Status(t, 201).JSON(t)["id"].(string)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/webhooks/" + hook + "/trigger",
		Body: `{"event":"card.update","entityId":"card_acmeaws"}`}).
		Status(t, 201)
	// The first attempt is made in the background; wait for it, so its
	// retry is in the queue before the walk reads the clock.
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/webhook-deliveries/settle"}).Status(t, 200)

	start := e.Get("/_sandbox/clock", "", "").JSON(t)["now"].(string)
	end := apitest.MustTime(t, start).Add(12 * 24 * time.Hour)
	seen := map[string]int{}
	for i := 0; i < 3000; i++ {
		clock := e.Get("/_sandbox/clock", "", "").Status(t, 200).JSON(t)
		next, ok := clock["nextEventAt"].(string)
		if !ok || apitest.MustTime(t, next).After(end) {
			break
		}
		due, now := apitest.MustTime(t, next), apitest.MustTime(t, clock["now"].(string))
		if due.After(now) {
			before := apitest.Advance(t, e, `{"to":"`+due.Add(-time.Millisecond).Format(time.RFC3339Nano)+`"}`)
			if evs := before["events"].([]any); len(evs) != 0 {
				t.Fatalf("%d events ran before %s: %v", len(evs), next, evs)
			}
		}
		for _, ev := range apitest.Advance(t, e, `{"to":"next"}`)["events"].([]any) {
			m := ev.(map[string]any)
			if !apitest.MustTime(t, m["at"].(string)).Equal(due) || m["ranAt"] != m["at"] || m["status"] != "done" {
				t.Fatalf("event due at %s ran as %v", next, m)
			}
			seen[m["kind"].(string)]++
			if m["kind"] == "webhook.retry" && seen["webhook.retry"] == 1 {
				e.Patch("/webhook/"+hook, acme, "", map[string]any{"status": "archived"}).Status(t, 200)
			}
		}
	}
	for _, kind := range []string{"token_prices.tick", "transaction.settle", "ach.settle", "ach.return", "wire.settle",
		"incoming_transfer.settle", "invoice.send", "invoice.overdue", "invoice.remind", "invoice_series.issue",
		"expense_report.payout", "agent_request.expire", "webhook.retry"} {
		if seen[kind] == 0 {
			t.Errorf("no %s event ran in twelve days (ran: %v)", kind, seen)
		}
	}
}
