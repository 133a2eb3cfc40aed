package server_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// deferredID is the form of an agent request's id: the docs show dfa_abc123.
var deferredID = regexp.MustCompile(`^dfa_[A-Za-z0-9]+$`)

// deferred checks the answer to a read-only key's write is the real
// service's deferral: 403, the agent request's id in x-deferred-action-id,
// and a JSON body of exactly {"error": "Action requires approval: <URL>"}
// whose URL opens the request's approval page on the host the request was
// sent to. It returns the id.
func deferred(t *testing.T, r *resp) string {
	t.Helper()
	r.status(t, http.StatusForbidden)
	id := r.Header.Get("x-deferred-action-id")
	if !deferredID.MatchString(id) {
		t.Fatalf("x-deferred-action-id = %q, want the form dfa_abc123; body %s", id, r.body)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type = %q, want application/json", ct)
	}
	var body map[string]string
	r.decode(t, &body)
	msg, ok := body["error"]
	if len(body) != 1 || !ok {
		t.Fatalf("body = %s, want exactly one property, error", r.body)
	}
	raw, ok := strings.CutPrefix(msg, "Action requires approval: ")
	if !ok {
		t.Fatalf("error = %q, want it to begin with \"Action requires approval: \"", msg)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		t.Fatalf("approval URL %q is not an absolute http URL (%v)", raw, err)
	}
	if u.Host != r.Request.Host {
		t.Fatalf("approval URL host = %q, want the request's host %q", u.Host, r.Request.Host)
	}
	if got, want := u.Query().Get("modal"), "/deferred-action/"+id; u.Path != "/_sandbox/ui" || got != want {
		t.Fatalf("approval URL %q: path %q, modal %q; want /_sandbox/ui and %q", raw, u.Path, got, want)
	}
	return id
}

// approveOK approves an agent request and returns its executed result.
func approveOK(t *testing.T, e *env, id string) map[string]any {
	t.Helper()
	got := decide(e, id, "approve").status(t, 200).json(t)
	if got["status"] != "executed" {
		t.Fatalf("approval of %s = %v", id, got)
	}
	result, _ := got["result"].(map[string]any)
	return result
}

// TestDeferredWritesAcrossOperations runs the agent-request lifecycle over
// several kinds of write: each is deferred with nothing changed, and once
// approved has the effect a direct call has.
func TestDeferredWritesAcrossOperations(t *testing.T) {
	e := newEnv(t, options{})
	ro := "sk_sandbox_acme_readonly"
	t.Run("card create", func(t *testing.T) {
		body := map[string]any{"type": "virtual", "name": "Agent's card", "accountId": "sa_group_acmeoperating"}
		id := deferred(t, e.post("/card", ro, "", "", body))
		if n := len(walkItems(t, e, "sk_sandbox_acme", "", "/card?filter:status=active")); n == 0 {
			t.Fatal("no cards")
		}
		card := approveOK(t, e, id)
		direct := e.post("/card", "sk_sandbox_acme", "", "", body).status(t, 201).json(t)
		for _, k := range []string{"name", "accountId", "status", "isPhysical", "expiryYear"} {
			if card[k] != direct[k] {
				t.Fatalf("approved card %s = %v, a direct call gives %v", k, card[k], direct[k])
			}
		}
		if got := e.get("/card/"+card["id"].(string), "sk_sandbox_acme", "").status(t,
			200).json(t); got["name"] != "Agent's card" {
			t.Fatalf("created card = %v", got)
		}
	})
	t.Run("constraint patch shows old and new values", func(t *testing.T) {
		r := e.patch("/card/card_acmeoffice/spending-constraint", ro, "", map[string]any{"countryRule": nil})
		id := deferred(t, r)
		display := e.get("/agent-request/"+id, ro, "").status(t, 200).json(t)["display"].(map[string]any)
		var change map[string]any
		for _, s := range display["sections"].([]any) {
			if sec := s.(map[string]any); sec["label"] == "Country Rule" {
				change, _ = sec["value"].(map[string]any)
			}
		}
		if change == nil || !strings.Contains(change["oldValue"].(string), "US") || change["newValue"] != "none" {
			t.Fatalf("display = %v", display)
		}
		before := e.get("/card/card_acmeoffice", "sk_sandbox_acme", "").json(t)["spendingConstraint"].(map[string]any)
		if before["countryRule"] == nil {
			t.Fatal("deferral removed the rule already")
		}
		approveOK(t, e, id)
		after := e.get("/card/card_acmeoffice", "sk_sandbox_acme", "").json(t)["spendingConstraint"].(map[string]any)
		if after["countryRule"] != nil || after["spendingRule"] == nil {
			t.Fatalf("after approval = %v", after)
		}
	})
	t.Run("webhook create", func(t *testing.T) {
		id := deferred(t,
			e.post("/webhook", ro, "", "", map[string]any{"url": "https://hooks.example.test/slash", "name": "Agent hook"}))
		hook := approveOK(t, e, id)
		got := e.get("/webhook/"+hook["id"].(string), "sk_sandbox_acme", "").status(t, 200).json(t)
		if got["name"] != "Agent hook" || got["url"] != "https://hooks.example.test/slash" {
			t.Fatalf("webhook = %v", got)
		}
	})
	t.Run("information request", func(t *testing.T) {
		r := createIR(e, "sk_sandbox_carol_readonly", "le_acme", "agent-ir", validIR)
		id := deferred(t, r)
		ir := approveOK(t, e, id)
		if ir["status"] != "pending" || ir["sentToEmail"] != "hello@pixelforge.test" {
			t.Fatalf("approved request = %v", ir)
		}
		outboxLink(t, e, "hello@pixelforge.test")
		again := decide(e, deferred(t, createIR(e, "sk_sandbox_carol_readonly", "le_acme", "agent-ir", validIR)),
			"approve").status(t, 200).
			json(t)
		if again["status"] != "failed" || again["failureStatus"] != float64(409) {
			t.Fatalf("a second approval with a consumed key = %v", again)
		}
	})
	t.Run("listing is scoped to the key", func(t *testing.T) {
		mine := walkItems(t, e, ro, "", "/agent-request")
		carol := walkItems(t, e, "sk_sandbox_carol_readonly", "le_acme", "/agent-request")
		// The acme key's three, and the card the demo's assistant asked for.
		if len(mine) != 4 || len(carol) != 2 {
			t.Fatalf("acme read-only key lists %d, carol's %d; want 4 and 2", len(mine), len(carol))
		}
	})
}

