package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

// fromAPage is what a web page of any origin sends with the public API's
// requests: its Origin. The public API answers it, as it should.
var fromAPage = map[string]string{"Origin": "https://evil.example"}

// refusedSelf is what the sandbox answers a request it sent itself.
const refusedSelf = "does not act on requests it sent itself"

// TestWebhooksPointedAtTheSandboxChangeNothing is a page's attack: with
// the demo key it registers a webhook whose URL is one of the sandbox's
// own control routes, then causes an event. The sandbox's real sender
// delivers it over loopback to the sandbox, which refuses its own request:
// the world is as it was and the delivery is recorded as failed with 403.
func TestWebhooksPointedAtTheSandboxChangeNothing(t *testing.T) {
	cases := []struct {
		name string
		// target prepares the world and returns the control path the
		// page points its webhook at.
		target func(t *testing.T, e *env) string
		// redirect has the page's webhook URL be the page's own server,
		// which redirects to the target: the sender does not follow.
		redirect bool
		// unchanged checks what the target would have changed.
		unchanged func(t *testing.T, e *env, target string)
	}{
		{name: "reset", target: func(*testing.T, *env) string { return "/_sandbox/reset" }},
		{name: "snapshot restore", target: func(t *testing.T, e *env) string {
			// A snapshot of the world before the page's card.
			snap := e.do(req{method: http.MethodPost, path: "/_sandbox/snapshots", body: `{"label":"before"}`}).status(t, 201)
			return "/_sandbox/snapshots/" + snap.json(t)["id"].(string) + "/restore"
		}},
		{name: "agent request approve", target: func(t *testing.T, e *env) string {
			txn, _ := firstTransaction(t, e)
			ar := defer1(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"approve me"}`)
			return "/_sandbox/agent-requests/" + ar.ID + "/approve"
		}, unchanged: func(t *testing.T, e *env, target string) {
			id := strings.Split(target, "/")[3]
			if got := e.get("/_sandbox/agent-requests/"+id, "", "").status(t, 200).json(t)["status"]; got != "pending" {
				t.Fatalf("the agent request is %v after the delivery, want pending", got)
			}
		}},
		{name: "redirect to reset", redirect: true, target: func(*testing.T, *env) string { return "/_sandbox/reset" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newHookEnv(t, webhooks.Options{})
			target := c.target(t, e)
			card := createTestCard(t, e, `{"type":"virtual","name":"Before the page"}`)
			url, wantStatus, wantBody := e.srv.URL+target, 403, refusedSelf
			if c.redirect {
				redirector := httptest.NewServer(http.RedirectHandler(url, http.StatusTemporaryRedirect))
				t.Cleanup(redirector.Close)
				url, wantStatus, wantBody = redirector.URL+"/hooks", 307, ""
			}
			var hook hookView
			e.do(req{method: http.MethodPost, path: "/webhook", key: "sk_sandbox_acme", header: fromAPage,
				body: map[string]string{"url": url, "name": "page"}}).status(t, 201).decode(t, &hook)
			// The page's own write is the event the sandbox delivers.
			e.do(req{method: http.MethodPatch, path: "/card/" + card.ID, key: "sk_sandbox_acme", header: fromAPage,
				body: `{"name":"Renamed by the page"}`}).status(t, 200)
			settleHooks(t, e)

			if got := readCard(t, e, card.ID, ""); got.Name != "Renamed by the page" {
				t.Fatalf("the card after the delivery = %+v, want the page's name kept", got)
			}
			if c.unchanged != nil {
				c.unchanged(t, e, target)
			}
			list := deliveries(t, e, "webhookId="+hook.ID)
			if len(list) == 0 {
				t.Fatal("no delivery to the page's webhook")
			}
			for _, d := range list {
				a := getDelivery(t, e, d.ID).Attempts
				if d.Status == "succeeded" || len(a) == 0 || a[0].Response == nil || a[0].Response.Status != wantStatus ||
					!strings.Contains(a[0].Response.Body, wantBody) || a[0].Request.Headers["slash-sandbox-sender"] != "webhook" {
					t.Fatalf("delivery %s (%s) = %+v, want failed with %d", d.ID, d.Status, a, wantStatus)
				}
			}
		})
	}
}

// TestAuthorizationWebhookPointedAtTheSandboxChangesNothing: the page sets
// the account's authorization webhook to the sandbox's reset. A card
// authorization asks it; the sandbox refuses its own call, the fallback
// decides, and the world is not reset.
func TestAuthorizationWebhookPointedAtTheSandboxChangesNothing(t *testing.T) {
	e := newEnv(t, options{})
	card := createTestCard(t, e, `{"type":"virtual","name":"Before the page"}`)
	e.do(req{method: http.MethodPut, path: authPath, key: "sk_sandbox_acme", header: fromAPage,
		body: `{"webhookUrl":"` + e.srv.URL + `/_sandbox/reset","status":"active","config":{"fallbackBehavior":"reject"}}`}).
		status(t, 200)
	s := authorize(t, e, "card_acmegithub", 2_100, "merchant_v2_github")
	if s.Approved || s.Decision.Rule != "authorizationWebhook" || !strings.Contains(s.Transaction.DeclineReason, "403") {
		t.Fatalf("decision = %+v / %+v, want the fallback after the sandbox's 403", s.Decision, s.Transaction)
	}
	readCard(t, e, card.ID, "")
	calls := where(logLines(t, e.log.String()), "authorization webhook call")
	if len(calls) != 1 || calls[0]["status"] != float64(403) {
		t.Fatalf("authorization calls logged: %v", calls)
	}
	refused := where(logLines(t, e.log.String()), "POST /_sandbox/reset")
	if len(refused) != 1 || refused[0]["status"] != float64(403) ||
		!strings.Contains(refused[0]["error_message"].(string), refusedSelf) {
		t.Fatalf("the sandbox's own call was logged as %v", refused)
	}
}

// TestRequestsTheSandboxSentAreRefusedEverywhere: a request that carries
// the sender header is refused on every kind of path, in that path's
// envelope, before anything else looks at it.
func TestRequestsTheSandboxSentAreRefusedEverywhere(t *testing.T) {
	e := newEnv(t, options{})
	marked := map[string]string{"Slash-Sandbox-Sender": "webhook"}
	e.do(req{method: http.MethodPost, path: "/_sandbox/reset", header: marked}).gen2(t, 403, "forbidden")
	e.do(req{method: http.MethodGet, path: "/card", key: "sk_sandbox_acme", header: marked}).gen1(t, 403, "forbidden")
	e.do(req{method: http.MethodGet, path: "/v2/nowhere", key: "sk_sandbox_acme", header: marked}).
		gen2(t, 403, "forbidden")
	e.do(req{method: http.MethodOptions, path: "/card", header: map[string]string{"Slash-Sandbox-Sender": "listen",
		"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}}).gen1(t, 403, "forbidden")
	msg := e.do(req{method: http.MethodGet, path: "/_sandbox/health", header: marked}).json(t)["message"].(string)
	if !strings.Contains(msg, refusedSelf) {
		t.Fatalf("message = %q", msg)
	}
}

// TestServedSandboxDoesNotConnectToItself: a sandbox that listens knows
// its own address, so a delivery to it is not even sent: it fails with a
// reason saying so, and the world is as it was. A receiver elsewhere on
// loopback still gets its deliveries.
func TestServedSandboxDoesNotConnectToItself(t *testing.T) {
	addr := serveLimited(t, "demo", server.Config{})
	base := "http://" + addr
	card := postJSON(t, base+"/card", "sk_sandbox_acme", `{"type":"virtual","name":"Before the page"}`, 201)
	for _, host := range []string{addr, "localhost:" + addr[strings.LastIndex(addr, ":")+1:]} {
		hook := postJSON(t, base+"/webhook", "sk_sandbox_acme", `{"url":"http://`+host+`/_sandbox/reset","name":"page"}`, 201)
		postJSON(t, base+"/_sandbox/webhooks/"+hook["id"].(string)+"/trigger", "",
			`{"event":"card.update","entityId":"`+card["id"].(string)+`"}`, 201)
	}
	settled := postJSON(t, base+"/_sandbox/webhook-deliveries/settle", "", `{}`, 200)
	delivered, _ := settled["delivered"].([]any)
	if len(delivered) != 2 {
		t.Fatalf("settle = %v, want two attempts", settled)
	}
	for _, d := range delivered {
		d := d.(map[string]any)
		if d["responseStatus"] != nil ||
			!strings.Contains(d["error"].(string), "the sandbox does not send requests to itself") {
			t.Fatalf("attempt = %v, want it refused before it was sent", d)
		}
	}
	r, err := http.NewRequest(http.MethodGet, base+"/card/"+card["id"].(string), nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("X-API-Key", "sk_sandbox_acme")
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("the card made before = %d", res.StatusCode)
	}
}
