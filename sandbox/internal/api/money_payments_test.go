package api_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// TestHandles reads each legal entity's handle three ways. The official
// SDKs' SlashHandle has every field required, a string, and nothing else:
// the golden files handle.list and pay.get (acme's, which TestGoldenReads
// compares too) and their le_globex twins pin that shape; both list
// spellings answer the same body.
func TestHandles(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	want := map[string]map[string]any{
		"sk_sandbox_acme": {
			"slashHandle": "acme-robotics",
			"accountId":   "sa_group_acmeoperating",
			"name":        "Acme Robotics Inc.",
		},
		"sk_sandbox_globex": {
			"slashHandle": "globex-logistics",
			"accountId":   "sa_group_globexmain",
			"name":        "Globex Logistics LLC",
		},
	}
	goldenSuffix := map[string]string{"sk_sandbox_acme": "", "sk_sandbox_globex": ".le_globex"}
	for key, w := range want {
		t.Run(key, func(t *testing.T) {
			var ids []string
			for _, path := range []string{"/handle", "/slash-handle"} {
				res := e.Get(path, key, "").Status(t, 200)
				apitest.Golden(t, "handle.list"+goldenSuffix[key], res.Raw)
				body := res.JSON(t)
				meta, _ := body["metadata"].(map[string]any)
				if _, ok := meta["count"].(float64); !ok {
					t.Fatalf("%s: metadata %v, want a count", path, body["metadata"])
				}
				items := body["items"].([]any)
				if len(items) != 1 {
					t.Fatalf("%s: %d handles", path, len(items))
				}
				h := items[0].(map[string]any)
				for k, v := range w {
					if h[k] != v {
						t.Fatalf("%s: %s = %v, want %v", path, k, h[k], v)
					}
				}
				ids = append(ids, h["id"].(string))
			}
			pay := e.Get("/pay", key, "").Status(t, 200)
			apitest.Golden(t, "pay.get"+goldenSuffix[key], pay.Raw)
			single := pay.JSON(t)
			if single["id"] != ids[0] || ids[0] != ids[1] || single["slashHandle"] != w["slashHandle"] {
				t.Fatalf("GET /pay = %v, handle ids %v", single, ids)
			}
		})
	}
	t.Run("a user key acts for the legal entity it names", func(t *testing.T) {
		pay := e.Get("/pay", "sk_sandbox_alice", "le_globex").Status(t, 200)
		apitest.Golden(t, "pay.get.le_globex", pay.Raw)
		h := pay.JSON(t)
		if h["slashHandle"] != "globex-logistics" || h["name"] != "Globex Logistics LLC" {
			t.Fatalf("handle %v", h)
		}
	})
	e.Get("/handle", "sk_sandbox_alice", "").Gen1(t, 400, "invalid_request")
}

// payAnswer checks a POST /pay answer against the official SDKs' union:
// {success: true, redirect?: string} or {success: false, error: string}.
func payAnswer(t *testing.T, r *apitest.Resp, wantSuccess bool) string {
	t.Helper()
	body := r.Status(t, 200).JSON(t)
	success, ok := body["success"].(bool)
	if !ok || success != wantSuccess {
		t.Fatalf("success = %#v, want %v (body %s)", body["success"], wantSuccess, r.Raw)
	}
	allowed := map[string]bool{"success": true, "redirect": true}
	if !success {
		allowed = map[string]bool{"success": true, "error": true}
	}
	for k := range body {
		if !allowed[k] {
			t.Fatalf("field %q is not in the SDKs' answer: %s", k, r.Raw)
		}
	}
	if r, ok := body["redirect"]; ok {
		if _, isString := r.(string); !isString {
			t.Fatalf("redirect = %#v", r)
		}
	}
	if success {
		return ""
	}
	msg, _ := body["error"].(string)
	if msg == "" {
		t.Fatalf("a refused payment without an error: %s", r.Raw)
	}
	return msg
}

// lastPaymentTo finds the payer's debit of a payment: the newest internal
// transaction described as a payment to the handle.
func lastPaymentTo(t *testing.T, e *apitest.Env, key, handle string) map[string]any {
	t.Helper()
	for _, it := range apitest.WalkItems(t, e, key, "", "/transaction?filter:category=internal") {
		if it["description"] == "Payment to @"+handle {
			return it
		}
	}
	return nil
}

