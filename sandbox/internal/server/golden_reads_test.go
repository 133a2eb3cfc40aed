package server_test

import (
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"
)

// goldenRead is one representative read of a route in the demo world.
type goldenRead struct {
	route string
	r     req
	// golden names the golden file when it is not the route's own: a route
	// that answers exactly what another does shares its file.
	golden string
	// setup makes what the read needs and completes r (an id in its path,
	// a bearer token); nil for a read of the demo world as loaded.
	setup func(t *testing.T, e *env, r *req)
}

// goldenReads are the reads TestGoldenReads compares, one per read route of
// the first and second generation; the golden file of each is named for
// its route.
var goldenReads = []goldenRead{
	{
		route: "account.authorization_webhook.get",
		r:     req{path: authPath, key: acmeKey},
		setup: func(t *testing.T, e *env, _ *req) {
			e.do(req{method: http.MethodPut, path: authPath, key: acmeKey,
				body: `{"webhookUrl":"https://hooks.acme.test/authorize","status":"active",
			"config":{"fallbackBehavior":"default","when":{"operator":"lte","field":"amountCents","value":50000}}}`}).
				status(t, http.StatusOK)
		},
	},
	{route: "account.balance", r: req{path: "/account/sa_group_acmeoperating/balance", key: acmeKey}},
	{route: "account.get", r: req{path: "/account/sa_group_acmeoperating", key: acmeKey}},
	{route: "account.list", r: req{path: "/account", key: acmeKey}},
	{route: "agent_request.get", r: req{key: "sk_sandbox_carol_readonly", le: "le_acme"}, setup: deferredNote},
	{
		route: "agent_request.list",
		r:     req{path: "/agent-request", key: "sk_sandbox_carol_readonly", le: "le_acme"},
		setup: deferredNote,
	},
	{
		route: "card.event.list",
		r:     req{path: "/card/card_acmeaws/events", key: acmeKey},
		setup: func(t *testing.T, e *env, _ *req) {
			authorize(t, e, "card_acmeaws", 10000, "merchant_v2_aws")
		},
	},
	{route: "card.get", r: req{path: "/card/card_acmeaws", key: acmeKey}},
	{route: "card.list", r: req{path: "/card", key: acmeKey}},
	{route: "card.modifier.list", r: req{path: "/card/card_acmesubscriptions/modifier", key: acmeKey}},
	{route: "card.utilization", r: req{path: "/card/card_acmeoffice/utilization", key: acmeKey}},
	{route: "card_group.get", r: req{path: "/card-group/card_group_acmesaas", key: acmeKey}},
	{route: "card_group.list", r: req{path: "/card-group", key: acmeKey}},
	{route: "card_group.utilization", r: req{path: "/card-group/card_group_acmesaas/utilization", key: acmeKey}},
	{route: "card_product.list", r: req{path: "/card-product", key: acmeKey}},
	{
		route: "contact.ach_debit_recurring",
		r:     req{path: "/contact/le_c_northwindsupply/ach-debit-recurring", key: acmeKey},
	},
	{route: "contact.destination.list", r: req{path: "/contact/destination", key: acmeKey}},
	{route: "contact.get", r: req{path: "/contact/le_c_northwindsupply", key: acmeKey}},
	{route: "contact.list", r: req{path: "/contact", key: acmeKey}},
	{route: "customer.ach_debit_recurring", r: req{path: "/customer/le_cust_hooli/ach-debit-recurring", key: acmeKey}},
	{route: "customer.get", r: req{path: "/customer/le_cust_initech", key: acmeKey}},
	{route: "customer.list", r: req{path: "/customer", key: acmeKey}},
	{route: "developer_application.get", r: req{key: acmeKey}, setup: func(t *testing.T, e *env, r *req) {
		r.path = "/developer-application/" + createApp(t, e).ID
	}},
	{route: "expense_report.get", r: req{path: "/expense-report/expense_report_carolflight", key: acmeKey}},
	{route: "expense_report.list", r: req{path: "/expense-report", key: acmeKey}},
	{
		route: "expense_report.reimbursement_source.list",
		r:     req{path: "/expense-report/reimbursement-sources?userId=u_bob", key: acmeKey},
	},
	{
		route: "fdx.account.contact",
		r:     req{path: "/fdx/accounts/sa_group_acmeoperating/contact", key: aliceKey, le: "le_acme"},
	},
	{route: "fdx.account.get", r: req{path: "/fdx/accounts/sa_group_acmeoperating", key: acmeKey}},
	{route: "fdx.account.list", r: req{path: "/fdx/accounts", key: acmeKey}},
	{route: "fdx.customer.current", r: req{path: "/fdx/customers/current", key: acmeKey}},
	{
		route: "fdx.payment_network.list",
		r:     req{path: "/fdx/accounts/sa_group_acmeoperating/payment-networks", key: acmeKey},
	},
	{route: "fdx.statement.list", r: req{path: "/fdx/accounts/sa_group_acmeoperating/statements", key: acmeKey}},
	{
		route: "fdx.transaction.list",
		r:     req{path: "/fdx/accounts/sa_group_acmeoperating/transactions?limit=3", key: acmeKey},
	},
	{route: "handle.list", r: req{path: "/handle", key: acmeKey}},
	{route: "invoice.get", r: req{path: "/invoice/invoice_acme1003", key: acmeKey}},
	{route: "invoice.list", r: req{path: "/invoice", key: acmeKey}},
	{route: "invoice.number.validate", r: req{path: "/invoice/validate-number?invoiceNumber=ACME-1001", key: acmeKey}},
	{route: "invoice.reminder.get", r: req{path: "/invoice/invoice_acme1002/send-reminder", key: acmeKey}},
	{route: "invoice.settings.get", r: req{path: "/invoice/settings", key: acmeKey}},
	{route: "invoice_series.get", r: req{path: "/invoice/series/invoice_series_acmeinitechsupport", key: acmeKey}},
	{route: "invoice_series.list", r: req{path: "/invoice/series", key: acmeKey}},
	{route: "legal_entity.list", r: req{path: "/legal-entity", key: aliceKey}},
	{route: "merchant.get", r: req{path: "/merchant/merchant_v2_github", key: acmeKey}},
	{route: "merchant.list", r: req{path: "/merchant", key: acmeKey}},
	{route: "merchant_category.list", r: req{path: "/merchant-category", key: acmeKey}},
	{route: "oauth2.openid_configuration", r: req{path: "/.well-known/openid-configuration"}},
	{route: "oauth2.userinfo", setup: func(t *testing.T, e *env, r *req) {
		r.path = "/oauth2/userinfo"
		r.header = map[string]string{"Authorization": "Bearer " + bearerFor(t, e, createApp(t, e), "carol@acme.test")}
	}},
	{route: "pay.get", r: req{path: "/pay", key: acmeKey}},
	{route: "slash_handle.list", r: req{path: "/slash-handle", key: acmeKey}, golden: "handle.list"},
	{route: "task.get", r: req{path: "/task/task_acmepixelforge", key: acmeKey}},
	{route: "task.list", r: req{path: "/task", key: acmeKey}},
	{route: "task.schema", r: req{path: "/task/schema?filter:type=payment_approval", key: acmeKey}},
	{route: "tokens.prices", r: req{path: "/tokens/prices"}},
	{route: "transaction.aggregation", r: req{path: "/transaction/aggregation", key: acmeKey}},
	{route: "transaction.fee_details", r: req{key: acmeKey}, setup: func(t *testing.T, e *env, r *req) {
		wire := e.post("/transfers/wire", acmeKey, "", "golden-wire", map[string]any{"accountId": "sa_group_acmeoperating",
			"destinationId": "le_c_dest_bluefiniban", "amountCents": 1000000, "memo": "PO 7"}).status(t, http.StatusOK).json(t)
		r.path = "/transaction/" + wire["transactionId"].(string) + "/fee-details"
	}},
	{route: "transaction.get", r: req{path: "/transaction/txn_acmepixelforgehold", key: acmeKey}},
	{route: "transaction.list", r: req{path: "/transaction", key: acmeKey}},
	{route: "v2.contact.list", r: req{path: "/v2/contacts", key: aliceKey, le: "le_acme"}},
	{route: "virtual_account.get", r: req{path: "/virtual-account/subaccount_acmeengineering", key: acmeKey}},
	{route: "virtual_account.list", r: req{path: "/virtual-account", key: acmeKey}},
	{route: "webhook.get", r: req{path: "/webhook/webhook_acmelocal", key: acmeKey}},
	{route: "webhook.list", r: req{path: "/webhook", key: acmeKey}},
	{
		route: "webhook.notification.list",
		r:     req{path: "/webhook/webhook_acmelocal/notification", key: acmeKey},
		setup: func(t *testing.T, e *env, _ *req) {
			trigger(t, e, "webhook_acmelocal", "card.update", "card_acmeaws")
		},
	},
}

