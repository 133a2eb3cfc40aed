package control_test

import (
	"net/http"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func TestMagicValuesAlwaysDecline(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for _, tc := range []struct {
		name         string
		cents        int64
		reason, rule string
	}{
		{"$666.00", 66600, "suspected_fraud", "sandbox.magicAmount"},
		{"$404.00", 40400, "do_not_honor", "sandbox.magicAmount"},
		{"$999.99", 99999, "insufficient_funds", "sandbox.magicAmount"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			apitest.WantDecision(
				t,
				apitest.Authorize(t, e, "card_acmeaws", tc.cents, "merchant_v2_aws"),
				false,
				tc.rule,
				tc.reason,
			)
		})
	}
	t.Run("merchant name", func(t *testing.T) {
		s := apitest.AuthorizeBody(
			t,
			e,
			`{"cardId":"card_acmeoffice","amountCents":1200,"merchant":{"name":"DECLINE_expired_card","mcc":"5943","country":`+
				`"US"}}`,
		)
		apitest.WantDecision(t, s, false, "sandbox.magicMerchant", "expired_card")
	})
	t.Run("a nearby amount is decided by the card's rules", func(t *testing.T) {
		apitest.WantDecision(
			t,
			apitest.Authorize(t, e, "card_acmeaws", 66601, "merchant_v2_aws"),
			true,
			"standardAuthorization",
			"approved",
		)
	})
	e.Do(apitest.Req{Method: http.MethodGet, Path: "/_sandbox/health"}).Status(t, 200)
}
