package api_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

func vaIDs(items []map[string]any) []string {
	var ids []string
	for _, it := range items {
		ids = append(ids, it["virtualAccount"].(map[string]any)["id"].(string))
	}
	return ids
}

func TestVirtualAccountList(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	t.Run("closed ones are hidden, primary ones included", func(t *testing.T) {
		items := apitest.WalkItems(t, e, "sk_sandbox_acme", "", "/virtual-account")
		types := map[string]int{}
		for _, it := range items {
			m := it["virtualAccount"].(map[string]any)
			types[m["accountType"].(string)]++
			if m["id"] == "subaccount_acmeoldproject" {
				t.Fatalf("closed virtual account listed without filter:includeClosedAccounts: %v", m)
			}
			if m["accountId"] == nil || m["name"] == "" || it["balance"] == nil || it["spend"] == nil {
				t.Fatalf("incomplete item %v", it)
			}
		}
		if types["primary"] != 2 || types["default"] != 3 {
			t.Fatalf("account types %v, want 2 primary (one per account) and 3 default", types)
		}
	})
	t.Run("includeClosedAccounts=true shows closed ones with closedAt", func(t *testing.T) {
		items := apitest.WalkItems(t, e, "sk_sandbox_acme", "", "/virtual-account?filter:includeClosedAccounts=true")
		found := false
		for _, it := range items {
			m := it["virtualAccount"].(map[string]any)
			if m["id"] == "subaccount_acmeoldproject" {
				found = m["closedAt"] != nil && m["closedAt"] != ""
			}
		}
		if !found || len(items) != 6 {
			t.Fatalf("%d items, closed one with closedAt: %v", len(items), found)
		}
		if n := len(apitest.WalkItems(t, e, "sk_sandbox_acme", "",
			"/virtual-account?filter:includeClosedAccounts=false")); n != 5 {
			t.Fatalf("includeClosedAccounts=false listed %d, want 5", n)
		}
	})
	t.Run("filter:accountId narrows to one account", func(t *testing.T) {
		ids := vaIDs(
			apitest.WalkItems(t, e, "sk_sandbox_acme", "", "/virtual-account?filter:accountId=sa_group_acmecharge"),
		)
		if len(ids) != 1 {
			t.Fatalf("charge card virtual accounts = %v, want its primary only", ids)
		}
	})
	t.Run("another entity's data is not listed", func(t *testing.T) {
		ids := vaIDs(apitest.WalkItems(t, e, "sk_sandbox_globex", "", "/virtual-account"))
		if len(ids) != 2 || !strings.Contains(strings.Join(ids, ","), "subaccount_globexfleet") {
			t.Fatalf("globex sees %v", ids)
		}
		e.Get("/virtual-account?filter:accountId=sa_group_acmeoperating", "sk_sandbox_globex", "").
			Gen1(t, 404, "not_found")
	})
	t.Run("bad filter is 400", func(t *testing.T) {
		e.Get("/virtual-account?filter:includeClosedAccounts=yes", "sk_sandbox_acme", "").
			Gen1(t, 400, "invalid_request")
	})
	t.Run("pages follow the cursor", func(t *testing.T) {
		for i := range kernel.PageSize {
			e.Post("/virtual-account", "sk_sandbox_acme", "", "", map[string]any{"accountId": "sa_group_acmeoperating",
				"name": fmt.Sprintf("Project %02d", i)}).Status(t, 201)
		}
		var first struct {
			Metadata struct{ NextCursor string } `json:"metadata"`
		}
		e.Get("/virtual-account", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &first)
		ids := vaIDs(apitest.WalkItems(t, e, "sk_sandbox_acme", "", "/virtual-account"))
		seen := map[string]bool{}
		for _, id := range ids {
			if seen[id] {
				t.Fatalf("%s listed twice", id)
			}
			seen[id] = true
		}
		if first.Metadata.NextCursor == "" || len(ids) != 5+kernel.PageSize {
			t.Fatalf("walked %d virtual accounts (first page cursor %q)", len(ids), first.Metadata.NextCursor)
		}
	})
}

