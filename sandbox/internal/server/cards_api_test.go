package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
)

// cardJSON is the API's Card as the tests read it; the golden file
// card.create pins its shape.
type cardJSON struct {
	ID                 string          `json:"id"`
	AccountID          string          `json:"accountId"`
	VirtualAccountID   string          `json:"virtualAccountId"`
	Last4              string          `json:"last4"`
	Name               string          `json:"name"`
	Status             string          `json:"status"`
	IsPhysical         *bool           `json:"isPhysical"`
	IsSingleUse        bool            `json:"isSingleUse"`
	PAN                *string         `json:"pan"`
	CVV                *string         `json:"cvv"`
	CardGroupID        string          `json:"cardGroupId"`
	CardGroupName      string          `json:"cardGroupName"`
	CreatedAt          string          `json:"createdAt"`
	SpendingConstraint json.RawMessage `json:"spendingConstraint"`
	UserData           map[string]any  `json:"userData"`
	CardProductID      string          `json:"cardProductId"`
	Modifiers          []struct {
		Name  string `json:"name"`
		Value bool   `json:"value"`
	} `json:"modifiers"`
}

type cardPage struct {
	Items    []cardJSON `json:"items"`
	Metadata struct {
		Count      int    `json:"count"`
		NextCursor string `json:"nextCursor"`
	} `json:"metadata"`
}

// newCard creates a card with acme's legal-entity key.
func createTestCard(t *testing.T, e *env, body string) cardJSON {
	t.Helper()
	var c cardJSON
	e.do(req{method: http.MethodPost, path: "/card", key: "sk_sandbox_acme", body: body}).status(t, 201).decode(t, &c)
	return c
}

func readCard(t *testing.T, e *env, id, query string) cardJSON {
	t.Helper()
	var c cardJSON
	e.get("/card/"+id+query, "sk_sandbox_acme", "").status(t, 200).decode(t, &c)
	return c
}

// acmeEventsFor lists the webhook event types le_acme has raised for one
// entity, in order: the demo's paused endpoint of le_acme takes every event
// and keeps each delivery queued.
func acmeEventsFor(t *testing.T, e *env, entity string) []string {
	t.Helper()
	var types []string
	for _, d := range deliveries(t, e, "webhookId=webhook_acmelocal") {
		if d.EntityID == entity {
			types = append(types, d.Event)
		}
	}
	return types
}

