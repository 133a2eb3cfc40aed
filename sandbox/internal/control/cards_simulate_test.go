package control_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
)

func TestEachRuleApprovesAndDeclines(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	type try struct {
		cents    int64
		merchant string
		rule     string // "" approves
		reason   string
	}
	limit := func(preset string) string {
		return `{"spendingRule":{"utilizationLimit":{"limitAmount":{"amountCents":10000},` +
			`"preset":"` + preset + `","timezone":"America/Denver"}}}`
	}
	limitTries := []try{
		{6000, "merchant_v2_aws", "", ""},
		{5000, "merchant_v2_aws", "spendingRule.utilizationLimit", "spending_limit_exceeded"},
		{4000, "merchant_v2_aws", "", ""},
		{1, "merchant_v2_aws", "spendingRule.utilizationLimit", "spending_limit_exceeded"},
	}
	cases := []struct {
		name       string
		constraint string
		tries      []try
	}{
		{"merchant allowlist", `{"merchantRule":{"merchants":["merchant_v2_aws"],"restriction":"allowlist"}}`,
			[]try{{100, "merchant_v2_aws", "", ""}, {100, "merchant_v2_gcp", "merchantRule", "merchant_blocked"}}},
		{"merchant blacklist", `{"merchantRule":{"merchants":["merchant_v2_uber"],"restriction":"blacklist"}}`,
			[]try{{100, "merchant_v2_lyft", "", ""}, {100, "merchant_v2_uber", "merchantRule", "merchant_blocked"}}},
		{"category allowlist", `{"merchantCategoryRule":{"merchantCategories":["merchant_category_restaurants"]}}`,
			[]try{
				{100, "merchant_v2_sweetgreen", "", ""},
				{100, "merchant_v2_staples", "merchantCategoryRule", "merchant_category_blocked"},
			}},
		{
			"category blacklist",
			`{"merchantCategoryRule":{"merchantCategories":["merchant_category_gambling"],"restriction":"blacklist"}}`,
			[]try{
				{100, "merchant_v2_shell", "", ""},
				{100, "merchant_v2_lucky_star_casino", "merchantCategoryRule", "merchant_category_blocked"},
			},
		},
		{"MCC allowlist", `{"merchantCategoryCodeRule":{"merchantCategoryCodes":["5542"]}}`,
			[]try{
				{100, "merchant_v2_shell", "", ""},
				{100, "merchant_v2_uber", "merchantCategoryCodeRule", "merchant_category_code_blocked"},
			}},
		{"MCC blacklist", `{"merchantCategoryCodeRule":{"merchantCategoryCodes":["4511"],"restriction":"blacklist"}}`,
			[]try{
				{100, "merchant_v2_marriott", "", ""},
				{100, "merchant_v2_united", "merchantCategoryCodeRule", "merchant_category_code_blocked"},
			}},
		{"country allowlist", `{"countryRule":{"countries":["US"]}}`,
			[]try{{100, "merchant_v2_delta", "", ""}, {100, "merchant_v2_tesco", "countryRule", "country_blocked"}}},
		{"country blacklist", `{"countryRule":{"countries":["MX"],"restriction":"blacklist"}}`,
			[]try{{100, "merchant_v2_tesco", "", ""}, {100, "merchant_v2_oxxo", "countryRule", "country_blocked"}}},
		{"size minimum", `{"spendingRule":{"transactionSizeLimit":{"minimum":{"amountCents":1000}}}}`,
			[]try{
				{1000, "merchant_v2_uber", "", ""},
				{
					999,
					"merchant_v2_uber",
					"spendingRule.transactionSizeLimit.minimum",
					"transaction_size_below_minimum",
				},
			}},
		{"size maximum", `{"spendingRule":{"transactionSizeLimit":{"maximum":{"amountCents":5000}}}}`,
			[]try{
				{5000, "merchant_v2_uber", "", ""},
				{5001, "merchant_v2_uber", "spendingRule.transactionSizeLimit.maximum", "transaction_size_exceeded"},
			}},
		{"daily limit", limit("daily"), limitTries},
		{"weekly limit", limit("weekly"), limitTries},
		{"monthly limit", limit("monthly"), limitTries},
		{"yearly limit", limit("yearly"), limitTries},
		{"collective limit", limit("collective"), limitTries},
		{
			"V2 limits",
			`{"spendingRule":{"utilizationLimitV2":[{"limitAmount":{"amountCents":20000},"preset":"weekly"},{"limitAmount":{` +
				`"amountCents":5000},"preset":"daily"}]}}`,
			[]try{
				{4000, "merchant_v2_aws", "", ""},
				{2000, "merchant_v2_aws", "spendingRule.utilizationLimitV2[1]", "spending_limit_exceeded"},
				{1000, "merchant_v2_aws", "", ""},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			card := apitest.CreateTestCard(
				t,
				e,
				`{"type":"virtual","name":"`+c.name+`","spendingConstraint":`+c.constraint+`}`,
			)
			for _, tr := range c.tries {
				s := apitest.Authorize(t, e, card.ID, tr.cents, tr.merchant)
				if tr.rule == "" {
					apitest.WantDecision(t, s, true, "standardAuthorization", "approved")
					if s.Transaction.ApprovalReason != "approved" {
						t.Fatalf("approvalReason = %q", s.Transaction.ApprovalReason)
					}
					continue
				}
				apitest.WantDecision(t, s, false, tr.rule, tr.reason)
				if s.Decision.Scope != "card" || s.Decision.Detail == "" {
					t.Fatalf("decision = %+v", s.Decision)
				}
			}
		})
	}
	t.Run("the detail says how far over", func(t *testing.T) {
		card := apitest.CreateTestCard(
			t,
			e,
			`{"type":"virtual","name":"Detail","spendingConstraint":`+limit("monthly")+`}`,
		)
		apitest.Authorize(t, e, card.ID, 9000, "merchant_v2_aws")
		s := apitest.Authorize(t, e, card.ID, 1500, "merchant_v2_aws")
		if !strings.Contains(s.Decision.Detail, "would bring the card's monthly spend to $105.00 of $100.00") {
			t.Fatalf("detail = %q", s.Decision.Detail)
		}
	})
}

