package api_test

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// cardEventLogFields are the published card event log's fields and the
// JSON type of each.
var cardEventLogFields = map[string]string{
	"timestamp": "string", "messageType": "string", "processorTransactionId": "string", "lifeCycleId": "string",
	"merchant": "string", "amountCents": "number", "last4": "string", "friendlyName": "string",
	"isApprovedBySlash": "boolean", "cardId": "string",
}

var publishedMessageTypes = map[string]bool{
	"verification":   true,
	"authorisations": true,
	"financials":     true,
	"reversals":      true,
}

func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case nil:
		return "null"
	}
	return "object"
}

// checkCardEventLog checks one item against the published schema.
func checkCardEventLog(t *testing.T, it map[string]any, cardID, cardName string) {
	t.Helper()
	for k, want := range cardEventLogFields {
		if got := jsonType(it[k]); got != want {
			t.Fatalf("%s is %s (%#v), want %s: %v", k, got, it[k], want, it)
		}
	}
	if _, err := time.Parse(time.RFC3339, it["timestamp"].(string)); err != nil {
		t.Fatalf("timestamp %v: %v", it["timestamp"], err)
	}
	if !publishedMessageTypes[it["messageType"].(string)] {
		t.Fatalf("messageType %v is not in the published enum", it["messageType"])
	}
	if a := it["amountCents"].(float64); a != math.Trunc(a) {
		t.Fatalf("amountCents %v is not whole cents", a)
	}
	if it["cardId"] != cardID || it["friendlyName"] != cardName || len(it["last4"].(string)) != 4 {
		t.Fatalf("card fields %v, want card %s named %q", it, cardID, cardName)
	}
	for _, k := range []string{"processorTransactionId", "lifeCycleId", "merchant"} {
		if it[k] == "" {
			t.Fatalf("%s is empty: %v", k, it)
		}
	}
}

func cardEventItems(t *testing.T, e *apitest.Env, cardID, query string) []map[string]any {
	t.Helper()
	return apitest.WalkItems(t, e, "sk_sandbox_acme", "", "/card/"+cardID+"/events"+query)
}

func TestCardEventLog(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	const name = "Event log"
	card := apitest.CreateTestCard(
		t,
		e,
		`{"type":"virtual","name":"Event log","spendingConstraint":{"spendingRule":{"transactionSizeLimit":{"maximum":{`+
			`"amountCents":50000}}}}}`,
	)
	event := func(body string) apitest.SimJSON {
		t.Helper()
		var s apitest.SimJSON
		apitest.NetworkEvent(e, body).Status(t, 200).Decode(t, &s)
		return s
	}
	reversed := apitest.Authorize(t, e, card.ID, 10000, "merchant_v2_aws")
	event(`{"type":"reversal","transactionId":"` + reversed.Transaction.ID + `"}`)
	cleared := apitest.Authorize(t, e, card.ID, 20000, "merchant_v2_aws")
	event(`{"type":"clearing","transactionId":"` + cleared.Transaction.ID + `"}`)
	event(`{"type":"refund","transactionId":"` + cleared.Transaction.ID + `","amountCents":500}`)
	declined := apitest.Authorize(t, e, card.ID, 60000, "merchant_v2_gcp")
	if declined.Approved {
		t.Fatalf("an authorization over the card's size limit was approved: %+v", declined.Decision)
	}
	const verifications = 52 // more than a page
	for range verifications {
		event(`{"type":"verification","cardId":"` + card.ID + `","merchantId":"merchant_v2_aws"}`)
	}

	all := cardEventItems(t, e, card.ID, "")
	if len(all) != 6+verifications {
		t.Fatalf("%d events, want %d", len(all), 6+verifications)
	}
	byLifeCycle := map[string][]string{}
	for _, it := range all {
		checkCardEventLog(t, it, card.ID, name)
		byLifeCycle[it["lifeCycleId"].(string)] = append(byLifeCycle[it["lifeCycleId"].(string)], it["messageType"].(string))
		if mt := it["messageType"]; mt != "authorisations" && mt != "verification" && it["isApprovedBySlash"] != false {
			t.Fatalf("Slash approves only what it decides: %v", it)
		}
	}

	t.Run("an authorisation and what follows it share a life cycle", func(t *testing.T) {
		var rev, clr []string
		var revID, clrID string
		for id, types := range byLifeCycle {
			switch strings.Join(types, ",") {
			case "reversals,authorisations":
				rev, revID = types, id
			case "financials,financials,authorisations":
				clr, clrID = types, id
			}
		}
		if rev == nil || clr == nil || revID == clrID {
			t.Fatalf("life cycles %v: want an authorisation with its reversal, and one with its clearing and refund",
				byLifeCycle)
		}
	})
	t.Run("approval follows the decision", func(t *testing.T) {
		approved := map[bool]int{}
		for _, it := range cardEventItems(t, e, card.ID, "?filter:messageType=authorisations") {
			approved[it["isApprovedBySlash"].(bool)]++
		}
		if approved[true] != 2 || approved[false] != 1 {
			t.Fatalf("authorisations approved %v, want 2 approved and 1 declined", approved)
		}
	})
	t.Run("filter:messageType", func(t *testing.T) {
		for _, c := range []struct {
			value, want string
			n           int
		}{
			{"authorisations", "authorisations", 3}, {"financials", "financials", 2}, {"reversals", "reversals", 1},
			{"verifications", "verification", verifications}, {"reversal", "reversals", 1},
			{"verification", "verification", verifications},
		} {
			t.Run(c.value, func(t *testing.T) {
				items := cardEventItems(t, e, card.ID, "?filter:messageType="+c.value)
				if len(items) != c.n {
					t.Fatalf("%d events, want %d", len(items), c.n)
				}
				for _, it := range items {
					checkCardEventLog(t, it, card.ID, name)
					if it["messageType"] != c.want {
						t.Fatalf("messageType %v, want %s", it["messageType"], c.want)
					}
				}
			})
		}
	})
	t.Run("a bad filter:messageType is a 400", func(t *testing.T) {
		for _, v := range []string{"authorization", "refunds", "", "AUTHORISATIONS"} {
			r := e.Get("/card/"+card.ID+"/events?filter:messageType="+url.QueryEscape(v), "sk_sandbox_acme", "")
			body := r.Gen1(t, http.StatusBadRequest, "invalid_request")
			if msg, _ := body["message"].(string); !strings.Contains(msg, "filter:messageType") {
				t.Fatalf("%q: message %q does not name the parameter", v, msg)
			}
		}
		e.Get(fmt.Sprintf("/card/%s/events?filter:messageType=financials&filter:messageType=reversals", card.ID),
			"sk_sandbox_acme", "").
			Gen1(t, http.StatusBadRequest, "invalid_request")
	})
}