// goldenReadsSkipped are the read routes without a golden file, and why.
var goldenReadsSkipped = map[string]string{
	"oauth2.authorize":  "answers a redirect without a body; authorizeCode checks where it leads",
	"fdx.statement.get": "answers a PDF, not JSON; TestFDXStatements reads it",
	"mcp":               "the MCP server speaks JSON-RPC; mcp_test.go drives it with the official client",
	"openapi.document": "the sandbox's OpenAPI document is generated from the router and checked by TestOpenAPIDocument" +
		" and TestCoverageDoc",
}

// goldenErrors are one error of each common status in each generation's
// envelope.
var goldenErrors = []struct {
	name string
	r    req
	// status and code: the identifier (first generation) or code (second).
	status int
	code   string
}{
	{"error.gen1.400", req{path: "/transaction?filter:status=lost", key: acmeKey}, 400, "invalid_request"},
	{"error.gen1.401", req{path: "/card"}, 401, "unauthorized"},
	{"error.gen1.404", req{path: "/card/card_nope", key: acmeKey}, 404, "not_found"},
	{"error.gen2.400", req{path: "/v2/contacts?cursor=bogus", key: aliceKey, le: "le_acme"}, 400, "invalid_request"},
	{"error.gen2.401", req{path: "/v2/contacts", le: "le_acme"}, 401, "unauthorized"},
	{"error.gen2.404", req{path: "/v2/contacts", key: aliceKey, le: "le_globex"}, 404, "not_found"},
}

