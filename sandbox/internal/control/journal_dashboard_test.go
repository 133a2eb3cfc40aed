package control_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// The journal leaves out the dashboard's reads (its polling would push
// everything else out) but keeps its actions.
func TestJournalLeavesOutTheDashboardsReads(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	dashboard := map[string]string{"X-Sandbox-Dashboard": "1"}
	e.Do(apitest.Req{Path: "/_sandbox/webhook-deliveries", Header: dashboard}).Status(t, http.StatusOK)
	e.Do(apitest.Req{Path: "/account", Key: "sk_sandbox_acme", Header: dashboard}).Status(t, http.StatusOK)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Header: dashboard,
		Body: map[string]string{"by": "1h"}}).
		Status(t, http.StatusOK)
	e.Get("/card", "sk_sandbox_acme", "").Status(t, http.StatusOK)

	var journal struct {
		Items []struct {
			Method string `json:"method"`
			Path   string `json:"path"`
		} `json:"items"`
	}
	e.Get("/_sandbox/requests", "", "").Status(t, http.StatusOK).Decode(t, &journal)
	var got []string
	for _, it := range journal.Items {
		got = append(got, it.Method+" "+it.Path)
	}
	if want := []string{"GET /card", "POST /_sandbox/clock/advance"}; strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("journal = %q, want %q", got, want)
	}
}

// The help center asks that each key's use be watched, and a key's calls
// told apart from another's: the journal names every call's key, masked,
// and its answer.
func TestJournalNamesEachCallsKey(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	e.Get("/card", "sk_sandbox_acme", "").Status(t, http.StatusOK)
	e.Get("/card", "sk_sandbox_acme_readonly", "").Status(t, http.StatusOK)
	e.Get("/card", "sk_unknown_key_123", "").Gen1(t, http.StatusUnauthorized, "unauthorized")

	var journal struct {
		Items []struct {
			Key    string `json:"key"`
			Status int    `json:"status"`
		} `json:"items"`
	}
	e.Get("/_sandbox/requests?path=/card", "", "").Status(t, http.StatusOK).Decode(t, &journal)
	var got []string
	for _, it := range journal.Items {
		got = append(got, it.Key+" "+http.StatusText(it.Status))
	}
	want := []string{"sk_unk…_123 Unauthorized", "sk_san…only OK", "sk_san…acme OK"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("journal = %q, want %q", got, want)
	}
	for _, it := range journal.Items {
		if strings.Contains(it.Key, "sandbox_acme") {
			t.Errorf("key %q shown in full", it.Key)
		}
	}
}
