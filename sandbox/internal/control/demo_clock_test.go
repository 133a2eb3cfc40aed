package control_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// demoClockStarts are a year apart, with a leap day among them.
var demoClockStarts = []string{
	"2024-02-29T15:04:05Z",
	"2024-03-02T15:04:05Z",
	"2025-03-02T15:04:05Z",
	"2026-03-02T15:04:05Z",
	"2027-03-02T15:04:05Z",
}

// checkDemoServes reads the demo's cards, a limited card group's
// utilization and its transactions with the acme key of a world.
func checkDemoServes(t *testing.T, e *apitest.Env, key string) {
	t.Helper()
	if cards := e.Get("/card", key, "").Status(t, http.StatusOK).JSON(t)["items"].([]any); len(cards) == 0 {
		t.Fatal("no cards")
	}
	u := e.Get("/card-group/card_group_acmesaas/utilization", key, "").Status(t, http.StatusOK).JSON(t)
	if _, ok := u["availableBalance"]; !ok {
		t.Fatalf("the monthly-limited group's utilization has no availableBalance: %v", u)
	}
	if txns := e.Get("/transaction", key, "").Status(t, http.StatusOK).JSON(t)["items"].([]any); len(txns) == 0 {
		t.Fatal("no transactions")
	}
}

func TestDemoLoadsAtAnyClockStart(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for _, start := range demoClockStarts {
		t.Run(start, func(t *testing.T) {
			w := apitest.CreateWorld(t, e, fmt.Sprintf(`{"scenario":"demo","clockStart":%q}`, start))
			t.Cleanup(func() {
				e.Do(apitest.Req{Method: http.MethodDelete, Path: "/_sandbox/worlds/" + w.ID}).Status(t, http.StatusOK)
			})
			if got, _ := time.Parse(time.RFC3339, w.Clock.Now); got.Format(time.RFC3339) != start {
				t.Fatalf("clock %s, want %s", w.Clock.Now, start)
			}
			checkDemoServes(t, e, "sk_sandbox_acme_"+w.ID)
		})
	}
}
