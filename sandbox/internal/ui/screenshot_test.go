package ui_test

import (
	"flag"
	"net/http"
	"os"
	"testing"

	"github.com/chromedp/chromedp"
)

var screenshot = flag.String("ui.screenshot", "", "write a screenshot of the dashboard's overview of the demo scenario to this PNG file")

// TestDashboardOverviewScreenshot takes docs/dashboard.md's picture of the
// overview, only when asked:
//
//	go test ./sandbox/ui -run OverviewScreenshot -ui.screenshot ../../docs/dashboard-overview.png
func TestDashboardOverviewScreenshot(t *testing.T) {
	if *screenshot == "" {
		t.Skip("no -ui.screenshot file given")
	}
	// The default world, with a write waiting for approval and an email.
	w := defaultWorld(t)
	w.api(t, http.MethodPatch, "/card/card_acmemeals", "sk_sandbox_acme_readonly", nil, map[string]any{"name": "Team lunches"})
	w.api(t, http.MethodPost, "/v2/information-requests", "sk_sandbox_alice", map[string]string{"x-legal-entity": "le_acme", "X-Idempotency-Key": "shot"},
		map[string]any{"contactId": "le_c_pixelforge", "requestedInformation": map[string]any{"destinationTypes": []string{"bank_account"}}, "requesterName": "Alice Chen"})
	tb := openDashboard(t, w, "#/overview")
	tb.visit("#/overview", "page-overview", "Virtual clock")
	tb.do(chromedp.Click(chromedp.ID("advance-next")))
	tb.waitText("#advance-result", "token_prices.tick")
	tb.noConsoleErrors()
	png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(*screenshot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", *screenshot)
}
