package server_test

import (
	"net/http"
	"testing"
	"time"
)

// TestEveryEventKindFiresAtItsInstant sets off every kind of scheduled
// effect in the demo world, then walks the queue event by event: a
// millisecond before an event's instant nothing runs, and at it the event
// runs at exactly that virtual time. (A contact's scheduled submission is
// checked the same way in TestScheduledSubmission.)
func TestEveryEventKindFiresAtItsInstant(t *testing.T) {
	e := newEnv(t, options{})
	acme := "sk_sandbox_acme"
	e.post("/transfers/ach", acme, "", "k-ach", map[string]any{"accountId": "sa_group_acmeoperating",
		"destinationId": "le_c_dest_northwindold", "amountCents": 1000}).
		status(t, 200)
	e.post("/transfers/wire", acme, "", "k-wire", map[string]any{"accountId": "sa_group_acmeoperating",
		"destinationId": "le_c_dest_northwindach", "amountCents": 2000}).
		status(t, 200)
	e.do(req{method: http.MethodPost, path: "/_sandbox/simulate/incoming-transfer",
		body: `{"accountId":"sa_group_acmeoperating","rail":"ach","amountCents":3000}`}).
		status(t, 201)
	txn, _ := firstTransaction(t, e)
	defer1(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"expires"}`)
	hook := e.post("/webhook", acme, "", "", map[string]any{"url": "http://127.0.0.1:1/refused",
		"name": "Down"}).status(t, 201).json(t)["id"].(string)
	e.do(req{method: http.MethodPost, path: "/_sandbox/webhooks/" + hook + "/trigger",
		body: `{"event":"card.update","entityId":"card_acmeaws"}`}).
		status(t, 201)
	// The first attempt is made in the background; wait for it, so its
	// retry is in the queue before the walk reads the clock.
	e.do(req{method: http.MethodPost, path: "/_sandbox/webhook-deliveries/settle"}).status(t, 200)

	start := e.get("/_sandbox/clock", "", "").json(t)["now"].(string)
	end := mustTime(t, start).Add(12 * 24 * time.Hour)
	seen := map[string]int{}
	for i := 0; i < 3000; i++ {
		clock := e.get("/_sandbox/clock", "", "").status(t, 200).json(t)
		next, ok := clock["nextEventAt"].(string)
		if !ok || mustTime(t, next).After(end) {
			break
		}
		due, now := mustTime(t, next), mustTime(t, clock["now"].(string))
		if due.After(now) {
			before := advance(t, e, `{"to":"`+due.Add(-time.Millisecond).Format(time.RFC3339Nano)+`"}`)
			if evs := before["events"].([]any); len(evs) != 0 {
				t.Fatalf("%d events ran before %s: %v", len(evs), next, evs)
			}
		}
		for _, ev := range advance(t, e, `{"to":"next"}`)["events"].([]any) {
			m := ev.(map[string]any)
			if !mustTime(t, m["at"].(string)).Equal(due) || m["ranAt"] != m["at"] || m["status"] != "done" {
				t.Fatalf("event due at %s ran as %v", next, m)
			}
			seen[m["kind"].(string)]++
			if m["kind"] == "webhook.retry" && seen["webhook.retry"] == 1 {
				e.patch("/webhook/"+hook, acme, "", map[string]any{"status": "archived"}).status(t, 200)
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

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("%q is not a time: %v", s, err)
	}
	return at
}
