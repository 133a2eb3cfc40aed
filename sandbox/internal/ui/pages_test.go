package ui_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// usd formats cents as the dashboard does: 184218100 → "$1,842,181.00".
func usd(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	whole := fmt.Sprint(cents / 100)
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	return fmt.Sprintf("%s$%s.%02d", sign, whole, cents%100)
}

func cents(v any) int64 {
	f, _ := v.(float64)
	return int64(f)
}

// unlabelled lists the form controls of the page that have no accessible
// name.
const unlabelled = `[...document.querySelectorAll('main input, main select, main textarea, header select')]
  .filter((el) => el.type !== 'hidden' && !el.labels.length && !el.getAttribute('aria-label'))
  .map((el) => el.id || el.outerHTML)`

// pagesWant is what the pages should show, read through the API.
type pagesWant struct {
	ir                            map[string]any
	posted, officeSpend, adsSpend int64
}

// pagesSetup gives the world an email and a pending agent request, and
// reads the balances and utilizations the pages must agree with.
func pagesSetup(t *testing.T, w *world) pagesWant {
	t.Helper()
	acme := map[string]string{"x-legal-entity": "le_acme"}
	_, ir := w.api(
		t,
		http.MethodPost,
		"/v2/information-requests",
		"sk_sandbox_alice",
		map[string]string{"x-legal-entity": "le_acme", "X-Idempotency-Key": "pages-1"},
		map[string]any{
			"contactId":            "le_c_pixelforge",
			"requestedInformation": map[string]any{"address": true},
			"requesterName":        "Alice Chen",
		},
	)
	w.deferred(t, http.MethodPatch, "/card/card_acmemeals", "sk_sandbox_acme_readonly",
		map[string]any{"name": "Team lunches"})
	w.mcpCall(t, "sk_sandbox_acme", "/account")
	if status, _ := w.api(t, http.MethodGet, "/cards", "sk_sandbox_acme", nil, nil); status != http.StatusNotFound {
		t.Fatalf("GET /cards = %d, want 404", status)
	}
	_, balance := w.api(t, http.MethodGet, "/account/sa_group_acmeoperating/balance", "sk_sandbox_acme", nil, nil)
	_, util := w.api(t, http.MethodGet, "/card/card_acmeoffice/utilization", "sk_sandbox_acme", nil, nil)
	_, adsUtil := w.api(t, http.MethodGet, "/card-group/card_group_acmeads/utilization", "sk_sandbox_alice", acme, nil)
	return pagesWant{ir: ir,
		posted:      cents(balance["balances"].([]any)[0].(map[string]any)["posted"].(map[string]any)["amountCents"]),
		officeSpend: cents(util["spend"].(map[string]any)["amountCents"]),
		adsSpend:    cents(adsUtil["spend"].(map[string]any)["amountCents"])}
}

