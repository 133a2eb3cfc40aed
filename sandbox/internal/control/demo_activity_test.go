package control_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// TestDemoOpensWithWorkUnderWay reads what the demo declares under way
// through the control API: emails sent, a queued ACH, a write waiting for
// approval, an endpoint whose deliveries are refused.
func TestDemoOpensWithWorkUnderWay(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	var outbox struct {
		Items []client.Message `json:"items"`
	}
	e.Get("/_sandbox/outbox", "", "").Status(t, http.StatusOK).Decode(t, &outbox)
	var subjects []string
	for _, m := range outbox.Items {
		subjects = append(subjects, m.Subject)
	}
	want := []string{
		"Acme Robotics Inc. requests your US bank account and address",
		"Invoice ACME-1004 from Acme Robotics Inc.",
		"Invoice ACME-1003 from Acme Robotics Inc.",
	}
	if strings.Join(subjects, "|") != strings.Join(want, "|") {
		t.Fatalf("the outbox holds %q, want %q", subjects, want)
	}

	txns := e.Get("/transaction?filter:status=pending", "sk_sandbox_acme", "").Status(t,
		http.StatusOK).JSON(t)["items"].([]any)
	queued := 0
	for _, raw := range txns {
		if txn := raw.(map[string]any); txn["description"] == "ACH to Brightside Office Cleaning (queued: awaiting bank"+
			" details)" &&
			txn["amountCents"] == float64(-185000) {
			queued++
		}
	}
	if queued != 1 {
		t.Errorf("%d queued ACH to Brightside among the pending transactions, want 1", queued)
	}

	agents := e.Get("/_sandbox/agent-requests?status=pending", "", "").Status(t, http.StatusOK).JSON(t)["items"].([]any)
	if len(agents) != 1 {
		t.Fatalf("%d pending agent requests, want the demo's 1", len(agents))
	}
	ar := agents[0].(map[string]any)
	display := ar["display"].(map[string]any)
	if ar["operation"] != "card.create" || ar["apiKey"] != "sk_sandbox_acme_readonly" ||
		display["title"] != "Create Virtual Card" ||
		ar["createdAt"] != "2026-06-15T13:35:00Z" ||
		!strings.Contains(fmt.Sprint(display["sections"]), "Figma (design team)") {
		t.Errorf("the demo's agent request = %v", ar)
	}

	deliveries := e.Get("/_sandbox/webhook-deliveries?webhookId=webhook_acmeerp", "", "").Status(t,
		http.StatusOK).JSON(t)["items"].([]any)
	if len(deliveries) != 3 {
		t.Fatalf("%d deliveries to the refusing endpoint, want 3", len(deliveries))
	}
	head := deliveries[0].(map[string]any)
	attempts := head["attempts"].([]any)
	last, _ := attempts[len(attempts)-1].(map[string]any)
	if head["status"] != "retrying" || len(attempts) != 7 || head["nextAttemptAt"] != "2026-06-15T16:02:45.5Z" ||
		!strings.Contains(fmt.Sprint(last), "dial tcp 127.0.0.1:9: connect: connection refused") {
		t.Errorf("the refused delivery = %v", head)
	}
	for _, raw := range deliveries[1:] {
		if d := raw.(map[string]any); d["status"] != "queued" {
			t.Errorf("a delivery behind the refused one is %v, want queued", d["status"])
		}
	}
}

// TestDemoAgentRequestIsApprovedInAnotherWorld approves the demo's pending
// write in a world of its own: it runs as that world's key, and makes the
// card.
func TestDemoAgentRequestIsApprovedInAnotherWorld(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	w := apitest.CreateWorld(t, e, `{"scenario":"demo"}`)
	in := map[string]string{"X-Sandbox-World": w.ID}
	list := e.Do(apitest.Req{Path: "/_sandbox/agent-requests?status=pending", Header: in}).Status(t,
		http.StatusOK).JSON(t)["items"].([]any)
	if len(list) != 1 {
		t.Fatalf("%d pending agent requests in %s, want 1", len(list), w.ID)
	}
	ar := list[0].(map[string]any)
	if ar["apiKey"] != "sk_sandbox_acme_readonly_"+w.ID {
		t.Fatalf("the agent request asks as %v, want the world's own key", ar["apiKey"])
	}
	mine := e.Get("/agent-request", "sk_sandbox_acme_readonly_"+w.ID, "").Status(t, http.StatusOK).JSON(t)["items"].([]any)
	if len(mine) != 1 || mine[0].(map[string]any)["id"] != ar["id"] {
		t.Fatalf("the read-only key lists %v, want its request", mine)
	}
	done := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/agent-requests/" + ar["id"].(string) + "/approve",
		Header: in}).
		Status(t, http.StatusOK).
		JSON(t)
	result, _ := done["result"].(map[string]any)
	if done["status"] != "executed" || result["name"] != "Figma (design team)" ||
		result["cardGroupId"] != "card_group_acmesaas" {
		t.Fatalf("approved = %v", done)
	}
	card := e.Get("/card/"+result["id"].(string), "sk_sandbox_acme_"+w.ID, "").Status(t, http.StatusOK).JSON(t)
	if card["name"] != "Figma (design team)" {
		t.Errorf("the approved card reads %v", card)
	}
	// The default world's request is untouched.
	if n := len(e.Get("/_sandbox/agent-requests?status=pending", "", "").Status(t,
		http.StatusOK).JSON(t)["items"].([]any)); n != 1 {
		t.Errorf("the default world has %d pending agent requests, want 1", n)
	}
}