func TestCardCreateAndGet(t *testing.T) {
	e := newEnv(t, options{})
	created := e.do(req{method: http.MethodPost, path: "/card", key: "sk_sandbox_acme",
		body: `{"type":"virtual","name":"Team lunch",
		"isSingleUse":true,"userData":{"costCenter":"OPS-7"},"cardGroupId":"card_group_acmetravel","cardProductId":` +
			`"card_product_mastercard_commercial"}`}).
		status(t, 201)
	golden(t, "card.create", created.body)
	var c cardJSON
	created.decode(t, &c)
	if c.AccountID != "sa_group_acmeoperating" || c.Name != "Team lunch" || c.Status != "active" || !c.IsSingleUse {
		t.Fatalf("card = %+v", c)
	}
	if c.CardGroupID != "card_group_acmetravel" || c.CardGroupName != "Travel" ||
		c.CardProductID != "card_product_mastercard_commercial" {
		t.Fatalf("group/product = %+v", c)
	}
	if c.PAN != nil || c.CVV != nil || len(c.Last4) != 4 || c.IsPhysical == nil || *c.IsPhysical ||
		c.UserData["costCenter"] != "OPS-7" {
		t.Fatalf("card = %+v", c)
	}
	if got := acmeEventsFor(t, e, c.ID); !slices.Equal(got, []string{"card_creation.event"}) {
		t.Fatalf("events = %v, want card_creation.event", got)
	}
	t.Run("pan and cvv only when asked", func(t *testing.T) {
		plain := readCard(t, e, c.ID, "?include_pan=false&include_cvv=false")
		if plain.PAN != nil || plain.CVV != nil {
			t.Fatalf("secrets shown unasked: %+v", plain)
		}
		withPAN := readCard(t, e, c.ID, "?include_pan=true")
		if withPAN.PAN == nil || withPAN.CVV != nil {
			t.Fatalf("include_pan: pan %v cvv %v", withPAN.PAN, withPAN.CVV)
		}
		pan := *withPAN.PAN
		if !cards.LuhnValid(pan) || len(pan) != 16 || !strings.HasPrefix(pan, "555555") || !strings.HasSuffix(pan, c.Last4) {
			t.Fatalf("pan %s is not a Luhn-valid number of the product ending in %s", pan, c.Last4)
		}
		withCVV := readCard(t, e, c.ID, "?include_cvv=true")
		if withCVV.CVV == nil || len(*withCVV.CVV) != 3 || withCVV.PAN != nil {
			t.Fatalf("include_cvv: %+v", withCVV)
		}
		e.get("/card/"+c.ID+"?include_pan=yes", "sk_sandbox_acme", "").gen1(t, 400, "invalid_request")
	})
	t.Run("demo PANs are Luhn-valid", func(t *testing.T) {
		for _, id := range []string{"card_acmeaws", "card_acmealicetravel", "card_globexops"} {
			key := "sk_sandbox_acme"
			if strings.HasPrefix(id, "card_globex") {
				key = "sk_sandbox_globex"
			}
			var got cardJSON
			e.get("/card/"+id+"?include_pan=true", key, "").status(t, 200).decode(t, &got)
			if got.PAN == nil || !cards.LuhnValid(*got.PAN) {
				t.Fatalf("%s pan = %v", id, got.PAN)
			}
		}
	})
	t.Run("user key needs accountId", func(t *testing.T) {
		r := e.do(
			req{
				method: http.MethodPost,
				path:   "/card",
				key:    "sk_sandbox_alice",
				le:     "le_acme",
				body:   `{"type":"virtual","name":"x"}`,
			},
		)
		if d := r.gen1(t, 400,
			"invalid_request"); d["meta"].(map[string]any)["details"].(map[string]any)["/accountId"] == nil {
			t.Fatalf("details = %v", d)
		}
		var ok cardJSON
		e.do(req{method: http.MethodPost, path: "/card", key: "sk_sandbox_alice", le: "le_acme",
			body: `{"type":"virtual","name":"Alice charge","accountId":"sa_group_acmecharge"}`}).status(t, 201).decode(t, &ok)
		if ok.AccountID != "sa_group_acmecharge" || ok.CardProductID == "" {
			t.Fatalf("card = %+v", ok)
		}
	})
	t.Run("bad bodies", func(t *testing.T) {
		big := `{"type":"virtual","name":"x","userData":{"blob":"` + strings.Repeat("a", 4100) + `"}}`
		cases := map[string]struct {
			body   string
			status int
			field  string
		}{
			"no type":            {`{"name":"x"}`, 400, "/type"},
			"physical":           {`{"type":"physical","name":"x"}`, 400, "/type"},
			"no name":            {`{"type":"virtual"}`, 400, "/name"},
			"blank name":         {`{"type":"virtual","name":"  "}`, 400, "/name"},
			"userData array":     {`{"type":"virtual","name":"x","userData":[1]}`, 400, "/userData"},
			"userData over 4 KB": {big, 400, "/userData"},
			"unknown property":   {`{"type":"virtual","name":"x","color":"red"}`, 400, "/color"},
			"group of globex": {
				`{"type":"virtual","name":"x","cardGroupId":"card_group_globexfleet"}`,
				404,
				"cardGroupId",
			},
			"foreign account": {`{"type":"virtual","name":"x","accountId":"sa_group_globexmain"}`, 404, "accountId"},
			"va of another account": {
				`{"type":"virtual","name":"x","accountId":"sa_group_acmecharge","virtualAccountId":"subaccount_acmemarketing"}`,
				400,
				"/virtualAccountId",
			},
			"closed va": {
				`{"type":"virtual","name":"x","virtualAccountId":"subaccount_acmeoldproject"}`,
				400,
				"/virtualAccountId",
			},
			"inactive product": {
				`{"type":"virtual","name":"x","cardProductId":"card_product_visa_legacy"}`,
				400,
				"/cardProductId",
			},
			"unknown product": {`{"type":"virtual","name":"x","cardProductId":"card_product_nope"}`, 404, "cardProductId"},
			"bad constraint": {
				`{"type":"virtual","name":"x","spendingConstraint":{"countryRule":{"countries":["usa"]}}}`,
				400,
				"/spendingConstraint/countryRule/countries/0",
			},
		}
		for name, c := range cases {
			t.Run(name, func(t *testing.T) {
				code := "invalid_request"
				if c.status == 404 {
					code = "not_found"
				}
				m := e.do(req{method: http.MethodPost, path: "/card", key: "sk_sandbox_acme", body: c.body}).gen1(t, c.status, code)
				details, _ := m["meta"].(map[string]any)["details"].(map[string]any)
				if _, ok := details[c.field]; !ok && details["field"] != c.field {
					t.Fatalf("details = %v, want %s", details, c.field)
				}
			})
		}
	})
}

