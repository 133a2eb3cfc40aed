package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// keyedCreate is a first-generation write that takes an optional
// X-Idempotency-Key, with a body it accepts, another body, and the list
// its resource shows up in ("" when it has none).
type keyedCreate struct {
	name, method, path string
	body, other        string
	list               string
	// unique: the body names something that must be unique (an invoice
	// number), so a second create without a key needs other.
	unique bool
}

var keyedCreates = []keyedCreate{
	{name: "card", method: http.MethodPost, path: "/card", list: "/card",
		body:  `{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Retry card"}`,
		other: `{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Other card"}`},
	{name: "card group", method: http.MethodPost, path: "/card-group", list: "/card-group",
		body: `{"name":"Retry group"}`, other: `{"name":"Other group"}`},
	{name: "virtual account", method: http.MethodPost, path: "/virtual-account", list: "/virtual-account",
		body:  `{"accountId":"sa_group_acmeoperating","name":"Retry fund"}`,
		other: `{"accountId":"sa_group_acmeoperating","name":"Other fund"}`},
	{name: "contact", method: http.MethodPost, path: "/contact", list: "/contact",
		body:  `{"name":"Gizmo Parts","recipientType":"vendor","recipientLegalName":"Gizmo Parts LLC"}`,
		other: `{"name":"Widget Co","recipientType":"vendor","recipientLegalName":"Widget Co LLC"}`},
	{name: "webhook", method: http.MethodPost, path: "/webhook", list: "/webhook",
		body:  `{"url":"https://hooks.example.test/retry","name":"Retry hook"}`,
		other: `{"url":"https://hooks.example.test/other","name":"Other hook"}`},
	{name: "invoice", method: http.MethodPost, path: "/invoice", list: "/invoice",
		body: keyedInvoice("RETRY-1"), other: keyedInvoice("RETRY-2"), unique: true},
	{name: "invoice series", method: http.MethodPost, path: "/invoice/series", list: "/invoice/series",
		body: keyedSeries(1000), other: keyedSeries(2000)},
	{name: "customer", method: http.MethodPost, path: "/customer", list: "/customer",
		body: `{"name":"Soylent Corp","email":"ap@soylent.test"}`, other: `{"name":"Tyrell Corp","email":"ap@tyrell.test"}`},
	{name: "expense report", method: http.MethodPost, path: "/expense-report", list: "/expense-report",
		body: keyedExpense(12345), other: keyedExpense(2345)},
	{name: "developer application", method: http.MethodPost, path: "/developer-account/le_acme/application",
		body: keyedApp("Books"), other: keyedApp("Other")},
	{name: "authorization webhook", method: http.MethodPut, path: apitest.AuthPath,
		body:  `{"webhookUrl":"http://127.0.0.1:1/authorize","status":"inactive","config":{"fallbackBehavior":"reject"}}`,
		other: `{"webhookUrl":"http://127.0.0.1:1/other","status":"inactive","config":{"fallbackBehavior":"reject"}}`},
}

func keyedApp(name string) string {
	return `{"name":"` + name + `","type":"service","data":{"description":"Books expenses","type":"service",` +
		`"scopes":["legal_entity.view"],"allowedOrigins":["https://books.test"],"redirectUris":["https:` +
		`//books.test/callback"],"testUserEmails":["carol@acme.test"]}}`
}

func keyedInvoice(number string) string {
	return `{"accountId":"sa_group_acmeoperating","legalEntityCustomerId":"le_cust_initech","details":{"issuedAt":` +
		`"2026-06-15","dueAt":"2026-07-15","invoiceTz":"America/New_York","invoiceNumber":"` + number + `",` +
		`"lineItemsAndTotals":{"lineItems":[{"name":"Consulting","quantity":1,"priceCents":5000}]}}}`
}

func keyedSeries(price int) string {
	return `{"accountId":"sa_group_acmeoperating","legalEntityCustomerId":"le_cust_vandelay",` +
		`"recurrenceRule":{"type":"weekly","dayOfWeek":3},"paymentTermsDays":14,"invoiceTz":"America/New_York",` +
		`"startDate":"2026-06-16","endCondition":{"type":"never"},"template":{"memo":"Retainer","lineItemsAndTotals":` +
		`{"lineItems":[{"name":"Retainer","quantity":1,"priceCents":` + strconv.Itoa(price) + `}]}}}`
}

func keyedExpense(amount int) string {
	return `{"submittedByUserId":"u_bob","amountCents":` + strconv.Itoa(
		amount,
	) + `,"transactionDate":"2026-06-14T12:00:` +
		`00Z","destinationId":"ub_bobchecking","merchant":{"type":"merchantV2","id":"merchant_v2_uber"},` +
		`"noReceiptReason":"Driver had no printer","memo":"Airport ride"}`
}

