package server_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// Hostile request bodies: each is refused with a 400 in the operation's
// envelope naming where the problem is, and nothing is written.

// over2p53 is 2^53+1: an integer a JSON number cannot hold exactly.
const over2p53 = 9007199254740993

// refusedAt sends r and wants a 400 invalid_request in the operation's
// envelope whose details name pointer, with the world's store untouched.
func refusedAt(t *testing.T, e *env, r req, pointer string) {
	t.Helper()
	before := e.eng.Default().Version()
	res := e.do(r)
	if strings.HasPrefix(r.path, "/v2") || strings.HasPrefix(r.path, "/_sandbox") {
		res.gen2(t, http.StatusBadRequest, "invalid_request")
	} else {
		res.gen1(t, http.StatusBadRequest, "invalid_request")
	}
	if d := errorDetails(t, r.path, res); d[pointer] == "" {
		t.Fatalf("%s %s: details %v do not name %s", r.method, r.path, d, pointer)
	}
	if after := e.eng.Default().Version(); after != before {
		t.Fatalf("%s %s was refused but wrote to the world (version %d, then %d)", r.method, r.path, before, after)
	}
}

// unchanged runs fn and fails when GET path (as key) answers differently
// afterwards.
func unchanged(t *testing.T, e *env, path, key string, fn func()) {
	t.Helper()
	before := e.get(path, key, "").status(t, http.StatusOK).body
	fn()
	if after := e.get(path, key, "").status(t, http.StatusOK).body; !bytes.Equal(before, after) {
		t.Fatalf("GET %s changed:\n%s\n%s", path, before, after)
	}
}

// countOf is how many items GET path lists as key.
func countOf(t *testing.T, e *env, path, key string) int {
	t.Helper()
	return len(arItems(e.get(path, key, "").status(t, http.StatusOK).json(t)))
}

func TestBodiesOfAnotherTypeChangeNothing(t *testing.T) {
	e := newEnv(t, options{})
	e.do(req{method: http.MethodPut, path: authPath, key: acmeKey,
		body: `{"webhookUrl":"http://127.0.0.1:1/authorize","status":"inactive","config":{` +
			`"fallbackBehavior":"reject"}}`}).status(t, 200)
	var app struct{ ID string }
	arDo(e, http.MethodPost, "/developer-account/le_acme/application", acmeKey,
		map[string]any{"name": "Books", "type": "service", "data": appData}).status(t, 200).decode(t, &app)
	txn := firstDebit(t, e)
	cases := []struct{ method, path, read string }{
		{http.MethodPatch, "/customer/le_cust_initech", "/customer/le_cust_initech"},
		{http.MethodPatch, authPath, authPath},
		{http.MethodPatch, "/developer-application/" + app.ID, "/developer-application/" + app.ID},
		{http.MethodPatch, "/transaction/" + txn + "/note", "/transaction/" + txn},
		{http.MethodPatch, "/webhook/webhook_acmelocal", "/webhook/webhook_acmelocal"},
		{http.MethodPatch, "/card/card_acmeaws", "/card/card_acmeaws"},
	}
	for _, c := range cases {
		for _, body := range []string{`null`, `[]`, `"x"`, `3`} {
			t.Run(c.path+" "+body, func(t *testing.T) {
				unchanged(t, e, c.read, acmeKey, func() {
					refusedAt(t, e, req{method: c.method, path: c.path, key: acmeKey, body: body}, "body")
				})
			})
		}
	}
	t.Run("snapshots and worlds", func(t *testing.T) {
		snapshots, worlds := countOf(t, e, "/_sandbox/snapshots", ""), countOf(t, e, "/_sandbox/worlds", "")
		refusedAt(t, e, req{method: http.MethodPost, path: "/_sandbox/snapshots", body: `null`}, "body")
		refusedAt(t, e, req{method: http.MethodPost, path: "/_sandbox/worlds", body: `null`}, "body")
		refusedAt(t, e, req{method: http.MethodPost, path: "/_sandbox/worlds", body: `[]`}, "body")
		if got := countOf(t, e, "/_sandbox/snapshots", ""); got != snapshots {
			t.Fatalf("snapshots: %d, then %d", snapshots, got)
		}
		if got := countOf(t, e, "/_sandbox/worlds", ""); got != worlds {
			t.Fatalf("worlds: %d, then %d", worlds, got)
		}
		e.do(req{method: http.MethodPost, path: "/_sandbox/snapshots"}).status(t, http.StatusCreated)
	})
}

