package server_test

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

// newHookEnv is the demo sandbox with a webhook sender tuned for tests.
func newHookEnv(t *testing.T, o webhooks.Options) *env {
	t.Helper()
	return newHookEnvAt(t, o, nil)
}

// newHookEnvAt is newHookEnv with the world's clock started at a chosen
// instant (nil keeps the scenario's).
func newHookEnvAt(t *testing.T, o webhooks.Options, clockStart *time.Time) *env {
	t.Helper()
	return newConfiguredEnv(t, withAll(server.Config{Webhooks: o}), clockStart)
}

// newConfiguredEnv is the demo sandbox served with cfg, its log kept.
func newConfiguredEnv(t *testing.T, cfg server.Config, clockStart *time.Time) *env {
	t.Helper()
	sc, err := scenario.Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc, ClockStart: clockStart}); err != nil {
		t.Fatal(err)
	}
	rec := &routeRecorder{}
	cfg.Log = zerolog.New(rec)
	srv := httptest.NewServer(server.Handler(eng, cfg))
	t.Cleanup(func() { srv.Close(); eng.Close() })
	return &env{t: t, eng: eng, srv: srv, log: rec}
}

// delivered is one request a receiver accepted, signature checked.
type delivered struct {
	header  http.Header
	payload struct {
		EntityID string `json:"entityId"`
		Event    string `json:"event"`
		EventID  string `json:"eventId"`
	}
}

// hookReceiver is a loopback receiver that verifies every signature with
// the public key the control API serves, and answers from a plan: a status
// per request (0 never answers), 204 once the plan is spent.
type hookReceiver struct {
	*httptest.Server
	t       *testing.T
	key     *rsa.PublicKey
	mu      sync.Mutex
	plan    []int
	got     []delivered
	badSigs int
}

func newHookReceiver(t *testing.T, e *env, plan ...int) *hookReceiver {
	t.Helper()
	var pk struct {
		PEM string `json:"pem"`
		JWK struct {
			Kty string `json:"kty"`
			Alg string `json:"alg"`
			Kid string `json:"kid"`
		} `json:"jwk"`
		Header string `json:"header"`
	}
	e.get("/_sandbox/webhooks/public-key", "", "").status(t, 200).decode(t, &pk)
	if pk.Header != "slash-webhook-signature" || pk.JWK.Kty != "RSA" || pk.JWK.Alg != "RS256" || pk.JWK.Kid == "" {
		t.Fatalf("public key = %+v", pk)
	}
	if raw := e.get("/_sandbox/webhooks/public-key?format=pem", "", "").status(t, 200); string(raw.body) != pk.PEM {
		t.Fatalf("?format=pem = %q, want the JSON's pem", raw.body)
	}
	block, _ := pem.Decode([]byte(pk.PEM))
	key, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	rc := &hookReceiver{t: t, key: key.(*rsa.PublicKey), plan: plan}
	rc.Server = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *hookReceiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var d delivered
	d.header = r.Header.Clone()
	json.Unmarshal(body, &d.payload)
	rc.mu.Lock()
	if webhooks.Verify(rc.key, body, r.Header.Get("slash-webhook-signature")) != nil ||
		r.Header.Get("content-type") != "application/json" || r.Header.Get("slash-webhook-event-id") != d.payload.EventID {
		rc.badSigs++
	}
	rc.got = append(rc.got, d)
	status := http.StatusNoContent
	if len(rc.plan) > 0 {
		status, rc.plan = rc.plan[0], rc.plan[1:]
	}
	rc.mu.Unlock()
	if status == 0 {
		<-r.Context().Done()
		return
	}
	w.WriteHeader(status)
	io.WriteString(w, "status "+strconv.Itoa(status))
}

// received returns what the receiver got, failing on a bad signature.
func (rc *hookReceiver) received() []delivered {
	rc.t.Helper()
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.badSigs > 0 {
		rc.t.Fatalf("%d deliveries failed signature or header checks", rc.badSigs)
	}
	return append([]delivered(nil), rc.got...)
}

type hookView struct {
	ID              string `json:"id"`
	URL             string `json:"url"`
	Name            string `json:"name"`
	Status          string `json:"status"`
	CreatedAt       string `json:"createdAt"`
	ArchivedAt      string `json:"archivedAt"`
	PausedAt        string `json:"pausedAt"`
	BackingOffUntil string `json:"backingOffUntil"`
	DisabledAt      string `json:"disabledAt"`
}

func createHook(t *testing.T, e *env, url string) hookView {
	t.Helper()
	var h hookView
	e.do(req{method: http.MethodPost, path: "/webhook", key: "sk_sandbox_acme",
		body: map[string]string{"url": url, "name": "Receiver"}}).status(t, 201).decode(t, &h)
	return h
}

