package api_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

// constraintOf decodes a SpendingConstraint body into a generic tree.
func cardConstraintOf(t *testing.T, r *apitest.Resp) map[string]any {
	t.Helper()
	return r.Status(t, 200).JSON(t)
}

// dig follows a path of properties through a decoded JSON tree.
func cardDig(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

func cardErrDetails(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	d, _ := m["meta"].(map[string]any)["details"].(map[string]any)
	return d
}

func TestSpendingConstraintPutAndPatch(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	c := apitest.CreateTestCard(t, e, `{"type":"virtual","name":"Constrained"}`)
	path := "/card/" + c.ID + "/spending-constraint"
	put := func(body string) *apitest.Resp {
		return e.Do(apitest.Req{Method: http.MethodPut, Path: path, Key: "sk_sandbox_acme", Body: body})
	}
	patch := func(body string) *apitest.Resp {
		return e.Do(apitest.Req{Method: http.MethodPatch, Path: path, Key: "sk_sandbox_acme", Body: body})
	}
	got := cardConstraintOf(t, put(`{
		"merchantRule": {"merchants": ["merchant_v2_aws", "merchant_v2_gcp"]},
		"countryRule": {"countries": ["US", "CA"], "restriction": "allowlist"},
		"spendingRule": {
			"utilizationLimit": {"limitAmount": {"amountCents": 50000}, "preset": "monthly", "timezone": "America/Chicago"},
			"utilizationLimitV2": [{"limitAmount": {"amountCents": 5000}, "preset": "daily"}],
			"transactionSizeLimit": {}
		}}`))
	if cardDig(got, "merchantRule", "restriction") != "allowlist" ||
		cardDig(got, "spendingRule", "utilizationLimit", "timezone") != "America/Chicago" {
		t.Fatalf("PUT returned %v", got)
	}
	if stored := apitest.ReadCard(t, e, c.ID, ""); !cardJSONEqual(t, stored.SpendingConstraint, got) {
		t.Fatalf("GET card shows %s, PUT returned %v", stored.SpendingConstraint, got)
	}
	t.Run("PATCH merges and preserves", func(t *testing.T) {
		got := cardConstraintOf(
			t,
			patch(`{"spendingRule": {"utilizationLimit": {"limitAmount": {"amountCents": 75000}}},
			"merchantCategoryCodeRule": {"merchantCategoryCodes": ["7995"], "restriction": "blacklist"}}`),
		)
		if cardDig(got, "spendingRule", "utilizationLimit", "limitAmount", "amountCents") != float64(75000) ||
			cardDig(got, "spendingRule", "utilizationLimit", "preset") != "monthly" ||
			cardDig(got, "spendingRule", "utilizationLimit", "timezone") != "America/Chicago" {
			t.Fatalf("limit not merged: %v", got)
		}
		if cardDig(got, "countryRule", "countries") == nil || cardDig(got, "merchantRule", "merchants") == nil ||
			cardDig(got, "spendingRule", "utilizationLimitV2") == nil ||
			cardDig(got, "merchantCategoryCodeRule", "restriction") != "blacklist" {
			t.Fatalf("untouched rules lost: %v", got)
		}
	})
	t.Run("null removes at every level", func(t *testing.T) {
		got := cardConstraintOf(
			t,
			patch(
				`{"countryRule": null, "spendingRule": {"utilizationLimit": {"timezone": null}, "utilizationLimitV2": null}}`,
			),
		)
		if cardDig(got, "countryRule") != nil || cardDig(got, "spendingRule", "utilizationLimitV2") != nil ||
			cardDig(got, "spendingRule", "utilizationLimit", "timezone") != nil {
			t.Fatalf("nulls kept: %v", got)
		}
		if cardDig(got, "spendingRule", "utilizationLimit", "preset") != "monthly" ||
			cardDig(got, "merchantRule") == nil {
			t.Fatalf("removed too much: %v", got)
		}
	})
	t.Run("PUT replaces", func(t *testing.T) {
		got := cardConstraintOf(t, put(`{"countryRule": {"countries": ["GB"], "restriction": "blacklist"}}`))
		if len(got) != 1 || cardDig(got, "countryRule", "restriction") != "blacklist" {
			t.Fatalf("PUT kept old rules: %v", got)
		}
	})
	t.Run("refused bodies", func(t *testing.T) {
		cases := map[string]struct{ body, field string }{
			"unknown rule": {`{"mccRule": {}}`, "/mccRule"},
			"bad restriction": {
				`{"merchantRule": {"merchants": [], "restriction": "denylist"}}`,
				"/merchantRule/restriction",
			},
			"unknown merchant": {`{"merchantRule": {"merchants": ["merchant_v2_nope"]}}`, "/merchantRule/merchants/0"},
			"unknown category": {
				`{"merchantCategoryRule": {"merchantCategories": ["merchant_category_spaceships"]}}`,
				"/merchantCategoryRule/merchantCategories/0",
			},
			"bad mcc": {
				`{"merchantCategoryCodeRule": {"merchantCategoryCodes": ["79"]}}`,
				"/merchantCategoryCodeRule/merchantCategoryCodes/0",
			},
			"bad preset": {
				`{"spendingRule": {"utilizationLimit": {"limitAmount": {"amountCents": 1}, "preset": "hourly"}}}`,
				"/spendingRule/utilizationLimit/preset",
			},
			"missing limitAmount": {
				`{"spendingRule": {"utilizationLimit": {"preset": "daily"}}}`,
				"/spendingRule/utilizationLimit/limitAmount",
			},
			"fractional cents": {
				`{"spendingRule": {"utilizationLimitV2": [{"limitAmount": {"amountCents": 1.5}, "preset": "daily"}]}}`,
				"/spendingRule/utilizationLimitV2/0/limitAmount/amountCents",
			},
			"negative maximum": {
				`{"spendingRule": {"transactionSizeLimit": {"maximum": {"amountCents": -1}}}}`,
				"/spendingRule/transactionSizeLimit/maximum/amountCents",
			},
			"minimum over maximum": {
				`{"spendingRule": {"transactionSizeLimit": {"minimum": {"amountCents": 9}, "maximum": {"amountCents": 5}}}}`,
				"/spendingRule/transactionSizeLimit",
			},
			"not an object": {`[1]`, "body"},
		}
		for name, c := range cases {
			t.Run(name, func(t *testing.T) {
				if d := cardErrDetails(t, put(c.body).Gen1(t, 400, "invalid_request")); d[c.field] == nil {
					t.Fatalf("details = %v, want %s", d, c.field)
				}
			})
		}
		if d := cardErrDetails(t, patch(`{"spendingRule": {"utilizationLimit": {"preset": "daily"}}}`).Gen1(t, 400,
			"invalid_request")); d["/spendingRule/utilizationLimit/limitAmount"] == nil {
			t.Fatalf("a PATCH adding a limit without an amount: %v", d)
		}
	})
	e.Do(apitest.Req{Method: http.MethodPut, Path: "/card/card_globexops/spending-constraint", Key: "sk_sandbox_acme",
		Body: `{}`}).
		Gen1(t, 404, "not_found")
}

func cardJSONEqual(t *testing.T, raw json.RawMessage, v any) bool {
	t.Helper()
	var a any
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatal(err)
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(v)
	return string(x) == string(y)
}

func cardLimitBody(zone, startDate, preset string) string {
	l := map[string]any{"limitAmount": map[string]int{"amountCents": 10000}, "preset": preset}
	if zone != "" {
		l["timezone"] = zone
	}
	if startDate != "" {
		l["startDate"] = startDate
	}
	b, _ := json.Marshal(map[string]any{"spendingRule": map[string]any{"utilizationLimit": l}})
	return string(b)
}

func TestInvalidTimezonesAreRefused(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	c := apitest.CreateTestCard(t, e, `{"type":"virtual","name":"Zones"}`)
	forms := map[string]string{
		"enum constant":      "AMERICA_NEW_YORK",
		"bare offset":        "+05:00",
		"UTC offset":         "UTC+5",
		"abbreviation EST":   "EST",
		"abbreviation PST":   "PST",
		"link US/Eastern":    "US/Eastern",
		"link Asia/Calcutta": "Asia/Calcutta",
	}
	for form, zone := range forms {
		t.Run(form, func(t *testing.T) {
			body := cardLimitBody(zone, "", "monthly")
			for _, w := range []struct {
				method, path, body, pointer string
			}{
				{http.MethodPut, "/card/" + c.ID + "/spending-constraint", body, "/spendingRule/utilizationLimit/timezone"},
				{http.MethodPatch, "/card/" + c.ID + "/spending-constraint", body, "/spendingRule/utilizationLimit/timezone"},
				{http.MethodPut, "/card-group/card_group_acmetravel/spending-constraint", body,
					"/spendingRule/utilizationLimit/timezone"},
				{http.MethodPatch, "/card-group/card_group_acmetravel/spending-constraint",
					`{"spendingRule":{"utilizationLimit":{"timezone":"` + zone + `"}}}`, "/spendingRule/utilizationLimit/timezone"},
				{http.MethodPost, "/card-group", `{"name":"Zone","spendingConstraint":` + body + `}`,
					"/spendingConstraint/spendingRule/utilizationLimit/timezone"},
				{http.MethodPost, "/card", `{"type":"virtual","name":"Zone","spendingConstraint":{"spendingRule":{` +
					`"utilizationLimitV2":[{"limitAmount":{"amountCents":1},"preset":"daily","timezone":"` + zone + `"}]}}}`,
					"/spendingConstraint/spendingRule/utilizationLimitV2/0/timezone"},
			} {
				m := e.Do(apitest.Req{Method: w.method, Path: w.path, Key: "sk_sandbox_acme", Body: w.body}).
					Gen1(t, 400, "invalid_request")
				if d := cardErrDetails(t, m); d[w.pointer] == nil {
					t.Fatalf("%s %s: details %v lack %s", w.method, w.path, d, w.pointer)
				}
			}
		})
	}
	t.Run("canonical zones and no zone are accepted", func(t *testing.T) {
		for _, zone := range []string{"America/New_York", "Asia/Kolkata", "Europe/London", ""} {
			got := cardConstraintOf(
				t,
				e.Do(
					apitest.Req{
						Method: http.MethodPut,
						Path:   "/card/" + c.ID + "/spending-constraint",
						Key:    "sk_sandbox_acme",
						Body:   cardLimitBody(zone, "", "weekly"),
					},
				),
			)
			if tz := cardDig(got, "spendingRule", "utilizationLimit", "timezone"); (zone == "" && tz != nil) ||
				(zone != "" && tz != zone) {
				t.Fatalf("timezone %q stored as %v", zone, tz)
			}
		}
	})
}

func TestStartDate(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{}) // the demo clock: 2026-06-15T14:00:00Z
	c := apitest.CreateTestCard(t, e, `{"type":"virtual","name":"Start dates"}`)
	put := func(body string) *apitest.Resp {
		return e.Do(
			apitest.Req{
				Method: http.MethodPut,
				Path:   "/card/" + c.ID + "/spending-constraint",
				Key:    "sk_sandbox_acme",
				Body:   body,
			},
		)
	}
	for _, preset := range []string{"weekly", "monthly", "yearly"} {
		m := put(cardLimitBody("", "2026-06-16", preset)).Gen1(t, 400, "invalid_request")
		if d := cardErrDetails(t, m); d["/spendingRule/utilizationLimit/startDate"] == nil {
			t.Fatalf("%s in the future: details %v", preset, d)
		}
	}
	put(cardLimitBody("", "2026-6-1", "monthly")).Gen1(t, 400, "invalid_request")
	t.Run("today in the limit's zone", func(t *testing.T) {
		put(cardLimitBody("", "2026-06-15", "monthly")).Status(t, 200)
		// At 14:00 UTC it is already June 16th in Auckland.
		put(cardLimitBody("Pacific/Auckland", "2026-06-16", "weekly")).Status(t, 200)
		put(cardLimitBody("America/Los_Angeles", "2026-06-16", "weekly")).Gen1(t, 400, "invalid_request")
	})
	t.Run("used for the window", func(t *testing.T) {
		put(cardLimitBody("America/New_York", "2026-01-20", "monthly")).Status(t, 200)
		u := e.Get("/card/"+c.ID+"/utilization", "sk_sandbox_acme", "").Status(t, 200).JSON(t)
		if u["nextResetDate"] != "2026-06-20T04:00:00.000Z" {
			t.Fatalf("utilization = %v, want a reset on the 20th at midnight in New York", u)
		}
	})
	t.Run("ignored for daily", func(t *testing.T) {
		got := cardConstraintOf(t, put(cardLimitBody("Europe/London", "2027-01-01", "daily")))
		if cardDig(got, "spendingRule", "utilizationLimit", "preset") != "daily" {
			t.Fatalf("constraint = %v", got)
		}
		u := e.Get("/card/"+c.ID+"/utilization", "sk_sandbox_acme", "").Status(t, 200).JSON(t)
		if u["nextResetDate"] != "2026-06-15T23:00:00.000Z" {
			t.Fatalf("utilization = %v, want the next London midnight", u)
		}
	})
}

