package seed

import (
	"cmp"
	"encoding/json"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/expenses"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// expenses writes the expense reports and the tasks. A report names its
// review, its reimbursement (a transaction written with the others, which
// the load does not post again) and, while the reimbursement is under way,
// when it finishes; a task is written as it is, an expense_submission one
// naming its report, so the report opens no other.
func (x *exporter) expenses() error {
	payouts, err := x.due(expenses.EventPayout, "expenseReportId")
	if err != nil {
		return err
	}
	settles, err := x.due("transaction.settle", "transactionId")
	if err != nil {
		return err
	}
	reports, err := records[expenses.Report](x.op, expenses.KindReport)
	if err != nil {
		return err
	}
	for _, r := range reports {
		x.sc.ExpenseReports = append(x.sc.ExpenseReports, expenseReport(&r, payouts))
	}
	tasks, err := records[expenses.Task](x.op, expenses.KindTask)
	if err != nil {
		return err
	}
	for _, t := range tasks {
		s := scenario.Task{ID: t.ID, LegalEntityID: t.LegalEntityID, Type: t.Type, Status: t.Status,
			Assignees: t.AssigneeUserIDs, OriginatorUserID: t.OriginatorUserID, CreatedAt: stamp(t.CreatedAt),
			UpdatedAt: stamp(t.UpdatedAt)}
		switch t.Type {
		case expenses.TaskPaymentApproval:
			id, _ := t.Data["transactionId"].(string)
			s.TransactionID = cmp.Or(t.RelatedID, id)
			x.settlesAt(s.TransactionID, settles)
		case expenses.TaskExpenseSubmission:
			s.ExpenseReportID = t.RelatedID
		}
		if s.Data, err = freeFormOf(t.Data); err != nil {
			return err
		}
		x.sc.Tasks = append(x.sc.Tasks, s)
	}
	return nil
}

// expenseReport is a report as the scenario declares it.
func expenseReport(r *expenses.Report, payouts map[string]string) scenario.ExpenseReport {
	s := scenario.ExpenseReport{ID: r.ID, LegalEntityID: r.LegalEntityID, SubmittedByUserID: r.SubmittedByUserID,
		AmountCents: r.AmountCents, Currency: r.Currency, FxRateToUsd: deref(r.FxRateToUsd),
		FxRateUpdatedAt: stampPtr(r.FxRateUpdatedAt), TransactionDate: stamp(r.TransactionDate),
		SubmittedAt: stamp(r.SubmittedAt), MerchantID: cmp.Or(r.MerchantV2ID, r.CustomMerchantID),
		Memo: deref(r.Memo), DestinationID: r.DestinationID, NoReceiptReason: r.NoReceiptReason, Status: r.Status,
		TransactionID: r.TransactionID, PayoutAt: payouts[r.ID], UpdatedAt: stamp(r.Timestamp)}
	if v := r.Review; v != nil {
		s.ReviewID, s.ReviewedByUserID, s.ReviewedAt = v.ID, v.ReviewedByUserID, stamp(v.ReviewedAt)
		s.RejectionReason = deref(v.RejectionReason)
	}
	return s
}

// settlesAt carries when a released payment settles: the transaction a
// payment approval let go settles as it would have.
func (x *exporter) settlesAt(id string, settles map[string]string) {
	for i := range x.sc.Transactions {
		if t := &x.sc.Transactions[i]; t.ID == id && settles[id] != "" {
			t.SettlesAt = settles[id]
		}
	}
}

// due is when each scheduled event of a kind falls, by the id its payload
// names under key. A settlement to another status than settled is left
// out: a scenario's settlesAt settles.
func (x *exporter) due(kind, key string) (map[string]string, error) {
	at := map[string]string{}
	req := kernel.PageRequest{Size: 1000}
	for {
		page, err := kernel.List(x.op, kernel.Events.Name, kernel.IndexPrefix(kernel.IndexEventDue), req,
			func(ev *kernel.Event) bool { return ev.Kind == kind })
		if err != nil {
			return nil, err
		}
		for _, ev := range page.Items {
			var p map[string]any
			_ = json.Unmarshal(ev.Payload, &p)
			id, _ := p[key].(string)
			status, _ := p["detailedStatus"].(string)
			if id != "" && at[id] == "" && cmp.Or(status, "settled") == "settled" {
				at[id] = stamp(ev.At)
			}
		}
		if page.Next == "" {
			return at, nil
		}
		req.After = page.Next
	}
}

// deref is an optional text, "" for none.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
