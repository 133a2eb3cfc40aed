package server_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"
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
func checkDemoServes(t *testing.T, e *env, key string) {
	t.Helper()
	if cards := e.get("/card", key, "").status(t, http.StatusOK).json(t)["items"].([]any); len(cards) == 0 {
		t.Fatal("no cards")
	}
	u := e.get("/card-group/card_group_acmesaas/utilization", key, "").status(t, http.StatusOK).json(t)
	if _, ok := u["availableBalance"]; !ok {
		t.Fatalf("the monthly-limited group's utilization has no availableBalance: %v", u)
	}
	if txns := e.get("/transaction", key, "").status(t, http.StatusOK).json(t)["items"].([]any); len(txns) == 0 {
		t.Fatal("no transactions")
	}
}

func TestDemoLoadsAtAnyClockStart(t *testing.T) {
	e := newEnv(t, options{})
	for _, start := range demoClockStarts {
		t.Run(start, func(t *testing.T) {
			w := createWorld(t, e, fmt.Sprintf(`{"scenario":"demo","clockStart":%q}`, start))
			t.Cleanup(func() {
				e.do(req{method: http.MethodDelete, path: "/_sandbox/worlds/" + w.ID}).status(t, http.StatusOK)
			})
			if got, _ := time.Parse(time.RFC3339, w.Clock.Now); got.Format(time.RFC3339) != start {
				t.Fatalf("clock %s, want %s", w.Clock.Now, start)
			}
			checkDemoServes(t, e, "sk_sandbox_acme_"+w.ID)
		})
	}
}
