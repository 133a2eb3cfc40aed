package ui_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// count is how many items a control API list holds.
func (w *world) count(t *testing.T, path string) int {
	t.Helper()
	items, err := w.ctl.List(context.Background(), path)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return len(items)
}

// TestDashboardDemoIsAliveAtFirstOpen opens the demo as a presenter would,
// first thing: work is under way, and the overview counts it.
func TestDashboardDemoIsAliveAtFirstOpen(t *testing.T) {
	w := newWorld(t)
	tb := openDashboard(t, w, "#/overview")
	tb.screenshotOnFailure(t, "first open")
	tb.visit("#/overview", "page-overview", "Virtual clock")
	agents, emails := w.count(t, "/_sandbox/agent-requests?status=pending"), w.count(t, "/_sandbox/outbox")
	failing := w.count(t, "/_sandbox/webhook-deliveries?status=retrying") + w.count(t,
		"/_sandbox/webhook-deliveries?status=failed")
	if agents == 0 || emails < 3 || failing == 0 {
		t.Fatalf("the demo opens with %d pending agent requests, %d emails, %d failing deliveries; want work under way",
			agents, emails, failing)
	}
	for sel, want := range map[string]string{
		"#glance-agents":     fmt.Sprintf("%dagent requests pending", agents),
		"#glance-outbox":     fmt.Sprintf("%demails in the outbox", emails),
		"#glance-deliveries": fmt.Sprintf("%dwebhook deliveries failing", failing),
	} {
		if got := tb.text(sel); got != want {
			t.Errorf("%s reads %q, want %q", sel, got, want)
		}
	}
	// Each count leads to its page, which shows what it counted.
	tb.do(chromedp.Click(chromedp.ID("glance-agents")))
	tb.waitText("#agent-requests", "Create Virtual Card")
	tb.waitText("#agent-requests", "Figma (design team)")
	tb.do(chromedp.Click(`nav.side a[data-page="outbox"]`))
	tb.waitText("#outbox-list", "requests your US bank account and address")
	tb.waitText("#outbox-list", "Invoice ACME-1004 from Acme Robotics Inc.")
	tb.do(chromedp.Click(`nav.side a[data-page="deliveries"]`))
	tb.waitText("#deliveries", "retrying")
	tb.waitText("#deliveries", "7 attempts")
	tb.do(chromedp.Click(`#deliveries details.delivery:last-child > summary`))
	tb.waitText("#deliveries details.delivery:last-child", "connect: connection refused")
	tb.noConsoleErrors()
}

// TestDashboardSimulateFirstClickApproves submits the purchase form as it
// opens: the demo's first purchase goes through.
func TestDashboardSimulateFirstClickApproves(t *testing.T) {
	w := newWorld(t)
	tb := openDashboard(t, w, "#/simulate")
	tb.screenshotOnFailure(t, "simulate first click")
	tb.visit("#/simulate", "page-simulate", "Card purchase")
	card := eval[string](tb, `document.getElementById('sim-card').value`)
	tb.do(chromedp.Click(`#purchase-form button[type=submit]`))
	tb.waitText("#purchase-form-result", "The purchase was")
	if got := tb.text("#purchase-result .verdict"); !strings.Contains(got, "approved") {
		t.Fatalf("the first click on %s: %q, want approved", card, got)
	}
	_, list := w.api(t, http.MethodGet, "/transaction?filter:cardId="+card, "sk_sandbox_acme", nil, nil)
	first := list["items"].([]any)[0].(map[string]any)
	if first["detailedStatus"] != "pending" || cents(first["amountCents"]) != -2500 {
		t.Errorf("the card's newest transaction is %v, want the approved $25.00 pending", first)
	}
	tb.noConsoleErrors()
}