func TestNullWhereTheSchemaSaysNonNull(t *testing.T) {
	e := newEnv(t, options{})
	address := map[string]any{
		"addressLine":  "2 Initech Way",
		"addressCity":  "Austin",
		"addressState": "TX",
		"addressZip":   "78701",
	}
	withNull := func(m map[string]any, k string) map[string]any {
		out := map[string]any{k: nil}
		for key, v := range m {
			if key != k {
				out[key] = v
			}
		}
		return out
	}
	patch := func(body any) req {
		return req{method: http.MethodPatch, path: "/customer/le_cust_initech", key: acmeKey, body: body}
	}
	unchanged(t, e, "/customer/le_cust_initech", acmeKey, func() {
		refusedAt(t, e, patch(map[string]any{"name": nil}), "/name")
		refusedAt(t, e, patch(map[string]any{"status": nil, "email": "x@initech.test"}), "/status")
		refusedAt(t, e, patch(map[string]any{"address": withNull(address, "addressLine2")}), "/address/addressLine2")
	})
	reports := countOf(t, e, "/expense-report", acmeKey)
	refusedAt(t, e, req{method: http.MethodPost, path: "/expense-report", key: acmeKey,
		body: withNull(expenseBody("u_bob", "ub_bobchecking", 100), "currency")}, "/currency")
	refusedAt(t, e, req{method: http.MethodPost, path: "/card", key: acmeKey,
		body: map[string]any{"type": "virtual", "name": "Null data", "userData": nil}}, "/userData")
	if got := countOf(t, e, "/expense-report", acmeKey); got != reports {
		t.Fatalf("expense reports: %d, then %d", reports, got)
	}
	t.Run("null stays where the schema allows it", func(t *testing.T) {
		got := arMap(e.do(patch(map[string]any{"phone": nil})).status(t, http.StatusOK).json(t), "customer")
		if _, has := got["phone"]; has || got["name"] != "Initech" {
			t.Fatalf("phone null removes the phone and keeps the rest: %v", got)
		}
	})
}

func TestRequiredAmountsMustBeGiven(t *testing.T) {
	e := newEnv(t, options{})
	line := func(price any, give bool) map[string]any {
		li := map[string]any{"name": "Retainer", "quantity": 1}
		if give {
			li["priceCents"] = price
		}
		return li
	}
	series := func(li map[string]any) map[string]any {
		b := seriesBody(map[string]any{"type": "weekly", "dayOfWeek": 3}, map[string]any{"type": "never"}, "2026-06-16", 1)
		b["template"] = map[string]any{"lineItemsAndTotals": map[string]any{"lineItems": []any{li}}}
		return b
	}
	const seriesPrice = "/template/lineItemsAndTotals/lineItems/0/priceCents"
	before := countOf(t, e, "/invoice/series", acmeKey)
	refusedAt(t, e, req{method: http.MethodPost, path: "/invoice/series", key: acmeKey, body: series(line(nil, false))},
		seriesPrice)
	refusedAt(t, e, req{method: http.MethodPost, path: "/invoice/series", key: acmeKey, body: series(line(nil, true))},
		seriesPrice)
	if got := countOf(t, e, "/invoice/series", acmeKey); got != before {
		t.Fatalf("series: %d, then %d", before, got)
	}
	invoice := arInvoice("REQ-1", "2026-06-15", "2026-07-15", 100)
	details := invoice["details"].(map[string]any)
	details["lineItemsAndTotals"] = map[string]any{"lineItems": []any{line(nil, false)},
		"discount": map[string]any{"type": "fixed"}}
	invoices := countOf(t, e, "/invoice", acmeKey)
	refusedAt(t, e, req{method: http.MethodPost, path: "/invoice", key: acmeKey, body: invoice},
		"/details/lineItemsAndTotals/lineItems/0/priceCents")
	refusedAt(t, e, req{method: http.MethodPost, path: "/invoice", key: acmeKey, body: invoice},
		"/details/lineItemsAndTotals/discount/amountCents")
	if got := countOf(t, e, "/invoice", acmeKey); got != invoices {
		t.Fatalf("invoices: %d, then %d", invoices, got)
	}
	t.Run("a price of zero is a price", func(t *testing.T) {
		arDo(e, http.MethodPost, "/invoice/series", acmeKey, series(line(0, true))).status(t, http.StatusOK)
	})
}

