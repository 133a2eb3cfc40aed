package control_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// hookReceiver is a loopback webhook receiver for the export tests: a
// path ending in /ok answers 204, any other 500, whoever posts (the world
// and the one loaded from its export post to the same receiver).
func hookReceiver(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/ok") {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		http.Error(w, "receiver down", http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// settleDeliveries waits until the world's webhook sender has posted every
// delivery due.
func settleDeliveries(t *testing.T, e *apitest.Env) {
	t.Helper()
	var out struct {
		Settled bool `json:"settled"`
		Due     int  `json:"due"`
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/webhook-deliveries/settle"}).Status(t, 200).Decode(t, &out)
	if !out.Settled || out.Due != 0 {
		t.Fatalf("webhook deliveries did not settle: %+v", out)
	}
}

// randomActivity sends a seeded sequence of writes that leave work under
// way: webhook endpoints on a loopback receiver, one answering and one
// failing, paused and resumed, told of new cards; read-only keys' writes
// held as agent requests, some approved or rejected; the clock moved on so
// that failed deliveries are retried. It ends once the sender is idle.
func randomActivity(t *testing.T, e *apitest.Env, seed int64) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(seed), 35))
	const acme, ro, carol = apitest.AcmeKey, "sk_sandbox_acme_readonly", "sk_sandbox_carol_readonly"
	rcv := hookReceiver(t)
	var hooks, pending, asked []string
	for _, end := range []string{"ok", "fail"} {
		var h struct {
			ID string `json:"id"`
		}
		e.Post("/webhook", acme, "", fmt.Sprintf("act-%d-%s", seed, end), map[string]any{
			"url": fmt.Sprintf("%s/hooks/%d/%s", rcv.URL, seed, end), "name": "Receiver " + end}).
			Status(t, 201).Decode(t, &h)
		hooks = append(hooks, h.ID)
	}
	for i := range 14 {
		switch op := r.IntN(7); {
		case op == 0:
			apitest.CreateTestCard(t, e, fmt.Sprintf(`{"accountId":%q,"name":"Hooked %d","type":"virtual"}`,
				apitest.AcmeAccount, i))
		case op == 1:
			res := e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: ro, Body: map[string]any{
				"name": fmt.Sprintf("Asked %d", i), "type": "virtual", "accountId": apitest.AcmeAccount}})
			pending = append(pending, apitest.Deferred(t, res))
		case op == 2:
			res := e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card/card_acmemeals", Key: carol,
				Header: map[string]string{"x-legal-entity": "le_acme"}, Body: map[string]any{"name": fmt.Sprintf("Renamed %d", i)}})
			pending = append(pending, apitest.Deferred(t, res))
		case op == 3 && len(pending) > 0:
			id := pending[0]
			pending = pending[1:]
			verb := []string{"approve", "reject"}[r.IntN(2)]
			e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/agent-requests/" + id + "/" + verb}).Status(t, 200)
		case op == 4:
			status := []string{"paused", "active"}[r.IntN(2)]
			e.Patch("/webhook/"+hooks[r.IntN(2)], acme, "", map[string]any{"status": status}).Status(t, 200)
		case op == 5 || op == 6 && len(asked) == 0:
			contact := []string{"le_c_pixelforge", "le_c_bluefinlabs"}[r.IntN(2)]
			res := apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", fmt.Sprintf("act-%d-%d", seed, i),
				fmt.Sprintf(`{"contactId":%q,"requestedInformation":{"destinationTypes":["bank_account"],"address":true},`+
					`"requesterName":"Alice Chen","ccEmails":["books@acme.test"],"note":"Asked %d"}`, contact, i))
			if res.StatusCode == http.StatusConflict { // the contact's request is still pending
				continue
			}
			id := res.Status(t, 200).JSON(t)["id"].(string)
			asked = append(asked, id)
			e.Post("/transfers/ach", acme, "", fmt.Sprintf("act-ach-%d-%d", seed, i), map[string]any{
				"accountId": apitest.AcmeAccount, "informationRequestId": id, "amountCents": 100 + r.IntN(50000)}).
				Status(t, 200)
		case op == 6:
			id := asked[0]
			asked = asked[1:]
			if r.IntN(2) == 0 {
				e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/information-requests/" + id + "/cancel"}).
					Status(t, 200)
				continue
			}
			e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/simulate/information-request-submission",
				Body: map[string]any{"informationRequestId": id}}).Status(t, 200)
		default:
			apitest.Advance(t, e, fmt.Sprintf(`{"by":"%ds"}`, 1+r.IntN(900)))
		}
	}
	settleDeliveries(t, e)
}

// wallTimed are the parts of a delivery attempt the wall clock decides: how
// long it took, and the signed real time its request carried. The same
// attempt made by two worlds differs there alone.
var wallTimed = regexp.MustCompile(`"(latencyMs|slash-webhook-timestamp|slash-webhook-signature)":("[^"]*"|[0-9]+)`)