// TestDashboardNextBusinessEvent runs to the next business event: the
// token price ticks before it run, but it is not one of them.
func TestDashboardNextBusinessEvent(t *testing.T) {
	w := newWorld(t)
	tb := openDashboard(t, w, "#/overview")
	tb.screenshotOnFailure(t, "next business event")
	tb.visit("#/overview", "page-overview", "Virtual clock")
	tb.waitText("#next-business-at", "webhook.retry")
	tb.do(chromedp.Click(chromedp.ID("advance-business")))
	tb.waitText("#advance-result", "webhook.retry")
	done, err := w.ctl.Events(context.Background(), "done")
	if err != nil {
		t.Fatal(err)
	}
	last := done[0]
	for _, e := range done {
		if e.At.After(last.At) {
			last = e
		}
	}
	if len(done) < 2 || last.Kind == "token_prices.tick" {
		t.Fatalf("the events that ran: %+v; want a business event last, after the ticks", done)
	}
	clock, err := w.ctl.Clock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !clock.Now.Equal(last.At) {
		t.Errorf("the clock reads %s, want the business event's time %s", clock.Now, last.At)
	}
	tb.waitText("#clock-now", clock.Now.UTC().Format("2 Jan 2006, 15:04 UTC"))
	// The refused retry was attempted once more.
	tb.waitText("#glance-deliveries", "1webhook deliveries failing")
	if got := tb.text("#advance-result"); !strings.Contains(got, "token_prices.tick") {
		t.Errorf("the advance reads %q; the ticks before the business event should have run", clip(got))
	}
	tb.noConsoleErrors()
}

// TestDashboardRefreshesOnChange changes the world through the API while
// views are open: each shows the change without a reload.
func TestDashboardRefreshesOnChange(t *testing.T) {
	w := newWorld(t)
	tb := openDashboard(t, w, "#/overview")
	tb.screenshotOnFailure(t, "live refresh")
	tb.visit("#/overview", "page-overview", "Virtual clock")
	// A reload would lose this mark.
	tb.do(chromedp.Evaluate[chromedp.Void](`window.stillHere = true`))
	kept := func() {
		t.Helper()
		if !eval[bool](tb, `window.stillHere === true`) {
			t.Fatal("the page was reloaded")
		}
	}

	agents := w.count(t, "/_sandbox/agent-requests?status=pending")
	w.deferred(t, http.MethodPatch, "/card/card_acmemeals", "sk_sandbox_acme_readonly",
		map[string]any{"name": "Team lunches"})
	tb.waitText("#glance-agents", fmt.Sprintf("%dagent requests pending", agents+1))
	kept()

	tb.visit("#/agents", "page-agents", "Create Virtual Card")
	w.deferred(t, http.MethodPatch, "/card/card_acmeoffice", "sk_sandbox_acme_readonly",
		map[string]any{"name": "Office and supplies"})
	tb.waitText("#agent-requests", "Office supplies → Office and supplies")
	kept()

	tb.visit("#/outbox", "page-outbox", "Outbox")
	w.api(
		t,
		http.MethodPost,
		"/v2/information-requests",
		"sk_sandbox_alice",
		map[string]string{"x-legal-entity": "le_acme", "X-Idempotency-Key": "live-1"},
		map[string]any{
			"contactId":            "le_c_pixelforge",
			"requestedInformation": map[string]any{"address": true},
			"requesterName":        "Alice Chen",
		},
	)
	tb.waitText("#outbox-list", "Acme Robotics Inc. requests your address")
	kept()

	tb.visit("#/journal", "page-journal", "/v2/information-requests")
	w.api(t, http.MethodGet, "/card/card_acmegithub", "sk_sandbox_acme", nil, nil)
	tb.waitText("#journal", "/card/card_acmegithub")
	kept()

	tb.visit("#/deliveries", "page-deliveries", "retrying")
	before := eval[int](tb, `document.querySelectorAll('#deliveries details.delivery').length`)
	w.api(t, http.MethodPatch, "/card/card_acmegithub", "sk_sandbox_acme", nil, map[string]any{"name": "GitHub and more"})
	expr := fmt.Sprintf(`document.querySelectorAll('#deliveries details.delivery').length > %d`, before)
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(waitFor))); err != nil {
		t.Fatalf("the card's update made no delivery on the page: %v; it shows %s", err, clip(tb.text("#deliveries")))
	}
	tb.waitText("#deliveries details.delivery:first-child", "card.update")
	kept()
	tb.noConsoleErrors()
}

