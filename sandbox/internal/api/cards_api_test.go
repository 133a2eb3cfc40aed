package api_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
)

type cardPage struct {
	Items    []apitest.CardJSON `json:"items"`
	Metadata struct {
		Count      int    `json:"count"`
		NextCursor string `json:"nextCursor"`
	} `json:"metadata"`
}

func TestCardCreateAndGet(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	created := e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: "sk_sandbox_acme",
		Body: `{"type":"virtual","name":"Team lunch",
		"isSingleUse":true,"userData":{"costCenter":"OPS-7"},"cardGroupId":"card_group_acmetravel","cardProductId":` +
			`"card_product_mastercard_commercial"}`}).
		Status(t, 201)
	apitest.Golden(t, "card.create", created.Raw)
	var c apitest.CardJSON
	created.Decode(t, &c)
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
	if got := apitest.AcmeEventsFor(t, e, c.ID); !slices.Equal(got, []string{deliveries.EventCardCreation}) {
		t.Fatalf("events = %v, want card_creation.event", got)
	}
	t.Run("pan and cvv only when asked", func(t *testing.T) {
		plain := apitest.ReadCard(t, e, c.ID, "?include_pan=false&include_cvv=false")
		if plain.PAN != nil || plain.CVV != nil {
			t.Fatalf("secrets shown unasked: %+v", plain)
		}
		// The PAN and CVV come from the vault address alone (cards_vault_test.go).
		vault := func(query string) apitest.CardJSON {
			t.Helper()
			var got apitest.CardJSON
			e.Get("/vault/card/"+c.ID+query, apitest.AcmeKey, "").Status(t, 200).Decode(t, &got)
			return got
		}
		withPAN := vault("?include_pan=true")
		if withPAN.PAN == nil || withPAN.CVV != nil {
			t.Fatalf("include_pan: pan %v cvv %v", withPAN.PAN, withPAN.CVV)
		}
		pan := *withPAN.PAN
		if !cards.LuhnValid(pan) || len(pan) != 16 || !strings.HasPrefix(pan, "555555") ||
			!strings.HasSuffix(pan, c.Last4) {
			t.Fatalf("pan %s is not a Luhn-valid number of the product ending in %s", pan, c.Last4)
		}
		withCVV := vault("?include_cvv=true")
		if withCVV.CVV == nil || len(*withCVV.CVV) != 3 || withCVV.PAN != nil {
			t.Fatalf("include_cvv: %+v", withCVV)
		}
		e.Get("/card/"+c.ID+"?include_pan=yes", "sk_sandbox_acme", "").Gen1(t, 400, "invalid_request")
	})
	t.Run("demo PANs are Luhn-valid", func(t *testing.T) {
		for _, id := range []string{"card_acmeaws", "card_acmealicetravel", "card_globexops"} {
			key := "sk_sandbox_acme"
			if strings.HasPrefix(id, "card_globex") {
				key = "sk_sandbox_globex"
			}
			var got apitest.CardJSON
			e.Get("/vault/card/"+id+"?include_pan=true", key, "").Status(t, 200).Decode(t, &got)
			if got.PAN == nil || !cards.LuhnValid(*got.PAN) {
				t.Fatalf("%s pan = %v", id, got.PAN)
			}
		}
	})
	t.Run("user key needs accountId", func(t *testing.T) {
		r := e.Do(
			apitest.Req{
				Method: http.MethodPost,
				Path:   "/card",
				Key:    "sk_sandbox_alice",
				LE:     "le_acme",
				Body:   `{"type":"virtual","name":"x"}`,
			},
		)
		if d := r.Gen1(t, 400,
			"invalid_request"); d["meta"].(map[string]any)["details"].(map[string]any)["/accountId"] == nil {
			t.Fatalf("details = %v", d)
		}
		var ok apitest.CardJSON
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: "sk_sandbox_alice", LE: "le_acme",
			Body: `{"type":"virtual","name":"Alice charge","accountId":"sa_group_acmecharge"}`}).Status(t,
			201).Decode(t, &ok)
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
			"unknown product": {
				`{"type":"virtual","name":"x","cardProductId":"card_product_nope"}`,
				404,
				"cardProductId",
			},
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
				m := e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: "sk_sandbox_acme", Body: c.body}).
					Gen1(t, c.status, code)
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

