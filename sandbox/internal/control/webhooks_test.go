package control_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

func TestWebhookDeliveryFailsRetriesOnTheClockAndRecovers(t *testing.T) {
	t.Parallel()
	e := apitest.NewHookEnv(t, webhooks.Options{})
	rc := apitest.NewHookReceiver(t, e, 500)
	hook := apitest.CreateHook(t, e, rc.URL+"/webhooks/slash")
	t0 := apitest.ClockNow(t, e)
	d := apitest.Trigger(t, e, hook.ID, "card.update", "card_acmeaws")
	if d.Status != "pending" || d.Source != "trigger" || string(d.Payload) !=
		`{"entityId":"card_acmeaws","event":"card.update","eventId":"`+d.EventID+`"}` {
		t.Fatalf("triggered delivery = %+v", d)
	}
	s := apitest.SettleHooks(t, e)
	if len(s.Delivered) != 1 || s.Delivered[0].ResponseStatus != 500 || s.Delivered[0].Status != "retrying" {
		t.Fatalf("first settle = %+v", s)
	}
	h := apitest.GetHook(t, e, hook.ID)
	if h.Status != "active" || h.BackingOffUntil != "" {
		t.Fatalf("endpoint while a notification is retried = %+v", h)
	}
	got := apitest.GetDelivery(t, e, d.ID)
	a := got.Attempts[0]
	if got.Status != "retrying" || got.NextAttemptAt != t0.Add(500*time.Millisecond).Format(time.RFC3339Nano) ||
		a.Response == nil || a.Response.Status != 500 || a.Response.Body != "status 500" ||
		a.Request.Body != string(d.Payload) || a.Request.Headers["slash-webhook-signature"] == "" ||
		a.Request.Headers["slash-webhook-timestamp"] != strconv.FormatInt(t0.Unix(), 10) ||
		a.URL != rc.URL+"/webhooks/slash" {
		t.Fatalf("delivery after a failure = %+v", got)
	}
	adv := apitest.Advance(t, e, `{"by":"1m"}`)
	hooksOut := adv["webhooks"].(map[string]any)
	if hooksOut["settled"] != true || len(hooksOut["delivered"].([]any)) != 1 {
		t.Fatalf("advance webhooks = %v", hooksOut)
	}
	got = apitest.GetDelivery(t, e, d.ID)
	if got.Status != "succeeded" || got.AttemptCount != 2 ||
		got.Attempts[1].At != t0.Add(500*time.Millisecond).Format(time.RFC3339Nano) {
		t.Fatalf("delivery after the retry = %+v", got)
	}
	if h := apitest.GetHook(t, e, hook.ID); h.Status != "active" || h.BackingOffUntil != "" {
		t.Fatalf("endpoint after a success = %+v", h)
	}
	re := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/webhook-deliveries/" + d.ID + "/redeliver"}).
		Status(t, 201)
	var redo apitest.DeliveryJSON
	re.Decode(t, &redo)
	if redo.ID == d.ID || redo.EventID != d.EventID || redo.Source != "redeliver" || redo.RelatedID != d.ID {
		t.Fatalf("redelivery = %+v", redo)
	}
	apitest.SettleHooks(t, e)
	recv := rc.Received()
	if len(recv) != 3 || recv[2].Payload.EventID != d.EventID ||
		recv[2].Header.Get("slash-webhook-delivery-id") != redo.ID {
		t.Fatalf("receiver got %d deliveries; last %+v", len(recv), recv[len(recv)-1])
	}
}

func TestLedgerChangesReachTheReceiverInOrder(t *testing.T) {
	t.Parallel()
	e := apitest.NewHookEnv(t, webhooks.Options{})
	rc := apitest.NewHookReceiver(t, e)
	hook := apitest.CreateHook(t, e, rc.URL)
	adv := apitest.Advance(t, e, `{"by":"23h"}`)
	if adv["webhooks"].(map[string]any)["settled"] != true {
		t.Fatalf("advance = %v", adv["webhooks"])
	}
	recv := rc.Received()
	list := apitest.Deliveries(t, e, "webhookId="+hook.ID)
	if len(recv) == 0 || len(recv) != len(list) {
		t.Fatalf("receiver got %d, the sandbox lists %d", len(recv), len(list))
	}
	for i, d := range list {
		if d.Status != "succeeded" || d.Event != "aggregated_transaction.update" ||
			recv[i].Payload.EventID != d.EventID {
			t.Fatalf("delivery %d = %+v, received %+v", i, d, recv[i].Payload)
		}
	}
	var tx struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	e.Get("/transaction/"+recv[0].Payload.EntityID, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &tx)
	if tx.ID != recv[0].Payload.EntityID || tx.Status == "pending" {
		t.Fatalf("the entity of an update = %+v", tx)
	}
	if n := len(apitest.Deliveries(t, e,
		"event=aggregated_transaction.update&status=succeeded&webhookId="+hook.ID)); n != len(
		list,
	) {
		t.Fatalf("filtered list has %d, want %d", n, len(list))
	}
	// Without settling, the clock moves at once and the deliveries follow.
	adv = apitest.Advance(t, e, `{"by":"2d","settleWebhooks":false}`)
	if got := adv["webhooks"].(map[string]any); got["settled"] != false || len(got["delivered"].([]any)) != 0 {
		t.Fatalf("advance without settling = %v", got)
	}
	s := apitest.SettleHooks(t, e)
	if after := apitest.Deliveries(t, e, "webhookId="+hook.ID); len(after) == len(list) ||
		len(rc.Received()) != len(after) {
		t.Fatalf("after the unsettled advance: %d deliveries, receiver got %d, settle saw %d",
			len(after), len(rc.Received()), len(s.Delivered))
	}
}

