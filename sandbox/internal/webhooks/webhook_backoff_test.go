package webhooks_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

// documentedRetries are the intervals, in seconds, the real service
// published between a notification's attempts.
var documentedRetries = []float64{0.5, 2.5, 12.5, 62.5, 312.5, 1562.5, 7812.5, 39062.5, 195312.5, 976562.5,
	4882812.5, 24414062.5}

// retrySpan is the virtual time from a notification's first attempt to its
// last.
func retrySpan() time.Duration {
	var d time.Duration
	for _, s := range documentedRetries {
		d += time.Duration(s * float64(time.Second))
	}
	return d
}

const apiTime = "2006-01-02T15:04:05.000Z"

func advanceTo(t *testing.T, e *apitest.Env, at time.Time) {
	t.Helper()
	adv := apitest.Advance(t, e, `{"to":"`+at.UTC().Format(time.RFC3339Nano)+`"}`)
	if hooks, _ := adv["webhooks"].(map[string]any); hooks["settled"] != true {
		t.Fatalf("advance to %s did not settle: %v", at, adv["webhooks"])
	}
}

// wantAttemptsAt checks a delivery's attempts happened at start and then
// after each documented interval, in virtual time.
func wantAttemptsAt(t *testing.T, d apitest.DeliveryJSON, start time.Time) {
	t.Helper()
	if d.AttemptCount != len(documentedRetries)+1 || len(d.Attempts) != d.AttemptCount {
		t.Fatalf("delivery %s made %d attempts, want %d", d.ID, d.AttemptCount, len(documentedRetries)+1)
	}
	at := start
	for i, a := range d.Attempts {
		if i > 0 {
			at = at.Add(time.Duration(documentedRetries[i-1] * float64(time.Second)))
		}
		if got := apitest.MustTime(t, a.At); !got.Equal(at) {
			t.Fatalf("attempt %d at %s, want %s (%gs after the previous)", i+1, a.At, at.Format(time.RFC3339Nano),
				documentedRetries[max(i-1, 0)])
		}
		if a.Response == nil || a.Response.Status != 500 {
			t.Fatalf("attempt %d answered %+v, want the receiver's 500", i+1, a.Response)
		}
	}
}

type notificationJSON struct {
	ID             string `json:"id"`
	EventID        string `json:"eventId"`
	Event          string `json:"event"`
	EntityID       string `json:"entityId"`
	Status         string `json:"status"`
	Attempts       int    `json:"attempts"`
	CreatedAt      string `json:"createdAt"`
	LastAttemptAt  string `json:"lastAttemptAt"`
	NextAttemptAt  string `json:"nextAttemptAt"`
	ResponseStatus int    `json:"responseStatus"`
}

