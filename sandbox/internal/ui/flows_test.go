package ui_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestDashboardAdvanceClock advances the clock by clicks and sees the
// events run on the page and through the API.
func TestDashboardAdvanceClock(t *testing.T) {
	w := newWorld(t)
	tb := openDashboard(t, w, "#/overview")
	tb.screenshotOnFailure(t, "advance clock")
	tb.visit("#/overview", "page-overview", "15 Jun 2026, 14:00 UTC")
	tb.waitText("#events-done", "No event has run yet")

	tb.do(chromedp.Click(chromedp.ID("advance-next")))
	tb.waitText("#clock-now", "15 Jun 2026, 15:00 UTC")
	tb.waitText("#advance-result", "1 event ran")
	tb.waitText("#advance-result", "token_prices.tick")
	tb.waitText("#events-done", "token_prices.tick")
	tb.waitText("#header-clock", "15 Jun 2026, 15:00")

	tb.do(chromedp.Click(chromedp.ID("advance-1d")))
	tb.waitText("#clock-now", "16 Jun 2026, 15:00 UTC")
	tb.waitText("#advance-result", "24 × token_prices.tick")
	tb.waitText("#advance-result", "transaction.settle")
	clock, err := w.ctl.Clock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := clock.Now.UTC().Format(time.RFC3339), "2026-06-16T15:00:00Z"; got != want {
		t.Errorf("the API's clock reads %s, want %s", got, want)
	}
	done, err := w.ctl.Events(context.Background(), "done")
	if err != nil {
		t.Fatal(err)
	}
	settled := 0
	for _, e := range done {
		if e.Kind == "transaction.settle" && e.Status == "done" {
			settled++
		}
	}
	if settled == 0 || !strings.Contains(tb.text("#advance-result"), fmt.Sprintf("%d events ran", len(done)-1)) {
		t.Errorf("the API ran %d events (%d settlements) in the day; the page says %q", len(done)-1, settled,
			clip(tb.text("#advance-result")))
	}

	// Switching worlds shows the other world's clock, untouched; the
	// header's picker comes back.
	tb.do(chromedp.Click(chromedp.ID("switch-default")))
	tb.waitText("#world-id", "default")
	other, err := started(t).Control.Clock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tb.waitText("#clock-now", other.Now.UTC().Format("2 Jan 2006, 15:04 UTC"))
	tb.do(chromedp.SetValue(chromedp.ID("world-select"), w.id),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('world-select').dispatchEvent(new Event('change'))`))
	tb.waitText("#world-id", w.id)
	tb.waitText("#clock-now", "16 Jun 2026, 15:00 UTC")

	// Reset asks for a second click, then returns to the scenario's start.
	// A change made elsewhere between the two clicks refreshes the page
	// and leaves the button armed.
	tb.do(chromedp.Click(chromedp.ID("reset-world")))
	tb.waitText("#reset-world", "Click again to reset")
	emails := tb.text("#glance-outbox")
	n, err := strconv.Atoi(strings.TrimSuffix(emails, "emails in the outbox"))
	if err != nil {
		t.Fatalf("the outbox count reads %q", emails)
	}
	if status, ir := w.api(t, http.MethodPost, "/v2/information-requests", "sk_sandbox_alice",
		map[string]string{"x-legal-entity": "le_acme", "X-Idempotency-Key": "between-clicks"},
		map[string]any{"contactId": "le_c_pixelforge", "requestedInformation": map[string]any{"address": true},
			"requesterName": "Alice Chen"}); status != http.StatusOK {
		t.Fatalf("creating an information request answered %d: %v", status, ir)
	}
	tb.waitText("#glance-outbox", fmt.Sprintf("%demails in the outbox", n+1))
	if got := tb.text("#reset-world"); got != "Click again to reset" {
		t.Fatalf("after a refresh the reset button reads %q, want it still armed", got)
	}
	tb.do(chromedp.Click(chromedp.ID("reset-world")))
	tb.waitText("#clock-now", "15 Jun 2026, 14:00 UTC")
	if clock, err = w.ctl.Clock(context.Background()); err != nil || !clock.Now.Equal(clock.Start) {
		t.Errorf("after reset the API's clock is %v (%v), want its start", clock.Now, err)
	}
	tb.noConsoleErrors()
}

// TestDashboardSecureForm follows an information request's email from the
// outbox to the secure form, fills it in the browser, and sees the request
// submitted through the API.
func TestDashboardSecureForm(t *testing.T) {
	w := newWorld(t)
	status, ir := w.api(
		t,
		http.MethodPost,
		"/v2/information-requests",
		"sk_sandbox_alice",
		map[string]string{"x-legal-entity": "le_acme", "X-Idempotency-Key": "form-1"},
		map[string]any{
			"contactId":            "le_c_pixelforge",
			"requestedInformation": map[string]any{"destinationTypes": []string{"bank_account"}, "address": true},
			"requesterName":        "Alice Chen",
		},
	)
	if status != http.StatusCreated && status != http.StatusOK {
		t.Fatalf("creating the information request answered %d: %v", status, ir)
	}
	id := ir["id"].(string)
	tb := openDashboard(t, w, "#/outbox")
	tb.screenshotOnFailure(t, "secure form")
	tb.visit("#/outbox", "page-outbox", "requests your US bank account and address")
	tb.waitText("#request-status", "pending")
	link := eval[string](tb, `document.getElementById('secure-form-link').href`)
	if !strings.Contains(link, "/_sandbox/worlds/"+w.id+"/forms/information-requests/") {
		t.Fatalf("the secure-form link is %q", link)
	}

	tb.do(chromedp.Navigate(link), chromedp.WaitVisible(chromedp.ID("secure-form")))
	if sub := tb.text("p.sub"); !strings.HasSuffix(sub, "sent securely to Acme Robotics Inc.") {
		t.Errorf("the form's lead reads %q, want it to end with the company's name and one full stop", sub)
	}
	for field, value := range map[string]string{
		"bankAccount.holderName": "Pixelforge Design LLC", "bankAccount.routingNumber": "021000021",
		"bankAccount.accountNumber": "000123456789",
		"address.addressLine":       "12 Pixel Way", "address.addressCity": "Portland", "address.addressState": "OR",
		"address.addressZip": "97201", "address.addressCountry": "US",
	} {
		tb.do(chromedp.SendKeys(chromedp.CSS(`[id="`+field+`"]`), value))
	}
	ctx, cancel := context.WithTimeout(tb.ctx, waitFor)
	defer cancel()
	res, err := chromedp.RunResponse(ctx, chromedp.Click(chromedp.ID("submit")))
	if err != nil {
		t.Fatalf("submitting the form: %v", err)
	}
	if res.Status != http.StatusOK {
		t.Fatalf("the form answered %d: %s", res.Status, clip(tb.text("main")))
	}
	tb.waitText("#message", "Your details were sent securely to Acme Robotics Inc. You can close this page.")

	var got struct {
		InformationRequest struct {
			Status           string `json:"status"`
			FirstSubmittedAt string `json:"firstSubmittedAt"`
		} `json:"informationRequest"`
	}
	if _, err := w.ctl.Do(context.Background(), http.MethodGet, "/_sandbox/information-requests/"+id, nil,
		&got); err != nil {
		t.Fatal(err)
	}
	if got.InformationRequest.Status != "submitted" || got.InformationRequest.FirstSubmittedAt == "" {
		t.Errorf("after the form, the request is %+v, want submitted", got.InformationRequest)
	}
	_, dests := w.api(t, http.MethodGet, "/contact/destination", "sk_sandbox_acme", nil, nil)
	if !strings.Contains(fmt.Sprint(dests), "6789") {
		t.Errorf("the collected bank account is not among the destinations: %v", dests)
	}
	// Back on the dashboard (the tab's session keeps the token and the
	// world), the email shows the request submitted.
	tb.do(chromedp.Navigate(w.url + "/_sandbox/ui#/outbox"))
	tb.waitText("#request-status", "submitted")
	tb.noConsoleErrors()
}

// TestDashboardApproveAgentRequest approves a read-only key's write with a
// click and sees it executed through the API.
func TestDashboardApproveAgentRequest(t *testing.T) {
	w := newWorld(t)
	id, _ := w.deferred(t, http.MethodPatch, "/card/card_acmeoffice", "sk_sandbox_acme_readonly",
		map[string]any{"name": "Office and supplies", "status": "paused"})
	tb := openDashboard(t, w, "#/agents")
	tb.screenshotOnFailure(t, "agent requests")
	tb.visit("#/agents", "page-agents", "Update Card")
	tile := "#agent-" + id
	tb.waitText(tile, "Office supplies → Office and supplies")
	tb.waitText(tile, "active → paused")

	tb.do(chromedp.Click(chromedp.ID("approve-" + id)))
	tb.waitText("#agent-outcome", "executed")
	tb.waitGone(tile)
	_, card := w.api(t, http.MethodGet, "/card/card_acmeoffice", "sk_sandbox_acme", nil, nil)
	if card["name"] != "Office and supplies" || card["status"] != "paused" {
		t.Errorf("after approval the card is %v / %v, want the requested change", card["name"], card["status"])
	}
	executed, err := w.ctl.List(context.Background(), "/_sandbox/agent-requests?status=executed")
	if err != nil {
		t.Fatal(err)
	}
	if len(executed) != 1 || executed[0]["id"] != id {
		t.Errorf("executed agent requests: %v, want %s", executed, id)
	}
	tb.noConsoleErrors()
}

// TestDashboardDeclinedPurchase simulates purchases from the form: one the
// card's size limit declines, with the rule on the page, and one approved.
func TestDashboardDeclinedPurchase(t *testing.T) {
	w := newWorld(t)
	tb := openDashboard(t, w, "#/simulate")
	tb.screenshotOnFailure(t, "simulate purchase")
	tb.visit("#/simulate", "page-simulate", "Card purchase")
	purchase := func(amount string) {
		tb.do(
			chromedp.SetValue(chromedp.ID("sim-card"), "card_acmeoffice"),
			chromedp.SetValue(chromedp.ID("sim-merchant"), "merchant_v2_aws"),
			chromedp.SetValue(chromedp.ID("sim-amount"), amount),
			chromedp.Evaluate[chromedp.Void](`document.getElementById('purchase-result')?.remove()`),
			chromedp.Click(`#purchase-form button[type=submit]`),
		)
		tb.waitText("#purchase-form-result", "The purchase was")
	}
	purchase("900.00")
	tb.waitText("#purchase-result", "declined")
	if got, want := tb.text("#purchase-rule"), "spendingRule.transactionSizeLimit.maximum"; got != want {
		t.Errorf("the page names rule %q, want %q", got, want)
	}
	tb.waitText("#purchase-reason", "transaction_size_exceeded")
	tb.waitText("#purchase-result", "$900.00 is above the card's maximum of $500.00")
	_, list := w.api(t, http.MethodGet, "/transaction?filter:cardId=card_acmeoffice", "sk_sandbox_acme", nil, nil)
	first := list["items"].([]any)[0].(map[string]any)
	if first["detailedStatus"] != "declined" || first["declineReason"] != "transaction_size_exceeded" ||
		cents(first["amountCents"]) != -90000 {
		t.Errorf("the card's newest transaction is %v, want the declined $900.00", first)
	}

	purchase("25.00")
	tb.waitText("#purchase-result", "approved")
	tb.noConsoleErrors()
}

