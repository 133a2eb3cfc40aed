package server_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
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
	t.Parallel()
	cases := []struct {
		name string
		// target prepares the world and returns the control path the
		// page points its webhook at.
		target func(t *testing.T, e *apitest.Env) string
		// redirect has the page's webhook URL be the page's own server,
		// which redirects to the target: the sender does not follow.
		redirect bool
		// unchanged checks what the target would have changed.
		unchanged func(t *testing.T, e *apitest.Env, target string)
	}{
		{name: "reset", target: func(*testing.T, *apitest.Env) string { return "/_sandbox/reset" }},
		{name: "snapshot restore", target: func(t *testing.T, e *apitest.Env) string {
			// A snapshot of the world before the page's card.
			snap := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots", Body: `{"label":"before"}`}).
				Status(t, 201)
			return "/_sandbox/snapshots/" + snap.JSON(t)["id"].(string) + "/restore"
		}},
		{name: "agent request approve", target: func(t *testing.T, e *apitest.Env) string {
			txn, _ := apitest.FirstTransaction(t, e)
			ar := apitest.DeferNote(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"approve me"}`)
			return "/_sandbox/agent-requests/" + ar.ID + "/approve"
		}, unchanged: func(t *testing.T, e *apitest.Env, target string) {
			id := strings.Split(target, "/")[3]
			if got := e.Get("/_sandbox/agent-requests/"+id, "", "").Status(t, 200).JSON(t)["status"]; got != "pending" {
				t.Fatalf("the agent request is %v after the delivery, want pending", got)
			}
		}},
		{
			name:     "redirect to reset",
			redirect: true,
			target:   func(*testing.T, *apitest.Env) string { return "/_sandbox/reset" },
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := apitest.NewHookEnv(t, webhooks.Options{})
			target := c.target(t, e)
			card := apitest.CreateTestCard(t, e, `{"type":"virtual","name":"Before the page"}`)
			url, wantStatus, wantBody := e.Server.URL+target, 403, refusedSelf
			if c.redirect {
				redirector := httptest.NewServer(http.RedirectHandler(url, http.StatusTemporaryRedirect))
				t.Cleanup(redirector.Close)
				url, wantStatus, wantBody = redirector.URL+"/hooks", 307, ""
			}
			var hook apitest.HookView
			e.Do(apitest.Req{Method: http.MethodPost, Path: "/webhook", Key: "sk_sandbox_acme", Header: fromAPage,
				Body: map[string]string{"url": url, "name": "page"}}).Status(t, 201).Decode(t, &hook)
			// The page's own write is the event the sandbox delivers.
			e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card/" + card.ID, Key: "sk_sandbox_acme",
				Header: fromAPage,
				Body:   `{"name":"Renamed by the page"}`}).
				Status(t, 200)
			apitest.SettleHooks(t, e)

			if got := apitest.ReadCard(t, e, card.ID, ""); got.Name != "Renamed by the page" {
				t.Fatalf("the card after the delivery = %+v, want the page's name kept", got)
			}
			if c.unchanged != nil {
				c.unchanged(t, e, target)
			}
			list := apitest.Deliveries(t, e, "webhookId="+hook.ID)
			if len(list) == 0 {
				t.Fatal("no delivery to the page's webhook")
			}
			for _, d := range list {
				a := apitest.GetDelivery(t, e, d.ID).Attempts
				if d.Status == "succeeded" || len(a) == 0 || a[0].Response == nil || a[0].Response.Status != wantStatus ||
					!strings.Contains(a[0].Response.Body, wantBody) ||
					a[0].Request.Headers["slash-sandbox-sender"] != "webhook" {
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
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	card := apitest.CreateTestCard(t, e, `{"type":"virtual","name":"Before the page"}`)
	e.Do(apitest.Req{Method: http.MethodPut, Path: apitest.AuthPath, Key: "sk_sandbox_acme", Header: fromAPage,
		Body: `{"webhookUrl":"` + e.Server.URL + `/_sandbox/reset","status":"active",` +
			`"config":{"fallbackBehavior":"reject"}}`}).
		Status(t, 200)
	s := apitest.Authorize(t, e, "card_acmegithub", 2_100, "merchant_v2_github")
	if s.Approved || s.Decision.Rule != "authorizationWebhook" ||
		!strings.Contains(s.Transaction.DeclineReason, "403") {
		t.Fatalf("decision = %+v / %+v, want the fallback after the sandbox's 403", s.Decision, s.Transaction)
	}
	apitest.ReadCard(t, e, card.ID, "")
	calls := apitest.Where(apitest.LogLines(t, e.Log.String()), "authorization webhook call")
	if len(calls) != 1 || calls[0]["status"] != float64(403) {
		t.Fatalf("authorization calls logged: %v", calls)
	}
	refused := apitest.Where(apitest.LogLines(t, e.Log.String()), "POST /_sandbox/reset")
	if len(refused) != 1 || refused[0]["status"] != float64(403) ||
		!strings.Contains(refused[0]["error_message"].(string), refusedSelf) {
		t.Fatalf("the sandbox's own call was logged as %v", refused)
	}
}

// TestRequestsTheSandboxSentAreRefusedEverywhere: a request that carries
// the sender header is refused on every kind of path, in that path's
// envelope, before anything else looks at it.
func TestRequestsTheSandboxSentAreRefusedEverywhere(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	marked := map[string]string{"Slash-Sandbox-Sender": "webhook"}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/reset", Header: marked}).Gen2(t, 403, "forbidden")
	e.Do(apitest.Req{Method: http.MethodGet, Path: "/card", Key: "sk_sandbox_acme", Header: marked}).
		Gen1(t, 403, "forbidden")
	e.Do(apitest.Req{Method: http.MethodGet, Path: "/v2/nowhere", Key: "sk_sandbox_acme", Header: marked}).
		Gen2(t, 403, "forbidden")
	e.Do(apitest.Req{Method: http.MethodOptions, Path: "/card",
		Header: map[string]string{"Slash-Sandbox-Sender": "listen",
			"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}}).
		Gen1(t, 403, "forbidden")
	msg := e.Do(apitest.Req{Method: http.MethodGet, Path: "/_sandbox/health",
		Header: marked}).JSON(t)["message"].(string)
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
		hook := postJSON(
			t,
			base+"/webhook",
			"sk_sandbox_acme",
			`{"url":"http://`+host+`/_sandbox/reset","name":"page"}`,
			201,
		)
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