// send sends c's request with body and, when idem is not empty, that key.
func (c keyedCreate) send(e *apitest.Env, key, idem, body string) *apitest.Resp {
	e.T.Helper()
	r := apitest.Req{Method: c.method, Path: c.path, Key: key, Body: body}
	if idem != "" {
		r.Header = map[string]string{"X-Idempotency-Key": idem}
	}
	return e.Do(r)
}

// listCount is how many items the list of c shows.
func (c keyedCreate) listCount(t *testing.T, e *apitest.Env) int {
	t.Helper()
	if c.list == "" {
		return 0
	}
	return len(arItems(e.Get(c.list, apitest.AcmeKey, "").Status(t, http.StatusOK).JSON(t)))
}

func TestOptionalIdempotencyKeyReplaysTheFirstAnswer(t *testing.T) {
	t.Parallel()
	for _, c := range keyedCreates {
		t.Run(c.name, func(t *testing.T) {
			e := apitest.New(t, apitest.Options{})
			first := c.send(e, apitest.AcmeKey, "retry-1", c.body)
			if first.StatusCode >= 300 {
				t.Fatalf("first call: %d %s", first.StatusCode, first.Raw)
			}
			count := c.listCount(t, e)
			version := e.Engine.Default().Version()
			again := c.send(e, apitest.AcmeKey, "retry-1", c.body)
			if got, want := again.StatusCode, first.StatusCode; got != want {
				t.Fatalf("replay status = %d, want %d", got, want)
			}
			if !bytes.Equal(again.Raw, first.Raw) {
				t.Fatalf("replay body differs:\n%s\n%s", again.Raw, first.Raw)
			}
			if got := e.Engine.Default().Version(); got != version {
				t.Errorf("the replay wrote to the world")
			}
			if got := c.listCount(t, e); got != count {
				t.Errorf("list count after replay = %d, want %d", got, count)
			}
		})
	}
}

func TestOptionalIdempotencyKeyRefusesAnotherBody(t *testing.T) {
	t.Parallel()
	for _, c := range keyedCreates {
		t.Run(c.name, func(t *testing.T) {
			e := apitest.New(t, apitest.Options{})
			c.send(e, apitest.AcmeKey, "retry-1", c.body)
			version := e.Engine.Default().Version()
			c.send(e, apitest.AcmeKey, "retry-1", c.other).Gen1(t, http.StatusConflict, "conflict")
			if e.Engine.Default().Version() != version {
				t.Errorf("the refused call wrote to the world")
			}
		})
	}
}

func TestWithoutIdempotencyKeyEachCallWrites(t *testing.T) {
	t.Parallel()
	for _, c := range keyedCreates {
		if c.list == "" {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			e := apitest.New(t, apitest.Options{})
			before := c.listCount(t, e)
			first := c.send(e, apitest.AcmeKey, "", c.body)
			body := c.body
			if c.unique {
				body = c.other
			}
			second := c.send(e, apitest.AcmeKey, "", body)
			if first.StatusCode >= 300 || second.StatusCode >= 300 {
				t.Fatalf("calls: %d %s / %d %s", first.StatusCode, first.Raw, second.StatusCode, second.Raw)
			}
			if got, want := c.listCount(t, e), before+2; got != want {
				t.Errorf("list count = %d, want %d", got, want)
			}
		})
	}
}

func TestIdempotencyKeyLength(t *testing.T) {
	t.Parallel()
	for _, c := range keyedCreates {
		t.Run(c.name, func(t *testing.T) {
			e := apitest.New(t, apitest.Options{})
			version := e.Engine.Default().Version()
			m := c.send(e, apitest.AcmeKey, strings.Repeat("k", 256), c.body).
				Gen1(t, http.StatusBadRequest, "invalid_request")
			if d := apitest.Details(t, m); d["X-Idempotency-Key"] == nil {
				t.Errorf("details %v do not name the header", d)
			}
			if e.Engine.Default().Version() != version {
				t.Errorf("the refused call wrote to the world")
			}
			if r := c.send(e, apitest.AcmeKey, strings.Repeat("k", 255), c.body); r.StatusCode >= 300 {
				t.Errorf("a key of 255 characters: %d %s", r.StatusCode, r.Raw)
			}
		})
	}
}

