package control_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
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
	var hooks, pending []string
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
		default:
			apitest.Advance(t, e, fmt.Sprintf(`{"by":"%ds"}`, 1+r.IntN(900)))
		}
	}
	settleDeliveries(t, e)
}