func patchHook(t *testing.T, e *env, id, status string) hookView {
	t.Helper()
	var h hookView
	e.do(req{method: http.MethodPatch, path: "/webhook/" + id, key: "sk_sandbox_acme",
		body: map[string]string{"status": status, "reason": "test"}}).status(t, 200).decode(t, &h)
	if h.Status != status && status != "archived" {
		t.Fatalf("PATCH %s: status %s", status, h.Status)
	}
	return h
}

func getHook(t *testing.T, e *env, id string) hookView {
	t.Helper()
	var h hookView
	e.get("/webhook/"+id, "sk_sandbox_acme", "").status(t, 200).decode(t, &h)
	return h
}

type attemptJSON struct {
	Number  int    `json:"number"`
	At      string `json:"at"`
	URL     string `json:"url"`
	Request struct {
		Headers map[string]string `json:"headers"`
		Body    string            `json:"body"`
	} `json:"request"`
	Response *struct {
		Status int    `json:"status"`
		Body   string `json:"body"`
	} `json:"response"`
	Error     string `json:"error"`
	Succeeded bool   `json:"succeeded"`
}

type deliveryJSON struct {
	ID            string          `json:"id"`
	WebhookID     string          `json:"webhookId"`
	Event         string          `json:"event"`
	EventID       string          `json:"eventId"`
	EntityID      string          `json:"entityId"`
	Payload       json.RawMessage `json:"payload"`
	Status        string          `json:"status"`
	Source        string          `json:"source"`
	RelatedID     string          `json:"relatedId"`
	AttemptCount  int             `json:"attemptCount"`
	Attempts      []attemptJSON   `json:"attempts"`
	NextAttemptAt string          `json:"nextAttemptAt"`
}

type settledJSON struct {
	Settled   bool `json:"settled"`
	Due       int  `json:"due"`
	Delivered []struct {
		DeliveryID     string `json:"deliveryId"`
		EventID        string `json:"eventId"`
		Attempt        int    `json:"attempt"`
		ResponseStatus int    `json:"responseStatus"`
		Error          string `json:"error"`
		Status         string `json:"status"`
	} `json:"delivered"`
}

func settleHooks(t *testing.T, e *env) settledJSON {
	t.Helper()
	var s settledJSON
	e.do(req{method: http.MethodPost, path: "/_sandbox/webhook-deliveries/settle"}).status(t, 200).decode(t, &s)
	if !s.Settled || s.Due != 0 {
		t.Fatalf("settle = %+v", s)
	}
	return s
}

func trigger(t *testing.T, e *env, hookID, event, entity string) deliveryJSON {
	t.Helper()
	var d deliveryJSON
	e.do(req{method: http.MethodPost, path: "/_sandbox/webhooks/" + hookID + "/trigger",
		body: map[string]string{"event": event, "entityId": entity}}).status(t, 201).decode(t, &d)
	return d
}

func deliveries(t *testing.T, e *env, query string) []deliveryJSON {
	t.Helper()
	var out []deliveryJSON
	path := "/_sandbox/webhook-deliveries?limit=500&" + query
	for {
		var pg struct {
			Items    []deliveryJSON `json:"items"`
			Metadata struct {
				NextCursor string `json:"nextCursor"`
			} `json:"metadata"`
		}
		e.get(path, "", "").status(t, 200).decode(t, &pg)
		out = append(out, pg.Items...)
		if pg.Metadata.NextCursor == "" {
			return out
		}
		path = "/_sandbox/webhook-deliveries?limit=500&" + query + "&cursor=" + pg.Metadata.NextCursor
	}
}

func getDelivery(t *testing.T, e *env, id string) deliveryJSON {
	t.Helper()
	var d deliveryJSON
	e.get("/_sandbox/webhook-deliveries/"+id, "", "").status(t, 200).decode(t, &d)
	return d
}

func clockNow(t *testing.T, e *env) time.Time {
	t.Helper()
	var c struct {
		Now time.Time `json:"now"`
	}
	e.get("/_sandbox/clock", "", "").status(t, 200).decode(t, &c)
	return c.Now
}

