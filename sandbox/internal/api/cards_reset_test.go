package api_test

import (
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// nightUtil reads a card's utilization in the DST scenario.
func nightUtil(t *testing.T, e *apitest.Env, card string) (spend int64, next string) {
	t.Helper()
	var u struct {
		Spend         apitest.CentsJSON `json:"spend"`
		NextResetDate string            `json:"nextResetDate"`
	}
	e.Get("/card/"+card+"/utilization", "sk_test_night", "").Status(t, 200).Decode(t, &u)
	return u.Spend.AmountCents, u.NextResetDate
}

func TestDailyLimitResetsAtLocalMidnightAcrossDST(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{Scenario: apitest.Testdata("cards_dst.yaml")})
	const card = "card_nightdaily"
	steps := []struct {
		name    string
		advance string // a body for /_sandbox/clock/advance, "" for none
		cents   int64
		rule    string // "" approves
		spend   int64  // utilization after the purchase
		next    string
	}{
		{"23:30 EDT on Oct 31", "", 8000, "", 8000, "2026-11-01T04:00:00.000Z"},
		{"same day, over the limit", "", 3000, "spendingRule.utilizationLimit", 8000, "2026-11-01T04:00:00.000Z"},
		{"00:30 EDT: a new day", `{"by":"1h"}`, 8000, "", 8000, "2026-11-02T05:00:00.000Z"},
		{
			"23:30 EST: 24 hours later, still Nov 1",
			`{"to":"2026-11-02T04:30:00Z"}`,
			3000,
			"spendingRule.utilizationLimit",
			8000,
			"2026-11-02T05:00:00.000Z",
		},
		{"00:00 EST on Nov 2: reset", `{"to":"2026-11-02T05:00:00Z"}`, 3000, "", 3000, "2026-11-03T05:00:00.000Z"},
	}
	for _, s := range steps {
		if s.advance != "" {
			apitest.Advance(t, e, s.advance)
		}
		got := apitest.Authorize(t, e, card, s.cents, "merchant_v2_shell")
		if s.rule == "" {
			apitest.WantDecision(t, got, true, "standardAuthorization", "approved")
		} else {
			apitest.WantDecision(t, got, false, s.rule, "spending_limit_exceeded")
		}
		if spend, next := nightUtil(t, e, card); spend != s.spend || next != s.next {
			t.Fatalf("%s: spend %d next reset %s, want %d and %s", s.name, spend, next, s.spend, s.next)
		}
	}
}

func TestWeeklyLimitResetsAcrossTheClock(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{Scenario: apitest.Testdata("cards_dst.yaml")})
	const card = "card_nightlondon"
	// Weeks count from Sunday Oct 25, the day London left summer time: the
	// current one began at midnight GMT on Nov 1 and ends on Nov 8.
	apitest.WantDecision(
		t,
		apitest.Authorize(t, e, card, 9000, "merchant_v2_tesco"),
		true,
		"standardAuthorization",
		"approved",
	)
	if spend, next := nightUtil(t, e, card); spend != 9000 || next != "2026-11-08T00:00:00.000Z" {
		t.Fatalf("spend %d next %s", spend, next)
	}
	apitest.WantDecision(
		t,
		apitest.Authorize(t, e, card, 2000, "merchant_v2_tesco"),
		false,
		"spendingRule.utilizationLimit",
		"spending_limit_exceeded",
	)
	apitest.Advance(t, e, `{"to":"2026-11-08T00:00:00Z"}`)
	if spend, _ := nightUtil(t, e, card); spend != 0 {
		t.Fatalf("spend after the weekly reset = %d", spend)
	}
	apitest.WantDecision(
		t,
		apitest.Authorize(t, e, card, 2000, "merchant_v2_tesco"),
		true,
		"standardAuthorization",
		"approved",
	)
}