func cardPageIDs(p cardPage) []string {
	ids := make([]string, len(p.Items))
	for i, c := range p.Items {
		ids[i] = c.ID
	}
	return ids
}

func cardList(t *testing.T, e *env, query string) []string {
	t.Helper()
	var p cardPage
	e.get("/card"+query, "sk_sandbox_acme", "").status(t, 200).decode(t, &p)
	return cardPageIDs(p)
}

func TestCardListFiltersAndSorts(t *testing.T) {
	e := newEnv(t, options{})
	cases := []struct {
		query string
		want  []string
	}{
		{"?filter:accountId=sa_group_acmecharge", []string{"card_acmealicetravel", "card_acmebobtravel"}},
		{"?filter:cardGroupId=card_group_acmeads", []string{"card_acmegoogleads", "card_acmemetaads"}},
		{"?filter:cardGroupName=Travel", []string{"card_acmealicetravel", "card_acmebobtravel"}},
		{"?filter:cardGroupName=Nope", []string{}},
		{"?filter:status=paused", []string{"card_acmemetaads"}},
		{"?filter:status=closed", []string{"card_acmeoldlaptop"}},
		{"?filter:virtualAccountId=subaccount_acmepayroll", []string{"card_acmemeals"}},
		{"?filter:modifier=only_allow_recurring_payments:true", []string{"card_acmesubscriptions"}},
		{
			"?filter:cardGroupName=Engineering%20SaaS&sort=name",
			[]string{"card_acmeopenai", "card_acmeaws", "card_acmegithub"},
		},
		{
			"?filter:cardGroupName=Engineering%20SaaS&sort=name&sortDirection=DESC",
			[]string{"card_acmegithub", "card_acmeaws", "card_acmeopenai"},
		},
		{
			"?filter:accountId=sa_group_acmecharge&sort=name&sortDirection=DESC",
			[]string{"card_acmebobtravel", "card_acmealicetravel"},
		},
		{
			"?filter:cardGroupId=card_group_acmesaas&sortDirection=DESC",
			[]string{"card_acmeopenai", "card_acmegithub", "card_acmeaws"},
		},
		{
			"?filter:cardGroupId=card_group_acmesaas&sort=createdAt",
			[]string{"card_acmeaws", "card_acmegithub", "card_acmeopenai"},
		},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			if got := cardList(t, e, c.query); !slices.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
	t.Run("list items name their group and hide secrets", func(t *testing.T) {
		var p cardPage
		e.get("/card?filter:cardGroupId=card_group_acmesaas", "sk_sandbox_acme", "").status(t, 200).decode(t, &p)
		for _, c := range p.Items {
			if c.CardGroupName != "Engineering SaaS" || c.PAN != nil || c.CVV != nil || c.Last4 == "" {
				t.Fatalf("item = %+v", c)
			}
		}
	})
	t.Run("refused queries", func(t *testing.T) {
		for _, q := range []string{"?filter:cardGroupId=card_group_acmesaas&filter:cardGroupName=Travel",
			"?filter:status=lost",
			"?filter:modifier=only_allow_recurring_payments", "?sort=last4", "?sortDirection=UP"} {
			e.get("/card"+q, "sk_sandbox_acme", "").gen1(t, 400, "invalid_request")
		}
		e.get("/card?filter:legalEntityId=le_globex", "sk_sandbox_acme", "").gen1(t, 403, "forbidden")
	})
	t.Run("another entity's cards stay out", func(t *testing.T) {
		globex := cardList(t, e, "?filter:legalEntityId=le_acme")
		if slices.Contains(globex, "card_globexops") || len(globex) != 12 {
			t.Fatalf("acme list = %v", globex)
		}
		e.get("/card/card_globexops", "sk_sandbox_acme", "").gen1(t, 404, "not_found")
		e.do(req{method: http.MethodPatch, path: "/card/card_globexops", key: "sk_sandbox_acme", body: `{"name":"mine"}`}).
			gen1(t, 404, "not_found")
	})
}

func TestCardListCursors(t *testing.T) {
	e := newEnv(t, options{})
	for i := range 45 {
		prefix := []string{"Bulk ", "bulk "}[i%2] // the order ignores case
		createTestCard(t, e, `{"type":"virtual","name":"`+prefix+string(rune('A'+i%26))+string(rune('a'+i/26))+`"}`)
	}
	byDate := walk(t, e, "/card", nil)
	byName := walk(t, e, "/card?sort=name", nil)
	if len(byDate) != 57 || len(byName) != 57 {
		t.Fatalf("walked %d by date and %d by name, want 57", len(byDate), len(byName))
	}
	seen := map[string]bool{}
	for _, id := range byName {
		if seen[id] {
			t.Fatalf("%s listed twice", id)
		}
		seen[id] = true
	}
	names := make([]string, 0, len(byName))
	for _, id := range byName {
		names = append(names, readCard(t, e, id, "").Name)
	}
	if !slices.IsSortedFunc(names,
		func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) }) {
		t.Fatalf("names out of order: %v", names)
	}
	t.Run("a cursor is bound to its sort", func(t *testing.T) {
		var p cardPage
		e.get("/card?sort=name", "sk_sandbox_acme", "").status(t, 200).decode(t, &p)
		e.get("/card?sort=createdAt&cursor="+p.Metadata.NextCursor, "sk_sandbox_acme", "").gen1(t, 400, "invalid_request")
	})
}

