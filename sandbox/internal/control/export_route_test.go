package control_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

func TestWorldScenarioRoute(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{Scenario: "empty", AdminToken: "s3cret"})
	admin := map[string]string{"X-Admin-Token": "s3cret"}
	t.Run("the admin token is required", func(t *testing.T) {
		e.Do(apitest.Req{Path: "/_sandbox/worlds/default/scenario"}).Gen2(t, http.StatusUnauthorized, "unauthorized")
	})
	t.Run("an unknown world", func(t *testing.T) {
		e.Do(apitest.Req{Path: "/_sandbox/worlds/nope/scenario", Header: admin}).Gen2(t, http.StatusNotFound, "not_found")
	})
	t.Run("a world of its own exports the keys as declared", func(t *testing.T) {
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds", Header: admin,
			Body: `{"id":"w2","scenario":"empty","clockStart":"2026-03-01T10:00:00Z"}`}).Status(t, http.StatusCreated)
		r := e.Do(apitest.Req{Path: "/_sandbox/worlds/w2/scenario", Header: admin}).Status(t, http.StatusOK)
		if ct, cd := r.Header.Get("Content-Type"), r.Header.Get("Content-Disposition"); ct != "application/yaml" ||
			!strings.Contains(cd, `filename="w2.yaml"`) {
			t.Fatalf("Content-Type %q, Content-Disposition %q", ct, cd)
		}
		sc, err := scenario.Parse("w2.yaml", r.Raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := sc.Keys[0].Key; got != "sk_test_empty_user" {
			t.Fatalf("key %q, want the declared sk_test_empty_user", got)
		}
		if sc.ClockStart != "2026-03-01T10:00:00Z" || sc.Accounts[0].Primary == nil ||
			sc.Accounts[0].AccountNumber == "" {
			t.Fatalf("clock %q, account %+v", sc.ClockStart, sc.Accounts[0])
		}
	})
}