func TestPausedEndpointQueuesAndArchivedGetsNothing(t *testing.T) {
	t.Parallel()
	e := apitest.NewHookEnv(t, webhooks.Options{})
	rc := apitest.NewHookReceiver(t, e)
	gone := apitest.NewHookReceiver(t, e)
	hook := apitest.CreateHook(t, e, rc.URL)
	archived := apitest.CreateHook(t, e, gone.URL)
	if h := apitest.PatchHook(t, e, hook.ID, "paused"); h.PausedAt == "" {
		t.Fatalf("paused endpoint = %+v", h)
	}
	if h := apitest.PatchHook(t, e, archived.ID, "archived"); h.ArchivedAt == "" || h.Status != "disabled" {
		t.Fatalf("archived endpoint = %+v", h)
	}
	apitest.Trigger(t, e, hook.ID, "card_creation.event", "card_new")
	apitest.Advance(t, e, `{"by":"23h"}`)
	queued := apitest.Deliveries(t, e, "status=queued&webhookId="+hook.ID)
	if len(queued) < 2 || queued[0].Event != "card_creation.event" || len(rc.Received()) != 0 {
		t.Fatalf("paused endpoint: %d queued, receiver got %d", len(queued), len(rc.Received()))
	}
	if n := len(apitest.Deliveries(t, e, "webhookId="+archived.ID)); n != 0 || len(gone.Received()) != 0 {
		t.Fatalf("archived endpoint has %d deliveries", n)
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/webhooks/" + archived.ID + "/trigger",
		Body: `{"event":"card.update","entityId":"card_acmeaws"}`}).Gen2(t, 409, "conflict")
	e.Do(apitest.Req{Method: http.MethodPatch, Path: "/webhook/" + archived.ID, Key: "sk_sandbox_acme",
		Body: `{"status":"active"}`}).Gen1(t, 409, "conflict")
	if h := apitest.PatchHook(t, e, hook.ID, "active"); h.PausedAt != "" {
		t.Fatalf("resumed endpoint = %+v", h)
	}
	apitest.SettleHooks(t, e)
	recv := rc.Received()
	if len(recv) != len(queued) {
		t.Fatalf("resuming sent %d, want %d", len(recv), len(queued))
	}
	for i, q := range queued {
		if recv[i].Payload.EventID != q.EventID {
			t.Fatalf("replay %d out of order", i)
		}
	}
}

func TestChaosDuplicatesAndShuffles(t *testing.T) {
	t.Parallel()
	e := apitest.NewHookEnv(t, webhooks.Options{})
	rc := apitest.NewHookReceiver(t, e)
	hook := apitest.CreateHook(t, e, rc.URL)
	var chaos map[string]any
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/webhooks/chaos", Body: `{"duplicate":1}`}).
		Status(t, 200).
		Decode(t, &chaos)
	if chaos["duplicate"] != float64(1) || chaos["shuffle"] != false {
		t.Fatalf("chaos = %v", chaos)
	}
	d := apitest.Trigger(t, e, hook.ID, "card.update", "card_acmeaws")
	apitest.SettleHooks(t, e)
	recv := rc.Received()
	if len(recv) != 2 || recv[0].Payload.EventID != d.EventID || recv[1].Payload.EventID != d.EventID ||
		recv[0].Header.Get("slash-webhook-delivery-id") == recv[1].Header.Get("slash-webhook-delivery-id") {
		t.Fatalf("duplicate chaos: receiver got %+v", recv)
	}
	if dup := apitest.Deliveries(t, e, "webhookId="+hook.ID)[1]; dup.Source != "duplicate" || dup.RelatedID != d.ID {
		t.Fatalf("duplicate delivery = %+v", dup)
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/webhooks/chaos", Body: `{"shuffle":true}`}).
		Status(t, 200)
	apitest.PatchHook(t, e, hook.ID, "paused")
	var want []string
	for i := range 8 {
		want = append(want, apitest.Trigger(t, e, hook.ID, "card.update", "card_"+strconv.Itoa(i)).EventID)
	}
	apitest.PatchHook(t, e, hook.ID, "active")
	apitest.SettleHooks(t, e)
	recv = rc.Received()[2:]
	seen, inOrder := map[string]bool{}, true
	for i, r := range recv {
		seen[r.Payload.EventID] = true
		inOrder = inOrder && r.Payload.EventID == want[i]
	}
	if len(recv) != len(want) || len(seen) != len(want) || inOrder {
		t.Fatalf("shuffle: receiver got %d (%d distinct), in event order %v", len(recv), len(seen), inOrder)
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/webhooks/chaos", Body: `{"duplicate":2}`}).
		Gen2(t, 400, "invalid_request")
}