func TestCardUpdate(t *testing.T) {
	e := newEnv(t, options{})
	c := createTestCard(t, e, `{"type":"virtual","name":"Old name","cardGroupId":"card_group_acmeads","userData":{"a":1},
		"spendingConstraint":{"countryRule":{"countries":["US"]}}}`)
	patch := func(body string) *resp {
		return e.do(req{method: http.MethodPatch, path: "/card/" + c.ID, key: "sk_sandbox_acme", body: body})
	}
	var got cardJSON
	patch(`{"name":"New name","status":"paused","userData":{"b":2}}`).status(t, 200).decode(t, &got)
	if got.Name != "New name" || got.Status != "paused" || got.UserData["b"] != float64(2) || got.UserData["a"] != nil ||
		got.CardGroupID != "card_group_acmeads" || got.SpendingConstraint == nil {
		t.Fatalf("after patch: %+v", got)
	}
	got = cardJSON{}
	patch(`{"cardGroupId":null,"userData":null,"spendingConstraint":null}`).status(t, 200).decode(t, &got)
	if got.CardGroupID != "" || got.UserData != nil || got.SpendingConstraint != nil || got.Name != "New name" {
		t.Fatalf("nulls did not remove: %+v", got)
	}
	patch(
		`{"cardGroupId":"card_group_acmetravel","spendingConstraint":{"merchantRule":{"merchants":["merchant_v2_uber"],`+
			`"restriction":"blacklist"}}}`,
	).
		status(t, 200).
		decode(t, &got)
	if got.CardGroupID != "card_group_acmetravel" || !strings.Contains(string(got.SpendingConstraint), `"blacklist"`) {
		t.Fatalf("group/constraint not set: %+v", got)
	}
	patch(`{"status":"closed"}`).status(t, 200)
	patch(`{"status":"active"}`).status(t, 200).decode(t, &got)
	if got.Status != "active" {
		t.Fatalf("status = %s; any status may be set", got.Status)
	}
	want := []string{"card_creation.event", "card.update", "card.update", "card.update",
		"card.update", "card.delete", "card.update"}
	if events := acmeEventsFor(t, e, c.ID); !slices.Equal(events, want) {
		t.Fatalf("events = %v, want %v", events, want)
	}
	for body, field := range map[string]string{
		`{"status":"lost"}`:    "/status",
		`{"name":null}`:        "/name",
		`{"name":5}`:           "/name",
		`{"isSingleUse":true}`: "/isSingleUse",
		`{"userData":"text"}`:  "/userData",
		`{"spendingConstraint":{"merchantRule":{}}}`:    "/spendingConstraint/merchantRule/merchants",
		`{"spendingConstraint":{"spendingRule":"big"}}`: "/spendingConstraint/spendingRule",
	} {
		m := patch(body).gen1(t, 400, "invalid_request")
		if d, _ := m["meta"].(map[string]any)["details"].(map[string]any); d[field] == nil {
			t.Fatalf("PATCH %s: details %v lack %s", body, d, field)
		}
	}
	patch(`{"cardGroupId":"card_group_globexfleet"}`).gen1(t, 404, "not_found")
}

