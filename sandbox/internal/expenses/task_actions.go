package expenses

import (
	"slices"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

// TaskPaymentApprovalDelay is how long an approved payment stays pending
// before it settles.
const TaskPaymentApprovalDelay = 24 * time.Hour

// ActOnTask takes an action on a task the actor may see. An unknown or
// disabled action is refused with 400. Acting on an expense_submission
// approves or rejects its report; on a payment_approval it releases or
// cancels its transaction.
func ActOnTask(op *kernel.Op, a *kernel.Actor, id, action string, payload map[string]any) error {
	t, err := TaskOf(op, a, id)
	if err != nil {
		return err
	}
	actions := TaskActions(t, &a.Principal)
	i := slices.IndexFunc(actions, func(x TaskAction) bool { return x.Key == action })
	if i < 0 {
		keys := make([]string, len(actions))
		for j, x := range actions {
			keys[j] = x.Key
		}
		return kernel.InvalidField("/action", "is not an action of a "+t.Type+" task ("+strings.Join(keys, ", ")+")")
	}
	if actions[i].IsDisabled {
		return kernel.InvalidField("/action", action+" is disabled: "+actions[i].Reason)
	}
	switch t.Type {
	case TaskExpenseSubmission:
		return actOnExpense(op, a, t, action, payload)
	case TaskPaymentApproval:
		return actOnPayment(op, t, action)
	}
	return finishTask(op, t, action)
}

// finishTask closes a task by the action taken.
func finishTask(op *kernel.Op, t *Task, action string) error {
	t.Status = TaskCompleted
	if action == "reject" {
		t.Status = TaskRejected
	}
	return SaveTask(op, t)
}

func payloadText(payload map[string]any, key string) string {
	s, _ := payload[key].(string)
	return strings.TrimSpace(s)
}

// actOnExpense reviews the task's expense report: the reviewer is the
// caller's user, or payload.reviewedByUserId with a legal-entity key;
// rejecting needs payload.reason.
func actOnExpense(op *kernel.Op, a *kernel.Actor, t *Task, action string, payload map[string]any) error {
	reviewer := payloadText(payload, "reviewedByUserId")
	if a.User != nil {
		reviewer = a.User.ID
	}
	if reviewer == "" {
		return kernel.InvalidField("/payload/reviewedByUserId", "required with a legal-entity API key: the user who reviews")
	}
	r, err := expenseOf(op, t.LegalEntityID, t.RelatedID, "")
	if err != nil {
		return err
	}
	if action == "approve" {
		return approveExpense(op, r, reviewer, "/payload/reviewedByUserId")
	}
	reason := payloadText(payload, "reason")
	if reason == "" {
		return kernel.InvalidField("/payload/reason", "required to reject")
	}
	return rejectExpense(op, r, reviewer, reason, "/payload/reviewedByUserId")
}

// actOnPayment releases a transaction held for approval (it then settles
// after TaskPaymentApprovalDelay) or cancels it.
func actOnPayment(op *kernel.Op, t *Task, action string) error {
	id, _ := t.Data["transactionId"].(string)
	txn, ok, err := ledger.FindTransaction(op, id)
	if err != nil {
		return err
	}
	if ok && txn.DetailedStatus == "pending_approval" {
		if action == "approve" {
			if err := ledger.SetTransactionStatus(op, txn, "pending"); err != nil {
				return err
			}
			if err := ledger.ScheduleSettlement(op, txn, ledger.At(op.Now.Add(TaskPaymentApprovalDelay)),
				"settled"); err != nil {
				return err
			}
		} else if err := ledger.SetTransactionStatus(op, txn, "canceled"); err != nil {
			return err
		}
		t.Data["status"] = txn.DetailedStatus
	}
	return finishTask(op, t, action)
}

// Reviewers are who review a member's expense reports: the legal
// entity's admins and bookkeepers other than the submitter, else every
// other member.
func Reviewers(op *kernel.Op, legalEntityID, submitter string) ([]string, error) {
	users, err := op.LegalEntityUsers(legalEntityID)
	if err != nil {
		return nil, err
	}
	var reviewers, others []string
	for _, u := range users {
		if u.ID == submitter {
			continue
		}
		others = append(others, u.ID)
		if r := u.RoleOn(legalEntityID); r == "admin" || r == "bookkeeper" {
			reviewers = append(reviewers, u.ID)
		}
	}
	if len(reviewers) == 0 {
		return others, nil
	}
	return reviewers, nil
}

// ExpenseTaskStatus is the status of a report's task: open while the
// report waits for review, then completed, rejected or canceled with it.
func ExpenseTaskStatus(status string) string {
	switch status {
	case StatusPending:
		return TaskActionRequired
	case StatusRejected:
		return TaskRejected
	case StatusCancelled:
		return TaskCanceled
	}
	return TaskCompleted
}

// openExpenseTask opens the expense_submission task of a new report.
func openExpenseTask(op *kernel.Op, r *Report) error {
	assignees, err := Reviewers(op, r.LegalEntityID, r.SubmittedByUserID)
	if err != nil {
		return err
	}
	data, err := ExpenseTaskData(op, r)
	if err != nil {
		return err
	}
	t := &Task{
		LegalEntityID:    r.LegalEntityID,
		Type:             TaskExpenseSubmission,
		Status:           ExpenseTaskStatus(r.Status),
		Data:             data,
		AssigneeUserIDs:  assignees,
		OriginatorUserID: r.SubmittedByUserID,
		RelatedID:        r.ID,
		CreatedAt:        r.SubmittedAt,
	}
	if err := SaveTask(op, t); err != nil {
		return err
	}
	r.TaskID = t.ID
	return nil
}

// ExpenseTaskData is the data of a report's expense_submission task, as
// the report reads when it is submitted.
func ExpenseTaskData(op *kernel.Op, r *Report) (map[string]any, error) {
	data := map[string]any{"expenseReportId": r.ID, "submittedByUserId": r.SubmittedByUserID, "amountCents": r.AmountCents,
		"currency": r.Currency, "transactionDate": r.TransactionDate.Format("2006-01-02")}
	if m, ok := op.W.Catalog.Merchant(r.MerchantV2ID); ok {
		data["merchantName"] = m.Name
	} else if r.CustomMerchantID != "" {
		var cm CustomMerchant
		if _, err := op.Get(KindCustomMerchant, r.CustomMerchantID, &cm); err != nil {
			return nil, err
		}
		data["merchantName"] = cm.MerchantName
	}
	if r.Memo != nil {
		data["memo"] = *r.Memo
	}
	return data, nil
}

// syncExpenseTask moves a report's task with the report: approved reports
// complete it, rejected ones reject it, cancelled ones cancel it.
func syncExpenseTask(op *kernel.Op, r *Report) error {
	if r.TaskID == "" {
		return nil
	}
	var t Task
	if ok, err := op.Get(KindTask, r.TaskID, &t); err != nil || !ok {
		return err
	}
	want := ExpenseTaskStatus(r.Status)
	if t.Status == want {
		return nil
	}
	t.Status = want
	return SaveTask(op, &t)
}
