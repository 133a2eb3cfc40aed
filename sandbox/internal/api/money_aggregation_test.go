package api_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func TestAggregationEqualsTheSumOverTheList(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	const acme = "sk_sandbox_acme"
	for i := range 12 {
		e.Post("/transfer/virtual-account", acme, "", fmt.Sprintf("agg-%d", i),
			map[string]any{"source": "subaccount_acmepayroll",
				"destination": "subaccount_acmeengineering", "amountCents": 1000 + i}).
			Status(t, 200)
		e.Do(apitest.Req{Method: "POST", Path: "/_sandbox/simulate/incoming-transfer",
			Body: map[string]any{"accountId": "sa_group_acmeoperating",
				"rail": []string{"ach", "wire", "rtp", "sepa"}[i%4], "amountCents": 5000 * (i + 1)}}).
			Status(t, 201)
	}
	e.Post("/transfers/ach", acme, "", "agg-ach", map[string]any{"accountId": "sa_group_acmeoperating",
		"destinationId": "le_c_dest_danaach", "amountCents": 4321}).Status(t, 200)
	now := time.Date(2026, 6, 15, 14, 0, 0, 0, time.UTC)
	from, to := now.Add(-30*24*time.Hour).UnixMilli(), now.Add(-5*24*time.Hour).UnixMilli()
	filters := []string{
		"",
		"filter:accountId=sa_group_acmeoperating",
		"accountId=sa_group_acmecharge",
		"filter:virtualAccountId=subaccount_acmeengineering",
		"filter:category=card",
		"filter:category=internal&filter:virtualAccountId=subaccount_acmepayroll",
		"filter:status=pending",
		"filter:status=failed",
		"filter:detailed_status=settled&filter:category=ach",
		fmt.Sprintf("filter:from_date=%d&filter:to_date=%d", from, to),
		"filter:cardId=card_acmeaws",
		"filter:legalEntityId=le_acme&filter:cardGroupId=card_group_acmetravel",
	}
	for _, q := range filters {
		t.Run(q, func(t *testing.T) {
			var want struct{ count, in, out int64 }
			for _, it := range apitest.WalkItems(t, e, acme, "", "/transaction?"+q) {
				if it["status"] == "failed" {
					continue
				}
				want.count++
				if a := int64(it["amountCents"].(float64)); a > 0 {
					want.in += a
				} else {
					want.out += a
				}
			}
			var got struct{ Count, TotalIn, TotalOut, NetChange int64 }
			body := e.Get("/transaction/aggregation?"+q, acme, "").Status(t, 200)
			body.Decode(t, &got)
			if len(body.JSON(t)) != 4 {
				t.Fatalf("body %s, want exactly count, totalIn, totalOut, netChange", body.Raw)
			}
			if got.Count != want.count || got.TotalIn != want.in || got.TotalOut != want.out ||
				got.NetChange != want.in+want.out {
				t.Fatalf("aggregation %+v, the list sums to %+v", got, want)
			}
			if q == "" && (got.Count < 100 || got.TotalOut >= 0 || got.TotalIn <= 0) {
				t.Fatalf("aggregation over everything %+v", got)
			}
		})
	}
	t.Run("bad filters are 400 as for the list", func(t *testing.T) {
		e.Get("/transaction/aggregation?filter:status=lost", acme, "").Gen1(t, 400, "invalid_request")
		e.Get("/transaction/aggregation?filter:from_date=yesterday", acme, "").Gen1(t, 400, "invalid_request")
		e.Get("/transaction/aggregation?filter:legalEntityId=le_globex", "sk_sandbox_bob", "le_acme").
			Gen1(t, 403, "forbidden")
	})
}