// TestDashboardPages loads every page of the dashboard against the demo
// scenario and checks what it shows against the API, that every form
// control has a label, and that the browser console stays clean.
func TestDashboardPages(t *testing.T) {
	w := newWorld(t)
	want := pagesSetup(t, w)
	ir, posted, officeSpend, adsSpend := want.ir, want.posted, want.officeSpend, want.adsSpend

	tb := openDashboard(t, w, "#/overview")
	pages := []struct {
		name, hash, page, want string
		check                  func(t *testing.T)
	}{
		{"overview", "#/overview", "page-overview", "Virtual clock", func(t *testing.T) {
			tb.waitText("#world-id", w.id)
			for sel, want := range map[string]string{"#world-scenario": "demo", "#world-seed": "42",
				"#clock-now":     "15 Jun 2026, 14:00 UTC",
				"#next-event-at": "15 Jun 2026, 15:00 UTC", "#events-scheduled": "token_prices.tick", "#worlds-table": w.id,
				"#header-clock":  "15 Jun 2026, 14:00",
				"#glance-agents": "2agent requests pending", "#glance-outbox": "4emails in the outbox",
				"#glance-deliveries": "1webhook deliveries failing",
				"#next-business-at":  "webhook.retry"} {
				if got := tb.text(sel); !strings.Contains(got, want) {
					t.Errorf("%s reads %q, want %q in it", sel, clip(got), want)
				}
			}
			if got := eval[string](tb, `location.search`); got != "" {
				t.Errorf("the address keeps %q; the token should leave it once read", got)
			}
		}},
		{"legal entities", "#/browse/entities", "browse-entities", "Acme Robotics Inc.", func(t *testing.T) {
			tb.waitText("#entities-table", "Globex Logistics LLC")
			tb.waitText("#entities-table", w.keys["sk_sandbox_acme"])
			tb.waitText("#keys-table", w.keys["sk_sandbox_carol_readonly"])
		}},
		{"accounts", "#/browse/accounts", "browse-accounts", "Acme Operating", func(t *testing.T) {
			tb.waitText("#accounts-table", usd(posted)+" posted")
			tb.waitText("#accounts-table", "Acme Charge Card")
		}},
		{"virtual accounts", "#/browse/virtual-accounts", "browse-virtual-accounts", "Payroll reserve", func(t *testing.T) {
			tb.waitText("#virtual-accounts-table", "$600,000.00")
		}},
		{"cards", "#/browse/cards", "browse-cards", "Office supplies ••6764", func(t *testing.T) {
			// The bar agrees with the engine's own utilization of the card.
			label := eval[string](tb, `document.querySelector('#card-card_acmeoffice .bar').getAttribute('aria-label')`)
			if want := "Monthly limit: " + usd(officeSpend) + " of $3,000.00"; label != want {
				t.Errorf("the office card's bar says %q, want %q", label, want)
			}
			tb.waitText("#card-card_acmeoffice", "Each purchase at least $1.00 and at most $500.00")
		}},
		{"card groups", "#/browse/card-groups", "browse-card-groups", "Paid acquisition", func(t *testing.T) {
			labels := eval[[]string](
				tb,
				`[...document.querySelectorAll('#card-group-card_group_acmeads .bar')].map((b) => b.getAttribute('aria-label'))`,
			)
			if len(labels) != 2 || !strings.HasPrefix(labels[0], "Weekly limit") ||
				!strings.HasPrefix(labels[1], "Monthly limit") {
				t.Fatalf("the ads group's bars: %q, want a weekly and a monthly one", labels)
			}
			if !strings.Contains(labels[0]+labels[1], usd(adsSpend)+" of") {
				t.Errorf("no bar shows the binding limit's spend %s: %q", usd(adsSpend), labels)
			}
		}},
		{"transactions", "#/browse/transactions", "browse-transactions", "Page 1 · 50 transactions", func(t *testing.T) {
			tb.do(chromedp.SetValue(chromedp.ID("txn-status"), "failed"), chromedp.Evaluate[chromedp.Void](
				`document.getElementById('txn-status').dispatchEvent(new Event('change'))`))
			tb.waitText("#txn-info", "Page 1")
			statuses := eval[[]string](
				tb,
				`[...document.querySelectorAll('#transactions-table tbody .badge')].map((b) => b.textContent)`,
			)
			for _, s := range statuses {
				if s != "declined" && s != "reversed" && s != "canceled" && s != "failed" {
					t.Fatalf("filtered on failed, the list shows %q", statuses)
				}
			}
			tb.do(chromedp.SendKeys(chromedp.ID("txn-search"), "Lucky Star"))
			tb.waitText("#txn-info", "among")
			tb.waitText("#transactions-table", "Lucky Star Casino")
		}},
		{"contacts", "#/browse/contacts", "browse-contacts", "Northwind Supply", func(t *testing.T) {
			tb.waitText("#contacts-table", "Northwind checking")
			tb.waitText("#contacts-table", "IBAN ••3000")
		}},
		{"invoices", "#/browse/invoices", "browse-invoices", "ACME-1002", func(t *testing.T) {
			tb.waitText("#invoices-table", "overdue")
		}},
		{"webhooks", "#/browse/webhooks", "browse-webhooks", "Local receiver", func(t *testing.T) {
			tb.waitText("#webhooks-table", "http://localhost:4000/webhooks/slash")
			tb.waitText("#webhooks-table", "http://127.0.0.1:9/hooks")
		}},
		{"tour", "#/tour", "page-tour", "Five flows", func(t *testing.T) {
			if n := eval[int](tb, `document.querySelectorAll('#tour-steps > li a.button').length`); n != 5 {
				t.Errorf("the tour has %d steps with a link, want 5", n)
			}
		}},
		{"simulate", "#/simulate", "page-simulate", "Card purchase", func(t *testing.T) {
			tb.waitText("#transfer-form", "Rail")
			tb.waitText("#invoice-form", "ACME-")
		}},
		{"outbox", "#/outbox", "page-outbox", "requests your address", func(t *testing.T) {
			tb.waitText("#message", ir["id"].(string))
			if n := eval[int](tb, `document.querySelectorAll('#message iframe[sandbox]').length`); n != 1 {
				t.Errorf("the message's HTML is in %d sandboxed frames, want 1", n)
			}
		}},
		{"webhook deliveries", "#/deliveries", "page-deliveries", "webhook_acmeerp", func(t *testing.T) {
			tb.waitText("#deliveries", "retrying")
			tb.waitText("#deliveries", "queued")
		}},
		{"agent requests", "#/agents", "page-agents", "Update Card", func(t *testing.T) {
			tb.waitText("#agent-requests", "Team lunches")
			tb.waitText("#agent-requests", "Create Virtual Card")
		}},
		{"request journal", "#/journal", "page-journal", "/v2/information-requests", func(t *testing.T) {
			tb.waitText("#journal", "via MCP")
			tb.waitText("#journal", "unmatched did you mean GET /card?")
			if got := tb.text("#journal"); strings.Contains(got, "/_sandbox/health") {
				t.Errorf("the journal lists the dashboard's own reads: %s", clip(got))
			}
		}},
		{"charts", "#/charts", "page-charts", "Balance over time: Acme Operating", func(t *testing.T) {
			if n := eval[int](tb, `document.querySelectorAll('#balance-charts svg.chart path.line').length`); n != 3 {
				t.Errorf("%d balance lines, want 3 (debit; cash and credit)", n)
			}
			tb.waitText("#limit-chart", "Office supplies · monthly")
			tb.waitText("#limit-chart", usd(officeSpend))
		}},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			tb.t = t
			tb.screenshotOnFailure(t, "page "+p.name)
			tb.visit(p.hash, p.page, p.want)
			if p.check != nil {
				p.check(t)
			}
			if missing := eval[[]string](tb, unlabelled); len(missing) > 0 {
				t.Errorf("form controls without a label: %q", missing)
			}
			tb.noConsoleErrors()
		})
	}
}
