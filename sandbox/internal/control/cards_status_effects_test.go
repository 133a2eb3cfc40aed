package control_test

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// statusesScenario has one card in each of the four statuses the help
// center names, each with a settled purchase made before it left active.
const statusesScenario = `name: statuses
clockStart: 2026-06-19T10:00:00Z
legalEntities:
  - {id: le_st, name: Statuses LLC}
keys:
  - {key: sk_st, kind: legal_entity, legalEntityId: le_st}
accounts:
  - {id: sa_group_st, legalEntityId: le_st, name: Operating, balanceCents: 1000000}
cards:
  - {id: card_stactive, accountId: sa_group_st, name: Active, createdAt: -30d}
  - {id: card_stpaused, accountId: sa_group_st, name: Paused, status: paused, createdAt: -30d}
  - {id: card_stinactive, accountId: sa_group_st, name: Inactive, status: inactive, createdAt: -30d}
  - {id: card_stclosed, accountId: sa_group_st, name: Closed, status: closed, createdAt: -30d}
transactions:
  - {id: tx_stactive, cardId: card_stactive, amountCents: -2500, merchantId: merchant_v2_aws, date: -10d}
  - {id: tx_stpaused, cardId: card_stpaused, amountCents: -2500, merchantId: merchant_v2_aws, date: -10d}
  - {id: tx_stinactive, cardId: card_stinactive, amountCents: -2500, merchantId: merchant_v2_aws, date: -10d}
  - {id: tx_stclosed, cardId: card_stclosed, amountCents: -2500, merchantId: merchant_v2_aws, date: -10d}
`

// TestCardStatusesAsTheHelpCenterDescribes follows the help center's card
// status articles (slash.com "Understanding card statuses", joinslash
// "Card statuses"): only an active card can spend, every status can
// receive refunds, every card stays listed, and pausing stops purchases
// at once. Which status may follow which is not this test's subject.
func TestCardStatusesAsTheHelpCenterDescribes(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "statuses.yaml")
	if err := os.WriteFile(path, []byte(statusesScenario), 0o600); err != nil {
		t.Fatal(err)
	}
	e := apitest.New(t, apitest.Options{Scenario: path})
	statuses := []string{"active", "paused", "inactive", "closed"}
	t.Run("only an active card can be used to spend", func(t *testing.T) {
		for _, s := range statuses {
			got := apitest.Authorize(t, e, "card_st"+s, 1000, "merchant_v2_aws")
			if s == "active" {
				apitest.WantDecision(t, got, true, "standardAuthorization", "approved")
				continue
			}
			apitest.WantDecision(t, got, false, "card.status", "card_"+s)
			if got.Transaction.DetailedStatus != "declined" || got.Card.Status != s {
				t.Fatalf("%s card: transaction %+v, card %+v", s, got.Transaction, got.Card)
			}
		}
	})
	t.Run("every status can receive refunds", func(t *testing.T) {
		for _, s := range statuses {
			var r apitest.SimJSON
			apitest.NetworkEvent(e, `{"type":"refund","transactionId":"tx_st`+s+`","amountCents":1000}`).
				Status(t, 200).Decode(t, &r)
			if r.Transaction.DetailedStatus != "refund" || r.Transaction.Status != "posted" ||
				r.Transaction.AmountCents != 1000 || r.CardEvent.Type != "refund" {
				t.Fatalf("refund to the %s card = %+v", s, r)
			}
			var c apitest.CardJSON
			if e.Get("/card/card_st"+s, "sk_st", "").Status(t, 200).Decode(t, &c); c.Status != s {
				t.Fatalf("the refund changed the %s card to %s", s, c.Status)
			}
		}
	})
	t.Run("every status stays visible", func(t *testing.T) {
		var all struct {
			Items []apitest.CardJSON `json:"items"`
		}
		e.Get("/card", "sk_st", "").Status(t, 200).Decode(t, &all)
		var got []string
		for _, c := range all.Items {
			got = append(got, c.Status)
		}
		slices.Sort(got)
		if want := []string{"active", "closed", "inactive", "paused"}; !slices.Equal(got, want) {
			t.Fatalf("listed statuses = %v, want %v", got, want)
		}
		for _, s := range statuses {
			var one struct {
				Items []apitest.CardJSON `json:"items"`
			}
			e.Get("/card?filter:status="+s, "sk_st", "").Status(t, 200).Decode(t, &one)
			if len(one.Items) != 1 || one.Items[0].ID != "card_st"+s || one.Items[0].Status != s {
				t.Fatalf("filter:status=%s = %+v", s, one.Items)
			}
		}
	})
	t.Run("pausing stops authorizing at once", func(t *testing.T) {
		c := e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: "sk_st",
			Body: `{"type":"virtual","name":"To pause"}`}).Status(t, 201).JSON(t)
		id := c["id"].(string)
		apitest.WantDecision(t, apitest.Authorize(t, e, id, 500, "merchant_v2_aws"), true, "standardAuthorization",
			"approved")
		e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card/" + id, Key: "sk_st", Body: `{"status":"paused"}`}).
			Status(t, 200)
		apitest.WantDecision(t, apitest.Authorize(t, e, id, 500, "merchant_v2_aws"), false, "card.status",
			"card_paused")
	})
}