func TestWebhookDeliveryFailsRetriesOnTheClockAndRecovers(t *testing.T) {
	e := newHookEnv(t, webhooks.Options{})
	rc := newHookReceiver(t, e, 500)
	hook := createHook(t, e, rc.URL+"/webhooks/slash")
	t0 := clockNow(t, e)
	d := trigger(t, e, hook.ID, "card.update", "card_acmeaws")
	if d.Status != "pending" || d.Source != "trigger" || string(d.Payload) !=
		`{"entityId":"card_acmeaws","event":"card.update","eventId":"`+d.EventID+`"}` {
		t.Fatalf("triggered delivery = %+v", d)
	}
	s := settleHooks(t, e)
	if len(s.Delivered) != 1 || s.Delivered[0].ResponseStatus != 500 || s.Delivered[0].Status != "retrying" {
		t.Fatalf("first settle = %+v", s)
	}
	h := getHook(t, e, hook.ID)
	if h.Status != "active" || h.BackingOffUntil != "" {
		t.Fatalf("endpoint while a notification is retried = %+v", h)
	}
	got := getDelivery(t, e, d.ID)
	a := got.Attempts[0]
	if got.Status != "retrying" || got.NextAttemptAt != t0.Add(500*time.Millisecond).Format(time.RFC3339Nano) ||
		a.Response == nil || a.Response.Status != 500 || a.Response.Body != "status 500" ||
		a.Request.Body != string(d.Payload) || a.Request.Headers["slash-webhook-signature"] == "" ||
		a.Request.Headers["slash-webhook-timestamp"] != strconv.FormatInt(t0.Unix(), 10) ||
		a.URL != rc.URL+"/webhooks/slash" {
		t.Fatalf("delivery after a failure = %+v", got)
	}
	adv := advance(t, e, `{"by":"1m"}`)
	hooksOut := adv["webhooks"].(map[string]any)
	if hooksOut["settled"] != true || len(hooksOut["delivered"].([]any)) != 1 {
		t.Fatalf("advance webhooks = %v", hooksOut)
	}
	got = getDelivery(t, e, d.ID)
	if got.Status != "succeeded" || got.AttemptCount != 2 ||
		got.Attempts[1].At != t0.Add(500*time.Millisecond).Format(time.RFC3339Nano) {
		t.Fatalf("delivery after the retry = %+v", got)
	}
	if h := getHook(t, e, hook.ID); h.Status != "active" || h.BackingOffUntil != "" {
		t.Fatalf("endpoint after a success = %+v", h)
	}
	re := e.do(req{method: http.MethodPost, path: "/_sandbox/webhook-deliveries/" + d.ID + "/redeliver"}).status(t, 201)
	var redo deliveryJSON
	re.decode(t, &redo)
	if redo.ID == d.ID || redo.EventID != d.EventID || redo.Source != "redeliver" || redo.RelatedID != d.ID {
		t.Fatalf("redelivery = %+v", redo)
	}
	settleHooks(t, e)
	recv := rc.received()
	if len(recv) != 3 || recv[2].payload.EventID != d.EventID ||
		recv[2].header.Get("slash-webhook-delivery-id") != redo.ID {
		t.Fatalf("receiver got %d deliveries; last %+v", len(recv), recv[len(recv)-1])
	}
}

func TestLedgerChangesReachTheReceiverInOrder(t *testing.T) {
	e := newHookEnv(t, webhooks.Options{})
	rc := newHookReceiver(t, e)
	hook := createHook(t, e, rc.URL)
	adv := advance(t, e, `{"by":"23h"}`)
	if adv["webhooks"].(map[string]any)["settled"] != true {
		t.Fatalf("advance = %v", adv["webhooks"])
	}
	recv := rc.received()
	list := deliveries(t, e, "webhookId="+hook.ID)
	if len(recv) == 0 || len(recv) != len(list) {
		t.Fatalf("receiver got %d, the sandbox lists %d", len(recv), len(list))
	}
	for i, d := range list {
		if d.Status != "succeeded" || d.Event != "aggregated_transaction.update" || recv[i].payload.EventID != d.EventID {
			t.Fatalf("delivery %d = %+v, received %+v", i, d, recv[i].payload)
		}
	}
	var tx struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	e.get("/transaction/"+recv[0].payload.EntityID, "sk_sandbox_acme", "").status(t, 200).decode(t, &tx)
	if tx.ID != recv[0].payload.EntityID || tx.Status == "pending" {
		t.Fatalf("the entity of an update = %+v", tx)
	}
	if n := len(deliveries(t, e, "event=aggregated_transaction.update&status=succeeded&webhookId="+hook.ID)); n != len(
		list,
	) {
		t.Fatalf("filtered list has %d, want %d", n, len(list))
	}
	// Without settling, the clock moves at once and the deliveries follow.
	adv = advance(t, e, `{"by":"2d","settleWebhooks":false}`)
	if got := adv["webhooks"].(map[string]any); got["settled"] != false || len(got["delivered"].([]any)) != 0 {
		t.Fatalf("advance without settling = %v", got)
	}
	s := settleHooks(t, e)
	if after := deliveries(t, e, "webhookId="+hook.ID); len(after) == len(list) || len(rc.received()) != len(after) {
		t.Fatalf("after the unsettled advance: %d deliveries, receiver got %d, settle saw %d",
			len(after), len(rc.received()), len(s.Delivered))
	}
}