// TestFailingEndpointBacksOffGrowsAndRecovers drives a receiver on loopback
// that fails: a notification is tried 13 times on the documented schedule
// of virtual time; its permanent failure backs the endpoint off for an
// hour, during which new events queue; at backingOffUntil it resumes by
// itself; the next permanent failure backs it off for two hours; a success
// ends the cycle and the queue drains.
func TestFailingEndpointBacksOffGrowsAndRecovers(t *testing.T) {
	t.Parallel()
	e := apitest.NewHookEnv(t, webhooks.Options{})
	var plan []int
	for range 2 * (len(documentedRetries) + 1) {
		plan = append(plan, 500)
	}
	rc := apitest.NewHookReceiver(t, e, plan...)
	hook := apitest.CreateHook(t, e, rc.URL)
	t0 := apitest.ClockNow(t, e)
	first := apitest.Trigger(t, e, hook.ID, "card.update", "card_acmeaws")
	apitest.SettleHooks(t, e)

	// The first notification: 13 attempts, the last at t0 + the span.
	t1 := t0.Add(retrySpan())
	advanceTo(t, e, t1.Add(-time.Millisecond))
	if d := apitest.GetDelivery(t, e, first.ID); d.Status != "retrying" || d.AttemptCount != len(documentedRetries) {
		t.Fatalf("before the last attempt: %s with %d attempts", d.Status, d.AttemptCount)
	}
	if h := apitest.GetHook(t, e, hook.ID); h.Status != "active" {
		t.Fatalf("endpoint while retrying = %+v", h)
	}
	advanceTo(t, e, t1)
	failed := apitest.GetDelivery(t, e, first.ID)
	if failed.Status != "failed" {
		t.Fatalf("after 13 attempts the notification is %s", failed.Status)
	}
	wantAttemptsAt(t, failed, t0)
	b1 := t1.Add(time.Hour)
	if h := apitest.GetHook(t, e, hook.ID); h.Status != "backing-off" || h.BackingOffUntil != b1.Format(apiTime) ||
		h.DisabledAt != "" {
		t.Fatalf("after the first permanent failure: %+v, want backing-off until %s", h, b1.Format(apiTime))
	}

	// While backing off, new events queue and nothing is sent.
	sent := len(rc.Received())
	queued := apitest.Trigger(t, e, hook.ID, "card.update", "card_acmegithub")
	if queued.Status != "queued" {
		t.Fatalf("an event for a backing-off endpoint is %s, want queued", queued.Status)
	}
	advanceTo(t, e, b1.Add(-time.Millisecond))
	if n := len(rc.Received()); n != sent {
		t.Fatalf("a backing-off endpoint was sent %d requests", n-sent)
	}

	// At backingOffUntil the endpoint resumes and sends its queue's head,
	// which fails for good too: the backoff doubles.
	advanceTo(t, e, b1)
	if h := apitest.GetHook(t, e, hook.ID); h.Status != "active" || h.BackingOffUntil != "" {
		t.Fatalf("at backingOffUntil: %+v", h)
	}
	head := apitest.Deliveries(t, e, "status=retrying&webhookId="+hook.ID)
	if len(head) != 1 || len(rc.Received()) != sent+1 {
		t.Fatalf("after the backoff: %d retrying, %d sent", len(head), len(rc.Received())-sent)
	}
	t2 := b1.Add(retrySpan())
	advanceTo(t, e, t2)
	wantAttemptsAt(t, apitest.GetDelivery(t, e, head[0].ID), b1)
	b2 := t2.Add(2 * time.Hour)
	if h := apitest.GetHook(t, e, hook.ID); h.Status != "backing-off" || h.BackingOffUntil != b2.Format(apiTime) {
		t.Fatalf("after the second permanent failure: %+v, want backing-off until %s", h, b2.Format(apiTime))
	}

	// The receiver answers 204 from now on: a success ends the cycle and
	// everything queued, the event triggered while backing off included,
	// is delivered.
	advanceTo(t, e, b2)
	if h := apitest.GetHook(t, e, hook.ID); h.Status != "active" || h.BackingOffUntil != "" {
		t.Fatalf("after a success: %+v", h)
	}
	if left := apitest.Deliveries(t, e, "status=queued&webhookId="+hook.ID); len(left) != 0 {
		t.Fatalf("%d deliveries still queued after recovering", len(left))
	}
	if d := apitest.GetDelivery(t, e, queued.ID); d.Status != "succeeded" {
		t.Fatalf("the event queued while backing off is %s", d.Status)
	}

	// The notification history shows it all, newest first.
	var page struct {
		Items    []notificationJSON `json:"items"`
		Metadata struct {
			Count int `json:"count"`
		} `json:"metadata"`
	}
	e.Get("/webhook/"+hook.ID+"/notification", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &page)
	if len(page.Items) == 0 || page.Metadata.Count != len(page.Items) {
		t.Fatalf("notification history = %+v", page)
	}
	var firstItem *notificationJSON
	for i, n := range page.Items {
		if i > 0 && apitest.MustTime(t, n.CreatedAt).After(apitest.MustTime(t, page.Items[i-1].CreatedAt)) {
			t.Fatalf("history is not newest first at %d: %s after %s", i, n.CreatedAt, page.Items[i-1].CreatedAt)
		}
		if n.ID == first.ID {
			firstItem = &page.Items[i]
		}
	}
	if firstItem == nil {
		t.Fatalf("the first notification %s is missing from the first page of %d", first.ID, len(page.Items))
	}
	if firstItem.Status != "failed" || firstItem.Attempts != 13 || firstItem.ResponseStatus != 500 ||
		firstItem.EventID != first.EventID || firstItem.EntityID != "card_acmeaws" ||
		firstItem.LastAttemptAt != t1.Format(apiTime) {
		t.Fatalf("the failed notification in the history = %+v", *firstItem)
	}
}

