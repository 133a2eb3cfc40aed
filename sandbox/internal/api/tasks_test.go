package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func taskIDs(items []map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, it := range items {
		out[it["id"].(string)] = it
	}
	return out
}

// taskOf finds the expense_submission task of a report.
func taskOf(t *testing.T, e *apitest.Env, report string) map[string]any {
	t.Helper()
	items := arItems(
		e.Get("/task?filter:type=expense_submission&filter:attr[expenseReportId]="+report, apitest.AcmeKey, "").
			Status(t, 200).
			JSON(t),
	)
	if len(items) != 1 {
		t.Fatalf("%d tasks for %s", len(items), report)
	}
	return items[0]
}

func TestTaskVisibilitySchemaAndFilters(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	all := arItems(e.Get("/task", apitest.AcmeKey, "").Status(t, 200).JSON(t))
	bob := taskIDs(arItems(arAs(e, http.MethodGet, "/task", apitest.BobKey, "le_acme", nil).Status(t, 200).JSON(t)))
	if len(all) < 8 || len(bob) != 1 || bob["task_acmepixelforge"] == nil {
		t.Fatalf(
			"legal-entity key sees %d tasks; bob sees %v (only the payment he was asked to approve)",
			len(all),
			bob,
		)
	}
	for i := 1; i < len(all); i++ {
		if all[i-1]["timestamp"].(string) < all[i]["timestamp"].(string) {
			t.Fatalf("default order is not newest first: %v then %v", all[i-1]["timestamp"], all[i]["timestamp"])
		}
	}
	lunch := taskOf(t, e, "expense_report_carollunch")
	arAs(e, http.MethodGet, "/task/"+lunch["id"].(string), apitest.BobKey, "le_acme", nil).Gen1(t, 404, "not_found")
	one := arMap(
		arAs(e, http.MethodGet, "/task/"+lunch["id"].(string), apitest.AliceKey, "le_acme", nil).Status(t, 200).JSON(t),
		"task",
	)
	actions, _ := one["actions"].([]any)
	if one["status"] != "action_required" || len(actions) != 2 || arMap(actions[0])["key"] != "approve" ||
		arMap(actions[0])["isDisabled"] != false ||
		arMap(one, "meta", "amountCents")["isRequired"] != true ||
		arMap(one, "data")["merchantName"] != "Corner Deli" {
		t.Fatalf("task = %v", one)
	}
	schemas, _ := e.Get("/task/schema?filter:type=payment_approval", apitest.AcmeKey, "").Status(t,
		200).JSON(t)["schemas"].([]any)
	if len(schemas) != 1 || arMap(schemas[0])["type"] != "payment_approval" ||
		arMap(schemas[0], "attributes", "amountCents")["type"] != "money" {
		t.Fatalf("schema = %v", schemas)
	}
	big := arItems(
		e.Get("/task?filter:attr[amountCents][gte]=10000&filter:type=expense_submission", apitest.AcmeKey, "").
			Status(t, 200).
			JSON(t),
	)
	for _, it := range big {
		if arMap(it, "data")["amountCents"].(float64) < 10000 {
			t.Fatalf("gte filter listed %v", arMap(it, "data"))
		}
	}
	if len(big) == 0 {
		t.Fatal("no expense task of $100 or more")
	}
	done := arItems(e.Get("/task?filter:status=completed", apitest.AcmeKey, "").Status(t, 200).JSON(t))
	for _, it := range done {
		if it["status"] != "completed" || arMap(it["actions"].([]any)[0])["isDisabled"] != true {
			t.Fatalf("a completed task: %v", it)
		}
	}
	byType := arItems(e.Get("/task?sort=type&sortDirection=ASC", apitest.AcmeKey, "").Status(t, 200).JSON(t))
	if byType[0]["type"] != "expense_submission" || byType[len(byType)-1]["type"] != "payment_approval" {
		t.Fatalf("sort=type ASC starts %v ends %v", byType[0]["type"], byType[len(byType)-1]["type"])
	}
	e.Get("/task?filter:attr[amountCents][between]=1", apitest.AcmeKey, "").Gen1(t, 400, "invalid_request")
	e.Get("/task?filter:status=open", apitest.AcmeKey, "").Gen1(t, 400, "invalid_request")
	e.Get("/task/task_acmepixelforge", apitest.GlobexKey, "").Gen1(t, 404, "not_found")
}