func TestPausedEndpointQueuesAndArchivedGetsNothing(t *testing.T) {
	e := newHookEnv(t, webhooks.Options{})
	rc := newHookReceiver(t, e)
	gone := newHookReceiver(t, e)
	hook := createHook(t, e, rc.URL)
	archived := createHook(t, e, gone.URL)
	if h := patchHook(t, e, hook.ID, "paused"); h.PausedAt == "" {
		t.Fatalf("paused endpoint = %+v", h)
	}
	if h := patchHook(t, e, archived.ID, "archived"); h.ArchivedAt == "" || h.Status != "disabled" {
		t.Fatalf("archived endpoint = %+v", h)
	}
	trigger(t, e, hook.ID, "card_creation.event", "card_new")
	advance(t, e, `{"by":"23h"}`)
	queued := deliveries(t, e, "status=queued&webhookId="+hook.ID)
	if len(queued) < 2 || queued[0].Event != "card_creation.event" || len(rc.received()) != 0 {
		t.Fatalf("paused endpoint: %d queued, receiver got %d", len(queued), len(rc.received()))
	}
	if n := len(deliveries(t, e, "webhookId="+archived.ID)); n != 0 || len(gone.received()) != 0 {
		t.Fatalf("archived endpoint has %d deliveries", n)
	}
	e.do(req{method: http.MethodPost, path: "/_sandbox/webhooks/" + archived.ID + "/trigger",
		body: `{"event":"card.update","entityId":"card_acmeaws"}`}).gen2(t, 409, "conflict")
	e.do(req{method: http.MethodPatch, path: "/webhook/" + archived.ID, key: "sk_sandbox_acme",
		body: `{"status":"active"}`}).gen1(t, 409, "conflict")
	if h := patchHook(t, e, hook.ID, "active"); h.PausedAt != "" {
		t.Fatalf("resumed endpoint = %+v", h)
	}
	settleHooks(t, e)
	recv := rc.received()
	if len(recv) != len(queued) {
		t.Fatalf("resuming sent %d, want %d", len(recv), len(queued))
	}
	for i, q := range queued {
		if recv[i].payload.EventID != q.EventID {
			t.Fatalf("replay %d out of order", i)
		}
	}
}

func TestChaosDuplicatesAndShuffles(t *testing.T) {
	e := newHookEnv(t, webhooks.Options{})
	rc := newHookReceiver(t, e)
	hook := createHook(t, e, rc.URL)
	var chaos map[string]any
	e.do(req{method: http.MethodPost, path: "/_sandbox/webhooks/chaos", body: `{"duplicate":1}`}).
		status(t, 200).
		decode(t, &chaos)
	if chaos["duplicate"] != float64(1) || chaos["shuffle"] != false {
		t.Fatalf("chaos = %v", chaos)
	}
	d := trigger(t, e, hook.ID, "card.update", "card_acmeaws")
	settleHooks(t, e)
	recv := rc.received()
	if len(recv) != 2 || recv[0].payload.EventID != d.EventID || recv[1].payload.EventID != d.EventID ||
		recv[0].header.Get("slash-webhook-delivery-id") == recv[1].header.Get("slash-webhook-delivery-id") {
		t.Fatalf("duplicate chaos: receiver got %+v", recv)
	}
	if dup := deliveries(t, e, "webhookId="+hook.ID)[1]; dup.Source != "duplicate" || dup.RelatedID != d.ID {
		t.Fatalf("duplicate delivery = %+v", dup)
	}
	e.do(req{method: http.MethodPost, path: "/_sandbox/webhooks/chaos", body: `{"shuffle":true}`}).status(t, 200)
	patchHook(t, e, hook.ID, "paused")
	var want []string
	for i := range 8 {
		want = append(want, trigger(t, e, hook.ID, "card.update", "card_"+strconv.Itoa(i)).EventID)
	}
	patchHook(t, e, hook.ID, "active")
	settleHooks(t, e)
	recv = rc.received()[2:]
	seen, inOrder := map[string]bool{}, true
	for i, r := range recv {
		seen[r.payload.EventID] = true
		inOrder = inOrder && r.payload.EventID == want[i]
	}
	if len(recv) != len(want) || len(seen) != len(want) || inOrder {
		t.Fatalf("shuffle: receiver got %d (%d distinct), in event order %v", len(recv), len(seen), inOrder)
	}
	e.do(req{method: http.MethodPost, path: "/_sandbox/webhooks/chaos", body: `{"duplicate":2}`}).
		gen2(t, 400, "invalid_request")
}