func cardList(t *testing.T, e *apitest.Env, query string) []string {
	t.Helper()
	var p cardPage
	e.Get("/card"+query, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &p)
	return cardPageIDs(p)
}

func TestCardListFiltersAndSorts(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
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
		e.Get("/card?filter:cardGroupId=card_group_acmesaas", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &p)
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
			e.Get("/card"+q, "sk_sandbox_acme", "").Gen1(t, 400, "invalid_request")
		}
		e.Get("/card?filter:legalEntityId=le_globex", "sk_sandbox_acme", "").Gen1(t, 403, "forbidden")
	})
	t.Run("another entity's cards stay out", func(t *testing.T) {
		globex := cardList(t, e, "?filter:legalEntityId=le_acme")
		if slices.Contains(globex, "card_globexops") || len(globex) != 12 {
			t.Fatalf("acme list = %v", globex)
		}
		e.Get("/card/card_globexops", "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
		e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card/card_globexops", Key: "sk_sandbox_acme",
			Body: `{"name":"mine"}`}).
			Gen1(t, 404, "not_found")
	})
}

func TestCardListCursors(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for i := range 45 {
		prefix := []string{"Bulk ", "bulk "}[i%2] // the order ignores case
		apitest.CreateTestCard(
			t,
			e,
			`{"type":"virtual","name":"`+prefix+string(rune('A'+i%26))+string(rune('a'+i/26))+`"}`,
		)
	}
	byDate := apitest.Walk(t, e, "/card", nil)
	byName := apitest.Walk(t, e, "/card?sort=name", nil)
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
		names = append(names, apitest.ReadCard(t, e, id, "").Name)
	}
	if !slices.IsSortedFunc(names,
		func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) }) {
		t.Fatalf("names out of order: %v", names)
	}
	t.Run("a cursor is bound to its sort", func(t *testing.T) {
		var p cardPage
		e.Get("/card?sort=name", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &p)
		e.Get("/card?sort=createdAt&cursor="+p.Metadata.NextCursor, "sk_sandbox_acme", "").
			Gen1(t, 400, "invalid_request")
	})
}

func TestCardUpdate(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	c := apitest.CreateTestCard(
		t,
		e,
		`{"type":"virtual","name":"Old name","cardGroupId":"card_group_acmeads","userData":{"a":1},
		"spendingConstraint":{"countryRule":{"countries":["US"]}}}`,
	)
	patch := func(body string) *apitest.Resp {
		return e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card/" + c.ID, Key: "sk_sandbox_acme", Body: body})
	}
	var got apitest.CardJSON
	patch(`{"name":"New name","status":"paused","userData":{"b":2}}`).Status(t, 200).Decode(t, &got)
	if got.Name != "New name" || got.Status != "paused" || got.UserData["b"] != float64(2) || got.UserData["a"] != nil ||
		got.CardGroupID != "card_group_acmeads" ||
		got.SpendingConstraint == nil {
		t.Fatalf("after patch: %+v", got)
	}
	got = apitest.CardJSON{}
	patch(`{"cardGroupId":null,"userData":null,"spendingConstraint":null}`).Status(t, 200).Decode(t, &got)
	if got.CardGroupID != "" || got.UserData != nil || got.SpendingConstraint != nil || got.Name != "New name" {
		t.Fatalf("nulls did not remove: %+v", got)
	}
	patch(
		`{"cardGroupId":"card_group_acmetravel","spendingConstraint":{"merchantRule":{"merchants":["merchant_v2_uber"],`+
			`"restriction":"blacklist"}}}`,
	).
		Status(t, 200).
		Decode(t, &got)
	if got.CardGroupID != "card_group_acmetravel" || !strings.Contains(string(got.SpendingConstraint), `"blacklist"`) {
		t.Fatalf("group/constraint not set: %+v", got)
	}
	patch(`{"status":"closed"}`).Status(t, 200)
	// A closed card stays closed (TestCardStatusTransitions has the rules).
	patch(`{"status":"active"}`).Gen1(t, 400, "invalid_request")
	created, updated, deleted := deliveries.EventCardCreation, deliveries.EventCardUpdate, deliveries.EventCardDelete
	want := []string{created, updated, updated, updated, updated, deleted}
	if events := apitest.AcmeEventsFor(t, e, c.ID); !slices.Equal(events, want) {
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
		m := patch(body).Gen1(t, 400, "invalid_request")
		if d, _ := m["meta"].(map[string]any)["details"].(map[string]any); d[field] == nil {
			t.Fatalf("PATCH %s: details %v lack %s", body, d, field)
		}
	}
	patch(`{"cardGroupId":"card_group_globexfleet"}`).Gen1(t, 404, "not_found")
}

