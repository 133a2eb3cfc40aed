package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
)

// TestAdvanceTableFailures shows failed events one by one (the first
// maxFailedShown), marks them in their kind's count, and counts webhook
// attempts by status.
func TestAdvanceTableFailures(t *testing.T) {
	at := time.Date(2026, 6, 15, 14, 0, 0, 0, time.UTC)
	a := client.Advanced{From: at, Clock: client.Clock{Now: at.Add(24 * time.Hour)},
		Webhooks: client.AdvancedWebhooks{Settled: true}}
	for i := range 12 {
		a.Events = append(
			a.Events,
			client.Event{
				Kind:   "invoice.send",
				At:     at.Add(time.Duration(i) * time.Minute),
				Status: "failed",
				Error:  fmt.Sprintf("boom %d", i),
			},
		)
	}
	a.Events = append(a.Events, client.Event{Kind: "invoice.send", At: at, Status: "done"},
		client.Event{Kind: "transaction.settle", At: at, Status: "done"})
	a.Webhooks.Delivered = []client.SentWebhook{{Status: "succeeded"}, {Status: "retrying"}, {Status: "succeeded"}}
	var out bytes.Buffer
	w := tabwriter.NewWriter(&out, 2, 4, 2, ' ', 0)
	advanceTable(w, a)
	w.Flush()
	want := `clock     2026-06-15T14:00:00Z → 2026-06-16T14:00:00Z
webhooks  3 delivery attempts (1 retrying, 2 succeeded)
ran       14 events
  13  invoice.send (12 failed)
   1  transaction.settle
`
	for i := range maxFailedShown {
		want += fmt.Sprintf("failed 2026-06-15T14:%02d:00Z invoice.send: boom %d\n", i, i)
	}
	want += "failed … 2 more (--json lists each)\n"
	if got := out.String(); got != want {
		t.Errorf("advance table:\n%s\nwant:\n%s", got, want)
	}
}

// TestAdvanceTableNotSettled says when the advance answered before the
// webhook deliveries due: each pending one, or that it did not wait.
func TestAdvanceTableNotSettled(t *testing.T) {
	at := time.Date(2026, 6, 15, 14, 0, 0, 0, time.UTC)
	table := func(a client.Advanced) string {
		var out bytes.Buffer
		w := tabwriter.NewWriter(&out, 2, 4, 2, ' ', 0)
		advanceTable(w, a)
		w.Flush()
		return out.String()
	}
	a := client.Advanced{From: at, Clock: client.Clock{Now: at.Add(time.Hour)}}
	a.Webhooks.Pending = []client.PendingWebhook{
		{DeliveryID: "whdel_1", Event: "card.update", URL: "http://127.0.0.1:4001/slow", Attempt: 1},
		{DeliveryID: "whdel_2", Event: "card.delete", URL: "http://127.0.0.1:4001/slow", Attempt: 3},
	}
	want := `clock        2026-06-15T14:00:00Z → 2026-06-15T15:00:00Z
not settled  2 deliveries still pending when the advance answered, going on in the background (slash-sandbox deliveries)
  pending    whdel_1 card.update to http://127.0.0.1:4001/slow, attempt 1
  pending    whdel_2 card.delete to http://127.0.0.1:4001/slow, attempt 3
ran          0 events
`
	if got := table(a); got != want {
		t.Errorf("with pending deliveries:\n%s\nwant:\n%s", got, want)
	}
	a.Webhooks.Pending = nil
	want = `clock        2026-06-15T14:00:00Z → 2026-06-15T15:00:00Z
not settled  the advance did not wait for every delivery due; slash-sandbox deliveries shows them
ran          0 events
`
	if got := table(a); got != want {
		t.Errorf("not waiting:\n%s\nwant:\n%s", got, want)
	}
	a.Webhooks.Settled = true
	if got := table(a); strings.Contains(got, "settled") {
		t.Errorf("settled advance says:\n%s", got)
	}
}

// TestAdvanceStoppedEarly says, after the sandbox's error, that the events
// up to where an advance stopped ran and were kept (exit 1).
func TestAdvanceStoppedEarly(t *testing.T) {
	var asked map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := json.NewDecoder(r.Body).Decode(&asked); err != nil || r.URL.Path != "/_sandbox/clock/advance" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"code":"invalid_request","message":"to: more than 20000 events; 20000 events ran and the clock`+
			` stands at 2026-09-01T00:00:00Z","details":{"eventsRun":"20000","clock":"2026-09-01T00:00:00Z"}}`)
	}))
	defer srv.Close()
	r := runProgram(t, nil, "clock", "advance", "2026-12-01", "--server", srv.URL)
	if asked["to"] != "2026-12-01T00:00:00Z" {
		t.Errorf("asked %v, want to 2026-12-01T00:00:00Z", asked)
	}
	want := "slash-sandbox clock advance: 400 invalid_request: to: more than 20000 events; 20000 events ran and the" +
		" clock stands at 2026-09-01T00:00:00Z\n  clock: 2026-09-01T00:00:00Z\n  eventsRun: 20000\n" +
		"the advance stopped early: every event up to 2026-09-01T00:00:00Z ran and was kept; advance again to go on\n"
	if r.code != 1 || r.stderr != want {
		t.Errorf("advance = %d %q, want 1 %q", r.code, r.stderr, want)
	}
}
