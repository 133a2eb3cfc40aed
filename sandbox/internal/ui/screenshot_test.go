package ui_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

var screenshots = flag.String("ui.screenshots", "",
	"write a screenshot of each view of the dashboard, on the demo scenario as it opens, to this directory")

// TestDashboardScreenshots takes the pictures docs/dashboard.md and
// docs/demo.md show, one per view, only when asked:
//
//	go test ./sandbox/internal/ui -run Screenshots -ui.screenshots ../../../docs/img
func TestDashboardScreenshots(t *testing.T) {
	if *screenshots == "" {
		t.Skip("no -ui.screenshots directory given")
	}
	w := newWorld(t)
	tb := openDashboard(t, w, "#/overview")
	tb.do(chromedp.Evaluate[chromedp.Void](`localStorage.removeItem('sandbox.tour')`))
	shots := []struct {
		name, hash, page, want string
		after                  func()
	}{
		{"tour", "#/tour", "page-tour", "Five flows", nil},
		{
			"browse-transactions",
			"#/browse/transactions/Brightside",
			"browse-transactions",
			"queued: awaiting bank details",
			nil,
		},
		{"outbox", "#/outbox", "page-outbox", "Open the secure form", nil},
		{"deliveries", "#/deliveries", "page-deliveries", "retrying", func() {
			tb.do(chromedp.Click(`#deliveries details.delivery:last-child > summary`))
			tb.waitText("#deliveries details.delivery:last-child", "connection refused")
		}},
		{"agents", "#/agents", "page-agents", "Create Virtual Card", nil},
		{"simulate", "#/simulate", "page-simulate", "Card purchase", func() {
			tb.do(chromedp.Click(`#purchase-form button[type=submit]`))
			tb.waitText("#purchase-result", "approved")
		}},
		{"journal", "#/journal", "page-journal", "Request journal", nil},
		{"charts", "#/charts", "page-charts", "Balance over time", func() {
			box := eval[[]float64](
				tb,
				`(() => { const r = document.querySelector('#balance-charts svg.chart').getBoundingClientRect(); return [r.left,`+
					` r.top, r.width, r.height]; })()`,
			)
			tb.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, box[0]+box[2]*0.62, box[1]+box[3]*0.5))
			tb.waitText("#balance-charts .chart-tip", "$")
		}},
		{"overview", "#/overview", "page-overview", "Virtual clock", func() {
			tb.do(chromedp.Click(chromedp.ID("advance-business")))
			tb.waitText("#advance-result", "webhook.retry")
		}},
	}
	for _, s := range shots {
		tb.visit(s.hash, s.page, s.want)
		if s.after != nil {
			s.after()
		}
		png, err := chromedp.Run(tb.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(*screenshots, "dashboard-"+s.name+".png")
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
	}
	tb.noConsoleErrors()
}