func TestCardAndGroupRules(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	var g apitest.GroupJSON
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/card-group", Key: "sk_sandbox_acme", Body: `{"name":"Limited",
		"spendingConstraint":{"spendingRule":{"utilizationLimit":{"limitAmount":{"amountCents":10000},"preset":` +
		`"monthly"}}}}`}).Status(t, 200).Decode(t, &g)
	a := apitest.CreateTestCard(t, e, `{"type":"virtual","name":"A","cardGroupId":"`+g.ID+`",
		"spendingConstraint":{"spendingRule":{"transactionSizeLimit":{"maximum":{"amountCents":3000}}}}}`)
	b := apitest.CreateTestCard(t, e, `{"type":"virtual","name":"B","cardGroupId":"`+g.ID+`"}`)
	groupSpend := func() (spend, available int64) {
		var u struct{ Spend, AvailableBalance apitest.CentsJSON }
		e.Get("/card-group/"+g.ID+"/utilization", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &u)
		return u.Spend.AmountCents, u.AvailableBalance.AmountCents
	}
	s := apitest.Authorize(t, e, a.ID, 4000, "merchant_v2_aws")
	apitest.WantDecision(t, s, false, "spendingRule.transactionSizeLimit.maximum", "transaction_size_exceeded")
	if s.Decision.Scope != "card" || s.Decision.CardGroupID != "" {
		t.Fatalf("card rule decided as %+v", s.Decision)
	}
	apitest.WantDecision(
		t,
		apitest.Authorize(t, e, a.ID, 3000, "merchant_v2_aws"),
		true,
		"standardAuthorization",
		"approved",
	)
	apitest.WantDecision(
		t,
		apitest.Authorize(t, e, b.ID, 6000, "merchant_v2_gcp"),
		true,
		"standardAuthorization",
		"approved",
	)
	if spend, left := groupSpend(); spend != 9000 || left != 1000 {
		t.Fatalf("group spend %d, left %d; want the sum of both cards, 9000", spend, left)
	}
	s = apitest.Authorize(t, e, b.ID, 2000, "merchant_v2_gcp")
	apitest.WantDecision(t, s, false, "spendingRule.utilizationLimit", "spending_limit_exceeded")
	if s.Decision.Scope != "cardGroup" || s.Decision.CardGroupID != g.ID ||
		!strings.Contains(s.Decision.Detail, "card group Limited") {
		t.Fatalf("group rule decided as %+v", s.Decision)
	}
	apitest.WantDecision(
		t,
		apitest.Authorize(t, e, a.ID, 1000, "merchant_v2_aws"),
		true,
		"standardAuthorization",
		"approved",
	)
	if spend, left := groupSpend(); spend != 10000 || left != 0 {
		t.Fatalf("group spend %d, left %d", spend, left)
	}
	e.Get("/card/"+a.ID+"/utilization", "sk_sandbox_acme", "").Gen1(t, 400, "invalid_request")
	t.Run("a card leaving the group takes no spend with it", func(t *testing.T) {
		e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card/" + b.ID, Key: "sk_sandbox_acme",
			Body: `{"cardGroupId":null}`}).
			Status(t, 200)
		if spend, _ := groupSpend(); spend != 10000 {
			t.Fatalf("group spend = %d after a card left", spend)
		}
		var u struct{ Spend apitest.CentsJSON }
		e.Get("/card/"+b.ID+"/utilization", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &u)
		if u.Spend.AmountCents != 6000 {
			t.Fatalf("card spend = %d, want its 6000", u.Spend.AmountCents)
		}
		apitest.WantDecision(
			t,
			apitest.Authorize(t, e, b.ID, 2000, "merchant_v2_gcp"),
			true,
			"standardAuthorization",
			"approved",
		)
	})
	t.Run("card rules run before group rules", func(t *testing.T) {
		c := apitest.CreateTestCard(t, e, `{"type":"virtual","name":"Traveller","cardGroupId":"card_group_acmetravel",
			"spendingConstraint":{"merchantRule":{"merchants":["merchant_v2_lucky_star_casino"],"restriction":"blacklist"}}}`)
		s := apitest.Authorize(t, e, c.ID, 1000, "merchant_v2_lucky_star_casino")
		apitest.WantDecision(t, s, false, "merchantRule", "merchant_blocked")
		if s.Decision.Scope != "card" {
			t.Fatalf("scope = %s", s.Decision.Scope)
		}
		e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card/" + c.ID, Key: "sk_sandbox_acme",
			Body: `{"spendingConstraint":null}`}).
			Status(t, 200)
		s = apitest.Authorize(t, e, c.ID, 1000, "merchant_v2_lucky_star_casino")
		apitest.WantDecision(t, s, false, "merchantCategoryCodeRule", "merchant_category_code_blocked")
		if s.Decision.Scope != "cardGroup" || s.Decision.CardGroupID != "card_group_acmetravel" {
			t.Fatalf("decision = %+v", s.Decision)
		}
	})
}

func TestDecisionOrderAndFunds(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	t.Run("status first", func(t *testing.T) {
		s := apitest.Authorize(t, e, "card_acmemetaads", 100, "merchant_v2_lucky_star_casino")
		apitest.WantDecision(t, s, false, "card.status", "card_paused")
		closed := apitest.Authorize(t, e, "card_acmeoldlaptop", 100, "merchant_v2_apple")
		apitest.WantDecision(t, closed, false, "card.status", "card_closed")
	})
	t.Run("funds before spending rules", func(t *testing.T) {
		c := apitest.CreateTestCard(
			t,
			e,
			`{"type":"virtual","name":"Marketing","virtualAccountId":"subaccount_acmemarketing",
			"spendingConstraint":{"merchantCategoryRule":{"merchantCategories":["merchant_category_gambling"],"restriction":`+
				`"blacklist"}}}`,
		)
		s := apitest.Authorize(t, e, c.ID, 500_000_000, "merchant_v2_lucky_star_casino")
		apitest.WantDecision(t, s, false, "account.balance", "insufficient_funds")
		if !strings.Contains(s.Decision.Detail, "subaccount_acmemarketing") ||
			s.Transaction.VirtualAccountID != "subaccount_acmemarketing" {
			t.Fatalf("decision = %+v, transaction %+v", s.Decision, s.Transaction)
		}
	})
	t.Run("charge cards draw on their credit limit", func(t *testing.T) {
		c := apitest.CreateTestCard(t, e, `{"type":"virtual","name":"Charge","accountId":"sa_group_acmecharge"}`)
		apitest.WantDecision(
			t,
			apitest.Authorize(t, e, c.ID, 10_000_001, "merchant_v2_delta"),
			false,
			"account.creditLimit",
			"credit_limit_exceeded",
		)
		s := apitest.Authorize(t, e, c.ID, 500_000, "merchant_v2_delta")
		apitest.WantDecision(t, s, true, "standardAuthorization", "approved")
		if s.Transaction.AccountSubtype != "credit" || s.Transaction.AccountID != "sa_group_acmecharge" {
			t.Fatalf("transaction = %+v", s.Transaction)
		}
	})
	t.Run("recurring-only cards", func(t *testing.T) {
		apitest.WantDecision(t, apitest.Authorize(t, e, "card_acmesubscriptions", 2100, "merchant_v2_github"), false,
			"card.modifiers.only_allow_recurring_payments", "recurring_payments_only")
		s := apitest.AuthorizeBody(
			t,
			e,
			`{"cardId":"card_acmesubscriptions","amountCents":2100,"merchantId":"merchant_v2_github","recurring":true}`,
		)
		apitest.WantDecision(t, s, true, "standardAuthorization", "approved")
	})
	t.Run("described merchants", func(t *testing.T) {
		c := apitest.CreateTestCard(
			t,
			e,
			`{"type":"virtual","name":"Cloud","spendingConstraint":{"merchantCategoryRule":{"merchantCategories":[`+
				`"merchant_category_cloud"]}}}`,
		)
		s := apitest.AuthorizeBody(
			t,
			e,
			`{"cardId":"`+c.ID+`","amountCents":700,"merchant":{"name":"Tiny VPS","mcc":"4816","country":"de","city":"Berlin"}}`,
		)
		apitest.WantDecision(t, s, true, "standardAuthorization", "approved")
		loc, _ := s.Transaction.MerchantData["location"].(map[string]any)
		if s.Transaction.MerchantData["description"] != "Tiny VPS" ||
			s.Transaction.MerchantData["categoryCode"] != "4816" ||
			loc["country"] != "DE" {
			t.Fatalf("merchantData = %v", s.Transaction.MerchantData)
		}
		if s.CardEvent.Merchant["categoryId"] != "merchant_category_cloud" || s.CardEvent.Merchant["id"] != nil {
			t.Fatalf("event merchant = %v", s.CardEvent.Merchant)
		}
		m := apitest.CreateTestCard(
			t,
			e,
			`{"type":"virtual","name":"AWS only","spendingConstraint":{"merchantRule":{"merchants":["merchant_v2_aws"]}}}`,
		)
		s = apitest.AuthorizeBody(
			t,
			e,
			`{"cardId":"`+m.ID+`","amountCents":700,"merchant":{"name":"Amazon Web Services","mcc":"7372","country":"US"}}`,
		)
		apitest.WantDecision(t, s, false, "merchantRule", "merchant_blocked")
	})
}

func TestSingleUseCardClosesAfterItsFirstAttempt(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	s := apitest.Authorize(t, e, "card_acmeoneoff", 50000, "merchant_v2_lucky_star_casino")
	apitest.WantDecision(t, s, false, "merchantCategoryRule", "merchant_category_blocked")
	if s.Card.Status != "closed" || apitest.ReadCard(t, e, "card_acmeoneoff", "").Status != "closed" {
		t.Fatalf("single-use card still %s after a declined attempt", s.Card.Status)
	}
	if got := apitest.AcmeEventsFor(t, e, "card_acmeoneoff"); !slices.Equal(got,
		[]string{deliveries.EventCardUpdate, deliveries.EventCardDelete}) {
		t.Fatalf("events = %v", got)
	}
	apitest.WantDecision(
		t,
		apitest.Authorize(t, e, "card_acmeoneoff", 1000, "merchant_v2_aws"),
		false,
		"card.status",
		"card_closed",
	)
	// A closed card cannot be reopened, so the used card stays declined.
	e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card/card_acmeoneoff", Key: "sk_sandbox_acme",
		Body: `{"status":"active"}`}).
		Gen1(t, 400, "invalid_request")
	apitest.WantDecision(
		t,
		apitest.Authorize(t, e, "card_acmeoneoff", 1000, "merchant_v2_aws"),
		false,
		"card.status",
		"card_closed",
	)
	t.Run("an approved first use closes it too", func(t *testing.T) {
		c := apitest.CreateTestCard(t, e, `{"type":"virtual","name":"Once","isSingleUse":true}`)
		s := apitest.Authorize(t, e, c.ID, 1000, "merchant_v2_aws")
		apitest.WantDecision(t, s, true, "standardAuthorization", "approved")
		if s.Card.Status != "closed" {
			t.Fatalf("status = %s", s.Card.Status)
		}
	})
}

func accountBalance(t *testing.T, e *apitest.Env, account string) (available, posted int64) {
	t.Helper()
	var body struct {
		Balances []struct {
			Available apitest.CentsJSON `json:"available"`
			Posted    apitest.CentsJSON `json:"posted"`
		} `json:"balances"`
	}
	e.Get("/account/"+account+"/balance", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &body)
	return body.Balances[0].Available.AmountCents, body.Balances[0].Posted.AmountCents
}

func cardSpend(t *testing.T, e *apitest.Env, card string) int64 {
	t.Helper()
	var u struct{ Spend apitest.CentsJSON }
	e.Get("/card/"+card+"/utilization", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &u)
	return u.Spend.AmountCents
}

func TestApprovedPurchaseSettlesWithMerchantData(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	avail0, posted0 := accountBalance(t, e, "sa_group_acmeoperating")
	spend0 := cardSpend(t, e, "card_acmeoffice")
	s := apitest.Authorize(t, e, "card_acmeoffice", 4500, "merchant_v2_staples")
	apitest.WantDecision(t, s, true, "standardAuthorization", "approved")
	var tx apitest.CardTxnJSON
	e.Get("/transaction/"+s.Transaction.ID, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &tx)
	loc, _ := tx.MerchantData["location"].(map[string]any)
	if tx.DetailedStatus != "pending" || tx.AmountCents != -4500 || tx.MerchantData["description"] != "Staples" ||
		tx.MerchantData["categoryCode"] != "5943" || loc["city"] != "Framingham" || tx.AuthorizedAt == "" ||
		!strings.HasPrefix(tx.ProviderAuthorizationID, "auth_") || tx.ApprovalReason != "approved" ||
		tx.CardID != "card_acmeoffice" {
		t.Fatalf("transaction = %+v", tx)
	}
	if avail, posted := accountBalance(t, e, "sa_group_acmeoperating"); avail != avail0-4500 || posted != posted0 {
		t.Fatalf("balance %d/%d, want available %d and posted %d", avail, posted, avail0-4500, posted0)
	}
	if got := cardSpend(t, e, "card_acmeoffice"); got != spend0+4500 {
		t.Fatalf("spend %d, want %d", got, spend0+4500)
	}
	apitest.Advance(t, e, `{"by":"48h"}`)
	e.Get("/transaction/"+s.Transaction.ID, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &tx)
	if tx.DetailedStatus != "settled" || tx.Status != "posted" {
		t.Fatalf("after the clearing delay: %+v", tx)
	}
	t.Run("a declined purchase moves no money", func(t *testing.T) {
		avail1, posted1 := accountBalance(t, e, "sa_group_acmeoperating")
		apitest.WantDecision(
			t,
			apitest.Authorize(t, e, "card_acmeoffice", 4500, "merchant_v2_tesco"),
			false,
			"countryRule",
			"country_blocked",
		)
		if avail, posted := accountBalance(t, e, "sa_group_acmeoperating"); avail != avail1 || posted != posted1 {
			t.Fatalf("balance moved on a decline")
		}
	})
}

func TestReversalClearingRefundVerification(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	card := apitest.CreateTestCard(t, e, `{"type":"virtual","name":"Network"}`)
	const acct = "sa_group_acmeoperating"
	avail0, posted0 := accountBalance(t, e, acct)
	wantMoney := func(step string, availDelta, postedDelta, spend int64) {
		t.Helper()
		avail, posted := accountBalance(t, e, acct)
		if avail != avail0+availDelta || posted != posted0+postedDelta {
			t.Fatalf(
				"%s: available %+d posted %+d, want %+d %+d",
				step,
				avail-avail0,
				posted-posted0,
				availDelta,
				postedDelta,
			)
		}
		if got := cardSpend(t, e, card.ID); got != spend {
			t.Fatalf("%s: spend %d, want %d", step, got, spend)
		}
	}
	event := func(body string) apitest.SimJSON {
		t.Helper()
		var s apitest.SimJSON
		apitest.NetworkEvent(e, body).Status(t, 200).Decode(t, &s)
		return s
	}
	first := apitest.Authorize(t, e, card.ID, 10000, "merchant_v2_aws")
	wantMoney("authorized", -10000, 0, 10000)
	rev := event(`{"type":"reversal","transactionId":"` + first.Transaction.ID + `"}`)
	if rev.Transaction.DetailedStatus != "reversed" || rev.CardEvent.Type != "reversal" ||
		rev.CardEvent.AmountCents != 10000 {
		t.Fatalf("reversal = %+v", rev)
	}
	wantMoney("reversed", 0, 0, 0)
	apitest.NetworkEvent(e, `{"type":"reversal","transactionId":"`+first.Transaction.ID+`"}`).Gen2(t, 409, "conflict")

	second := apitest.Authorize(t, e, card.ID, 20000, "merchant_v2_aws")
	cl := event(`{"type":"clearing","transactionId":"` + second.Transaction.ID + `","amountCents":15000}`)
	if cl.Transaction.DetailedStatus != "settled" || cl.Transaction.AmountCents != -15000 ||
		cl.CardEvent.AmountCents != 15000 {
		t.Fatalf("partial clearing = %+v", cl.Transaction)
	}
	wantMoney("cleared for less", -15000, -15000, 15000)
	third := apitest.Authorize(t, e, card.ID, 5000, "merchant_v2_gcp")
	event(`{"type":"clearing","transactionId":"` + third.Transaction.ID + `","amountCents":5600}`)
	wantMoney("cleared for more", -20600, -20600, 20600)
	apitest.NetworkEvent(e, `{"type":"clearing","transactionId":"`+first.Transaction.ID+`"}`).Gen2(t, 409, "conflict")

	ref := event(`{"type":"refund","transactionId":"` + second.Transaction.ID + `","amountCents":4000}`)
	if ref.Transaction.DetailedStatus != "refund" || ref.Transaction.AmountCents != 4000 ||
		ref.Transaction.Status != "posted" ||
		ref.CardEvent.OriginalTransactionID != second.Transaction.ID ||
		ref.Transaction.ID == second.Transaction.ID {
		t.Fatalf("refund = %+v", ref)
	}
	wantMoney("refunded", -16600, -16600, 16600)
	d := apitest.NetworkEvent(
		e,
		`{"type":"refund","transactionId":"`+second.Transaction.ID+`","amountCents":12000}`,
	).Gen2(t, 400, "invalid_request")
	if !strings.Contains(d["/amountCents"], "$110.00") {
		t.Fatalf("details = %v", d)
	}
	event(`{"type":"refund","transactionId":"` + second.Transaction.ID + `"}`)
	wantMoney("refunded in full", -5600, -5600, 5600)
	apitest.NetworkEvent(e, `{"type":"refund","transactionId":"`+second.Transaction.ID+`"}`).Gen2(t, 409, "conflict")
	pending := apitest.Authorize(t, e, card.ID, 100, "merchant_v2_aws")
	apitest.NetworkEvent(e, `{"type":"refund","transactionId":"`+pending.Transaction.ID+`"}`).Gen2(t, 409, "conflict")

	v := event(`{"type":"verification","cardId":"` + card.ID + `","merchantId":"merchant_v2_aws"}`)
	if !v.Approved || v.CardEvent.Type != "verification" || v.CardEvent.AmountCents != 0 || v.Transaction.ID != "" {
		t.Fatalf("verification = %+v", v)
	}
	wantMoney("verified", -5700, -5600, 5700)
	paused := event(
		`{"type":"verification","cardId":"card_acmemetaads","merchant":{"name":"Meta","mcc":"7311","country":"US"}}`,
	)
	if paused.Approved || paused.Decision.Rule != "card.status" || paused.CardEvent.DeclineReason != "card_paused" {
		t.Fatalf("verification of a paused card = %+v", paused)
	}
	t.Run("events of the card", func(t *testing.T) {
		var p struct {
			Items []struct {
				ID            string         `json:"processorTransactionId"`
				Type          string         `json:"type"`
				AmountCents   int64          `json:"amountCents"`
				Approved      bool           `json:"isApprovedBySlash"`
				Decision      map[string]any `json:"decision"`
				Merchant      map[string]any `json:"merchantData"`
				TransactionID string         `json:"transactionId"`
				CreatedAt     string         `json:"timestamp"`
			} `json:"items"`
		}
		e.Get("/card/"+card.ID+"/events", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &p)
		var types []string
		for _, it := range p.Items {
			types = append(types, it.Type)
		}
		want := []string{
			"verification",
			"authorization",
			"refund",
			"refund",
			"clearing",
			"authorization",
			"clearing",
			"authorization",
			"reversal",
			"authorization",
		}
		if !slices.Equal(types, want) {
			t.Fatalf("events = %v, want %v", types, want)
		}
		last := p.Items[len(p.Items)-1]
		if last.AmountCents != 10000 || !last.Approved || last.Decision["rule"] != "standardAuthorization" ||
			last.Merchant["name"] != "Amazon Web Services" || last.Merchant["categoryCode"] != "7372" ||
			last.TransactionID != first.Transaction.ID {
			t.Fatalf("first authorization = %+v", last)
		}
		e.Get("/card/card_globexops/events", "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
	})
}

func TestSimulationInputs(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	auth := func(body string) *apitest.Resp {
		return e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/simulate/card-authorization", Body: body})
	}
	for body, field := range map[string]string{
		`{"amountCents":100,"merchantId":"merchant_v2_aws"}`:                                    "/cardId",
		`{"cardId":"card_acmeoffice","merchantId":"merchant_v2_aws"}`:                           "/amountCents",
		`{"cardId":"card_acmeoffice","amountCents":0,"merchantId":"merchant_v2_aws"}`:           "/amountCents",
		`{"cardId":"card_acmeoffice","amountCents":100}`:                                        "/merchantId",
		`{"cardId":"card_acmeoffice","amountCents":100,"merchantId":"merchant_v2_nope"}`:        "/merchantId",
		`{"cardId":"card_acmeoffice","amountCents":100,"merchant":{"name":"X","country":"US"}}`: "/merchant/mcc",
		`{"cardId":"card_acmeoffice","amountCents":100,"merchant":{` +
			`"name":"X","mcc":"5812","country":"USA"}}`: "/merchant/country",
		`{"cardId":"card_acmeoffice","amountCents":100,"merchantId":"merchant_v2_aws","merchant":{"name":"X","mcc":"5812",` +
			`"country":"US"}}`: "/merchant",
		`{"cardId":"card_acmeoffice","amountCents":100,"merchantId":"merchant_v2_aws","tip":1}`: "/tip",
	} {
		if d := auth(body).Gen2(t, 400, "invalid_request"); d[field] == "" {
			t.Fatalf("%s: details %v lack %s", body, d, field)
		}
	}
	if d := auth(`{"cardId":"card_nope","amountCents":100,"merchantId":"merchant_v2_aws"}`).Gen2(t, 404,
		"not_found"); d["field"] != "cardId" {
		t.Fatalf("details = %v", d)
	}
	for body, field := range map[string]string{
		`{"type":"chargeback","transactionId":"txn_x"}`:                        "/type",
		`{"type":"reversal"}`:                                                  "/transactionId",
		`{"type":"reversal","transactionId":"txn_x","amountCents":5}`:          "/amountCents",
		`{"type":"verification","merchantId":"merchant_v2_aws"}`:               "/cardId",
		`{"type":"verification","cardId":"card_acmeoffice"}`:                   "/merchantId",
		`{"type":"clearing","transactionId":"txn_x","amountCents":-5}`:         "/amountCents",
		`{"type":"refund","transactionId":"txn_x","cardId":"card_acmeoffice"}`: "/cardId",
	} {
		if d := apitest.NetworkEvent(e, body).Gen2(t, 400, "invalid_request"); d[field] == "" {
			t.Fatalf("%s: details %v lack %s", body, d, field)
		}
	}
	apitest.NetworkEvent(e, `{"type":"reversal","transactionId":"txn_nope"}`).Gen2(t, 404, "not_found")
	var wires struct {
		Items []struct{ ID string } `json:"items"`
	}
	e.Get("/transaction?filter:category=wire", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &wires)
	apitest.NetworkEvent(e, `{"type":"reversal","transactionId":"`+wires.Items[0].ID+`"}`).
		Gen2(t, 400, "invalid_request")
}

func TestScenarioCreditLimit(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{Scenario: apitest.Testdata("cards_dst.yaml")})
	apitest.WantDecision(
		t,
		apitest.Authorize(t, e, "card_nightcharge", 30000, "merchant_v2_delta"),
		true,
		"standardAuthorization",
		"approved",
	)
	s := apitest.Authorize(t, e, "card_nightcharge", 20001, "merchant_v2_delta")
	apitest.WantDecision(t, s, false, "account.creditLimit", "credit_limit_exceeded")
	if !strings.Contains(s.Decision.Detail, "$200.00 of credit left under the $500.00 limit") {
		t.Fatalf("detail = %q", s.Decision.Detail)
	}
	apitest.WantDecision(
		t,
		apitest.Authorize(t, e, "card_nightcharge", 20000, "merchant_v2_delta"),
		true,
		"standardAuthorization",
		"approved",
	)
}
