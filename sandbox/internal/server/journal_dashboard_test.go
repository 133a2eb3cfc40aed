package server_test

import (
	"net/http"
	"strings"
	"testing"
)

// The journal leaves out the dashboard's reads (its polling would push
// everything else out) but keeps its actions.
func TestJournalLeavesOutTheDashboardsReads(t *testing.T) {
	e := newEnv(t, options{})
	dashboard := map[string]string{"X-Sandbox-Dashboard": "1"}
	e.do(req{path: "/_sandbox/webhook-deliveries", header: dashboard}).status(t, http.StatusOK)
	e.do(req{path: "/account", key: "sk_sandbox_acme", header: dashboard}).status(t, http.StatusOK)
	e.do(req{method: http.MethodPost, path: "/_sandbox/clock/advance", header: dashboard,
		body: map[string]string{"by": "1h"}}).
		status(t, http.StatusOK)
	e.get("/card", "sk_sandbox_acme", "").status(t, http.StatusOK)

	var journal struct {
		Items []struct {
			Method string `json:"method"`
			Path   string `json:"path"`
		} `json:"items"`
	}
	e.get("/_sandbox/requests", "", "").status(t, http.StatusOK).decode(t, &journal)
	var got []string
	for _, it := range journal.Items {
		got = append(got, it.Method+" "+it.Path)
	}
	if want := []string{"GET /card", "POST /_sandbox/clock/advance"}; strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("journal = %q, want %q", got, want)
	}
}
