package api_test

import (
	"net/http"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func TestAuthenticationFirstGeneration(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	tests := []struct {
		name       string
		key, le    string
		path       string
		status     int
		identifier string
	}{
		{"missing key", "", "", "/account", 401, "unauthorized"},
		{"unknown key", "sk_nope", "", "/account", 401, "unauthorized"},
		{"user key without x-legal-entity", "sk_sandbox_alice", "", "/account", 400, "invalid_request"},
		{"user key on an entity without a role", "sk_sandbox_carol_readonly", "le_globex", "/account", 403, "forbidden"},
		{"user key whose role is inactive", "sk_sandbox_bob", "le_globex", "/account", 403, "forbidden"},
		{"user key on an entity that does not exist", "sk_sandbox_alice", "le_nobody", "/account", 403, "forbidden"},
		{"legal-entity key naming another entity", "sk_sandbox_acme", "le_globex", "/account", 403, "forbidden"},
		{"another entity's account", "sk_sandbox_globex", "", "/account/sa_group_acmeoperating", 404, "not_found"},
		{
			"another entity's account through a user key",
			"sk_sandbox_alice",
			"le_globex",
			"/account/sa_group_acmeoperating/balance",
			404,
			"not_found",
		},
		{"filter naming another entity", "sk_sandbox_acme", "", "/account?filter:legalEntityId=le_globex", 403, "forbidden"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := e.Get(tc.path, tc.key, tc.le).Gen1(t, tc.status, tc.identifier)
			if tc.status == 400 {
				details := body["meta"].(map[string]any)["details"].(map[string]any)
				if _, ok := details["x-legal-entity"]; !ok {
					t.Fatalf("400 does not name x-legal-entity: %v", body)
				}
			}
			if tc.status == 403 {
				if _, ok := body["meta"].(map[string]any)["details"]; ok {
					t.Fatalf("403 for a legal entity discloses details: %v", body)
				}
			}
		})
	}
}

func TestKeysActOnTheirEntity(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	ids := func(r *apitest.Resp) []string {
		var out []string
		for _, it := range r.JSON(t)["items"].([]any) {
			out = append(out, it.(map[string]any)["id"].(string))
		}
		return out
	}
	t.Run("legal-entity key lists only its entity's accounts", func(t *testing.T) {
		got := ids(e.Get("/account", "sk_sandbox_globex", "").Status(t, 200))
		if len(got) != 1 || got[0] != "sa_group_globexmain" {
			t.Fatalf("accounts = %v", got)
		}
	})
	t.Run("user key acts on the named entity", func(t *testing.T) {
		got := ids(e.Get("/account", "sk_sandbox_alice", "le_globex").Status(t, 200))
		if len(got) != 1 || got[0] != "sa_group_globexmain" {
			t.Fatalf("accounts = %v", got)
		}
		got = ids(e.Get("/account?filter:legalEntityId=le_acme", "sk_sandbox_alice", "le_acme").Status(t, 200))
		if len(got) != 2 {
			t.Fatalf("acme accounts = %v", got)
		}
	})
	t.Run("GET /legal-entity needs no header and lists active roles only", func(t *testing.T) {
		if got := ids(e.Get("/legal-entity", "sk_sandbox_alice", "").Status(t, 200)); len(got) != 2 {
			t.Fatalf("alice sees %v", got)
		}
		if got := ids(e.Get("/legal-entity", "sk_sandbox_bob", "").Status(t, 200)); len(got) != 1 || got[0] != "le_acme" {
			t.Fatalf("bob sees %v", got)
		}
		if got := ids(e.Get("/legal-entity", "sk_sandbox_globex", "").Status(t, 200)); len(got) != 1 ||
			got[0] != "le_globex" {
			t.Fatalf("globex key sees %v", got)
		}
	})
	t.Run("own account and its balances", func(t *testing.T) {
		acc := e.Get("/account/sa_group_acmecharge", "sk_sandbox_acme", "").Status(t, 200).JSON(t)
		if acc["type"] != "charge_card" || acc["name"] != "Acme Charge Card" {
			t.Fatalf("account = %v", acc)
		}
		var bal struct {
			Balances []struct {
				AccountID string                      `json:"accountId"`
				Type      string                      `json:"type"`
				Available struct{ AmountCents int64 } `json:"available"`
				Posted    struct{ AmountCents int64 } `json:"posted"`
			} `json:"balances"`
		}
		e.Get("/account/sa_group_acmecharge/balance", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &bal)
		if len(bal.Balances) != 2 || bal.Balances[0].Type != "cash" || bal.Balances[1].Type != "credit" {
			t.Fatalf("charge card balances = %+v", bal)
		}
		if bal.Balances[0].Posted.AmountCents != 50000000 {
			t.Fatalf("cash posted = %d, want the declared 50000000", bal.Balances[0].Posted.AmountCents)
		}
		if bal.Balances[1].Available.AmountCents > bal.Balances[1].Posted.AmountCents {
			t.Fatalf("pending card debits did not reduce available credit: %+v", bal.Balances[1])
		}
	})
}

func TestAuthenticationSecondGeneration(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	tests := []struct {
		name      string
		key, le   string
		status    int
		code      string
		detailKey string
	}{
		{"missing key", "", "le_acme", 401, "unauthorized", ""},
		{"legal-entity key", "sk_sandbox_acme", "le_acme", 403, "user_api_key_required", ""},
		{"missing header", "sk_sandbox_alice", "", 400, "invalid_request", "x-legal-entity"},
		{"header of the wrong form", "sk_sandbox_alice", "acme-corp", 400, "invalid_request", "x-legal-entity"},
		{"header with a forbidden character", "sk_sandbox_alice", "le_ac-me", 400, "invalid_request", "x-legal-entity"},
		{"no role on the entity", "sk_sandbox_carol_readonly", "le_globex", 403, "forbidden", ""},
		{"API v2 not enabled for the entity", "sk_sandbox_alice", "le_globex", 404, "not_found", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := e.Get("/v2/contacts", tc.key, tc.le).Gen2(t, tc.status, tc.code)
			if tc.detailKey == "" && len(d) != 0 {
				t.Fatalf("details = %v, want empty", d)
			}
			if tc.detailKey != "" && d[tc.detailKey] == "" {
				t.Fatalf("details = %v, want a %q entry", d, tc.detailKey)
			}
		})
	}
	t.Run("user key with a role lists contacts", func(t *testing.T) {
		body := e.Get("/v2/contacts", "sk_sandbox_bob", "le_acme").Status(t, http.StatusOK).JSON(t)
		items := body["items"].([]any)
		if len(items) != 7 {
			t.Fatalf("%d contacts, want 7", len(items))
		}
		if id := items[0].(map[string]any)["id"].(string); id != "le_c_northwindsupply" {
			t.Fatalf("first contact = %s", id)
		}
	})
}