func TestIdempotencyKeyScopes(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	group := keyedCreates[1]
	a := group.send(e, apitest.AcmeKey, "shared", group.body).Status(t, http.StatusOK).JSON(t)
	t.Run("another operation", func(t *testing.T) {
		hook := keyedCreates[4]
		hook.send(e, apitest.AcmeKey, "shared", hook.body).Status(t, http.StatusCreated)
	})
	t.Run("another legal entity", func(t *testing.T) {
		b := group.send(e, apitest.GlobexKey, "shared", group.body).Status(t, http.StatusOK).JSON(t)
		if a["id"] == b["id"] {
			t.Errorf("both legal entities got card group %v", a["id"])
		}
	})
	t.Run("a failed call leaves the key unused", func(t *testing.T) {
		group.send(e, apitest.AcmeKey, "after-failure", `{"name":""}`).Gen1(t, http.StatusBadRequest, "invalid_request")
		group.send(e, apitest.AcmeKey, "after-failure", group.other).Status(t, http.StatusOK)
	})
}

// An approval pays money out: a retried approval replays the first answer
// instead of failing on a report no longer pending.
func TestExpenseApprovalReplays(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	r := expenseCall(t, e, http.MethodPost, "/expense-report", expenseBody("u_bob", "ub_bobchecking", 12345))
	approve := keyedCreate{method: http.MethodPost, path: "/expense-report/" + r.ID + "/approve"}
	first := approve.send(e, apitest.AcmeKey, "approve-1", `{"reviewedByUserId":"u_alice"}`).Status(t, http.StatusOK)
	again := approve.send(e, apitest.AcmeKey, "approve-1", `{"reviewedByUserId":"u_alice"}`).Status(t, http.StatusOK)
	if !bytes.Equal(first.Raw, again.Raw) {
		t.Errorf("replay body differs:\n%s\n%s", again.Raw, first.Raw)
	}
	approve.send(e, apitest.AcmeKey, "approve-2", `{"reviewedByUserId":"u_alice"}`).
		Gen1(t, http.StatusConflict, "conflict")
}

// The document declares the optional key, and the 409 of its reuse with
// another body, on every write that takes it.
func TestDocumentDeclaresTheOptionalIdempotencyKey(t *testing.T) {
	c, err := apitest.Documents()
	if err != nil {
		t.Fatal(err)
	}
	paths := c.OwnDoc["paths"].(map[string]any)
	for _, op := range []string{"POST /card", "POST /card-group", "POST /virtual-account", "POST /contact",
		"POST /webhook",
		"POST /invoice", "POST /invoice/series", "POST /customer", "POST /expense-report",
		"POST /expense-report/{expenseReportId}/approve", "POST /developer-account/{developerAccountId}/application",
		"PUT /account/{accountId}/authorization-webhook", "POST /task/{taskId}/act", "POST /pay"} {
		method, path, _ := strings.Cut(op, " ")
		item, _ := paths[path].(map[string]any)
		o, _ := item[strings.ToLower(method)].(map[string]any)
		if o == nil {
			t.Errorf("%s: not in the document", op)
			continue
		}
		declared := false
		for _, p := range o["parameters"].([]any) {
			p := p.(map[string]any)
			if p["name"] == "X-Idempotency-Key" && p["in"] == "header" && p["required"] == false {
				declared = true
			}
		}
		if !declared {
			t.Errorf("%s: no optional X-Idempotency-Key header", op)
		}
		if _, ok := o["responses"].(map[string]any)["409"]; !ok && op != "POST /pay" {
			t.Errorf("%s: no 409 response", op)
		}
	}
}

// An X-Idempotency-Key that is sent empty is a mistake, not an absent key:
// every keyed write, the payment included, refuses it and writes nothing.
func TestEmptyIdempotencyKeyIsRefused(t *testing.T) {
	t.Parallel()
	pay := keyedCreate{name: "pay", method: http.MethodPost, path: "/pay",
		body: `{"slashHandle":"globex-logistics","amountCents":100}`}
	for _, c := range append(append([]keyedCreate{}, keyedCreates...), pay) {
		t.Run(c.name, func(t *testing.T) {
			e := apitest.New(t, apitest.Options{})
			version := e.Engine.Default().Version()
			hr, err := http.NewRequest(c.method, e.Server.URL+c.path, strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			hr.Header.Set("Content-Type", "application/json")
			hr.Header.Set("X-API-Key", apitest.AcmeKey)
			hr.Header["X-Idempotency-Key"] = []string{""}
			res, err := http.DefaultClient.Do(hr)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(res.Body)
			res.Body.Close()
			var got web.Gen1Error
			if err := json.Unmarshal(raw, &got); err != nil || res.StatusCode != http.StatusBadRequest ||
				got.Identifier != "invalid_request" {
				t.Fatalf("%s %s with an empty key: %d %s", c.method, c.path, res.StatusCode, raw)
			}
			if d, _ := got.Meta["details"].(map[string]any); d["X-Idempotency-Key"] == nil {
				t.Errorf("details %v do not name the header", got.Meta["details"])
			}
			if e.Engine.Default().Version() != version {
				t.Errorf("the refused call wrote to the world")
			}
		})
	}
}