// TestEndpointDisablesAfterSixPermanentFailures: six notifications in a
// row failing for good disable the endpoint (disabledAt, no
// backingOffUntil); new events queue until PATCH active delivers them.
func TestEndpointDisablesAfterSixPermanentFailures(t *testing.T) {
	t.Parallel()
	e := apitest.NewHookEnv(t, webhooks.Options{})
	const failures = 6
	var plan []int
	for range failures * (len(documentedRetries) + 1) {
		plan = append(plan, 503)
	}
	rc := apitest.NewHookReceiver(t, e, plan...)
	hook := apitest.CreateHook(t, e, rc.URL)
	apitest.Trigger(t, e, hook.ID, "card.update", "card_acmeaws")
	apitest.SettleHooks(t, e)
	for n := 1; n <= failures; n++ {
		// Each notification fails for good a span after its first attempt,
		// which came when the previous backoff ended.
		start := apitest.MustTime(t, apitest.Deliveries(t, e, "status=retrying&webhookId="+hook.ID)[0].Attempts[0].At)
		advanceTo(t, e, start.Add(retrySpan()))
		h := apitest.GetHook(t, e, hook.ID)
		if n == failures {
			if h.Status != "disabled" || h.DisabledAt == "" || h.BackingOffUntil != "" {
				t.Fatalf("after %d permanent failures: %+v", n, h)
			}
			break
		}
		if want := start.Add(retrySpan()).Add(time.Hour << (n - 1)); h.Status != "backing-off" ||
			h.BackingOffUntil != want.Format(apiTime) {
			t.Fatalf("after %d permanent failures: %+v, want backing-off until %s", n, h, want.Format(apiTime))
		}
		advanceTo(t, e, apitest.MustTime(t, h.BackingOffUntil))
	}
	if n := len(apitest.Deliveries(t, e, "status=failed&webhookId="+hook.ID)); n != failures {
		t.Fatalf("%d failed notifications, want %d", n, failures)
	}
	sent := len(rc.Received())
	if sent != len(plan) {
		t.Fatalf("receiver got %d requests, want %d", sent, len(plan))
	}
	later := apitest.Trigger(t, e, hook.ID, "card.delete", "card_acmeaws")
	apitest.Advance(t, e, `{"by":"30d"}`)
	if later.Status != "queued" || len(rc.Received()) != sent {
		t.Fatalf("a disabled endpoint: new event %s, %d requests sent", later.Status, len(rc.Received())-sent)
	}
	e.Do(apitest.Req{Method: http.MethodPatch, Path: "/webhook/" + hook.ID, Key: "sk_sandbox_acme",
		Body: `{"status":"disabled"}`}).Gen1(t, 400, "invalid_request")
	apitest.PatchHook(t, e, hook.ID, "active")
	apitest.SettleHooks(t, e)
	if d := apitest.GetDelivery(t, e, later.ID); d.Status != "succeeded" {
		t.Fatalf("the event queued while disabled is %s after re-enabling", d.Status)
	}
	if left := apitest.Deliveries(t, e, "status=queued&webhookId="+hook.ID); len(left) != 0 {
		t.Fatalf("%d still queued after re-enabling", len(left))
	}
}
