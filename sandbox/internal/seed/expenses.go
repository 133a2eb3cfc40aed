package seed

import (
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/expenses"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// reportTasks gives the tasks that name an expense report their ids
// first: the report is saved naming its task, and opens none.
func (l *loader) reportTasks() error {
	l.taskIDs = make([]string, len(l.sc.Tasks))
	for i, t := range l.sc.Tasks {
		if t.ExpenseReportID == "" {
			continue
		}
		id, err := l.id(t.ID, expenses.PrefixTask)
		if err != nil {
			return err
		}
		l.taskIDs[i] = id
	}
	return nil
}

// expenseReports loads declared reports in their statuses: reviewed ones
// carry their review, paid ones their reimbursement on the ledger, and a
// report still in payment_processing was approved as the world starts and
// finishes ExpensePayoutDelay later.
func (l *loader) expenseReports() error {
	if err := l.reportTasks(); err != nil {
		return err
	}
	for _, s := range l.sc.ExpenseReports {
		if err := l.expenseReport(s); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) expenseReport(s scenario.ExpenseReport) error {
	tx := l.createdAt(s.TransactionDate, l.op.Now.AddDate(0, 0, -3))
	sub := l.createdAt(s.SubmittedAt, tx.Add(24*time.Hour))
	if sub.After(l.op.Now) {
		sub = l.op.Now
	}
	r := &expenses.Report{
		LegalEntityID:     s.LegalEntityID,
		SubmittedByUserID: s.SubmittedByUserID,
		AmountCents:       s.AmountCents,
		Currency:          s.Currency,
		TransactionDate:   tx,
		SubmittedAt:       sub,
		DestinationID:     s.DestinationID,
		Status:            s.Status,
		NoReceiptReason:   s.NoReceiptReason,
	}
	if r.Currency == "" {
		r.Currency = "USD"
	}
	if r.NoReceiptReason == "" {
		r.NoReceiptReason = "Receipt lost"
	}
	if s.Memo != "" {
		r.Memo = &s.Memo
	}
	if s.FxRateToUsd != "" {
		r.FxRateToUsd = &s.FxRateToUsd
	}
	if s.FxRateUpdatedAt != "" {
		at := l.time(s.FxRateUpdatedAt)
		r.FxRateUpdatedAt = &at
	}
	r.Timestamp = l.createdAt(s.UpdatedAt, time.Time{})
	if strings.HasPrefix(s.MerchantID, expenses.PrefixCustomMerchant) {
		r.CustomMerchantID = s.MerchantID
	} else {
		r.MerchantV2ID = s.MerchantID
	}
	if r.DestinationID == "" {
		sources, err := kernel.All[expenses.UserBankAccount](l.op, expenses.KindUserBankAccount,
			kernel.IndexPrefix(expenses.IndexUserBank, r.SubmittedByUserID))
		if err != nil || len(sources) == 0 {
			return l.problem("expenseReports", "user %s has no bank account (%v)", r.SubmittedByUserID, err)
		}
		r.DestinationID = sources[0].ID
	}
	id, err := l.id(s.ID, expenses.PrefixReport)
	if err != nil {
		return err
	}
	r.ID = id
	for i, t := range l.sc.Tasks {
		if t.ExpenseReportID == id {
			r.TaskID = l.taskIDs[i]
		}
	}
	if err := l.reviewed(r, s); err != nil {
		return err
	}
	return expenses.Submit(l.op, r, r.ID)
}

// reviewed gives a reviewed report its review and, once approved, its
// reimbursement: the declared transaction, or one posted now.
func (l *loader) reviewed(r *expenses.Report, s scenario.ExpenseReport) error {
	if r.Status == "" || r.Status == expenses.StatusPending || r.Status == expenses.StatusCancelled {
		return nil
	}
	at := r.SubmittedAt.Add(24 * time.Hour)
	if r.Status == expenses.StatusProcessing || at.After(l.op.Now) {
		at = l.op.Now
	}
	at = l.createdAt(s.ReviewedAt, at)
	id, err := l.id(s.ReviewID, expenses.PrefixReview)
	if err != nil {
		return err
	}
	r.Review = &expenses.ExpenseReview{ID: id, Decision: "approved", ReviewedByUserID: s.ReviewedByUserID,
		ReviewedAt: at}
	if r.Status == expenses.StatusRejected {
		reason := s.RejectionReason
		r.Review.Decision, r.Review.RejectionReason = "rejected", &reason
		return nil
	}
	if err := l.reimbursement(r, s, at); err != nil {
		return err
	}
	if r.Status == expenses.StatusProcessing {
		_, err = l.op.Schedule(expenses.EventPayout, l.createdAt(s.PayoutAt, at.Add(expenses.PayoutDelay)),
			map[string]string{"expenseReportId": r.ID})
	}
	return err
}

// reimbursement links an approved report to its payout: the declared
// transaction, or a new one from the legal entity's payout source, made
// when the review was (and settled or failed a day later).
func (l *loader) reimbursement(r *expenses.Report, s scenario.ExpenseReport, at time.Time) error {
	if s.TransactionID != "" {
		t, ok, err := ledger.FindTransaction(l.op, s.TransactionID)
		if err != nil {
			return err
		}
		if !ok {
			return l.problem("expenseReports", "report %s: no transaction %s", r.ID, s.TransactionID)
		}
		r.TransactionID = t.ID
		return nil
	}
	acc, va, err := expenses.PayoutSource(l.op, r.LegalEntityID)
	if err != nil {
		return err
	}
	detailed, made := map[string]string{expenses.StatusProcessing: "pending", expenses.StatusCompleted: "settled",
		expenses.StatusFailed: "failed"}[r.Status], at
	if r.Status != expenses.StatusProcessing {
		made = at.Add(expenses.PayoutDelay)
		if made.After(l.op.Now) {
			made = l.op.Now
		}
	}
	t, err := expenses.PayoutTransaction(l.op, r, acc, va, expenses.UsdCents(r), detailed, made)
	if err != nil {
		return err
	}
	r.TransactionID = t.ID
	return nil
}