func TestCardGroups(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	var list struct {
		Items []apitest.GroupJSON `json:"items"`
	}
	e.Get("/card-group", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &list)
	if len(list.Items) != 3 || list.Items[0].ID != "card_group_acmesaas" ||
		*list.Items[0].VirtualAccountID != "subaccount_acmeengineering" ||
		list.Items[1].VirtualAccountID != nil ||
		list.Items[1].SpendingConstraint == nil {
		t.Fatalf("groups = %+v", list.Items)
	}
	for query, want := range map[string]int{"?filter:name=Travel": 1, "?filter:name=travel": 0, "?filter:status=active": 3,
		"?filter:status=archived": 0, "?filter:virtualAccountId=subaccount_acmemarketing": 1} {
		e.Get("/card-group"+query, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &list)
		if len(list.Items) != want {
			t.Fatalf("%s: %d groups, want %d", query, len(list.Items), want)
		}
	}
	e.Get("/card-group?filter:status=deleted", "sk_sandbox_acme", "").Gen1(t, 400, "invalid_request")
	t.Run("legal-entity model ignores virtualAccountId", func(t *testing.T) {
		var g apitest.GroupJSON
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/card-group", Key: "sk_sandbox_acme",
			Body: `{"name":"Events","virtualAccountId":"subaccount_nonexistent","spendingConstraint":{"countryRule":{` +
				`"countries":["US"]}}}`}).
			Status(t, 200).Decode(t, &g)
		if g.Name != "Events" || g.VirtualAccountID != nil || g.ID == "" {
			t.Fatalf("group = %+v", g)
		}
		raw := e.Get("/card-group/"+g.ID, "sk_sandbox_acme", "").Status(t, 200).Raw
		if !cardJSONNull(t, raw, "virtualAccountId") {
			t.Fatalf("virtualAccountId must be present as null: %s", raw)
		}
	})
	t.Run("virtual-account model sets the association", func(t *testing.T) {
		var g apitest.GroupJSON
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/card-group", Key: "sk_sandbox_globex", Body: `{"name":"Depot"}`}).
			Status(t, 200).
			Decode(t, &g)
		primary := cardPrimaryVA(t, e, "sa_group_globexmain")
		if g.VirtualAccountID == nil || *g.VirtualAccountID != primary {
			t.Fatalf("default association = %v, want the primary %s", g.VirtualAccountID, primary)
		}
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/card-group", Key: "sk_sandbox_globex",
			Body: `{"name":"Fleet 2","virtualAccountId":"subaccount_globexfleet"}`}).
			Status(t, 200).
			Decode(t, &g)
		if g.VirtualAccountID == nil || *g.VirtualAccountID != "subaccount_globexfleet" {
			t.Fatalf("association = %v", g.VirtualAccountID)
		}
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/card-group", Key: "sk_sandbox_globex",
			Body: `{"name":"x","virtualAccountId":"subaccount_acmemarketing"}`}).
			Gen1(t, 404, "not_found")
	})
	t.Run("get and patch", func(t *testing.T) {
		var g apitest.GroupJSON
		e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card-group/card_group_acmetravel", Key: "sk_sandbox_acme",
			Body: `{"name":"Travel and lodging"}`}).
			Status(t, 200).
			Decode(t, &g)
		if g.Name != "Travel and lodging" || g.SpendingConstraint == nil {
			t.Fatalf("renamed = %+v", g)
		}
		if c := apitest.ReadCard(t, e, "card_acmealicetravel", ""); c.CardGroupName != "Travel and lodging" {
			t.Fatalf("card shows group %q", c.CardGroupName)
		}
		g = apitest.GroupJSON{}
		e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card-group/card_group_acmetravel", Key: "sk_sandbox_acme",
			Body: `{"spendingConstraint":null}`}).
			Status(t, 200).
			Decode(t, &g)
		if g.SpendingConstraint != nil || g.Name != "Travel and lodging" {
			t.Fatalf("constraint not removed: %+v", g)
		}
		e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card-group/card_group_acmetravel", Key: "sk_sandbox_acme",
			Body: `{"virtualAccountId":"x"}`}).
			Gen1(t, 400, "invalid_request")
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/card-group", Key: "sk_sandbox_acme", Body: `{}`}).
			Gen1(t, 400, "invalid_request")
		e.Get("/card-group/card_group_globexfleet", "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
		e.Get("/card-group/card_group_globexfleet", "sk_sandbox_alice", "le_globex").Status(t, 200)
	})
	t.Run("group spending constraint", func(t *testing.T) {
		path := "/card-group/card_group_acmeads/spending-constraint"
		got := cardConstraintOf(t, e.Do(apitest.Req{Method: http.MethodPatch, Path: path, Key: "sk_sandbox_acme",
			Body: `{"merchantRule": {"merchants": ["merchant_v2_google_ads"]}, "countryRule": {"countries": ["US"]}}`}))
		if v2, _ := cardDig(got, "spendingRule", "utilizationLimitV2").([]any); len(v2) != 2 ||
			cardDig(got, "countryRule", "restriction") != "allowlist" {
			t.Fatalf("PATCH = %v", got)
		}
		got = cardConstraintOf(
			t,
			e.Do(
				apitest.Req{
					Method: http.MethodPut,
					Path:   path,
					Key:    "sk_sandbox_acme",
					Body:   `{"spendingRule": {"transactionSizeLimit": {}}}`,
				},
			),
		)
		if len(got) != 1 || cardDig(got, "spendingRule", "transactionSizeLimit") == nil {
			t.Fatalf("PUT = %v", got)
		}
	})
}

