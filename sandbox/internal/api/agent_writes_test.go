package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// approveOK approves an agent request and returns its executed result.
func approveOK(t *testing.T, e *apitest.Env, id string) map[string]any {
	t.Helper()
	got := apitest.Decide(e, id, "approve").Status(t, 200).JSON(t)
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
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	ro := "sk_sandbox_acme_readonly"
	t.Run("card create", func(t *testing.T) {
		body := map[string]any{"type": "virtual", "name": "Agent's card", "accountId": "sa_group_acmeoperating"}
		id := apitest.Deferred(t, e.Post("/card", ro, "", "", body))
		if n := len(apitest.WalkItems(t, e, "sk_sandbox_acme", "", "/card?filter:status=active")); n == 0 {
			t.Fatal("no cards")
		}
		card := approveOK(t, e, id)
		direct := e.Post("/card", "sk_sandbox_acme", "", "", body).Status(t, 201).JSON(t)
		for _, k := range []string{"name", "accountId", "status", "isPhysical", "expiryYear"} {
			if card[k] != direct[k] {
				t.Fatalf("approved card %s = %v, a direct call gives %v", k, card[k], direct[k])
			}
		}
		if got := e.Get("/card/"+card["id"].(string), "sk_sandbox_acme", "").Status(t,
			200).JSON(t); got["name"] != "Agent's card" {
			t.Fatalf("created card = %v", got)
		}
	})
	t.Run("constraint patch shows old and new values", func(t *testing.T) {
		r := e.Patch("/card/card_acmeoffice/spending-constraint", ro, "", map[string]any{"countryRule": nil})
		id := apitest.Deferred(t, r)
		display := e.Get("/agent-request/"+id, ro, "").Status(t, 200).JSON(t)["display"].(map[string]any)
		var change map[string]any
		for _, s := range display["sections"].([]any) {
			if sec := s.(map[string]any); sec["label"] == "Country Rule" {
				change, _ = sec["value"].(map[string]any)
			}
		}
		if change == nil || !strings.Contains(change["oldValue"].(string), "US") || change["newValue"] != "none" {
			t.Fatalf("display = %v", display)
		}
		before := e.Get("/card/card_acmeoffice", "sk_sandbox_acme", "").JSON(t)["spendingConstraint"].(map[string]any)
		if before["countryRule"] == nil {
			t.Fatal("deferral removed the rule already")
		}
		approveOK(t, e, id)
		after := e.Get("/card/card_acmeoffice", "sk_sandbox_acme", "").JSON(t)["spendingConstraint"].(map[string]any)
		if after["countryRule"] != nil || after["spendingRule"] == nil {
			t.Fatalf("after approval = %v", after)
		}
	})
	t.Run("webhook create", func(t *testing.T) {
		id := apitest.Deferred(
			t,
			e.Post(
				"/webhook",
				ro,
				"",
				"",
				map[string]any{"url": "https://hooks.example.test/slash", "name": "Agent hook"},
			),
		)
		hook := approveOK(t, e, id)
		got := e.Get("/webhook/"+hook["id"].(string), "sk_sandbox_acme", "").Status(t, 200).JSON(t)
		if got["name"] != "Agent hook" || got["url"] != "https://hooks.example.test/slash" {
			t.Fatalf("webhook = %v", got)
		}
	})
	t.Run("information request", func(t *testing.T) {
		r := apitest.CreateIR(e, "sk_sandbox_carol_readonly", "le_acme", "agent-ir", apitest.ValidIR)
		id := apitest.Deferred(t, r)
		ir := approveOK(t, e, id)
		if ir["status"] != "pending" || ir["sentToEmail"] != "hello@pixelforge.test" {
			t.Fatalf("approved request = %v", ir)
		}
		apitest.OutboxLink(t, e, "hello@pixelforge.test")
		again := apitest.Decide(e, apitest.Deferred(t, apitest.CreateIR(e, "sk_sandbox_carol_readonly", "le_acme",
			"agent-ir", apitest.ValidIR)),
			"approve").
			Status(t, 200).
			JSON(t)
		if again["status"] != "failed" || again["failureStatus"] != float64(409) {
			t.Fatalf("a second approval with a consumed key = %v", again)
		}
	})
	t.Run("listing is scoped to the key", func(t *testing.T) {
		mine := apitest.WalkItems(t, e, ro, "", "/agent-request")
		carol := apitest.WalkItems(t, e, "sk_sandbox_carol_readonly", "le_acme", "/agent-request")
		// The acme key's three, and the card the demo's assistant asked for.
		if len(mine) != 4 || len(carol) != 2 {
			t.Fatalf("acme read-only key lists %d, carol's %d; want 4 and 2", len(mine), len(carol))
		}
	})
}

func TestDeferredTransferMeetsTheWorldAsItIsAtApproval(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	ro := "sk_sandbox_acme_readonly"
	eng, _ := vaBalance(t, e, "sk_sandbox_acme", "", "subaccount_acmeengineering")
	move := map[string]any{
		"source":      "subaccount_acmeengineering",
		"destination": "subaccount_acmepayroll",
		"amountCents": eng - 1000,
	}
	t.Run("insufficient funds at approval", func(t *testing.T) {
		id := apitest.Deferred(t, e.Post("/transfer/virtual-account", ro, "", "drain-later", move))
		e.Post("/transfer/virtual-account", "sk_sandbox_acme", "", "drain-now",
			map[string]any{"source": "subaccount_acmeengineering",
				"destination": "subaccount_acmemarketing", "amountCents": 5000}).
			Status(t, 200)
		got := apitest.Decide(e, id, "approve").Status(t, 200).JSON(t)
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
		id := apitest.Deferred(t, e.Post("/transfer/virtual-account", ro, "", "same-key", small))
		direct := e.Post("/transfer/virtual-account", "sk_sandbox_acme", "", "same-key", small).Status(t, 200).JSON(t)
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
		rej := apitest.Deferred(
			t,
			e.Post(
				"/transfer/virtual-account",
				ro,
				"",
				"rej",
				map[string]any{
					"source":      "subaccount_acmepayroll",
					"destination": "subaccount_acmemarketing",
					"amountCents": 100,
				},
			),
		)
		apitest.Decide(e, rej, "reject").Status(t, 200)
		exp := apitest.Deferred(
			t,
			e.Post(
				"/transfer/virtual-account",
				ro,
				"",
				"exp",
				map[string]any{
					"source":      "subaccount_acmepayroll",
					"destination": "subaccount_acmemarketing",
					"amountCents": 100,
				},
			),
		)
		apitest.Advance(t, e, `{"by":"73h"}`)
		for id, want := range map[string]string{rej: "rejected", exp: "expired"} {
			if got := e.Get("/agent-request/"+id, ro, "").Status(t, 200).JSON(t)["status"]; got != want {
				t.Fatalf("%s is %v, want %s", id, got, want)
			}
		}
	})
}

// An update whose resource's view wraps the record ({"virtualAccount": {…},
// "balance": …}) still shows each changed property's old value.
func TestDeferredUpdateOfAWrappedResourceShowsOldValues(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	id := apitest.Deferred(
		t,
		e.Do(apitest.Req{Method: http.MethodPatch, Path: "/virtual-account/subaccount_acmeengineering",
			Key: "sk_sandbox_acme_readonly", Body: map[string]any{"action": "update", "name": "Platform"}}),
	)
	var ar apitest.AgentView
	e.Get("/agent-request/"+id, "sk_sandbox_acme_readonly", "").Status(t, http.StatusOK).Decode(t, &ar)
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