func TestPay(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	acmeHandle := e.Get("/pay", "sk_sandbox_acme", "").Status(t, 200).JSON(t)["id"].(string)
	_, acme0 := balanceOf(t, e, "sk_sandbox_acme", "", "sa_group_acmeoperating")
	_, globex0 := balanceOf(t, e, "sk_sandbox_globex", "", "sa_group_globexmain")
	t.Run("a legal-entity key pays from its own handle", func(t *testing.T) {
		payAnswer(
			t,
			e.Post("/pay", "sk_sandbox_acme", "", "",
				map[string]any{"slashHandle": "globex-logistics", "amountCents": 12345, "memo": "Freight"}),
			true,
		)
		it := lastPaymentTo(t, e, "sk_sandbox_acme", "globex-logistics")
		if it == nil {
			t.Fatal("no transaction describes the payment")
		}
		debit := getTxn(t, e, "sk_sandbox_acme", "", it["id"].(string))
		if debit.AmountCents != -12345 || debit.Memo != "Freight" || debit.DetailedStatus != "settled" {
			t.Fatalf("debit %+v", debit)
		}
		credit := transferLegs(t, e, "sk_sandbox_globex", "", it["transferId"].(string))
		if len(credit) != 1 || credit[0].AmountCents != 12345 || credit[0].Description != "Payment from @acme-robotics" {
			t.Fatalf("credit %+v", credit)
		}
		if _, g := balanceOf(t, e, "sk_sandbox_globex", "", "sa_group_globexmain"); g != globex0+12345 {
			t.Fatalf("globex posted %d, want %d", g, globex0+12345)
		}
		if _, a := balanceOf(t, e, "sk_sandbox_acme", "", "sa_group_acmeoperating"); a != acme0-12345 {
			t.Fatalf("acme posted %d, want %d", a, acme0-12345)
		}
	})
	t.Run("a user key names the source", func(t *testing.T) {
		d := details(
			t,
			e.Post("/pay", "sk_sandbox_alice", "le_acme", "", map[string]any{"slashHandle": "globex-logistics",
				"amountCents": 100}).
				Gen1(t, 400, "invalid_request"),
		)
		if d["/sourceHandleId"] == nil || d["/legalEntityId"] == nil {
			t.Fatalf("details %v, want both fields named", d)
		}
		for _, body := range []map[string]any{
			{"slashHandle": "@Globex-Logistics", "amountCents": 100, "legalEntityId": "le_acme"},
			{"slashHandle": "globex-logistics", "amountCents": 100, "sourceHandleId": acmeHandle},
			{"slashHandle": "globex-logistics", "amountCents": 100, "sourceSlashHandleId": acmeHandle},
		} {
			payAnswer(t, e.Post("/pay", "sk_sandbox_alice", "le_acme", "", body), true)
		}
		e.Post("/pay", "sk_sandbox_alice", "le_acme", "", map[string]any{"slashHandle": "globex-logistics",
			"amountCents":   100,
			"legalEntityId": "le_globex"}).
			Gen1(t, 400, "invalid_request")
		msg := payAnswer(
			t,
			e.Post(
				"/pay",
				"sk_sandbox_alice",
				"le_globex",
				"",
				map[string]any{"slashHandle": "acme-robotics", "amountCents": 100,
					"sourceHandleId": acmeHandle},
			),
			false,
		)
		if !strings.Contains(msg, acmeHandle) {
			t.Fatalf("error %q does not name the source handle", msg)
		}
	})
	t.Run("refused payments answer success false and move nothing", func(t *testing.T) {
		before := len(apitest.WalkItems(t, e, "sk_sandbox_acme", "", "/transaction"))
		for _, c := range []struct {
			name string
			body map[string]any
			says string
		}{
			{"unknown handle", map[string]any{"slashHandle": "nobody-here", "amountCents": 100}, "nobody-here"},
			{"own handle", map[string]any{"slashHandle": "acme-robotics", "amountCents": 100}, "slashHandle"},
			{"fractional cents", map[string]any{"slashHandle": "globex-logistics", "amountCents": 1.5}, "amountCents"},
			{"zero", map[string]any{"slashHandle": "globex-logistics", "amountCents": 0}, "amountCents"},
			{"negative", map[string]any{"slashHandle": "globex-logistics", "amountCents": -5}, "amountCents"},
			{"beyond the limit", map[string]any{"slashHandle": "globex-logistics", "amountCents": 1e16}, "amountCents"},
			{"insufficient funds", map[string]any{"slashHandle": "globex-logistics", "amountCents": 1e13}, "insufficient"},
		} {
			t.Run(c.name, func(t *testing.T) {
				if msg := payAnswer(t, e.Post("/pay", "sk_sandbox_acme", "", "", c.body), false); !strings.Contains(msg, c.says) {
					t.Fatalf("error %q, want it to mention %q", msg, c.says)
				}
			})
		}
		if after := len(apitest.WalkItems(t, e, "sk_sandbox_acme", "", "/transaction")); after != before {
			t.Fatalf("%d transactions after refused payments, %d before", after, before)
		}
	})
	t.Run("requests that are not payments keep the error envelope", func(t *testing.T) {
		for _, c := range []struct {
			name, key, le, body string
			status              int
			identifier          string
		}{
			{"no key", "", "", `{"slashHandle":"globex-logistics","amountCents":100}`, 401, ""},
			{"user key without x-legal-entity", "sk_sandbox_alice", "",
				`{"slashHandle":"globex-logistics","amountCents":100,"legalEntityId":"le_acme"}`, 400, "invalid_request"},
			{"malformed JSON", "sk_sandbox_acme", "", `{"slashHandle":`, 400, "invalid_request"},
			{"amount as a string", "sk_sandbox_acme", "", `{"slashHandle":"globex-logistics","amountCents":"100"}`, 400,
				"invalid_request"},
			{"no amount", "sk_sandbox_acme", "", `{"slashHandle":"globex-logistics"}`, 400, "invalid_request"},
			{"no handle", "sk_sandbox_acme", "", `{"amountCents":100}`, 400, "invalid_request"},
			{"unknown field", "sk_sandbox_acme", "", `{"slashHandle":"globex-logistics","amountCents":100,"tip":1}`, 400,
				"invalid_request"},
		} {
			t.Run(c.name, func(t *testing.T) {
				r := e.Do(apitest.Req{Method: http.MethodPost, Path: "/pay", Key: c.key, LE: c.le, Body: c.body})
				if c.identifier == "" {
					r.Status(t, c.status)
				} else {
					r.Gen1(t, c.status, c.identifier)
				}
				if _, isAnswer := r.JSON(t)["success"]; isAnswer {
					t.Fatalf("an error envelope was expected: %s", r.Raw)
				}
			})
		}
	})
	t.Run("an idempotency key is optional and replays", func(t *testing.T) {
		body := map[string]any{"slashHandle": "acme-robotics", "amountCents": 500}
		first := e.Post("/pay", "sk_sandbox_globex", "", "pay-1", body)
		payAnswer(t, first, true)
		_, g1 := balanceOf(t, e, "sk_sandbox_globex", "", "sa_group_globexmain")
		again := e.Post("/pay", "sk_sandbox_globex", "", "pay-1", body)
		payAnswer(t, again, true)
		if !bytes.Equal(first.Raw, again.Raw) {
			t.Fatalf("replay %s, first %s", again.Raw, first.Raw)
		}
		if _, g := balanceOf(t, e, "sk_sandbox_globex", "", "sa_group_globexmain"); g != g1 {
			t.Fatalf("the replay paid again: %d, want %d", g, g1)
		}
		e.Post("/pay", "sk_sandbox_globex", "", "pay-1", map[string]any{"slashHandle": "acme-robotics", "amountCents": 501}).
			Gen1(t, 409, "conflict")
	})
	t.Run("a refused payment does not use its idempotency key", func(t *testing.T) {
		payAnswer(t,
			e.Post("/pay", "sk_sandbox_globex", "", "pay-2", map[string]any{"slashHandle": "nobody-here", "amountCents": 500}),
			false)
		payAnswer(t,
			e.Post("/pay", "sk_sandbox_globex", "", "pay-2", map[string]any{"slashHandle": "acme-robotics", "amountCents": 500}),
			true)
	})
	t.Run("a read-only key's payment is deferred", func(t *testing.T) {
		_, a0 := balanceOf(t, e, "sk_sandbox_acme", "", "sa_group_acmeoperating")
		apitest.Deferred(
			t,
			e.Post("/pay", "sk_sandbox_acme_readonly", "", "",
				map[string]any{"slashHandle": "globex-logistics", "amountCents": 100}),
		)
		if _, a := balanceOf(t, e, "sk_sandbox_acme", "", "sa_group_acmeoperating"); a != a0 {
			t.Fatalf("a deferred payment moved money: %d, was %d", a, a0)
		}
	})
}
