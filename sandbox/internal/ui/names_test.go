package ui_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDashboardNamesBesideIDs: where a list shows a raw id that has a
// name (a webhook endpoint, the key and legal entity of an agent request,
// a journal entry's legal entity, a card group's virtual account), the
// name is beside it; and the journal shows the wall clock beside the
// virtual time.
func TestDashboardNamesBesideIDs(t *testing.T) {
	w := newWorld(t)
	if status, _ := w.api(t, http.MethodGet, "/card", "sk_sandbox_acme", nil, nil); status != http.StatusOK {
		t.Fatalf("GET /card answered %d", status)
	}
	tb := openDashboard(t, w, "#/overview")
	tb.screenshotOnFailure(t, "names")

	tb.visit("#/deliveries", "page-deliveries", "webhook_acmeerp")
	if got := tb.text("#deliveries .endpoint"); got != "ERP sync (not answering)webhook_acmeerp" {
		t.Errorf("the endpoint cell reads %q, want the endpoint's name and its id", got)
	}

	tb.visit("#/agents", "page-agents", "Create Virtual Card")
	want := "Asked by Acme assistant (read-only) (" + w.keys["sk_sandbox_acme_readonly"] +
		") for Acme Robotics Inc. (le_acme)"
	if got := tb.text("#agent-requests .asked"); !strings.HasPrefix(got, want) {
		t.Errorf("the agent request says %q, want it to start %q", got, want)
	}

	tb.visit("#/journal", "page-journal", "/card")
	if got := tb.text("#journal details.journal-row .wall-clock"); !regexp.MustCompile(
		`^\d\d:\d\d:\d\d wall clock$`).MatchString(got) {
		t.Errorf("the journal's first row shows %q as its wall clock, want hh:mm:ss", got)
	}
	if got := tb.text("#journal details.journal-row .hint"); !strings.Contains(got, " · Acme Robotics Inc. (le_acme) · ") {
		t.Errorf("the journal entry's details read %q, want the legal entity's name beside its id", got)
	}

	tb.visit("#/browse/card-groups", "browse-card-groups", "Paid acquisition")
	if got := tb.text("#card-groups"); !strings.Contains(got, "pays from Marketing (subaccount_acmemarketing)") {
		t.Errorf("the card groups read %q, want the virtual account's name beside its id", clip(got))
	}
	tb.noConsoleErrors()
}

// TestDashboardCountsGroupThousands: the helper the dashboard prints its
// counts with (the overview's, an advance's events, a search's
// transactions) groups their thousands.
func TestDashboardCountsGroupThousands(t *testing.T) {
	w := newWorld(t)
	tb := openDashboard(t, w, "#/overview")
	tb.visit("#/overview", "page-overview", "Upcoming events (50)")
	got, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](
		`import('/_sandbox/ui/dom.js').then((m) => m.count(1234567))`, chromedp.EvalAwaitPromise))
	if err != nil || got != "1,234,567" {
		t.Errorf("count(1234567) = %q, %v; want 1,234,567", got, err)
	}
	tb.noConsoleErrors()
}