func TestDeferredTransferMeetsTheWorldAsItIsAtApproval(t *testing.T) {
	e := newEnv(t, options{})
	ro := "sk_sandbox_acme_readonly"
	eng, _ := vaBalance(t, e, "sk_sandbox_acme", "", "subaccount_acmeengineering")
	move := map[string]any{
		"source":      "subaccount_acmeengineering",
		"destination": "subaccount_acmepayroll",
		"amountCents": eng - 1000,
	}
	t.Run("insufficient funds at approval", func(t *testing.T) {
		id := deferred(t, e.post("/transfer/virtual-account", ro, "", "drain-later", move))
		e.post("/transfer/virtual-account", "sk_sandbox_acme", "", "drain-now",
			map[string]any{"source": "subaccount_acmeengineering",
				"destination": "subaccount_acmemarketing", "amountCents": 5000}).
			status(t, 200)
		got := decide(e, id, "approve").status(t, 200).json(t)
		if got["status"] != "failed" || got["failure"].(map[string]any)["identifier"] != "insufficient_funds" {
			t.Fatalf("approval after the money left = %v", got)
		}
		if now, _ := vaBalance(t, e, "sk_sandbox_acme", "", "subaccount_acmeengineering"); now != eng-5000 {
			t.Fatalf("engineering holds %d, want %d: the failed approval moved money", now, eng-5000)
		}
	})
	t.Run("the original idempotency key still applies", func(t *testing.T) {
		small := map[string]any{
			"source":      "subaccount_acmeengineering",
			"destination": "subaccount_acmepayroll",
			"amountCents": 700,
		}
		id := deferred(t, e.post("/transfer/virtual-account", ro, "", "same-key", small))
		direct := e.post("/transfer/virtual-account", "sk_sandbox_acme", "", "same-key", small).status(t, 200).json(t)
		before, _ := vaBalance(t, e, "sk_sandbox_acme", "", "subaccount_acmeengineering")
		result := approveOK(t, e, id)
		if result["transferId"] != direct["transferId"] {
			t.Fatalf("approval ran the transfer again: %v, the direct call made %v", result, direct)
		}
		if after, _ := vaBalance(t, e, "sk_sandbox_acme", "", "subaccount_acmeengineering"); after != before {
			t.Fatalf("approval of an already used key moved money: %d → %d", before, after)
		}
	})
	t.Run("reject and expiry", func(t *testing.T) {
		rej := deferred(
			t,
			e.post("/transfer/virtual-account", ro, "", "rej",
				map[string]any{"source": "subaccount_acmepayroll", "destination": "subaccount_acmemarketing", "amountCents": 100}),
		)
		decide(e, rej, "reject").status(t, 200)
		exp := deferred(
			t,
			e.post("/transfer/virtual-account", ro, "", "exp",
				map[string]any{"source": "subaccount_acmepayroll", "destination": "subaccount_acmemarketing", "amountCents": 100}),
		)
		advance(t, e, `{"by":"73h"}`)
		for id, want := range map[string]string{rej: "rejected", exp: "expired"} {
			if got := e.get("/agent-request/"+id, ro, "").status(t, 200).json(t)["status"]; got != want {
				t.Fatalf("%s is %v, want %s", id, got, want)
			}
		}
	})
}