// TestAdvanceToTheNextBusinessEvent skips token price ticks as the next
// event, running those before it.
func TestAdvanceToTheNextBusinessEvent(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	res := apitest.Advance(t, e, `{"to":"next","skip":["token_prices.tick"]}`)
	events := res["events"].([]any)
	lastEvent := events[len(events)-1].(map[string]any)
	if res["to"] != "2026-06-15T16:02:45.5Z" || lastEvent["kind"] != "webhook.retry" || len(events) != 3 {
		t.Fatalf("advanced to %v running %v; want the refused delivery's retry after two ticks", res["to"], events)
	}
	for _, raw := range events[:2] {
		if k := raw.(map[string]any)["kind"]; k != "token_prices.tick" {
			t.Errorf("an event before the business one is %v", k)
		}
	}
	// Without skip, the next event is the next tick.
	if res := apitest.Advance(t, e, `{"to":"next"}`); res["to"] != "2026-06-15T17:00:00Z" {
		t.Errorf("the next event is at %v, want the 17:00 tick", res["to"])
	}
	for _, tc := range []struct{ name, body, field string }{
		{"skip without next", `{"by":"1h","skip":["token_prices.tick"]}`, "/skip"},
		{"unknown kind", `{"to":"next","skip":["token_prices.tick","price.tock"]}`, "/skip/1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: tc.body}).
				Gen2(t, http.StatusBadRequest, "invalid_request")
			if d[tc.field] == "" {
				t.Errorf("details %v, want one for %s", d, tc.field)
			}
		})
	}
}

// TestChangesWaitsForTheWorldToChange asks for the change counter, waits
// on it while a write happens, and refuses bad parameters.
func TestChangesWaitsForTheWorldToChange(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	now := e.Get("/_sandbox/changes", "", "").Status(t, http.StatusOK).JSON(t)
	version := fmt.Sprint(now["version"])
	if now["changed"] != false {
		t.Fatalf("without since: %v", now)
	}
	if same := e.Get("/_sandbox/changes?wait=0&since="+version, "", "").Status(t,
		http.StatusOK).JSON(t); same["changed"] != false ||
		fmt.Sprint(same["version"]) != version {
		t.Fatalf("nothing changed, yet %v", same)
	}
	answer := make(chan map[string]any, 1)
	go func() {
		res, err := http.Get(e.Server.URL + "/_sandbox/changes?wait=60&since=" + version)
		if err != nil {
			answer <- map[string]any{"error": err.Error()}
			return
		}
		defer res.Body.Close()
		var body map[string]any
		if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
			body = map[string]any{"error": err.Error()}
		}
		answer <- body
	}()
	// A read the journal records is a change too.
	e.Get("/card", "sk_sandbox_acme", "").Status(t, http.StatusOK)
	got := <-answer
	if got["changed"] != true || fmt.Sprint(got["version"]) == version {
		t.Fatalf("after a call: %v", got)
	}
	for _, tc := range []struct{ query, field string }{
		{"since=soon", "since"}, {"since=1&wait=61", "wait"}, {"since=1&wait=-1", "wait"},
	} {
		d := e.Get("/_sandbox/changes?"+tc.query, "", "").Gen2(t, http.StatusBadRequest, "invalid_request")
		if d[tc.field] == "" {
			t.Errorf("%s: details %v, want one for %s", tc.query, d, tc.field)
		}
	}
}
