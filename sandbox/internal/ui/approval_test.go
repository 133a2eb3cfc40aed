package ui_test

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestDashboardApprovalLink opens the approval URL a deferred write
// answers with, in a tab of its own as a person following the link would:
// the admin token is asked for, the request's page shows what the write
// would do, and Approve runs it in the world it was asked in. A second
// link's Reject leaves the world as it was.
func TestDashboardApprovalLink(t *testing.T) {
	w := newWorld(t)
	const ro = "sk_sandbox_acme_readonly"
	id, link := w.deferred(t, http.MethodPost, "/card", ro, map[string]any{"name": "Marketing Card", "type": "virtual"})
	u, err := url.Parse(link)
	if base, _ := url.Parse(w.url); err != nil || u.Host != base.Host {
		t.Fatalf("approval URL %q: want it on the sandbox's own address %s", link, w.url)
	}

	tb := newTab(t, w)
	tb.screenshotOnFailure(t, "approval link")
	tb.do(chromedp.Navigate(link))
	tb.waitText("#token-form", "Admin token needed")
	tb.do(chromedp.SetValue(chromedp.ID("token-input"), adminToken), chromedp.Click(`#token-form button[type=submit]`))
	tb.waitText("#deferred-action-title", "Create Virtual Card")
	tb.waitText("#deferred-action-sections", "Marketing Card")
	tb.waitText("#deferred-action-description", "POST /card")
	if got := eval[string](tb, `document.getElementById('world-select').value`); got != w.id {
		t.Errorf("the page acts on world %q, want %s", got, w.id)
	}

	tb.do(chromedp.Click(chromedp.ID("deferred-approve-" + id)))
	tb.waitText("#deferred-action-outcome", "executed")
	status, ar := w.api(t, http.MethodGet, "/agent-request/"+id, ro, nil, nil)
	result, _ := ar["result"].(map[string]any)
	cardID, _ := result["id"].(string)
	if status != http.StatusOK || ar["status"] != "executed" || cardID == "" {
		t.Fatalf("after Approve the key reads %d %v, want executed with the card as result", status, ar)
	}
	status, card := w.api(t, http.MethodGet, "/card/"+cardID, "sk_sandbox_acme", nil, nil)
	if status != http.StatusOK {
		t.Fatalf("the approved card %s answers %d", cardID, status)
	}
	for _, k := range []string{"id", "name", "status", "accountId", "last4", "expiryMonth", "expiryYear"} {
		if card[k] != result[k] {
			t.Errorf("result %s = %v, the card reads %v", k, result[k], card[k])
		}
	}
	tb.do(chromedp.Click(chromedp.ID("deferred-action-close")))
	tb.waitGone("#deferred-action")
	if got := eval[string](tb, `location.search`); got != "" {
		t.Errorf("after closing, the address keeps %q", got)
	}

	rejected, link := w.deferred(t, http.MethodPost, "/card", ro,
		map[string]any{"name": "Rejected Card", "type": "virtual"})
	tb.do(chromedp.Navigate(link))
	tb.waitText("#deferred-action-sections", "Rejected Card")
	tb.do(chromedp.Click(chromedp.ID("deferred-reject-" + rejected)))
	tb.waitText("#deferred-action-outcome", "rejected")
	if _, ar := w.api(t, http.MethodGet, "/agent-request/"+rejected, ro, nil, nil); ar["status"] != "rejected" ||
		ar["result"] != nil {
		t.Errorf("after Reject the key reads %v", ar)
	}
	for path := "/card"; ; {
		status, page := w.api(t, http.MethodGet, path, "sk_sandbox_acme", nil, nil)
		items, ok := page["items"].([]any)
		if status != http.StatusOK || !ok {
			t.Fatalf("GET %s answered %d %v", path, status, page)
		}
		for _, c := range items {
			if c.(map[string]any)["name"] == "Rejected Card" {
				t.Errorf("a rejected create made %v", c)
			}
		}
		cursor, _ := page["metadata"].(map[string]any)["nextCursor"].(string)
		if cursor == "" {
			break
		}
		path = "/card?cursor=" + url.QueryEscape(cursor)
	}
	tb.noConsoleErrors(regexp.MustCompile(`status of 401`))
}