// activityAlike fails when the two worlds' work under way, as the control
// API shows it, differs: the information requests, each one's secure
// form, the outbox's emails about them, the agent requests, and every
// webhook delivery with its attempts.
// ignore are further parts of the bodies to leave out.
func activityAlike(t *testing.T, orig, copy *apitest.Env, ignore ...*regexp.Regexp) {
	t.Helper()
	paths := []string{"/_sandbox/information-requests", "/_sandbox/outbox?kind=information_request",
		"/_sandbox/agent-requests", "/_sandbox/webhook-deliveries"}
	var irs struct {
		Items []struct {
			Request struct {
				ID string `json:"id"`
			} `json:"informationRequest"`
			FormURL string `json:"formUrl"`
		} `json:"items"`
	}
	orig.Get(paths[0], "", "").Status(t, 200).Decode(t, &irs)
	for _, ir := range irs.Items {
		paths = append(paths, "/_sandbox/information-requests/"+ir.Request.ID, ir.FormURL)
	}
	for _, p := range paths {
		want, got := orig.Get(p, "", ""), copy.Get(p, "", "")
		// Links name the server they were read from.
		want.Raw = wallTimed.ReplaceAll(bytes.ReplaceAll(want.Raw, []byte(orig.Server.URL), []byte("http://sandbox")),
			[]byte(`"$1":"…"`))
		got.Raw = wallTimed.ReplaceAll(bytes.ReplaceAll(got.Raw, []byte(copy.Server.URL), []byte("http://sandbox")),
			[]byte(`"$1":"…"`))
		for _, re := range ignore {
			want.Raw, got.Raw = re.ReplaceAll(want.Raw, []byte("…")), re.ReplaceAll(got.Raw, []byte("…"))
		}
		if want.StatusCode != got.StatusCode || !bytes.Equal(unnumbered(want.Raw), unnumbered(got.Raw)) {
			at := 0
			for at < min(len(want.Raw), len(got.Raw)) && want.Raw[at] == got.Raw[at] {
				at++
			}
			t.Errorf("GET %s: %d, export %d; bodies part at byte %d:\n  %s\n  %s", p, want.StatusCode,
				got.StatusCode, at, around(want.Raw, at), around(got.Raw, at))
		}
	}
}

// backingOff is a world whose endpoint backs off after failing for good:
// its next delivery waits for the scheduled end of the backoff, and a
// read-only key's write waits for its expiry.
const backingOff = `name: backing-off
clockStart: 2026-06-15T14:00:00Z
legalEntities: [{id: le_one, name: One}]
keys:
  - {key: sk_one, kind: legal_entity, legalEntityId: le_one}
  - {key: sk_one_ro, kind: legal_entity, legalEntityId: le_one, readOnly: true}
accounts: [{id: sa_group_one, legalEntityId: le_one, name: One, balanceCents: 100000}]
cards: [{id: card_one, accountId: sa_group_one, name: One}]
webhooks:
  - id: webhook_one
    legalEntityId: le_one
    url: http://127.0.0.1:9/hooks
    name: Backing off
    status: backing-off
    backingOffUntil: +2h
    resumeEventId: evt_resume
    consecutiveFailures: 2
    deliveries:
      - {id: whdel_failed, eventId: evt_old, event: card.update, entityId: card_one, status: failed, createdAt: -3d,
         completedAt: -1h, attempts: [{at: -1h, url: "http://127.0.0.1:9/hooks", error: refused}]}
      - {id: whdel_next, eventId: evt_new, event: card.update, entityId: card_one, status: queued, createdAt: -30m}
deferredWrites:
  - {id: dfa_one, key: sk_one_ro, method: POST, path: /card, body: {name: Later, type: virtual}, at: -1h,
     expiresAt: +1h}
events:
  - {id: evt_resume, at: +2h, kind: webhook.resume, with: {webhookId: webhook_one}}
  - {id: evt_expire, at: +1h, kind: agent_request.expire, with: {agentRequestId: dfa_one}}
idCounters: {evt_: 40, whdel_: 40}
`

// TestExportCarriesABackingOffEndpoint: an endpoint declared backing off,
// with a delivery failed for good and one queued behind the backoff, and a
// pending agent request, are given back by an export as they stand, and
// both worlds resume the endpoint, attempt the delivery and expire the
// request alike when the clock reaches their events.
func TestExportCarriesABackingOffEndpoint(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "backing-off.yaml")
	if err := os.WriteFile(file, []byte(backingOff), 0o600); err != nil {
		t.Fatal(err)
	}
	e := apitest.New(t, apitest.Options{Scenario: file})
	copy, raw := exported(t, e)
	for _, want := range []string{"resumeEventId: evt_resume", "id: evt_expire", "id: whdel_next"} {
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("the export does not say %q", want)
		}
	}
	var hook struct {
		Status, BackingOffUntil string
	}
	type note struct {
		ID, Status string
		Attempts   int
	}
	var notes struct{ Items []note }
	for step, env := range []*apitest.Env{e, copy, e, copy} {
		if step == 2 {
			advanceBoth(t, "3h", e, copy)
		}
		hook.BackingOffUntil = ""
		env.Get("/webhook/webhook_one", "sk_one", "").Status(t, 200).Decode(t, &hook)
		env.Get("/webhook/webhook_one/notification", "sk_one", "").Status(t, 200).Decode(t, &notes)
		ar := env.Get("/agent-request/dfa_one", "sk_one_ro", "").Status(t, 200).JSON(t)
		want := []any{"backing-off", "2026-06-15T16:00:00.000Z", note{"whdel_next", "queued", 0}, "pending"}
		if step >= 2 { // the backoff ended an hour ago: 7 attempts refused since (0.5 s, 2.5 s, … apart)
			want = []any{"active", "", note{"whdel_next", "retrying", 7}, "expired"}
		}
		got := []any{hook.Status, hook.BackingOffUntil, notes.Items[0], ar["status"]}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("step %d: endpoint, newest delivery, agent request = %v, want %v", step, got, want)
		}
	}
	results := map[string]*routeResult{}
	compare(t, e, copy, results)
	for route, r := range results {
		if r.differ > 0 {
			t.Errorf("%s: %s", route, r.example)
		}
	}
	activityAlike(t, e, copy)
}
