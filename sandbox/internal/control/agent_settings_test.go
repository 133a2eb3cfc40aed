package control_test

import (
	"net/http"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func TestAgentRequestExpiryIsConfigurable(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	if got := e.Get("/_sandbox/agent-requests/settings", "", "").Status(t,
		200).JSON(t); got["expiresAfter"] != "72h0m0s" {
		t.Fatalf("default expiry = %v", got)
	}
	e.Do(apitest.Req{Method: http.MethodPut, Path: "/_sandbox/agent-requests/settings", Body: `{"expiresAfter":"2h"}`}).
		Status(t, 200)
	e.Do(apitest.Req{Method: http.MethodPut, Path: "/_sandbox/agent-requests/settings",
		Body: `{"expiresAfter":"soon"}`}).
		Gen2(t, 400, "invalid_request")
	txn, _ := apitest.FirstTransaction(t, e)
	id := apitest.DeferNote(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"quick"}`).ID
	apitest.Advance(t, e, `{"by":"119m"}`)
	if got := e.Get("/agent-request/"+id, "sk_sandbox_carol_readonly", "le_acme").JSON(t)["status"]; got != "pending" {
		t.Fatalf("after 119m: %v", got)
	}
	apitest.Advance(t, e, `{"by":"1m"}`)
	if got := e.Get("/agent-request/"+id, "sk_sandbox_carol_readonly", "le_acme").JSON(t)["status"]; got != "expired" {
		t.Fatalf("after 2h: %v", got)
	}
}

func TestScenarioSetsExpiryAndRateLimit(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	yaml := `agentRequests: {expiresAfter: 30m}
rateLimit: {requests: 2, window: 1h}
legalEntities:
  - {id: le_r, name: R}
keys:
  - {key: sk_r, kind: legal_entity, legalEntityId: le_r}
`
	w := apitest.CreateWorld(t, e, `{"id":"limited","yaml":`+apitest.Quote(yaml)+`}`)
	if got := e.Get("/_sandbox/worlds/limited/agent-requests/settings", "", "").Status(t,
		200).JSON(t); got["expiresAfter"] != "30m0s" {
		t.Fatalf("scenario expiry = %v", got)
	}
	key := "sk_r_" + w.ID
	e.Get("/legal-entity", key, "").Status(t, 200)
	e.Get("/legal-entity", key, "").Status(t, 200)
	e.Get("/legal-entity", key, "").Status(t, 429)
	if got := e.Get("/_sandbox/worlds/limited/rate-limit", "", "").JSON(t)["limit"].(map[string]any); got["requests"] !=
		float64(2) {
		t.Fatalf("scenario rate limit = %v", got)
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds",
		Body: `{"yaml":` + apitest.Quote("rateLimit: {requests: 0,"+
			" window: soon}\nlegalEntities: [{id: le_x, name: X}]\n") + `}`}).
		Gen2(t, 400, "invalid_request")
}
