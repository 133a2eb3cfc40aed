package ui_test

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// narrow is the width of a phone held upright, which the dashboard fits.
const narrow = 420

// TestDashboardFitsNarrowWindow: in a window 420 px wide no page scrolls
// sideways, and the header's brand, pickers and clock are all on screen.
func TestDashboardFitsNarrowWindow(t *testing.T) {
	w := newWorld(t)
	tb := newTab(t, w)
	tb.screenshotOnFailure(t, "narrow")
	tb.do(chromedp.EmulateViewport(narrow, 800))
	tb.do(chromedp.Navigate(fmt.Sprintf("%s/_sandbox/ui?token=%s&world=%s#/overview", w.url, adminToken, w.id)))
	tb.waitText("#page-overview", "Virtual clock")
	tb.waitText("#clock-pill", "Virtual time")
	pages := []struct{ hash, page, want string }{
		{"#/overview", "page-overview", "Upcoming events"},
		{"#/tour", "page-tour", "Five flows"},
		{"#/browse/accounts", "browse-accounts", "Acme Operating"},
		{"#/browse/transactions", "browse-transactions", "Page 1"},
		{"#/simulate", "page-simulate", "Card purchase"},
		{"#/outbox", "page-outbox", "Open the secure form"},
		{"#/deliveries", "page-deliveries", "retrying"},
		{"#/agents", "page-agents", "Create Virtual Card"},
		{"#/journal", "page-journal", "Request journal"},
		{"#/charts", "page-charts", "Balance over time"},
	}
	for _, p := range pages {
		tb.visit(p.hash, p.page, p.want)
		if got := eval[float64](tb, `document.documentElement.scrollWidth`); got > narrow {
			t.Errorf("%s: the page is %v px wide in a %d px window", p.hash, got, narrow)
		}
	}
	// Each of the header's parts lies inside the window, and is not
	// covered by another: what is drawn at its middle is itself.
	for _, sel := range []string{".brand", "#world-select", "#entity-select", "label[for=world-select]",
		"label[for=entity-select]", "#clock-pill"} {
		box := eval[[]float64](tb, fmt.Sprintf(`(() => { window.scrollTo(0, 0);`+
			` const r = document.querySelector(%q).getBoundingClientRect();`+
			` return [r.left, r.right, r.top, r.bottom]; })()`, sel))
		if box[0] < 0 || box[1] > narrow || box[1]-box[0] < 1 || box[3]-box[2] < 1 {
			t.Errorf("%s lies at x %v–%v, y %v–%v: not inside the %d px window", sel, box[0], box[1], box[2], box[3], narrow)
		}
		visible := eval[bool](tb, fmt.Sprintf(`(() => { const el = document.querySelector(%q);`+
			` const r = el.getBoundingClientRect();`+
			` const at = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);`+
			` return !!at && (at === el || el.contains(at)); })()`, sel))
		if !visible {
			t.Errorf("%s is covered by another element in the %d px window", sel, narrow)
		}
	}
	tb.noConsoleErrors()
}