func cardJSONNull(t *testing.T, raw []byte, key string) bool {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	v, ok := m[key]
	return ok && string(v) == "null"
}

func cardPrimaryVA(t *testing.T, e *apitest.Env, account string) string {
	t.Helper()
	var id string
	err := e.Engine.Default().View(func(op *kernel.Op) error {
		acc, err := ledger.AccountOf(op, &kernel.Actor{LegalEntity: kernel.LegalEntity{ID: "le_globex"}}, account, "")
		if err == nil {
			id = acc.PrimaryVirtualAccountID
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestUtilizationEndpoints(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	type util struct {
		NextResetDate    string             `json:"nextResetDate"`
		Spend            *apitest.CentsJSON `json:"spend"`
		AvailableBalance *apitest.CentsJSON `json:"availableBalance"`
	}
	get := func(path, key string) util {
		var u util
		e.Get(path, key, "").Status(t, 200).Decode(t, &u)
		return u
	}
	saas := get("/card-group/card_group_acmesaas/utilization", "sk_sandbox_acme")
	if saas.Spend == nil || saas.Spend.AmountCents <= 0 || saas.AvailableBalance == nil ||
		saas.Spend.AmountCents+saas.AvailableBalance.AmountCents != 2500000 ||
		saas.NextResetDate != "2026-07-01T07:00:00.000Z" {
		t.Fatalf("saas group = %+v", saas)
	}
	office := get("/card/card_acmeoffice/utilization", "sk_sandbox_acme")
	if office.Spend == nil || office.Spend.AmountCents <= 0 || office.AvailableBalance == nil ||
		office.NextResetDate != "2026-07-01T04:00:00.000Z" {
		t.Fatalf("office card = %+v", office)
	}
	ops := get("/card/card_globexops/utilization", "sk_sandbox_globex")
	if ops.Spend == nil || ops.Spend.AmountCents <= 0 || ops.AvailableBalance != nil || ops.NextResetDate != "" {
		t.Fatalf("a card without limits shows lifetime spend only: %+v", ops)
	}
	m := e.Get("/card/card_acmeaws/utilization", "sk_sandbox_acme", "").Gen1(t, 400, "invalid_request")
	if msg, _ := m["message"].(string); msg == "" || cardErrDetails(t, m)["cardGroupId"] != "card_group_acmesaas" {
		t.Fatalf("grouped card: %v", m)
	}
	e.Get("/card/card_globexops/utilization", "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
	e.Get("/card-group/card_group_globexfleet/utilization", "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
}