func TestReadOnlyCardWritesAreDeferred(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	before := cardList(t, e, "")
	writes := []apitest.Req{
		{Method: http.MethodPost, Path: "/card", Body: `{"type":"virtual","name":"Agent card"}`},
		{Method: http.MethodPatch, Path: "/card/card_acmeaws", Body: `{"name":"Renamed by agent"}`},
		{Method: http.MethodPut, Path: "/card/card_acmeaws/spending-constraint", Body: `{}`},
		{
			Method: http.MethodPatch,
			Path:   "/card/card_acmeaws/spending-constraint",
			Body:   `{"countryRule":{"countries":["US"]}}`,
		},
		{
			Method: http.MethodPut,
			Path:   "/card/card_acmesubscriptions/modifier",
			Body:   `{"name":"only_allow_recurring_payments","value":false}`,
		},
		{Method: http.MethodPost, Path: "/card-group", Body: `{"name":"Agent group"}`},
		{Method: http.MethodPatch, Path: "/card-group/card_group_acmesaas", Body: `{"name":"Renamed"}`},
		{Method: http.MethodPut, Path: "/card-group/card_group_acmesaas/spending-constraint", Body: `{}`},
	}
	for _, w := range writes {
		w.Key = "sk_sandbox_acme_readonly"
		apitest.Deferred(t, e.Do(w))
	}
	if after := cardList(t, e, ""); !slices.Equal(before, after) {
		t.Fatalf("cards changed: %v → %v", before, after)
	}
	aws := apitest.ReadCard(t, e, "card_acmeaws", "")
	if aws.Name != "AWS production" || aws.SpendingConstraint != nil {
		t.Fatalf("card_acmeaws changed: %+v", aws)
	}
	if s := apitest.ReadCard(t, e, "card_acmesubscriptions", ""); len(s.Modifiers) != 1 || !s.Modifiers[0].Value {
		t.Fatalf("modifier changed: %+v", s.Modifiers)
	}
	g := e.Get("/card-group/card_group_acmesaas", "sk_sandbox_acme", "").Status(t, 200).JSON(t)
	if g["name"] != "Engineering SaaS" || g["spendingConstraint"] == nil {
		t.Fatalf("group changed: %v", g)
	}
	t.Run("bad input is still a 400 right away", func(t *testing.T) {
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: "sk_sandbox_acme_readonly",
			Body: `{"type":"virtual"}`}).
			Gen1(t, 400, "invalid_request")
		e.Do(apitest.Req{Method: http.MethodPut, Path: "/card/card_acmeaws/spending-constraint",
			Key: "sk_sandbox_acme_readonly",
			Body: `{"spendingRule":{"utilizationLimit":{"limitAmount":{"amountCents":1},` +
				`"preset":"daily","timezone":"EST"}}}`}).
			Gen1(t, 400, "invalid_request")
	})
}

