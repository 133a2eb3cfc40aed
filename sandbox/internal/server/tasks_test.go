package server_test

import (
	"net/http"
	"strings"
	"testing"
)

func taskIDs(items []map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, it := range items {
		out[it["id"].(string)] = it
	}
	return out
}

// taskOf finds the expense_submission task of a report.
func taskOf(t *testing.T, e *env, report string) map[string]any {
	t.Helper()
	items := arItems(
		e.get("/task?filter:type=expense_submission&filter:attr[expenseReportId]="+report, acmeKey, "").
			status(t, 200).
			json(t),
	)
	if len(items) != 1 {
		t.Fatalf("%d tasks for %s", len(items), report)
	}
	return items[0]
}

func TestTaskVisibilitySchemaAndFilters(t *testing.T) {
	e := newEnv(t, options{})
	all := arItems(e.get("/task", acmeKey, "").status(t, 200).json(t))
	bob := taskIDs(arItems(arAs(e, http.MethodGet, "/task", bobKey, "le_acme", nil).status(t, 200).json(t)))
	if len(all) < 8 || len(bob) != 1 || bob["task_acmepixelforge"] == nil {
		t.Fatalf("legal-entity key sees %d tasks; bob sees %v (only the payment he was asked to approve)", len(all), bob)
	}
	for i := 1; i < len(all); i++ {
		if all[i-1]["timestamp"].(string) < all[i]["timestamp"].(string) {
			t.Fatalf("default order is not newest first: %v then %v", all[i-1]["timestamp"], all[i]["timestamp"])
		}
	}
	lunch := taskOf(t, e, "expense_report_carollunch")
	arAs(e, http.MethodGet, "/task/"+lunch["id"].(string), bobKey, "le_acme", nil).gen1(t, 404, "not_found")
	one := arMap(arAs(e, http.MethodGet, "/task/"+lunch["id"].(string), aliceKey, "le_acme", nil).status(t, 200).json(t),
		"task")
	actions, _ := one["actions"].([]any)
	if one["status"] != "action_required" || len(actions) != 2 || arMap(actions[0])["key"] != "approve" ||
		arMap(actions[0])["isDisabled"] != false ||
		arMap(one, "meta", "amountCents")["isRequired"] != true ||
		arMap(one, "data")["merchantName"] != "Corner Deli" {
		t.Fatalf("task = %v", one)
	}
	schemas, _ := e.get("/task/schema?filter:type=payment_approval", acmeKey, "").status(t, 200).json(t)["schemas"].([]any)
	if len(schemas) != 1 || arMap(schemas[0])["type"] != "payment_approval" ||
		arMap(schemas[0], "attributes", "amountCents")["type"] != "money" {
		t.Fatalf("schema = %v", schemas)
	}
	big := arItems(
		e.get("/task?filter:attr[amountCents][gte]=10000&filter:type=expense_submission", acmeKey, "").status(t, 200).json(t),
	)
	for _, it := range big {
		if arMap(it, "data")["amountCents"].(float64) < 10000 {
			t.Fatalf("gte filter listed %v", arMap(it, "data"))
		}
	}
	if len(big) == 0 {
		t.Fatal("no expense task of $100 or more")
	}
	done := arItems(e.get("/task?filter:status=completed", acmeKey, "").status(t, 200).json(t))
	for _, it := range done {
		if it["status"] != "completed" || arMap(it["actions"].([]any)[0])["isDisabled"] != true {
			t.Fatalf("a completed task: %v", it)
		}
	}
	byType := arItems(e.get("/task?sort=type&sortDirection=ASC", acmeKey, "").status(t, 200).json(t))
	if byType[0]["type"] != "expense_submission" || byType[len(byType)-1]["type"] != "payment_approval" {
		t.Fatalf("sort=type ASC starts %v ends %v", byType[0]["type"], byType[len(byType)-1]["type"])
	}
	e.get("/task?filter:attr[amountCents][between]=1", acmeKey, "").gen1(t, 400, "invalid_request")
	e.get("/task?filter:status=open", acmeKey, "").gen1(t, 400, "invalid_request")
	e.get("/task/task_acmepixelforge", globexKey, "").gen1(t, 404, "not_found")
}