// TestDashboardTokenPrompt opens the dashboard without the admin token: it
// asks for it, refuses a wrong one, and works with the right one.
func TestDashboardTokenPrompt(t *testing.T) {
	w := newWorld(t)
	tb := newTab(t, w)
	tb.screenshotOnFailure(t, "token prompt")
	tb.do(chromedp.Navigate(w.url + "/_sandbox/ui#/overview"))
	tb.waitText("#token-form", "Admin token needed")
	tb.do(chromedp.SendKeys(chromedp.ID("token-input"), "wrong"), chromedp.Click(`#token-form button[type=submit]`))
	tb.waitText("#token-form", "was not accepted")
	tb.do(chromedp.SetValue(chromedp.ID("token-input"), adminToken), chromedp.Click(`#token-form button[type=submit]`))
	tb.waitText("#page-overview", "Virtual clock")
	tb.waitText("#world-id", "default")
	// The control API answering 401 before the token is given is the
	// browser's only complaint.
	tb.noConsoleErrors(regexp.MustCompile(`status of 401`))
}

// TestDashboardWebhookDeliveries watches deliveries to a real receiver
// arrive on the live list, opens one to its request and response, and
// redelivers it with a click.
func TestDashboardWebhookDeliveries(t *testing.T) {
	w := newWorld(t)
	var mu sync.Mutex
	var got []string
	receiver := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("slash-webhook-event-id"))
		mu.Unlock()
		io.WriteString(rw, "thanks")
	}))
	defer receiver.Close()
	status, hook := w.api(t, http.MethodPost, "/webhook", "sk_sandbox_acme", nil,
		map[string]any{"url": receiver.URL + "/hooks", "name": "Test receiver"})
	if status != http.StatusCreated {
		t.Fatalf("creating the endpoint answered %d: %v", status, hook)
	}
	var tb *tab
	purchase := func(amount int) {
		t.Helper()
		body := map[string]any{"cardId": "card_acmegithub", "merchantId": "merchant_v2_github", "amountCents": amount}
		if _, err := w.ctl.Do(context.Background(), http.MethodPost, "/_sandbox/simulate/card-authorization", body,
			nil); err != nil {
			t.Fatal(err)
		}
		if _, err := w.ctl.Do(context.Background(), http.MethodPost, "/_sandbox/webhook-deliveries/settle", nil,
			nil); err != nil {
			t.Fatal(err)
		}
	}
	deliveries := func() int {
		t.Helper()
		items, err := w.ctl.List(context.Background(), "/_sandbox/webhook-deliveries")
		if err != nil {
			t.Fatal(err)
		}
		return len(items)
	}
	listed := func(n int) {
		t.Helper()
		expr := fmt.Sprintf(`document.querySelectorAll('#deliveries details.delivery').length === %d`, n)
		if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(waitFor))); err != nil {
			t.Fatalf("waiting for %d deliveries on the page: %v; it shows %s", n, err, clip(tb.text("#deliveries")))
		}
	}
	purchase(1200)
	first := deliveries()

	tb = openDashboard(t, w, "#/deliveries")
	tb.screenshotOnFailure(t, "webhook deliveries")
	tb.visit("#/deliveries", "page-deliveries", "aggregated_transaction.create")
	tb.waitText("#deliveries", "succeeded")
	listed(first)
	// A change made elsewhere shows up without a click: the list polls.
	purchase(3400)
	second := deliveries()
	if second <= first {
		t.Fatalf("the second purchase made no delivery (%d, then %d)", first, second)
	}
	listed(second)
	mine, err := w.ctl.List(context.Background(), "/_sandbox/webhook-deliveries?webhookId="+hook["id"].(string))
	if err != nil || len(mine) == 0 {
		t.Fatalf("the receiver's deliveries: %v %v", mine, err)
	}
	oldest := "#delivery-" + mine[0]["id"].(string)
	tb.do(chromedp.Click(oldest + ` > summary`))
	tb.waitText(oldest, "HTTP 200")
	tb.waitText(oldest, "thanks")
	tb.waitText(oldest, "slash-webhook-signature")
	tb.do(chromedp.Click(oldest + ` button`))
	tb.waitText("#toasts", "Redelivering")
	listed(second + 1)
	tb.waitText("#deliveries details.delivery:first-child", "redeliver of "+mine[0]["id"].(string))
	if _, err := w.ctl.Do(context.Background(), http.MethodPost, "/_sandbox/webhook-deliveries/settle", nil,
		nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != len(mine)+1 || got[len(got)-1] != got[0] {
		t.Errorf("the receiver got event ids %q, want the first one again last", got)
	}
	tb.noConsoleErrors()
}