func TestReadOnlyCardWritesAreDeferred(t *testing.T) {
	e := newEnv(t, options{})
	before := cardList(t, e, "")
	writes := []req{
		{method: http.MethodPost, path: "/card", body: `{"type":"virtual","name":"Agent card"}`},
		{method: http.MethodPatch, path: "/card/card_acmeaws", body: `{"name":"Renamed by agent"}`},
		{method: http.MethodPut, path: "/card/card_acmeaws/spending-constraint", body: `{}`},
		{
			method: http.MethodPatch,
			path:   "/card/card_acmeaws/spending-constraint",
			body:   `{"countryRule":{"countries":["US"]}}`,
		},
		{
			method: http.MethodPut,
			path:   "/card/card_acmesubscriptions/modifier",
			body:   `{"name":"only_allow_recurring_payments","value":false}`,
		},
		{method: http.MethodPost, path: "/card-group", body: `{"name":"Agent group"}`},
		{method: http.MethodPatch, path: "/card-group/card_group_acmesaas", body: `{"name":"Renamed"}`},
		{method: http.MethodPut, path: "/card-group/card_group_acmesaas/spending-constraint", body: `{}`},
	}
	for _, w := range writes {
		w.key = "sk_sandbox_acme_readonly"
		deferred(t, e.do(w))
	}
	if after := cardList(t, e, ""); !slices.Equal(before, after) {
		t.Fatalf("cards changed: %v → %v", before, after)
	}
	aws := readCard(t, e, "card_acmeaws", "")
	if aws.Name != "AWS production" || aws.SpendingConstraint != nil {
		t.Fatalf("card_acmeaws changed: %+v", aws)
	}
	if s := readCard(t, e, "card_acmesubscriptions", ""); len(s.Modifiers) != 1 || !s.Modifiers[0].Value {
		t.Fatalf("modifier changed: %+v", s.Modifiers)
	}
	g := e.get("/card-group/card_group_acmesaas", "sk_sandbox_acme", "").status(t, 200).json(t)
	if g["name"] != "Engineering SaaS" || g["spendingConstraint"] == nil {
		t.Fatalf("group changed: %v", g)
	}
	t.Run("bad input is still a 400 right away", func(t *testing.T) {
		e.do(req{method: http.MethodPost, path: "/card", key: "sk_sandbox_acme_readonly", body: `{"type":"virtual"}`}).
			gen1(t, 400, "invalid_request")
		e.do(req{method: http.MethodPut, path: "/card/card_acmeaws/spending-constraint", key: "sk_sandbox_acme_readonly",
			body: `{"spendingRule":{"utilizationLimit":{"limitAmount":{"amountCents":1},` +
				`"preset":"daily","timezone":"EST"}}}`}).gen1(t, 400, "invalid_request")
	})
}