func TestAmountsAreBounded(t *testing.T) {
	e := newEnv(t, options{})
	inv := arCreateInvoice(t, e, arInvoice("BIG-1", "2026-06-15", "2026-07-15", 100000)).Invoice.ID
	external := []any{map[string]any{"transactionType": "external", "transaction": map[string]any{
		"paymentMethod": "other", "paidAt": "2026-06-15", "amountCents": over2p53}}}
	unchanged(t, e, "/invoice/"+inv, acmeKey, func() {
		for _, action := range []string{"reconcile", "unreconcile"} {
			refusedAt(t, e, req{method: http.MethodPost, path: "/invoice/" + inv + "/" + action, key: acmeKey, body: external},
				"/0/transaction/amountCents")
		}
		refusedAt(t, e, req{method: http.MethodPost, path: "/_sandbox/simulate/invoice-payment",
			body: map[string]any{"invoiceId": inv, "amountCents": over2p53}}, "/amountCents")
	})
	reports := countOf(t, e, "/expense-report", acmeKey)
	refusedAt(t, e, req{method: http.MethodPost, path: "/expense-report", key: acmeKey,
		body: expenseBody("u_bob", "ub_bobchecking", over2p53)}, "/amountCents")
	if got := countOf(t, e, "/expense-report", acmeKey); got != reports {
		t.Fatalf("expense reports: %d, then %d", reports, got)
	}
	cases := []struct {
		name, method, path string
		body               any
		pointer            string
	}{
		{"book transfer", http.MethodPost, "/transfers/book-transfer",
			map[string]any{"from": acmeAccount, "to": "sa_group_acmecharge", "amountCents": 100_000_000_000_001},
			"/amountCents"},
		{"line price", http.MethodPost, "/invoice", arInvoice("BIG-2", "2026-06-15", "2026-07-15", over2p53),
			"/details/lineItemsAndTotals/lineItems/0/priceCents"},
		{"invoice total", http.MethodPost, "/invoice", bigTotal(), "/details/lineItemsAndTotals"},
		{
			"spending limit",
			http.MethodPut,
			"/card/card_acmeaws/spending-constraint",
			map[string]any{"spendingRule": map[string]any{
				"utilizationLimit": map[string]any{"preset": "daily", "limitAmount": map[string]any{"amountCents": over2p53}}}},
			"/spendingRule/utilizationLimit/limitAmount/amountCents",
		},
		{
			"authorization fallback",
			http.MethodPut,
			authPath,
			map[string]any{"webhookUrl": "http://127.0.0.1:1/a", "status": "inactive",
				"config": map[string]any{
					"fallbackBehavior": "default",
					"when": map[string]any{"operator": "gt", "field": "amountCents",
						"value": over2p53},
				}},
			"/config/when/value",
		},
		{"commission", http.MethodPost, "/virtual-account", map[string]any{"accountId": acmeAccount, "name": "Fees",
			"commissionDetails": map[string]any{
				"type":      "flatFee",
				"amount":    map[string]any{"amountCents": over2p53},
				"frequency": "monthly",
			}},
			"/commissionDetails/amount/amountCents"},
		{"simulated purchase", http.MethodPost, "/_sandbox/simulate/card-authorization",
			map[string]any{"cardId": "card_acmeaws", "amountCents": over2p53, "merchantId": "merchant_v2_aws"}, "/amountCents"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := acmeKey
			if strings.HasPrefix(c.path, "/_sandbox") {
				key = ""
			}
			refusedAt(t, e, req{method: c.method, path: c.path, key: key, body: c.body,
				header: map[string]string{"X-Idempotency-Key": fmt.Sprintf("bounded-%d", i)}}, c.pointer)
		})
	}
	t.Run("the bound itself is an amount", func(t *testing.T) {
		arDo(e, http.MethodPost, "/expense-report", acmeKey,
			expenseBody("u_bob", "ub_bobchecking", 100_000_000_000_000)).status(t, http.StatusOK)
	})
}

