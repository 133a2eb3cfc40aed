package server_test

import (
	"bytes"
	"testing"
)

func TestHandles(t *testing.T) {
	e := newEnv(t, options{})
	want := map[string]map[string]any{
		"sk_sandbox_acme":   {"handle": "acme-robotics", "accountId": "sa_group_acmeoperating", "legalEntityId": "le_acme"},
		"sk_sandbox_globex": {"handle": "globex-logistics", "accountId": "sa_group_globexmain", "legalEntityId": "le_globex"},
	}
	for key, w := range want {
		t.Run(key, func(t *testing.T) {
			var ids []string
			for _, path := range []string{"/handle", "/slash-handle"} {
				items := e.get(path, key, "").status(t, 200).json(t)["items"].([]any)
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
			single := e.get("/pay", key, "").status(t, 200).json(t)
			if single["id"] != ids[0] || ids[0] != ids[1] || single["handle"] != w["handle"] {
				t.Fatalf("GET /pay = %v, handle ids %v", single, ids)
			}
		})
	}
	e.get("/handle", "sk_sandbox_alice", "").gen1(t, 400, "invalid_request")
}

func TestPay(t *testing.T) {
	e := newEnv(t, options{})
	acmeHandle := e.get("/pay", "sk_sandbox_acme", "").status(t, 200).json(t)["id"].(string)
	_, acme0 := balanceOf(t, e, "sk_sandbox_acme", "", "sa_group_acmeoperating")
	_, globex0 := balanceOf(t, e, "sk_sandbox_globex", "", "sa_group_globexmain")
	t.Run("a legal-entity key pays from its own handle", func(t *testing.T) {
		body := e.post("/pay", "sk_sandbox_acme", "", "", map[string]any{"slashHandle": "globex-logistics", "amountCents": 12345, "memo": "Freight"}).status(t, 200).json(t)
		if body["slashHandle"] != "globex-logistics" || body["amountCents"] != float64(12345) || body["transferId"] == "" {
			t.Fatalf("body %v", body)
		}
		debit := getTxn(t, e, "sk_sandbox_acme", "", body["transactionId"].(string))
		if debit.AmountCents != -12345 || debit.Description != "Payment to @globex-logistics" || debit.Memo != "Freight" || debit.DetailedStatus != "settled" {
			t.Fatalf("debit %+v", debit)
		}
		credit := transferLegs(t, e, "sk_sandbox_globex", "", body["transferId"].(string))
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
		d := details(t, e.post("/pay", "sk_sandbox_alice", "le_acme", "", map[string]any{"slashHandle": "globex-logistics", "amountCents": 100}).gen1(t, 400, "invalid_request"))
		if d["/sourceHandleId"] == nil || d["/legalEntityId"] == nil {
			t.Fatalf("details %v, want both fields named", d)
		}
		for _, body := range []map[string]any{
			{"slashHandle": "@Globex-Logistics", "amountCents": 100, "legalEntityId": "le_acme"},
			{"slashHandle": "globex-logistics", "amountCents": 100, "sourceHandleId": acmeHandle},
			{"slashHandle": "globex-logistics", "amountCents": 100, "sourceSlashHandleId": acmeHandle},
		} {
			e.post("/pay", "sk_sandbox_alice", "le_acme", "", body).status(t, 200)
		}
		e.post("/pay", "sk_sandbox_alice", "le_acme", "", map[string]any{"slashHandle": "globex-logistics", "amountCents": 100,
			"legalEntityId": "le_globex"}).gen1(t, 400, "invalid_request")
		d = details(t, e.post("/pay", "sk_sandbox_alice", "le_globex", "", map[string]any{"slashHandle": "acme-robotics", "amountCents": 100,
			"sourceHandleId": acmeHandle}).gen1(t, 404, "not_found"))
		if d["field"] != "sourceHandleId" {
			t.Fatalf("details %v", d)
		}
	})
	t.Run("unknown and own handles", func(t *testing.T) {
		d := details(t, e.post("/pay", "sk_sandbox_acme", "", "", map[string]any{"slashHandle": "nobody-here", "amountCents": 100}).gen1(t, 404, "not_found"))
		if d["field"] != "slashHandle" || d["id"] != "nobody-here" {
			t.Fatalf("details %v", d)
		}
		e.post("/pay", "sk_sandbox_acme", "", "", map[string]any{"slashHandle": "acme-robotics", "amountCents": 100}).gen1(t, 400, "invalid_request")
		e.post("/pay", "sk_sandbox_acme", "", "", map[string]any{"slashHandle": "globex-logistics", "amountCents": 1.5}).gen1(t, 400, "invalid_request")
	})
	t.Run("an idempotency key is optional and replays", func(t *testing.T) {
		body := map[string]any{"slashHandle": "acme-robotics", "amountCents": 500}
		first := e.post("/pay", "sk_sandbox_globex", "", "pay-1", body).status(t, 200)
		_, g1 := balanceOf(t, e, "sk_sandbox_globex", "", "sa_group_globexmain")
		again := e.post("/pay", "sk_sandbox_globex", "", "pay-1", body).status(t, 200)
		if !bytes.Equal(first.body, again.body) {
			t.Fatalf("replay %s, first %s", again.body, first.body)
		}
		if _, g := balanceOf(t, e, "sk_sandbox_globex", "", "sa_group_globexmain"); g != g1 {
			t.Fatalf("the replay paid again: %d, want %d", g, g1)
		}
		e.post("/pay", "sk_sandbox_globex", "", "pay-1", map[string]any{"slashHandle": "acme-robotics", "amountCents": 501}).gen1(t, 409, "conflict")
	})
	t.Run("a read-only key's payment is deferred", func(t *testing.T) {
		_, a0 := balanceOf(t, e, "sk_sandbox_acme", "", "sa_group_acmeoperating")
		deferred(t, e.post("/pay", "sk_sandbox_acme_readonly", "", "", map[string]any{"slashHandle": "globex-logistics", "amountCents": 100}))
		if _, a := balanceOf(t, e, "sk_sandbox_acme", "", "sa_group_acmeoperating"); a != a0 {
			t.Fatalf("a deferred payment moved money: %d, was %d", a, a0)
		}
	})
}