// deferredNote has carol's read-only key ask for a transaction note, which
// leaves a pending agent request, and points r at it when r has no path.
func deferredNote(t *testing.T, e *env, r *req) {
	t.Helper()
	id := deferred(
		t,
		note(e, "sk_sandbox_carol_readonly", "le_acme", "txn_acmepixelforgehold", `{"note":"needs a receipt"}`),
	)
	if r.path == "" {
		r.path = "/agent-request/" + id
	}
}

// TestGoldenReads reads every first- and second-generation read route in a
// fresh demo world and compares each answer with its golden file, then
// does the same for each generation's error envelope.
func TestGoldenReads(t *testing.T) {
	checkGoldenReadsCoverRoutes(t)
	for _, c := range goldenReads {
		t.Run(c.route, func(t *testing.T) {
			// A world of its own: a case's setup writes nothing another reads.
			e := newEnv(t, options{})
			r := c.r
			if c.setup != nil {
				c.setup(t, e, &r)
			}
			name := c.route
			if c.golden != "" {
				name = c.golden
			}
			golden(t, name, e.do(r).status(t, http.StatusOK).body)
		})
	}
	e := newEnv(t, options{})
	for _, c := range goldenErrors {
		t.Run(c.name, func(t *testing.T) {
			res := e.do(c.r)
			if strings.HasPrefix(c.r.path, "/v2") {
				res.gen2(t, c.status, c.code)
			} else {
				res.gen1(t, c.status, c.code)
			}
			golden(t, c.name, res.body)
		})
	}
}

// checkGoldenReadsCoverRoutes fails for a GET route of the public API
// without a golden read or a reason to skip it, and for a case or skip
// naming no such route.
func checkGoldenReadsCoverRoutes(t *testing.T) {
	t.Helper()
	var reads []string
	for _, r := range coverageRoutes(t) {
		if r.generation < 2 && slices.Contains(r.methods, http.MethodGet) {
			reads = append(reads, r.name)
		}
	}
	cased := map[string]bool{}
	for _, c := range goldenReads {
		if cased[c.route] {
			t.Errorf("two golden reads of %s", c.route)
		}
		cased[c.route] = true
	}
	var missing []string
	for _, name := range reads {
		_, skipped := goldenReadsSkipped[name]
		if !cased[name] && !skipped {
			missing = append(missing, name)
		}
		delete(cased, name)
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("read routes without a golden read (add them to goldenReads): %s", strings.Join(missing, ", "))
	}
	for name := range cased {
		t.Errorf("golden read of %s, which is no read route", name)
	}
	for name := range goldenReadsSkipped {
		if !slices.Contains(reads, name) {
			t.Errorf("goldenReadsSkipped names %s, which is no read route", name)
		}
	}
}