func TestActingOnAnExpenseTaskReviewsTheReport(t *testing.T) {
	e := newEnv(t, options{})
	lunch := taskOf(t, e, "expense_report_carollunch")["id"].(string)
	act := func(key, le, id string, body any) *resp {
		return arAs(e, http.MethodPost, "/task/"+id+"/act", key, le, body)
	}
	if r := act(aliceKey, "le_acme", lunch, map[string]any{"action": "approve"}).status(t,
		200).json(t); r["success"] != true {
		t.Fatalf("act = %v", r)
	}
	report := expenseCall(t, e, http.MethodGet, "/expense-report/expense_report_carollunch", nil)
	if report.Status != "payment_processing" || report.Review["reviewedByUserId"] != "u_alice" {
		t.Fatalf("after approving through the task: %+v", report)
	}
	task := arMap(arAs(e, http.MethodGet, "/task/"+lunch, aliceKey, "le_acme", nil).status(t, 200).json(t), "task")
	if task["status"] != "completed" {
		t.Fatalf("task = %v", task)
	}
	d := arDetails(
		t,
		act(
			aliceKey,
			"le_acme",
			lunch,
			map[string]any{"action": "reject", "payload": map[string]any{"reason": "late"}},
		).gen1(t, 400, "invalid_request"),
	)
	if !strings.Contains(d["/action"].(string), "disabled") {
		t.Fatalf("acting on a completed task: %v", d)
	}
	taxi := taskOf(t, e, "expense_report_bobtaxi")["id"].(string)
	act(acmeKey, "", taxi, map[string]any{"action": "archive"}).gen1(t, 400, "invalid_request")
	d = arDetails(
		t,
		act(
			acmeKey,
			"",
			taxi,
			map[string]any{"action": "reject", "payload": map[string]any{"reason": "no"}},
		).gen1(t, 400, "invalid_request"),
	)
	if d["/payload/reviewedByUserId"] == nil {
		t.Fatalf("a legal-entity key must name the reviewer: %v", d)
	}
	act(
		acmeKey,
		"",
		taxi,
		map[string]any{"action": "reject", "payload": map[string]any{"reviewedByUserId": "u_carol"}},
	).gen1(t, 400, "invalid_request")
	act(acmeKey, "", taxi, map[string]any{}).gen1(t, 400, "invalid_request")
	act(
		acmeKey,
		"",
		taxi,
		map[string]any{
			"action":  "reject",
			"payload": map[string]any{"reviewedByUserId": "u_carol", "reason": "Personal trip"},
		},
	).status(t, 200)
	if r := expenseCall(t, e, http.MethodGet, "/expense-report/expense_report_bobtaxi", nil); r.Status != "rejected" ||
		r.Review["rejectionReason"] != "Personal trip" {
		t.Fatalf("rejected through the task: %+v", r)
	}
	act(bobKey, "le_acme", lunch, map[string]any{"action": "approve"}).gen1(t, 404, "not_found")
	deferred(t, act(acmeRO, "", "task_acmepixelforge", map[string]any{"action": "approve"}))
	if task := arMap(e.get("/task/task_acmepixelforge", acmeKey, "").status(t, 200).json(t),
		"task"); task["status"] != "action_required" {
		t.Fatalf("a deferred act changed the task: %v", task)
	}
}

func TestPaymentApprovalTaskReleasesOrCancelsItsPayment(t *testing.T) {
	for _, c := range []struct{ action, task, txn string }{
		{"approve", "completed", "pending"},
		{"reject", "rejected", "canceled"},
	} {
		t.Run(c.action, func(t *testing.T) {
			e := newEnv(t, options{})
			txn := e.get("/transaction/txn_acmepixelforgehold", acmeKey, "").status(t, 200).json(t)
			if txn["detailedStatus"] != "pending_approval" {
				t.Fatalf("held payment = %v", txn)
			}
			arAs(e, http.MethodPost, "/task/task_acmepixelforge/act", bobKey, "le_acme",
				map[string]any{"action": c.action}).status(t, 200)
			task := arMap(arAs(e, http.MethodGet, "/task/task_acmepixelforge", bobKey, "le_acme", nil).status(t, 200).json(t),
				"task")
			if task["status"] != c.task || arMap(task, "data")["status"] != c.txn {
				t.Fatalf("task after %s = %v", c.action, task)
			}
			if got := e.get("/transaction/txn_acmepixelforgehold", acmeKey, "").status(t,
				200).json(t)["detailedStatus"]; got != c.txn {
				t.Fatalf("payment after %s is %v, want %s", c.action, got, c.txn)
			}
			if c.action == "approve" {
				advance(t, e, `{"by":"24h"}`)
				if got := e.get("/transaction/txn_acmepixelforgehold", acmeKey, "").status(t,
					200).json(t)["detailedStatus"]; got != "settled" {
					t.Fatalf("an approved payment is %v a day later", got)
				}
			}
		})
	}
}
