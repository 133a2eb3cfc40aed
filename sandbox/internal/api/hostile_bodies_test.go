package api_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// Hostile request bodies: each is refused with a 400 in the operation's
// envelope naming where the problem is, and nothing is written.

// over2p53 is 2^53+1: an integer a JSON number cannot hold exactly.
const over2p53 = 9007199254740993

// refusedAt sends r and wants a 400 invalid_request in the operation's
// envelope whose details name pointer, with the world's store untouched.
func refusedAt(t *testing.T, e *apitest.Env, r apitest.Req, pointer string) {
	t.Helper()
	before := e.Engine.Default().Version()
	res := e.Do(r)
	if strings.HasPrefix(r.Path, "/v2") || strings.HasPrefix(r.Path, "/_sandbox") {
		res.Gen2(t, http.StatusBadRequest, "invalid_request")
	} else {
		res.Gen1(t, http.StatusBadRequest, "invalid_request")
	}
	if d := errorDetails(t, r.Path, res); d[pointer] == "" {
		t.Fatalf("%s %s: details %v do not name %s", r.Method, r.Path, d, pointer)
	}
	if after := e.Engine.Default().Version(); after != before {
		t.Fatalf("%s %s was refused but wrote to the world (version %d, then %d)", r.Method, r.Path, before, after)
	}
}

// unchanged runs fn and fails when GET path (as key) answers differently
// afterwards.
func unchanged(t *testing.T, e *apitest.Env, path, key string, fn func()) {
	t.Helper()
	before := e.Get(path, key, "").Status(t, http.StatusOK).Raw
	fn()
	if after := e.Get(path, key, "").Status(t, http.StatusOK).Raw; !bytes.Equal(before, after) {
		t.Fatalf("GET %s changed:\n%s\n%s", path, before, after)
	}
}

// countOf is how many items GET path lists as key.
func countOf(t *testing.T, e *apitest.Env, path, key string) int {
	t.Helper()
	return len(arItems(e.Get(path, key, "").Status(t, http.StatusOK).JSON(t)))
}