func TestCardModifiersAreEnterpriseOnly(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	path := "/card/card_acmesubscriptions/modifier"
	var mods struct {
		Modifiers []struct {
			Name  string `json:"name"`
			Value bool   `json:"value"`
		} `json:"modifiers"`
	}
	e.Get(path, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &mods)
	if len(mods.Modifiers) != 1 || mods.Modifiers[0].Name != "only_allow_recurring_payments" ||
		!mods.Modifiers[0].Value {
		t.Fatalf("modifiers = %+v", mods)
	}
	ok := e.Do(apitest.Req{Method: http.MethodPut, Path: path, Key: "sk_sandbox_acme",
		Body: `{"name":"only_allow_recurring_payments","value":false}`}).
		Status(t, 200).
		JSON(t)
	if ok["success"] != true {
		t.Fatalf("PUT = %v", ok)
	}
	e.Get(path, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &mods)
	if len(mods.Modifiers) != 1 || mods.Modifiers[0].Value {
		t.Fatalf("after PUT: %+v", mods)
	}
	if got := cardList(t, e, "?filter:modifier=only_allow_recurring_payments:true"); len(got) != 0 {
		t.Fatalf("filter still finds %v", got)
	}
	e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card/card_acmeaws/modifier", Key: "sk_sandbox_acme",
		Body: `{"name":"only_allow_recurring_payments","value":true}`}).
		Status(t, 200)
	e.Get("/card/card_acmeaws/modifier", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &mods)
	if len(mods.Modifiers) != 1 || !mods.Modifiers[0].Value {
		t.Fatalf("after PATCH: %+v", mods)
	}
	e.Get("/card/card_acmeoffice/modifier", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &mods)
	if mods.Modifiers == nil || len(mods.Modifiers) != 0 {
		t.Fatalf("a card without modifiers: %+v", mods)
	}
	e.Do(apitest.Req{Method: http.MethodPut, Path: path, Key: "sk_sandbox_acme",
		Body: `{"name":"only_weekends","value":true}`}).
		Gen1(t, 400, "invalid_request")
	e.Do(apitest.Req{Method: http.MethodPut, Path: path, Key: "sk_sandbox_acme",
		Body: `{"name":"only_allow_recurring_payments"}`}).
		Gen1(t, 400, "invalid_request")
	t.Run("other legal entities are refused", func(t *testing.T) {
		for _, r := range []apitest.Req{
			{Method: http.MethodGet, Path: "/card/card_globexops/modifier"},
			{Method: http.MethodPut, Path: "/card/card_globexops/modifier",
				Body: `{"name":"only_allow_recurring_payments","value":true}`},
			{Method: http.MethodPatch, Path: "/card/card_globexops/modifier",
				Body: `{"name":"only_allow_recurring_payments","value":true}`},
		} {
			r.Key = "sk_sandbox_globex"
			m := e.Do(r).Gen1(t, 403, "forbidden")
			if msg, _ := m["message"].(string); !strings.Contains(msg, "enterprise feature") {
				t.Fatalf("message = %q", msg)
			}
		}
	})
}

func TestCardProducts(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
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
	e.Get("/card-product", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &p)
	if p.Metadata.Count != 3 || len(p.Items) != 3 {
		t.Fatalf("products = %+v", p)
	}
	byID := map[string]string{}
	for _, it := range p.Items {
		byID[it.ID] = it.Prefix + "/" + it.Status
	}
	if byID["card_product_visa_commercial"] != "411111/active" ||
		byID["card_product_visa_legacy"] != "400000/inactive" {
		t.Fatalf("products = %v", byID)
	}
	e.Get("/card-product?cursor=bogus", "sk_sandbox_acme", "").Gen1(t, 400, "invalid_request")
}