// TestDashboardChartTooltip hovers a balance chart: it fills the page's
// width, its axes are labelled, its scale follows the last 90 days, and
// the value under the pointer is shown.
func TestDashboardChartTooltip(t *testing.T) {
	w := newWorld(t)
	tb := openDashboard(t, w, "#/charts")
	tb.screenshotOnFailure(t, "chart tooltip")
	tb.visit("#/charts", "page-charts", "Balance over time: Acme Operating")
	tb.waitText("#balance-charts svg.chart", "Posted balance (USD)")
	tb.waitText("#balance-charts svg.chart", "last 90 days")
	ratio := eval[float64](tb, `(() => { const s = document.querySelector('#balance-charts svg.chart');
	  return s.getBoundingClientRect().width / s.closest('.card').clientWidth; })()`)
	if ratio < 0.9 {
		t.Errorf("the chart takes %.0f%% of its section's width, want nearly all of it", ratio*100)
	}
	// The scale fits the balance's range, not zero to its top: the labels differ.
	labels := eval[[]string](
		tb,
		`[...document.querySelector('#balance-charts svg.chart').querySelectorAll('.grid-line text')].map((t) =>`+
			` t.textContent)`,
	)
	if len(labels) < 3 || labels[0] == "$0.00" {
		t.Errorf("the value axis reads %q, want at least 3 labels scaled to the balance", labels)
	}
	tb.do(chromedp.ScrollIntoView(`#balance-charts svg.chart`))
	box := eval[[]float64](
		tb,
		`(() => { const r = document.querySelector('#balance-charts svg.chart').getBoundingClientRect(); return [r.left,`+
			` r.top, r.width, r.height]; })()`,
	)
	tb.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, box[0]+box[2]*0.6, box[1]+box[3]*0.5))
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](`!document.querySelector('#balance-charts .chart-tip').hidden`,
		chromedp.WithPollingTimeout(waitFor))); err != nil {
		t.Fatalf("no tooltip after moving over the chart: %v", err)
	}
	tip := tb.text("#balance-charts .chart-tip")
	if !strings.Contains(tip, "$") || !strings.Contains(tip, "2026") {
		t.Errorf("the tooltip reads %q, want a day and an amount", tip)
	}
	tb.noConsoleErrors()
}

// TestDashboardTour follows the tour: the banner leads to it, and each of
// its five steps opens the view that shows the flow.
func TestDashboardTour(t *testing.T) {
	w := newWorld(t)
	tb := openDashboard(t, w, "#/overview")
	tb.screenshotOnFailure(t, "tour")
	tb.do(chromedp.Evaluate[chromedp.Void](`localStorage.removeItem('sandbox.tour')`))
	tb.visit("#/journal", "page-journal", "Request journal")
	tb.visit("#/overview", "page-overview", "Virtual clock")
	tb.do(chromedp.Click(chromedp.ID("tour-start")))
	tb.waitText("#page-tour", "Five flows")
	steps := []struct{ id, page, sel, want string }{
		{"information-request", "page-outbox", "#message", "Open the secure form"},
		{"queued-ach", "browse-transactions", "#transactions-table", "queued: awaiting bank details"},
		{"webhook", "page-deliveries", "#deliveries", "retrying"},
		{"card", "page-simulate", "#purchase-form", "Authorize purchase"},
		{"agent", "page-agents", "#agent-requests", "Create Virtual Card"},
	}
	for _, s := range steps {
		tb.visit("#/tour", "page-tour", "Five flows")
		tb.do(chromedp.Click(chromedp.ID("tour-open-" + s.id)))
		tb.waitText("#"+s.page, "")
		tb.waitText(s.sel, s.want)
	}
	tb.visit("#/overview", "page-overview", "Virtual clock")
	tb.do(chromedp.Click(chromedp.ID("tour-dismiss")))
	tb.waitGone("#tour-banner")
	tb.noConsoleErrors()
}