func TestBodiesOfAnotherTypeChangeNothing(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	e.Do(apitest.Req{Method: http.MethodPut, Path: apitest.AuthPath, Key: apitest.AcmeKey,
		Body: `{"webhookUrl":"http://127.0.0.1:1/authorize","status":"inactive","config":{` +
			`"fallbackBehavior":"reject"}}`}).Status(t, 200)
	var app struct{ ID string }
	arDo(e, http.MethodPost, "/developer-account/le_acme/application", apitest.AcmeKey,
		map[string]any{"name": "Books", "type": "service", "data": apitest.AppData}).Status(t, 200).Decode(t, &app)
	txn := firstDebit(t, e)
	cases := []struct{ method, path, read string }{
		{http.MethodPatch, "/customer/le_cust_initech", "/customer/le_cust_initech"},
		{http.MethodPatch, apitest.AuthPath, apitest.AuthPath},
		{http.MethodPatch, "/developer-application/" + app.ID, "/developer-application/" + app.ID},
		{http.MethodPatch, "/transaction/" + txn + "/note", "/transaction/" + txn},
		{http.MethodPatch, "/webhook/webhook_acmelocal", "/webhook/webhook_acmelocal"},
		{http.MethodPatch, "/card/card_acmeaws", "/card/card_acmeaws"},
	}
	for _, c := range cases {
		for _, body := range []string{`null`, `[]`, `"x"`, `3`} {
			t.Run(c.path+" "+body, func(t *testing.T) {
				unchanged(t, e, c.read, apitest.AcmeKey, func() {
					refusedAt(
						t,
						e,
						apitest.Req{Method: c.method, Path: c.path, Key: apitest.AcmeKey, Body: body},
						"body",
					)
				})
			})
		}
	}
	t.Run("snapshots and worlds", func(t *testing.T) {
		snapshots, worlds := countOf(t, e, "/_sandbox/snapshots", ""), countOf(t, e, "/_sandbox/worlds", "")
		refusedAt(t, e, apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots", Body: `null`}, "body")
		refusedAt(t, e, apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds", Body: `null`}, "body")
		refusedAt(t, e, apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds", Body: `[]`}, "body")
		if got := countOf(t, e, "/_sandbox/snapshots", ""); got != snapshots {
			t.Fatalf("snapshots: %d, then %d", snapshots, got)
		}
		if got := countOf(t, e, "/_sandbox/worlds", ""); got != worlds {
			t.Fatalf("worlds: %d, then %d", worlds, got)
		}
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots"}).Status(t, http.StatusCreated)
	})
}

func TestNullWhereTheSchemaSaysNonNull(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
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
	patch := func(body any) apitest.Req {
		return apitest.Req{
			Method: http.MethodPatch,
			Path:   "/customer/le_cust_initech",
			Key:    apitest.AcmeKey,
			Body:   body,
		}
	}
	unchanged(t, e, "/customer/le_cust_initech", apitest.AcmeKey, func() {
		refusedAt(t, e, patch(map[string]any{"name": nil}), "/name")
		refusedAt(t, e, patch(map[string]any{"status": nil, "email": "x@initech.test"}), "/status")
		refusedAt(t, e, patch(map[string]any{"address": withNull(address, "addressLine2")}), "/address/addressLine2")
	})
	reports := countOf(t, e, "/expense-report", apitest.AcmeKey)
	refusedAt(t, e, apitest.Req{Method: http.MethodPost, Path: "/expense-report", Key: apitest.AcmeKey,
		Body: withNull(expenseBody("u_bob", "ub_bobchecking", 100), "currency")}, "/currency")
	refusedAt(t, e, apitest.Req{Method: http.MethodPost, Path: "/card", Key: apitest.AcmeKey,
		Body: map[string]any{"type": "virtual", "name": "Null data", "userData": nil}}, "/userData")
	if got := countOf(t, e, "/expense-report", apitest.AcmeKey); got != reports {
		t.Fatalf("expense reports: %d, then %d", reports, got)
	}
	t.Run("null stays where the schema allows it", func(t *testing.T) {
		got := arMap(e.Do(patch(map[string]any{"phone": nil})).Status(t, http.StatusOK).JSON(t), "customer")
		if _, has := got["phone"]; has || got["name"] != "Initech" {
			t.Fatalf("phone null removes the phone and keeps the rest: %v", got)
		}
	})
}

func TestRequiredAmountsMustBeGiven(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	line := func(price any, give bool) map[string]any {
		li := map[string]any{"name": "Retainer", "quantity": 1}
		if give {
			li["priceCents"] = price
		}
		return li
	}
	series := func(li map[string]any) map[string]any {
		b := seriesBody(
			map[string]any{"type": "weekly", "dayOfWeek": 3},
			map[string]any{"type": "never"},
			"2026-06-16",
			1,
		)
		b["template"] = map[string]any{"lineItemsAndTotals": map[string]any{"lineItems": []any{li}}}
		return b
	}
	const seriesPrice = "/template/lineItemsAndTotals/lineItems/0/priceCents"
	before := countOf(t, e, "/invoice/series", apitest.AcmeKey)
	refusedAt(
		t,
		e,
		apitest.Req{
			Method: http.MethodPost,
			Path:   "/invoice/series",
			Key:    apitest.AcmeKey,
			Body:   series(line(nil, false)),
		},
		seriesPrice,
	)
	refusedAt(
		t,
		e,
		apitest.Req{
			Method: http.MethodPost,
			Path:   "/invoice/series",
			Key:    apitest.AcmeKey,
			Body:   series(line(nil, true)),
		},
		seriesPrice,
	)
	if got := countOf(t, e, "/invoice/series", apitest.AcmeKey); got != before {
		t.Fatalf("series: %d, then %d", before, got)
	}
	invoice := apitest.InvoiceBody("REQ-1", "2026-06-15", "2026-07-15", 100)
	details := invoice["details"].(map[string]any)
	details["lineItemsAndTotals"] = map[string]any{"lineItems": []any{line(nil, false)},
		"discount": map[string]any{"type": "fixed"}}
	invoices := countOf(t, e, "/invoice", apitest.AcmeKey)
	refusedAt(t, e, apitest.Req{Method: http.MethodPost, Path: "/invoice", Key: apitest.AcmeKey, Body: invoice},
		"/details/lineItemsAndTotals/lineItems/0/priceCents")
	refusedAt(t, e, apitest.Req{Method: http.MethodPost, Path: "/invoice", Key: apitest.AcmeKey, Body: invoice},
		"/details/lineItemsAndTotals/discount/amountCents")
	if got := countOf(t, e, "/invoice", apitest.AcmeKey); got != invoices {
		t.Fatalf("invoices: %d, then %d", invoices, got)
	}
	t.Run("a price of zero is a price", func(t *testing.T) {
		arDo(e, http.MethodPost, "/invoice/series", apitest.AcmeKey, series(line(0, true))).Status(t, http.StatusOK)
	})
}

func TestAmountsAreBounded(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	inv := apitest.CreateInvoice(t, e, apitest.InvoiceBody("BIG-1", "2026-06-15", "2026-07-15", 100000)).Invoice.ID
	external := []any{map[string]any{"transactionType": "external", "transaction": map[string]any{
		"paymentMethod": "other", "paidAt": "2026-06-15", "amountCents": over2p53}}}
	unchanged(t, e, "/invoice/"+inv, apitest.AcmeKey, func() {
		for _, action := range []string{"reconcile", "unreconcile"} {
			refusedAt(
				t,
				e,
				apitest.Req{
					Method: http.MethodPost,
					Path:   "/invoice/" + inv + "/" + action,
					Key:    apitest.AcmeKey,
					Body:   external,
				},
				"/0/transaction/amountCents",
			)
		}
		refusedAt(t, e, apitest.Req{Method: http.MethodPost, Path: "/_sandbox/simulate/invoice-payment",
			Body: map[string]any{"invoiceId": inv, "amountCents": over2p53}}, "/amountCents")
	})
	reports := countOf(t, e, "/expense-report", apitest.AcmeKey)
	refusedAt(t, e, apitest.Req{Method: http.MethodPost, Path: "/expense-report", Key: apitest.AcmeKey,
		Body: expenseBody("u_bob", "ub_bobchecking", over2p53)}, "/amountCents")
	if got := countOf(t, e, "/expense-report", apitest.AcmeKey); got != reports {
		t.Fatalf("expense reports: %d, then %d", reports, got)
	}
	cases := []struct {
		name, method, path string
		body               any
		pointer            string
	}{
		{"book transfer", http.MethodPost, "/transfers/book-transfer",
			map[string]any{
				"from":        apitest.AcmeAccount,
				"to":          "sa_group_acmecharge",
				"amountCents": 100_000_000_000_001,
			},
			"/amountCents"},
		{"line price", http.MethodPost, "/invoice", apitest.InvoiceBody("BIG-2", "2026-06-15", "2026-07-15", over2p53),
			"/details/lineItemsAndTotals/lineItems/0/priceCents"},
		{"invoice total", http.MethodPost, "/invoice", bigTotal(), "/details/lineItemsAndTotals"},
		{
			"spending limit",
			http.MethodPut,
			"/card/card_acmeaws/spending-constraint",
			map[string]any{"spendingRule": map[string]any{
				"utilizationLimit": map[string]any{
					"preset":      "daily",
					"limitAmount": map[string]any{"amountCents": over2p53},
				}}},
			"/spendingRule/utilizationLimit/limitAmount/amountCents",
		},
		{
			"authorization fallback",
			http.MethodPut,
			apitest.AuthPath,
			map[string]any{"webhookUrl": "http://127.0.0.1:1/a", "status": "inactive",
				"config": map[string]any{
					"fallbackBehavior": "default",
					"when": map[string]any{"operator": "gt", "field": "amountCents",
						"value": over2p53},
				}},
			"/config/when/value",
		},
		{
			"commission",
			http.MethodPost,
			"/virtual-account",
			map[string]any{"accountId": apitest.AcmeAccount, "name": "Fees",
				"commissionDetails": map[string]any{
					"type":      "flatFee",
					"amount":    map[string]any{"amountCents": over2p53},
					"frequency": "monthly",
				}},
			"/commissionDetails/amount/amountCents",
		},
		{"simulated purchase", http.MethodPost, "/_sandbox/simulate/card-authorization",
			map[string]any{
				"cardId":      "card_acmeaws",
				"amountCents": over2p53,
				"merchantId":  "merchant_v2_aws",
			}, "/amountCents"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := apitest.AcmeKey
			if strings.HasPrefix(c.path, "/_sandbox") {
				key = ""
			}
			refusedAt(t, e, apitest.Req{Method: c.method, Path: c.path, Key: key, Body: c.body,
				Header: map[string]string{"X-Idempotency-Key": fmt.Sprintf("bounded-%d", i)}}, c.pointer)
		})
	}
	t.Run("the bound itself is an amount", func(t *testing.T) {
		arDo(e, http.MethodPost, "/expense-report", apitest.AcmeKey,
			expenseBody("u_bob", "ub_bobchecking", 100_000_000_000_000)).Status(t, http.StatusOK)
	})
}

// bigTotal is an invoice whose lines, each of a valid price, come to more
// than a trillion dollars.
func bigTotal() map[string]any {
	b := apitest.InvoiceBody("BIG-3", "2026-06-15", "2026-07-15", 1)
	b["details"].(map[string]any)["lineItemsAndTotals"] = map[string]any{"lineItems": []any{
		map[string]any{"name": "Everything", "quantity": 1_000_000, "priceCents": 1_000_000_000}}}
	return b
}

func TestNullItemsOfArraysAreRefused(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	data := map[string]any{}
	for k, v := range apitest.AppData {
		data[k] = v
	}
	data["allowedOrigins"] = []any{nil}
	refusedAt(
		t,
		e,
		apitest.Req{Method: http.MethodPost, Path: "/developer-account/le_acme/application", Key: apitest.AcmeKey,
			Body: map[string]any{"name": "Null origin", "type": "service", "data": data}},
		"/data/allowedOrigins/0",
	)
	report := expenseBody("u_bob", "ub_bobchecking", 100)
	report["documentIds"] = []any{nil}
	refusedAt(
		t,
		e,
		apitest.Req{Method: http.MethodPost, Path: "/expense-report", Key: apitest.AcmeKey, Body: report},
		"/documentIds/0",
	)
	invoice := apitest.InvoiceBody("NULLCC-1", "2026-06-15", "2026-07-15", 100)
	invoice["details"].(map[string]any)["ccEmails"] = []any{"a@initech.test", nil}
	refusedAt(
		t,
		e,
		apitest.Req{Method: http.MethodPost, Path: "/invoice", Key: apitest.AcmeKey, Body: invoice},
		"/details/ccEmails/1",
	)
}

func TestCardEventTypesTakeOnlyTheirOwnFields(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
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
		{
			`{"type":"clearing","transactionId":"txn_x","merchant":{"name":"X","mcc":"5812","country":"US"}}`,
			"/merchant",
		},
		{`{"type":"refund","transactionId":"txn_x","cardId":"card_acmeoffice"}`, "/cardId"},
		{`{"type":"verification","cardId":null,"merchantId":"merchant_v2_aws"}`, "/cardId"},
	}
	unchanged(t, e, "/card/card_acmeoffice/events", apitest.AcmeKey, func() {
		for _, c := range cases {
			refusedAt(
				t,
				e,
				apitest.Req{Method: http.MethodPost, Path: "/_sandbox/simulate/card-event", Body: c.body},
				c.pointer,
			)
		}
	})
	apitest.NetworkEvent(
		e,
		`{"type":"verification","cardId":"card_acmeoffice","merchantId":"merchant_v2_aws"}`,
	).Status(t, http.StatusOK)
}