func TestAgentRequestExpiryIsConfigurable(t *testing.T) {
	e := newEnv(t, options{})
	if got := e.get("/_sandbox/agent-requests/settings", "", "").status(t, 200).json(t); got["expiresAfter"] != "72h0m0s" {
		t.Fatalf("default expiry = %v", got)
	}
	e.do(req{method: http.MethodPut, path: "/_sandbox/agent-requests/settings", body: `{"expiresAfter":"2h"}`}).
		status(t, 200)
	e.do(req{method: http.MethodPut, path: "/_sandbox/agent-requests/settings", body: `{"expiresAfter":"soon"}`}).
		gen2(t, 400, "invalid_request")
	txn, _ := firstTransaction(t, e)
	id := defer1(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"quick"}`).ID
	advance(t, e, `{"by":"119m"}`)
	if got := e.get("/agent-request/"+id, "sk_sandbox_carol_readonly", "le_acme").json(t)["status"]; got != "pending" {
		t.Fatalf("after 119m: %v", got)
	}
	advance(t, e, `{"by":"1m"}`)
	if got := e.get("/agent-request/"+id, "sk_sandbox_carol_readonly", "le_acme").json(t)["status"]; got != "expired" {
		t.Fatalf("after 2h: %v", got)
	}
}

func TestScenarioSetsExpiryAndRateLimit(t *testing.T) {
	e := newEnv(t, options{})
	yaml := `agentRequests: {expiresAfter: 30m}
rateLimit: {requests: 2, window: 1h}
legalEntities:
  - {id: le_r, name: R}
keys:
  - {key: sk_r, kind: legal_entity, legalEntityId: le_r}
`
	w := createWorld(t, e, `{"id":"limited","yaml":`+quote(yaml)+`}`)
	if got := e.get("/_sandbox/worlds/limited/agent-requests/settings", "", "").status(t,
		200).json(t); got["expiresAfter"] != "30m0s" {
		t.Fatalf("scenario expiry = %v", got)
	}
	key := "sk_r_" + w.ID
	e.get("/legal-entity", key, "").status(t, 200)
	e.get("/legal-entity", key, "").status(t, 200)
	e.get("/legal-entity", key, "").status(t, 429)
	if got := e.get("/_sandbox/worlds/limited/rate-limit", "", "").json(t)["limit"].(map[string]any); got["requests"] !=
		float64(2) {
		t.Fatalf("scenario rate limit = %v", got)
	}
	e.do(req{method: http.MethodPost, path: "/_sandbox/worlds", body: `{"yaml":` + quote("rateLimit: {requests: 0,"+
		" window: soon}\nlegalEntities: [{id: le_x, name: X}]\n") + `}`}).
		gen2(t, 400, "invalid_request")
}

// An update whose resource's view wraps the record ({"virtualAccount": {…},
// "balance": …}) still shows each changed property's old value.
func TestDeferredUpdateOfAWrappedResourceShowsOldValues(t *testing.T) {
	e := newEnv(t, options{})
	id := deferred(t, e.do(req{method: http.MethodPatch, path: "/virtual-account/subaccount_acmeengineering",
		key: "sk_sandbox_acme_readonly", body: map[string]any{"action": "update", "name": "Platform"}}))
	var ar agentView
	e.get("/agent-request/"+id, "sk_sandbox_acme_readonly", "").status(t, http.StatusOK).decode(t, &ar)
	for _, s := range ar.Display.Sections {
		if s.Label != "Virtual Account Name" {
			continue
		}
		ch, _ := s.Value.(map[string]any)
		if ch["oldValue"] != "Engineering" || ch["newValue"] != "Platform" {
			t.Fatalf("Virtual Account Name section = %v, want Engineering → Platform", s.Value)
		}
		return
	}
	t.Fatalf("sections %+v have no Virtual Account Name", ar.Display.Sections)
}