// TestDashboardSimulateMoney receives a wire and has a customer pay part of
// an invoice from the Simulate page, and sees both through the API.
func TestDashboardSimulateMoney(t *testing.T) {
	w := newWorld(t)
	tb := openDashboard(t, w, "#/simulate")
	tb.screenshotOnFailure(t, "simulate money")
	tb.visit("#/simulate", "page-simulate", "Incoming transfer")

	tb.do(
		chromedp.SetValue(chromedp.ID("sim-transfer-to"), "subaccount_acmepayroll"),
		chromedp.SetValue(chromedp.ID("sim-transfer-rail"), "rtp"),
		chromedp.SetValue(chromedp.ID("sim-transfer-amount"), "1,234.56"),
		chromedp.Click(`#transfer-form button[type=submit]`),
	)
	tb.waitText("#transfer-result", "$1,234.56")
	txn := strings.Fields(tb.text("#transfer-result code"))[0]
	_, got := w.api(t, http.MethodGet, "/transaction/"+txn, "sk_sandbox_acme", nil, nil)
	if got["virtualAccountId"] != "subaccount_acmepayroll" || cents(got["amountCents"]) != 123456 ||
		got["detailedStatus"] != "settled" {
		t.Errorf("the received transfer is %v, want $1,234.56 settled into Payroll reserve", got)
	}

	tb.do(
		chromedp.SetValue(chromedp.ID("sim-invoice"), "invoice_acme1002"),
		chromedp.SetValue(chromedp.ID("sim-invoice-amount"), "500"),
		chromedp.SetValue(chromedp.ID("sim-invoice-method"), "inbound_wire_transfer"),
		chromedp.Click(`#invoice-form button[type=submit]`),
	)
	tb.waitText("#invoice-result", "paid_partially")
	_, inv := w.api(t, http.MethodGet, "/invoice/invoice_acme1002", "sk_sandbox_acme", nil, nil)
	if got := inv["invoice"].(map[string]any); got["status"] != "paid_partially" ||
		cents(got["collectedAmountCents"]) != 50000 {
		t.Errorf("the invoice is %v, want $500.00 collected", got)
	}

	// A bad amount is refused on the page, before any call.
	tb.do(chromedp.SetValue(chromedp.ID("sim-amount"), "12.345"), chromedp.Click(`#purchase-form button[type=submit]`))
	tb.waitText("#sim-amount-problem", "Enter a positive amount in dollars")
	tb.noConsoleErrors()
}