func TestCardModifiersAreEnterpriseOnly(t *testing.T) {
	e := newEnv(t, options{})
	path := "/card/card_acmesubscriptions/modifier"
	var mods struct {
		Modifiers []struct {
			Name  string `json:"name"`
			Value bool   `json:"value"`
		} `json:"modifiers"`
	}
	e.get(path, "sk_sandbox_acme", "").status(t, 200).decode(t, &mods)
	if len(mods.Modifiers) != 1 || mods.Modifiers[0].Name != "only_allow_recurring_payments" || !mods.Modifiers[0].Value {
		t.Fatalf("modifiers = %+v", mods)
	}
	ok := e.do(req{method: http.MethodPut, path: path, key: "sk_sandbox_acme",
		body: `{"name":"only_allow_recurring_payments","value":false}`}).
		status(t, 200).
		json(t)
	if ok["success"] != true {
		t.Fatalf("PUT = %v", ok)
	}
	e.get(path, "sk_sandbox_acme", "").status(t, 200).decode(t, &mods)
	if len(mods.Modifiers) != 1 || mods.Modifiers[0].Value {
		t.Fatalf("after PUT: %+v", mods)
	}
	if got := cardList(t, e, "?filter:modifier=only_allow_recurring_payments:true"); len(got) != 0 {
		t.Fatalf("filter still finds %v", got)
	}
	e.do(req{method: http.MethodPatch, path: "/card/card_acmeaws/modifier", key: "sk_sandbox_acme",
		body: `{"name":"only_allow_recurring_payments","value":true}`}).
		status(t, 200)
	e.get("/card/card_acmeaws/modifier", "sk_sandbox_acme", "").status(t, 200).decode(t, &mods)
	if len(mods.Modifiers) != 1 || !mods.Modifiers[0].Value {
		t.Fatalf("after PATCH: %+v", mods)
	}
	e.get("/card/card_acmeoffice/modifier", "sk_sandbox_acme", "").status(t, 200).decode(t, &mods)
	if mods.Modifiers == nil || len(mods.Modifiers) != 0 {
		t.Fatalf("a card without modifiers: %+v", mods)
	}
	e.do(req{method: http.MethodPut, path: path, key: "sk_sandbox_acme", body: `{"name":"only_weekends","value":true}`}).
		gen1(t, 400, "invalid_request")
	e.do(req{method: http.MethodPut, path: path, key: "sk_sandbox_acme",
		body: `{"name":"only_allow_recurring_payments"}`}).
		gen1(t, 400, "invalid_request")
	t.Run("other legal entities are refused", func(t *testing.T) {
		for _, r := range []req{
			{method: http.MethodGet, path: "/card/card_globexops/modifier"},
			{method: http.MethodPut, path: "/card/card_globexops/modifier",
				body: `{"name":"only_allow_recurring_payments","value":true}`},
			{method: http.MethodPatch, path: "/card/card_globexops/modifier",
				body: `{"name":"only_allow_recurring_payments","value":true}`},
		} {
			r.key = "sk_sandbox_globex"
			m := e.do(r).gen1(t, 403, "forbidden")
			if msg, _ := m["message"].(string); !strings.Contains(msg, "enterprise feature") {
				t.Fatalf("message = %q", msg)
			}
		}
	})
}

func TestCardProducts(t *testing.T) {
	e := newEnv(t, options{})
	var p struct {
		Items []struct {
			ID     string `json:"id"`
			Prefix string `json:"prefix"`
			Status string `json:"status"`
		} `json:"items"`
		Metadata struct {
			Count int `json:"count"`
		} `json:"metadata"`
	}
	e.get("/card-product", "sk_sandbox_acme", "").status(t, 200).decode(t, &p)
	if p.Metadata.Count != 3 || len(p.Items) != 3 {
		t.Fatalf("products = %+v", p)
	}
	byID := map[string]string{}
	for _, it := range p.Items {
		byID[it.ID] = it.Prefix + "/" + it.Status
	}
	if byID["card_product_visa_commercial"] != "411111/active" || byID["card_product_visa_legacy"] != "400000/inactive" {
		t.Fatalf("products = %v", byID)
	}
	e.get("/card-product?cursor=bogus", "sk_sandbox_acme", "").gen1(t, 400, "invalid_request")
}