func TestActingOnAnExpenseTaskReviewsTheReport(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	lunch := taskOf(t, e, "expense_report_carollunch")["id"].(string)
	act := func(key, le, id string, body any) *apitest.Resp {
		return arAs(e, http.MethodPost, "/task/"+id+"/act", key, le, body)
	}
	if r := act(apitest.AliceKey, "le_acme", lunch, map[string]any{"action": "approve"}).Status(t,
		200).JSON(t); r["success"] != true {
		t.Fatalf("act = %v", r)
	}
	report := expenseCall(t, e, http.MethodGet, "/expense-report/expense_report_carollunch", nil)
	if report.Status != "payment_processing" || report.Review["reviewedByUserId"] != "u_alice" {
		t.Fatalf("after approving through the task: %+v", report)
	}
	task := arMap(
		arAs(e, http.MethodGet, "/task/"+lunch, apitest.AliceKey, "le_acme", nil).Status(t, 200).JSON(t),
		"task",
	)
	if task["status"] != "completed" {
		t.Fatalf("task = %v", task)
	}
	d := apitest.Details(
		t,
		act(
			apitest.AliceKey,
			"le_acme",
			lunch,
			map[string]any{"action": "reject", "payload": map[string]any{"reason": "late"}},
		).Gen1(t, 400, "invalid_request"),
	)
	if !strings.Contains(d["/action"].(string), "disabled") {
		t.Fatalf("acting on a completed task: %v", d)
	}
	taxi := taskOf(t, e, "expense_report_bobtaxi")["id"].(string)
	act(apitest.AcmeKey, "", taxi, map[string]any{"action": "archive"}).Gen1(t, 400, "invalid_request")
	d = apitest.Details(
		t,
		act(
			apitest.AcmeKey,
			"",
			taxi,
			map[string]any{"action": "reject", "payload": map[string]any{"reason": "no"}},
		).Gen1(t, 400, "invalid_request"),
	)
	if d["/payload/reviewedByUserId"] == nil {
		t.Fatalf("a legal-entity key must name the reviewer: %v", d)
	}
	act(
		apitest.AcmeKey,
		"",
		taxi,
		map[string]any{"action": "reject", "payload": map[string]any{"reviewedByUserId": "u_carol"}},
	).Gen1(t, 400, "invalid_request")
	act(apitest.AcmeKey, "", taxi, map[string]any{}).Gen1(t, 400, "invalid_request")
	act(
		apitest.AcmeKey,
		"",
		taxi,
		map[string]any{
			"action":  "reject",
			"payload": map[string]any{"reviewedByUserId": "u_carol", "reason": "Personal trip"},
		},
	).Status(t, 200)
	if r := expenseCall(t, e, http.MethodGet, "/expense-report/expense_report_bobtaxi", nil); r.Status != "rejected" ||
		r.Review["rejectionReason"] != "Personal trip" {
		t.Fatalf("rejected through the task: %+v", r)
	}
	act(apitest.BobKey, "le_acme", lunch, map[string]any{"action": "approve"}).Gen1(t, 404, "not_found")
	apitest.Deferred(t, act(apitest.AcmeRO, "", "task_acmepixelforge", map[string]any{"action": "approve"}))
	if task := arMap(e.Get("/task/task_acmepixelforge", apitest.AcmeKey, "").Status(t, 200).JSON(t),
		"task"); task["status"] != "action_required" {
		t.Fatalf("a deferred act changed the task: %v", task)
	}
}

func TestPaymentApprovalTaskReleasesOrCancelsItsPayment(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ action, task, txn string }{
		{"approve", "completed", "pending"},
		{"reject", "rejected", "canceled"},
	} {
		t.Run(c.action, func(t *testing.T) {
			e := apitest.New(t, apitest.Options{})
			txn := e.Get("/transaction/txn_acmepixelforgehold", apitest.AcmeKey, "").Status(t, 200).JSON(t)
			if txn["detailedStatus"] != "pending_approval" {
				t.Fatalf("held payment = %v", txn)
			}
			arAs(e, http.MethodPost, "/task/task_acmepixelforge/act", apitest.BobKey, "le_acme",
				map[string]any{"action": c.action}).Status(t, 200)
			task := arMap(
				arAs(
					e,
					http.MethodGet,
					"/task/task_acmepixelforge",
					apitest.BobKey,
					"le_acme",
					nil,
				).Status(t, 200).
					JSON(t),
				"task",
			)
			if task["status"] != c.task || arMap(task, "data")["status"] != c.txn {
				t.Fatalf("task after %s = %v", c.action, task)
			}
			if got := e.Get("/transaction/txn_acmepixelforgehold", apitest.AcmeKey, "").Status(t,
				200).JSON(t)["detailedStatus"]; got != c.txn {
				t.Fatalf("payment after %s is %v, want %s", c.action, got, c.txn)
			}
			if c.action == "approve" {
				apitest.Advance(t, e, `{"by":"24h"}`)
				if got := e.Get("/transaction/txn_acmepixelforgehold", apitest.AcmeKey, "").Status(t,
					200).JSON(t)["detailedStatus"]; got != "settled" {
					t.Fatalf("an approved payment is %v a day later", got)
				}
			}
		})
	}
}