// bigTotal is an invoice whose lines, each of a valid price, come to more
// than a trillion dollars.
func bigTotal() map[string]any {
	b := arInvoice("BIG-3", "2026-06-15", "2026-07-15", 1)
	b["details"].(map[string]any)["lineItemsAndTotals"] = map[string]any{"lineItems": []any{
		map[string]any{"name": "Everything", "quantity": 1_000_000, "priceCents": 1_000_000_000}}}
	return b
}

func TestNullItemsOfArraysAreRefused(t *testing.T) {
	e := newEnv(t, options{})
	data := map[string]any{}
	for k, v := range appData {
		data[k] = v
	}
	data["allowedOrigins"] = []any{nil}
	refusedAt(t, e, req{method: http.MethodPost, path: "/developer-account/le_acme/application", key: acmeKey,
		body: map[string]any{"name": "Null origin", "type": "service", "data": data}}, "/data/allowedOrigins/0")
	report := expenseBody("u_bob", "ub_bobchecking", 100)
	report["documentIds"] = []any{nil}
	refusedAt(t, e, req{method: http.MethodPost, path: "/expense-report", key: acmeKey, body: report}, "/documentIds/0")
	invoice := arInvoice("NULLCC-1", "2026-06-15", "2026-07-15", 100)
	invoice["details"].(map[string]any)["ccEmails"] = []any{"a@initech.test", nil}
	refusedAt(t, e, req{method: http.MethodPost, path: "/invoice", key: acmeKey, body: invoice}, "/details/ccEmails/1")
}

func TestCardEventTypesTakeOnlyTheirOwnFields(t *testing.T) {
	e := newEnv(t, options{})
	cases := []struct{ body, pointer string }{
		{
			`{"type":"verification","cardId":"card_acmeoffice","merchantId":"merchant_v2_aws","transactionId":"txn_x"}`,
			"/transactionId",
		},
		{
			`{"type":"verification","cardId":"card_acmeoffice","merchantId":"merchant_v2_aws","transactionId":""}`,
			"/transactionId",
		},
		{
			`{"type":"verification","cardId":"card_acmeoffice","merchantId":"merchant_v2_aws","amountCents":100}`,
			"/amountCents",
		},
		{`{"type":"reversal","transactionId":"txn_x","merchantId":"merchant_v2_aws"}`, "/merchantId"},
		{`{"type":"clearing","transactionId":"txn_x","merchant":{"name":"X","mcc":"5812","country":"US"}}`, "/merchant"},
		{`{"type":"refund","transactionId":"txn_x","cardId":"card_acmeoffice"}`, "/cardId"},
		{`{"type":"verification","cardId":null,"merchantId":"merchant_v2_aws"}`, "/cardId"},
	}
	unchanged(t, e, "/card/card_acmeoffice/events", acmeKey, func() {
		for _, c := range cases {
			refusedAt(t, e, req{method: http.MethodPost, path: "/_sandbox/simulate/card-event", body: c.body}, c.pointer)
		}
	})
	networkEvent(
		e,
		`{"type":"verification","cardId":"card_acmeoffice","merchantId":"merchant_v2_aws"}`,
	).status(t, http.StatusOK)
}