func TestVirtualAccountGetShowsBalanceAndSpend(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	body := e.Get("/virtual-account/subaccount_acmeengineering", "sk_sandbox_acme", "").Status(t, 200).JSON(t)
	m := body["virtualAccount"].(map[string]any)
	if m["id"] != "subaccount_acmeengineering" || m["accountType"] != "default" ||
		m["accountId"] != "sa_group_acmeoperating" ||
		m["name"] != "Engineering" {
		t.Fatalf("virtualAccount = %v", m)
	}
	if got := body["balance"].(map[string]any)["amountCents"]; got != float64(25000000) {
		t.Fatalf("balance = %v, want the declared 25000000", got)
	}
	if got := body["spend"].(map[string]any)["amountCents"].(float64); got <= 0 {
		t.Fatalf("spend = %v, want the engineering cards' spend", got)
	}
	if _, ok := body["commissionRule"]; ok {
		t.Fatalf("commissionRule present without one: %v", body)
	}
	primary := e.Get("/virtual-account/"+vaIDs(apitest.WalkItems(t, e, "sk_sandbox_acme", "",
		"/virtual-account?filter:accountId=sa_group_acmeoperating"))[0],
		"sk_sandbox_acme", "").Status(t, 200).JSON(t)["virtualAccount"].(map[string]any)
	if primary["accountType"] != "primary" || primary["name"] != "Primary account" {
		t.Fatalf("primary = %v", primary)
	}
	e.Get("/virtual-account/subaccount_globexfleet", "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
}

func TestVirtualAccountLifecycle(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	const acme = "sk_sandbox_acme"
	create := e.Post("/virtual-account", acme, "", "", map[string]any{"accountId": "sa_group_acmeoperating",
		"name":              "Events",
		"commissionDetails": map[string]any{"type": "takeRate", "takeRate": 2.5}}).
		Status(t, 201).
		JSON(t)
	va := create["virtualAccount"].(map[string]any)
	id := va["id"].(string)
	if !strings.HasPrefix(id, "subaccount_") || va["accountType"] != "default" || va["name"] != "Events" ||
		va["accountNumber"] == "" ||
		va["routingNumber"] == "" {
		t.Fatalf("created %v", va)
	}
	rule := create["commissionRule"].(map[string]any)
	if rule["virtualAccountId"] != id || rule["commissionDetails"].(map[string]any)["takeRate"] != 2.5 {
		t.Fatalf("commissionRule = %v", rule)
	}
	if bal, spend := vaBalance(t, e, acme, "", id); bal != 0 || spend != 0 {
		t.Fatalf("new virtual account balance %d spend %d", bal, spend)
	}

	t.Run("update renames and replaces the commission", func(t *testing.T) {
		got := e.Patch("/virtual-account/"+id, acme, "", map[string]any{"action": "update", "name": "Events 2026",
			"commissionDetails": map[string]any{
				"type":      "flatFee",
				"amount":    map[string]any{"amountCents": 5000},
				"frequency": "monthly",
			}}).Status(t, 200).JSON(t)
		r := got["commissionRule"].(map[string]any)
		if got["virtualAccount"].(map[string]any)["name"] != "Events 2026" || r["id"] != rule["id"] ||
			r["commissionDetails"].(map[string]any)["type"] != "flatFee" {
			t.Fatalf("updated %v", got)
		}
		got = e.Patch("/virtual-account/"+id, acme, "", `{"action":"update","commissionDetails":null}`).
			Status(t, 200).
			JSON(t)
		if _, ok := got["commissionRule"]; ok || got["virtualAccount"].(map[string]any)["name"] != "Events 2026" {
			t.Fatalf("commissionDetails null left %v", got)
		}
	})
	t.Run("bad bodies are 400 naming the field", func(t *testing.T) {
		cases := []struct {
			method, path string
			body         any
			field        string
		}{
			{http.MethodPost, "/virtual-account", map[string]any{"accountId": "sa_group_acmeoperating"}, "/name"},
			{
				http.MethodPost,
				"/virtual-account",
				map[string]any{"accountId": "sa_group_acmeoperating", "name": " "},
				"/name",
			},
			{http.MethodPost, "/virtual-account", map[string]any{"accountId": "sa_group_acmeoperating", "name": "X",
				"commissionDetails": map[string]any{
					"type":     "takeRate",
					"takeRate": 150,
				}}, "/commissionDetails/takeRate"},
			{http.MethodPatch, "/virtual-account/" + id, map[string]any{"name": "X"}, "/action"},
			{http.MethodPatch, "/virtual-account/" + id, map[string]any{"action": "delete"}, "/action"},
			{http.MethodPatch, "/virtual-account/" + id, map[string]any{"action": "close", "name": "X"}, "/action"},
			{
				http.MethodPatch,
				"/virtual-account/" + id,
				map[string]any{
					"action":            "update",
					"commissionDetails": map[string]any{"type": "flatFee", "frequency": "daily"},
				},
				"/commissionDetails/frequency",
			},
		}
		for _, tc := range cases {
			d := details(
				t,
				e.Do(apitest.Req{Method: tc.method, Path: tc.path, Key: acme, Body: tc.body}).
					Gen1(t, 400, "invalid_request"),
			)
			if d[tc.field] == nil {
				t.Fatalf("%s %v: details %v, want %s", tc.method, tc.body, d, tc.field)
			}
		}
	})
	t.Run("another entity's account or virtual account is 404", func(t *testing.T) {
		d := details(
			t,
			e.Post("/virtual-account", acme, "", "", map[string]any{"accountId": "sa_group_globexmain", "name": "X"}).
				Gen1(t, 404, "not_found"),
		)
		if d["field"] != "accountId" || d["id"] != "sa_group_globexmain" {
			t.Fatalf("details %v", d)
		}
		e.Patch("/virtual-account/subaccount_globexfleet", acme, "", map[string]any{"action": "close"}).
			Gen1(t, 404, "not_found")
	})
	t.Run("the primary virtual account cannot be closed", func(t *testing.T) {
		primary := vaIDs(apitest.WalkItems(t, e, acme, "", "/virtual-account?filter:accountId=sa_group_acmecharge"))[0]
		body := e.Patch("/virtual-account/"+primary, acme, "", map[string]any{"action": "close"}).
			Gen1(t, 400, "invalid_request")
		if !strings.Contains(body["message"].(string), "primary") {
			t.Fatalf("message %v", body["message"])
		}
	})
	t.Run("a virtual account holding money cannot be closed", func(t *testing.T) {
		body := e.Patch("/virtual-account/subaccount_acmemarketing", acme, "", map[string]any{"action": "close"}).
			Gen1(t, 400, "invalid_request")
		if details(t, body)["balance"] != "$180,000.00" || !strings.Contains(body["message"].(string), "$180,000.00") {
			t.Fatalf("refusal %v", body)
		}
	})
	t.Run("close, then no movement and no change", func(t *testing.T) {
		e.Post("/transfer/virtual-account", acme, "", "fund-events",
			map[string]any{"source": "subaccount_acmemarketing", "destination": id, "amountCents": 1000}).
			Status(t, 200)
		e.Patch("/virtual-account/"+id, acme, "", map[string]any{"action": "close"}).Gen1(t, 400, "invalid_request")
		e.Post("/transfer/virtual-account", acme, "", "drain-events",
			map[string]any{"source": id, "destination": "subaccount_acmemarketing", "amountCents": 1000}).
			Status(t, 200)
		got := e.Patch("/virtual-account/"+id, acme, "", map[string]any{"action": "close"}).Status(t, 200).JSON(t)
		if got["virtualAccount"].(map[string]any)["closedAt"] != "2026-06-15T14:00:00.000Z" {
			t.Fatalf("closed %v", got)
		}
		d := details(
			t,
			e.Post("/transfer/virtual-account", acme, "", "refund-events",
				map[string]any{"source": "subaccount_acmemarketing", "destination": id, "amountCents": 1000}).
				Gen1(t, 400, "invalid_request"),
		)
		if !strings.Contains(fmt.Sprint(d["/destination"]), "closed") {
			t.Fatalf("details %v", d)
		}
		e.Patch("/virtual-account/"+id, acme, "", map[string]any{"action": "close"}).Gen1(t, 400, "invalid_request")
		e.Patch("/virtual-account/"+id, acme, "", map[string]any{"action": "update", "name": "Reopened?"}).
			Gen1(t, 400, "invalid_request")
		if ids := vaIDs(apitest.WalkItems(t, e, acme, "", "/virtual-account")); strings.Contains(
			strings.Join(ids, ","),
			id,
		) {
			t.Fatalf("closed %s still listed by default", id)
		}
	})
	t.Run("a read-only key's create is deferred and creates nothing", func(t *testing.T) {
		before := len(apitest.WalkItems(t, e, acme, "", "/virtual-account?filter:includeClosedAccounts=true"))
		id := apitest.Deferred(
			t,
			e.Post("/virtual-account", "sk_sandbox_acme_readonly", "", "",
				map[string]any{"accountId": "sa_group_acmeoperating", "name": "Agent's idea"}),
		)
		if got := e.Get("/agent-request/"+id, "sk_sandbox_acme_readonly", "").Status(t,
			200).JSON(t); got["status"] != "pending" {
			t.Fatalf("deferral %v", got)
		}
		if after := len(apitest.WalkItems(t, e, acme, "",
			"/virtual-account?filter:includeClosedAccounts=true")); after != before {
			t.Fatalf("%d virtual accounts after a deferred create, %d before", after, before)
		}
	})
}
