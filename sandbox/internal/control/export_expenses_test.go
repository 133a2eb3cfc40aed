package control_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// randomExpenses sends a seeded sequence of expense writes: reports
// submitted in USD and in euros, at catalogue and custom merchants, to
// active and inactive bank accounts, then edited, approved, rejected and
// cancelled directly, in bulk or through their tasks; the payment approval
// task decided; and the clock moved so reimbursements complete or fail.
// It ends with reports in every status and a reimbursement under way.
func randomExpenses(t *testing.T, e *apitest.Env, seed int64) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(seed), 35))
	const acme = apitest.AcmeKey
	var sources struct {
		Data []struct{ ID string } `json:"data"`
	}
	e.Get("/expense-report/reimbursement-sources?userId=u_carol", acme, "").Status(t, 200).Decode(t, &sources)
	destinations := map[string][]string{"u_bob": {"ub_bobchecking", "ub_bobsavingsold"}, "u_carol": {sources.Data[0].ID}}
	reviewers := map[string]string{"u_bob": "u_alice", "u_carol": "u_alice"}
	var pending []string
	submit := func(i int) {
		user := []string{"u_bob", "u_carol"}[r.IntN(2)]
		body := map[string]any{"submittedByUserId": user, "amountCents": 100 + r.IntN(40000),
			"transactionDate": "2026-06-10T09:30:00Z", "destinationId": destinations[user][r.IntN(len(destinations[user]))],
			"merchant":        map[string]any{"type": "merchantV2", "id": "merchant_v2_uber"},
			"noReceiptReason": fmt.Sprintf("Lost receipt %d", i)}
		if r.IntN(2) == 0 {
			body["merchant"] = map[string]any{"type": "customMerchant", "id": "custom_merchant_acmecornerdeli"}
			body["memo"] = fmt.Sprintf("Team lunch %d", i)
		}
		if r.IntN(3) == 0 {
			body["currency"], body["fxRateToUsd"], body["fxRateUpdatedAt"] = "EUR", "0.92", "2026-06-10T08:00:00Z"
		}
		var out struct {
			ExpenseReport struct{ ID string } `json:"expenseReport"`
		}
		e.Post("/expense-report", acme, "", "", body).Status(t, 200).Decode(t, &out)
		pending = append(pending, out.ExpenseReport.ID+" "+user)
	}
	take := func() (id, user string) {
		i := r.IntN(len(pending))
		fmt.Sscan(pending[i], &id, &user)
		pending = slices.Delete(pending, i, i+1)
		return id, user
	}
	for i := range 14 {
		if len(pending) == 0 {
			submit(i)
			continue
		}
		switch op := r.IntN(9); op {
		case 0, 1:
			submit(i)
		case 2:
			id, user := take()
			e.Post("/expense-report/"+id+"/approve", acme, "", "", map[string]any{"reviewedByUserId": reviewers[user]}).
				Status(t, 200)
		case 3:
			id, user := take()
			e.Post("/expense-report/"+id+"/reject", acme, "", "", map[string]any{"reviewedByUserId": reviewers[user],
				"reason": fmt.Sprintf("Out of policy %d", i)}).Status(t, 200)
		case 4:
			id, _ := take()
			e.Patch("/expense-report/"+id, acme, "", map[string]any{"updatedByUserId": "u_alice",
				"status": "cancelled"}).Status(t, 200)
		case 5:
			id, user := pending[len(pending)-1], ""
			fmt.Sscan(id, &id, &user)
			e.Patch("/expense-report/"+id, acme, "", map[string]any{"updatedByUserId": user,
				"amountCents": 500 + r.IntN(9000), "memo": nil}).Status(t, 200)
		case 6:
			id, user := take()
			var tasks struct {
				Items []struct{ ID string } `json:"items"`
			}
			e.Get("/task?filter:attr[expenseReportId]="+id, acme, "").Status(t, 200).Decode(t, &tasks)
			action := map[string]any{"action": "approve", "payload": map[string]any{"reviewedByUserId": reviewers[user]}}
			if r.IntN(2) == 0 {
				action = map[string]any{"action": "reject", "payload": map[string]any{"reviewedByUserId": reviewers[user],
					"reason": "Duplicate"}}
			}
			e.Post("/task/"+tasks.Items[0].ID+"/act", acme, "", "", action).Status(t, 200)
		case 7:
			id, _ := take()
			e.Patch("/expense-report/bulk-action", acme, "", map[string]any{"action": "approve",
				"expenseReportIds": []string{id}, "reviewedByUserId": "u_alice"}).Status(t, 200)
		default:
			apitest.Advance(t, e, fmt.Sprintf(`{"by":"%dh"}`, 1+r.IntN(30)))
		}
	}
	decision := []string{"approve", "reject"}[seed%2]
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/task/task_acmepixelforge/act", Key: acme,
		Body: map[string]any{"action": decision, "payload": map[string]any{}}}).Status(t, 200)
	if len(pending) == 0 {
		submit(14)
	}
	id, user := take()
	e.Post("/expense-report/"+id+"/approve", acme, "", "", map[string]any{"reviewedByUserId": reviewers[user]}).
		Status(t, 200)
}

// TestExportedExpensesGoOnAlike: after an export loads, moving both
// worlds' clocks on finishes the same reimbursements the same way, and
// the expense reports and tasks answer alike again.
func TestExportedExpensesGoOnAlike(t *testing.T) {
	e := apitest.New(t, apitest.Options{})
	randomExpenses(t, e, 0)
	copy, _ := exported(t, e)
	processing := func(env *apitest.Env) int {
		n := 0
		for _, it := range apitest.WalkItems(t, env, apitest.AcmeKey, "", "/expense-report") {
			if it["status"] == "payment_processing" {
				n++
			}
		}
		return n
	}
	if processing(e) == 0 {
		t.Fatal("no reimbursement is under way to carry")
	}
	for _, env := range []*apitest.Env{e, copy} {
		apitest.Advance(t, env, `{"by":"48h"}`)
	}
	if n := processing(copy); n != 0 {
		t.Errorf("two days on, %d reimbursements of the loaded world are still under way", n)
	}
	// The payment its approval task released settles in both worlds.
	released := func(env *apitest.Env) any {
		return env.Get("/transaction/txn_acmepixelforgehold", apitest.AcmeKey, "").JSON(t)["detailedStatus"]
	}
	if a, b := released(e), released(copy); a != "settled" || b != a {
		t.Errorf("two days on, the released payment is %v, in the loaded world %v", a, b)
	}
	var routes []string
	for _, r := range getRoutes(t) {
		if strings.HasPrefix(r, "/expense-report") || strings.HasPrefix(r, "/task") {
			routes = append(routes, r)
		}
	}
	ids := identities(t, e)
	a := walker{t: t, base: e.Server.URL}.walk(ids, routes)
	b := walker{t: t, base: copy.Server.URL}.walk(ids, routes)
	if len(a) != len(b) {
		t.Fatalf("the walk read %d answers of the world, %d of the loaded one", len(a), len(b))
	}
	for i := range a {
		if a[i].where() != b[i].where() || a[i].status != b[i].status ||
			!bytes.Equal(unnumbered(a[i].body), unnumbered(b[i].body)) {
			t.Fatalf("GET %s as %s %s: %d %s\nloaded: %d %s", a[i].path, a[i].key, a[i].le, a[i].status, a[i].body,
				b[i].status, b[i].body)
		}
	}
}
