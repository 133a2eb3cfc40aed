package seed_test

import (
	"slices"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/expenses"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/seed"
)

// An expense report that names its reimbursement, review and task loads
// them as declared: no second payout, no second task, the payout finishing
// when declared; and the world exports them back as they were declared.
func TestDeclaredReimbursementsAndTasksLoadWithoutSideEffects(t *testing.T) {
	sc, err := scenario.Parse("expenses.yaml", []byte(`
name: expenses
clockStart: 2026-06-15T14:00:00Z
legalEntities: [{id: le_x, name: X}]
users:
  - {id: u_sub, name: Sam Submitter, email: sam@x.test, roles: [{legalEntityId: le_x, role: member}]}
  - {id: u_rev, name: Rita Reviewer, email: rita@x.test, roles: [{legalEntityId: le_x, role: admin}]}
accounts: [{id: sa_group_x, legalEntityId: le_x, name: Operating, type: debit, balanceCents: 1000000}]
userBankAccounts: [{id: ub_sub, userId: u_sub}]
transactions:
  - {id: txn_payout, accountId: sa_group_x, category: ach, amountCents: -4348, detailedStatus: pending, date: -2h,
     description: Reimbursement to Sam Submitter, memo: Expense report expense_report_paid}
expenseReports:
  - {id: expense_report_paid, legalEntityId: le_x, submittedByUserId: u_sub, amountCents: 4000, currency: EUR,
     fxRateToUsd: "0.92", fxRateUpdatedAt: -3d, merchantId: merchant_v2_uber, transactionDate: -3d, submittedAt: -1d,
     status: payment_processing, reviewedByUserId: u_rev, reviewId: expense_report_review_kept, reviewedAt: -2h,
     transactionId: txn_payout, payoutAt: +20h, updatedAt: -2h, destinationId: ub_sub}
  - {id: expense_report_open, legalEntityId: le_x, submittedByUserId: u_sub, amountCents: 900,
     merchantId: merchant_v2_uber, submittedAt: -5h, memo: Cab}
tasks:
  - {id: task_done, legalEntityId: le_x, type: expense_submission, expenseReportId: expense_report_paid,
     assignees: [u_rev], createdAt: -1d, updatedAt: -2h, data: {amountCents: 4000, note: kept}}
  - {id: task_open, legalEntityId: le_x, type: expense_submission, expenseReportId: expense_report_open,
     createdAt: -5h, updatedAt: -4h}
`))
	if err != nil {
		t.Fatal(err)
	}
	w := enginetest.MustWorld(t, sc)
	var out *scenario.Scenario
	enginetest.Must(t, w.View(func(op *kernel.Op) (err error) {
		out, err = seed.Export(op)
		return err
	}))
	payouts := slices.DeleteFunc(slices.Clone(out.Transactions), func(t scenario.Transaction) bool {
		return t.Category != "ach"
	})
	if len(payouts) != 1 || payouts[0].ID != "txn_payout" {
		t.Fatalf("the world holds the payouts %+v, want txn_payout alone", payouts)
	}
	start := time.Date(2026, 6, 15, 14, 0, 0, 0, time.UTC)
	at := func(d time.Duration) string { return start.Add(d).Format(time.RFC3339Nano) }
	paid := out.ExpenseReports[0]
	if paid.ID != "expense_report_paid" || paid.TransactionID != "txn_payout" ||
		paid.ReviewID != "expense_report_review_kept" || paid.ReviewedAt != at(-2*time.Hour) ||
		paid.PayoutAt != at(20*time.Hour) || paid.UpdatedAt != at(-2*time.Hour) ||
		paid.FxRateUpdatedAt != at(-72*time.Hour) || paid.Status != expenses.StatusProcessing {
		t.Errorf("the reimbursed report exports as %+v", paid)
	}
	if len(out.Tasks) != 2 {
		t.Fatalf("tasks %+v, want the two declared", out.Tasks)
	}
	done, open := out.Tasks[0], out.Tasks[1]
	if done.ID != "task_done" || done.ExpenseReportID != "expense_report_paid" || done.Status != "completed" ||
		done.Data["note"] != "kept" || done.Data["amountCents"] != int64(4000) || done.Data["currency"] != "EUR" ||
		!slices.Equal(done.Assignees, []string{"u_rev"}) || done.UpdatedAt != at(-2*time.Hour) {
		t.Errorf("the reviewed report's task exports as %+v", done)
	}
	if open.ID != "task_open" || open.Status != "action_required" || open.Data["memo"] != "Cab" ||
		open.OriginatorUserID != "u_sub" || !slices.Equal(open.Assignees, []string{"u_rev"}) ||
		open.CreatedAt != at(-5*time.Hour) || open.UpdatedAt != at(-4*time.Hour) {
		t.Errorf("the open report's task exports as %+v", open)
	}

	if _, err := w.Advance(start.Add(19 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	if r := storedReport(t, w, "expense_report_paid"); r.Status != expenses.StatusProcessing {
		t.Fatalf("before payoutAt the report is %s", r.Status)
	}
	if _, err := w.Advance(start.Add(21 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	r := storedReport(t, w, "expense_report_paid")
	var txn *ledger.Transaction
	enginetest.Must(t, w.View(func(op *kernel.Op) (err error) {
		txn, _, err = ledger.FindTransaction(op, "txn_payout")
		return err
	}))
	if r.Status != expenses.StatusCompleted || txn.DetailedStatus != "settled" {
		t.Errorf("after payoutAt the report is %s and its payout %s", r.Status, txn.DetailedStatus)
	}
}

// storedReport reads an expense report as the world stores it.
func storedReport(t *testing.T, w *kernel.World, id string) expenses.Report {
	t.Helper()
	var r expenses.Report
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		_, err := op.Get(expenses.KindReport, id, &r)
		return err
	}))
	return r
}
