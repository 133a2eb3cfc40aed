package api_test

import (
	"net/http"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// goldenRead is one representative read of a route in the demo world.
type goldenRead struct {
	route string
	r     apitest.Req
	// golden names the golden file when it is not the route's own: a route
	// that answers exactly what another does shares its file.
	golden string
	// setup makes what the read needs and completes r (an id in its path,
	// a bearer token); nil for a read of the demo world as loaded.
	setup func(t *testing.T, e *apitest.Env, r *apitest.Req)
}

// goldenReads are the reads TestGoldenReads compares, one per read route of
// the first and second generation; the golden file of each is named for
// its route.
var goldenReads = []goldenRead{
	{
		route: "account.authorization_webhook.get",
		r:     apitest.Req{Path: apitest.AuthPath, Key: apitest.AcmeKey},
		setup: func(t *testing.T, e *apitest.Env, _ *apitest.Req) {
			e.Do(apitest.Req{Method: http.MethodPut, Path: apitest.AuthPath, Key: apitest.AcmeKey,
				Body: `{"webhookUrl":"https://hooks.acme.test/authorize","status":"active",
			"config":{"fallbackBehavior":"default","when":{"operator":"lte","field":"amountCents","value":50000}}}`}).
				Status(t, http.StatusOK)
		},
	},
	{route: "account.balance", r: apitest.Req{Path: "/account/sa_group_acmeoperating/balance", Key: apitest.AcmeKey}},
	{route: "account.get", r: apitest.Req{Path: "/account/sa_group_acmeoperating", Key: apitest.AcmeKey}},
	{route: "account.list", r: apitest.Req{Path: "/account", Key: apitest.AcmeKey}},
	{route: "agent_request.get", r: apitest.Req{Key: "sk_sandbox_carol_readonly", LE: "le_acme"}, setup: deferredNote},
	{
		route: "agent_request.list",
		r:     apitest.Req{Path: "/agent-request", Key: "sk_sandbox_carol_readonly", LE: "le_acme"},
		setup: deferredNote,
	},
	{
		route: "card.event.list",
		r:     apitest.Req{Path: "/card/card_acmeaws/events", Key: apitest.AcmeKey},
		setup: func(t *testing.T, e *apitest.Env, _ *apitest.Req) {
			apitest.Authorize(t, e, "card_acmeaws", 10000, "merchant_v2_aws")
		},
	},
	{route: "card.get", r: apitest.Req{Path: "/card/card_acmeaws", Key: apitest.AcmeKey}},
	{route: "card.vault_get", r: apitest.Req{Path: "/vault/card/card_acmeaws?include_pan=true&include_cvv=true",
		Key: apitest.AcmeKey}},
	{route: "card.list", r: apitest.Req{Path: "/card", Key: apitest.AcmeKey}},
	{route: "card.modifier.list", r: apitest.Req{Path: "/card/card_acmesubscriptions/modifier", Key: apitest.AcmeKey}},
	{route: "card.utilization", r: apitest.Req{Path: "/card/card_acmeoffice/utilization", Key: apitest.AcmeKey}},
	{route: "card_group.get", r: apitest.Req{Path: "/card-group/card_group_acmesaas", Key: apitest.AcmeKey}},
	{route: "card_group.list", r: apitest.Req{Path: "/card-group", Key: apitest.AcmeKey}},
	{
		route: "card_group.utilization",
		r:     apitest.Req{Path: "/card-group/card_group_acmesaas/utilization", Key: apitest.AcmeKey},
	},
	{route: "card_product.list", r: apitest.Req{Path: "/card-product", Key: apitest.AcmeKey}},
	{
		route: "contact.ach_debit_recurring",
		r:     apitest.Req{Path: "/contact/le_c_northwindsupply/ach-debit-recurring", Key: apitest.AcmeKey},
	},
	{route: "contact.destination.list", r: apitest.Req{Path: "/contact/destination", Key: apitest.AcmeKey}},
	{route: "contact.get", r: apitest.Req{Path: "/contact/le_c_northwindsupply", Key: apitest.AcmeKey}},
	{route: "contact.list", r: apitest.Req{Path: "/contact", Key: apitest.AcmeKey}},
	{
		route: "customer.ach_debit_recurring",
		r:     apitest.Req{Path: "/customer/le_cust_hooli/ach-debit-recurring", Key: apitest.AcmeKey},
	},
	{route: "customer.get", r: apitest.Req{Path: "/customer/le_cust_initech", Key: apitest.AcmeKey}},
	{route: "customer.list", r: apitest.Req{Path: "/customer", Key: apitest.AcmeKey}},
	{
		route: "developer_application.get",
		r:     apitest.Req{Key: apitest.AcmeKey},
		setup: func(t *testing.T, e *apitest.Env, r *apitest.Req) {
			r.Path = "/developer-application/" + createApp(t, e).ID
		},
	},
	{
		route: "expense_report.get",
		r:     apitest.Req{Path: "/expense-report/expense_report_carolflight", Key: apitest.AcmeKey},
	},
	{route: "expense_report.list", r: apitest.Req{Path: "/expense-report", Key: apitest.AcmeKey}},
	{
		route: "expense_report.reimbursement_source.list",
		r:     apitest.Req{Path: "/expense-report/reimbursement-sources?userId=u_bob", Key: apitest.AcmeKey},
	},
	{
		route: "fdx.account.contact",
		r:     apitest.Req{Path: "/fdx/accounts/sa_group_acmeoperating/contact", Key: apitest.AliceKey, LE: "le_acme"},
	},
	{route: "fdx.account.get", r: apitest.Req{Path: "/fdx/accounts/sa_group_acmeoperating", Key: apitest.AcmeKey}},
	{route: "fdx.account.list", r: apitest.Req{Path: "/fdx/accounts", Key: apitest.AcmeKey}},
	{route: "fdx.customer.current", r: apitest.Req{Path: "/fdx/customers/current", Key: apitest.AcmeKey}},
	{
		route: "fdx.payment_network.list",
		r:     apitest.Req{Path: "/fdx/accounts/sa_group_acmeoperating/payment-networks", Key: apitest.AcmeKey},
	},
	{
		route: "fdx.statement.list",
		r:     apitest.Req{Path: "/fdx/accounts/sa_group_acmeoperating/statements", Key: apitest.AcmeKey},
	},
	{
		route: "fdx.transaction.list",
		r:     apitest.Req{Path: "/fdx/accounts/sa_group_acmeoperating/transactions?limit=3", Key: apitest.AcmeKey},
	},
	{route: "handle.list", r: apitest.Req{Path: "/handle", Key: apitest.AcmeKey}},
	{route: "invoice.get", r: apitest.Req{Path: "/invoice/invoice_acme1003", Key: apitest.AcmeKey}},
	{route: "invoice.list", r: apitest.Req{Path: "/invoice", Key: apitest.AcmeKey}},
	{
		route: "invoice.number.validate",
		r:     apitest.Req{Path: "/invoice/validate-number?invoiceNumber=ACME-1001", Key: apitest.AcmeKey},
	},
	{
		route: "invoice.reminder.get",
		r:     apitest.Req{Path: "/invoice/invoice_acme1002/send-reminder", Key: apitest.AcmeKey},
	},
	{route: "invoice.settings.get", r: apitest.Req{Path: "/invoice/settings", Key: apitest.AcmeKey}},
	{
		route: "invoice_series.get",
		r:     apitest.Req{Path: "/invoice/series/invoice_series_acmeinitechsupport", Key: apitest.AcmeKey},
	},
	{route: "invoice_series.list", r: apitest.Req{Path: "/invoice/series", Key: apitest.AcmeKey}},
	{route: "legal_entity.list", r: apitest.Req{Path: "/legal-entity", Key: apitest.AliceKey}},
	{route: "merchant.get", r: apitest.Req{Path: "/merchant/merchant_v2_github", Key: apitest.AcmeKey}},
	{route: "merchant.list", r: apitest.Req{Path: "/merchant", Key: apitest.AcmeKey}},
	{route: "merchant_category.list", r: apitest.Req{Path: "/merchant-category", Key: apitest.AcmeKey}},
	{route: "oauth2.openid_configuration", r: apitest.Req{Path: "/.well-known/openid-configuration"}},
	{route: "oauth2.userinfo", setup: func(t *testing.T, e *apitest.Env, r *apitest.Req) {
		r.Path = "/oauth2/userinfo"
		r.Header = map[string]string{"Authorization": "Bearer " + bearerFor(t, e, createApp(t, e), "carol@acme.test")}
	}},
	{route: "pay.get", r: apitest.Req{Path: "/pay", Key: apitest.AcmeKey}},
	{route: "slash_handle.list", r: apitest.Req{Path: "/slash-handle", Key: apitest.AcmeKey}, golden: "handle.list"},
	{route: "task.get", r: apitest.Req{Path: "/task/task_acmepixelforge", Key: apitest.AcmeKey}},
	{route: "task.list", r: apitest.Req{Path: "/task", Key: apitest.AcmeKey}},
	{route: "task.schema", r: apitest.Req{Path: "/task/schema?filter:type=payment_approval", Key: apitest.AcmeKey}},
	{route: "tokens.prices", r: apitest.Req{Path: "/tokens/prices"}},
	{route: "transaction.aggregation", r: apitest.Req{Path: "/transaction/aggregation", Key: apitest.AcmeKey}},
	{
		route: "transaction.fee_details",
		r:     apitest.Req{Key: apitest.AcmeKey},
		setup: func(t *testing.T, e *apitest.Env, r *apitest.Req) {
			wire := e.Post("/transfers/wire", apitest.AcmeKey, "", "golden-wire",
				map[string]any{"accountId": "sa_group_acmeoperating",
					"destinationId": "le_c_dest_bluefiniban", "amountCents": 1000000, "memo": "PO 7"}).
				Status(t, http.StatusOK).
				JSON(t)
			r.Path = "/transaction/" + wire["transactionId"].(string) + "/fee-details"
		},
	},
	{route: "transaction.get", r: apitest.Req{Path: "/transaction/txn_acmepixelforgehold", Key: apitest.AcmeKey}},
	{route: "transaction.list", r: apitest.Req{Path: "/transaction", Key: apitest.AcmeKey}},
	{route: "v2.contact.list", r: apitest.Req{Path: "/v2/contacts", Key: apitest.AliceKey, LE: "le_acme"}},
	{
		route: "virtual_account.get",
		r:     apitest.Req{Path: "/virtual-account/subaccount_acmeengineering", Key: apitest.AcmeKey},
	},
	{route: "virtual_account.list", r: apitest.Req{Path: "/virtual-account", Key: apitest.AcmeKey}},
	{route: "webhook.get", r: apitest.Req{Path: "/webhook/webhook_acmelocal", Key: apitest.AcmeKey}},
	{route: "webhook.list", r: apitest.Req{Path: "/webhook", Key: apitest.AcmeKey}},
	{
		route: "webhook.notification.list",
		r:     apitest.Req{Path: "/webhook/webhook_acmelocal/notification", Key: apitest.AcmeKey},
		setup: func(t *testing.T, e *apitest.Env, _ *apitest.Req) {
			apitest.Trigger(t, e, "webhook_acmelocal", "card.update", "card_acmeaws")
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
	r    apitest.Req
	// status and code: the identifier (first generation) or code (second).
	status int
	code   string
}{
	{
		"error.gen1.400",
		apitest.Req{Path: "/transaction?filter:status=lost", Key: apitest.AcmeKey},
		400,
		"invalid_request",
	},
	{"error.gen1.401", apitest.Req{Path: "/card"}, 401, "unauthorized"},
	{"error.gen1.404", apitest.Req{Path: "/card/card_nope", Key: apitest.AcmeKey}, 404, "not_found"},
	{
		"error.gen2.400",
		apitest.Req{Path: "/v2/contacts?cursor=bogus", Key: apitest.AliceKey, LE: "le_acme"},
		400,
		"invalid_request",
	},
	{"error.gen2.401", apitest.Req{Path: "/v2/contacts", LE: "le_acme"}, 401, "unauthorized"},
	{"error.gen2.404", apitest.Req{Path: "/v2/contacts", Key: apitest.AliceKey, LE: "le_globex"}, 404, "not_found"},
}

// deferredNote has carol's read-only key ask for a transaction note, which
// leaves a pending agent request, and points r at it when r has no path.
func deferredNote(t *testing.T, e *apitest.Env, r *apitest.Req) {
	t.Helper()
	id := apitest.Deferred(
		t,
		apitest.Note(e, "sk_sandbox_carol_readonly", "le_acme", "txn_acmepixelforgehold", `{"note":"needs a receipt"}`),
	)
	if r.Path == "" {
		r.Path = "/agent-request/" + id
	}
}

// TestGoldenReads reads every first- and second-generation read route in a
// fresh demo world and compares each answer with its golden file, then
// does the same for each generation's error envelope.
func TestGoldenReads(t *testing.T) {
	t.Parallel()
	checkGoldenReadsCoverRoutes(t)
	for _, c := range goldenReads {
		t.Run(c.route, func(t *testing.T) {
			// A world of its own: a case's setup writes nothing another reads.
			e := apitest.New(t, apitest.Options{})
			r := c.r
			if c.setup != nil {
				c.setup(t, e, &r)
			}
			name := c.route
			if c.golden != "" {
				name = c.golden
			}
			apitest.Golden(t, name, e.Do(r).Status(t, http.StatusOK).Raw)
		})
	}
	e := apitest.New(t, apitest.Options{})
	for _, c := range goldenErrors {
		t.Run(c.name, func(t *testing.T) {
			res := e.Do(c.r)
			if strings.HasPrefix(c.r.Path, "/v2") {
				res.Gen2(t, c.status, c.code)
			} else {
				res.Gen1(t, c.status, c.code)
			}
			apitest.Golden(t, c.name, res.Raw)
		})
	}
}

// checkGoldenReadsCoverRoutes fails for a GET route of the public API
// without a golden read or a reason to skip it, and for a case or skip
// naming no such route.
func checkGoldenReadsCoverRoutes(t *testing.T) {
	t.Helper()
	var reads []string
	for _, r := range apitest.CoverageRoutes(t) {
		if r.Generation < 2 && slices.Contains(r.Methods, http.MethodGet) {
			reads = append(reads, r.Name)
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
