package record

import (
	"context"
	"slices"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// paid are the statuses of a report whose reimbursement was made.
var paid = []string{"payment_processing", "payment_completed", "payment_failed"}

// person is a user as an answer names them.
type person struct {
	ID   string
	Name struct{ Full string }
}

// expenseReports reads the expense reports, with the users, their bank
// accounts and the custom merchants they name, their reviews and their
// reimbursements (transactions recorded with the others).
func (rc *recording) expenseReports(ctx context.Context, le string) error {
	rs, err := items[struct {
		ID, SubmittedByUserID, Currency, FxRateToUsd, TransactionDate, SubmittedAt, Status    string
		MerchantV2ID, CustomMerchantID, Memo, DestinationID, NoReceiptReason, RejectionReason string
		FxRateUpdatedAt, Timestamp                                                            string
		AmountCents                                                                           int64
		SubmittedByUser, ReviewedByUser                                                       *person
		Review                                                                                *struct {
			ID, ReviewedByUserID, RejectionReason, ReviewedAt string
		}
		Merchant struct {
			CustomMerchant *struct{ ID, AddedByUserID, MerchantName string }
		}
		AggregatedTransaction *struct{ ID string }
		Destination           *struct {
			ID, AccountName, Mask, Subtype, Status string
			Institution                            struct{ Name string }
		}
	}](ctx, rc, "expense reports", "/expense-report", nil, le)
	if err != nil {
		return err
	}
	for _, r := range rs {
		out := scenario.ExpenseReport{ID: r.ID, LegalEntityID: le, SubmittedByUserID: r.SubmittedByUserID,
			AmountCents: r.AmountCents, Currency: r.Currency, FxRateToUsd: r.FxRateToUsd,
			TransactionDate: r.TransactionDate, SubmittedAt: r.SubmittedAt, MerchantID: r.MerchantV2ID,
			Memo: r.Memo, DestinationID: r.DestinationID, NoReceiptReason: r.NoReceiptReason, Status: r.Status,
			RejectionReason: r.RejectionReason, FxRateUpdatedAt: r.FxRateUpdatedAt, UpdatedAt: r.Timestamp}
		if r.SubmittedByUser != nil {
			rc.user(r.SubmittedByUserID, r.SubmittedByUser.Name.Full, le)
		}
		if v := r.Review; v != nil {
			out.ReviewedByUserID, out.ReviewID, out.ReviewedAt = v.ReviewedByUserID, v.ID, v.ReviewedAt
			if out.RejectionReason == "" {
				out.RejectionReason = v.RejectionReason
			}
		}
		if u := r.ReviewedByUser; u != nil {
			rc.user(u.ID, u.Name.Full, le)
			if out.ReviewedByUserID == "" {
				out.ReviewedByUserID = u.ID
			}
		}
		rc.user(out.SubmittedByUserID, "", le)
		rc.user(out.ReviewedByUserID, "", le)
		if m := r.Merchant.CustomMerchant; m != nil {
			out.MerchantID = m.ID
			if !slices.ContainsFunc(rc.sc.CustomMerchants, func(c scenario.CustomMerchant) bool { return c.ID == m.ID }) {
				rc.user(m.AddedByUserID, "", le)
				rc.sc.CustomMerchants = append(rc.sc.CustomMerchants, scenario.CustomMerchant{ID: m.ID,
					LegalEntityID: le, MerchantName: m.MerchantName, AddedByUserID: m.AddedByUserID})
			}
		}
		if out.MerchantID == "" {
			out.MerchantID = r.CustomMerchantID
		}
		if d := r.Destination; d != nil && !slices.ContainsFunc(rc.sc.UserBankAccounts,
			func(b scenario.UserBankAccount) bool { return b.ID == d.ID }) {
			rc.sc.UserBankAccounts = append(rc.sc.UserBankAccounts, scenario.UserBankAccount{ID: d.ID,
				UserID: r.SubmittedByUserID, AccountName: d.AccountName, InstitutionName: d.Institution.Name,
				Mask: rc.anon.digits("mask", d.Mask), Subtype: d.Subtype, Status: d.Status})
		}
		if t := r.AggregatedTransaction; t != nil && slices.Contains(paid, r.Status) {
			out.TransactionID = t.ID
		}
		rc.sc.ExpenseReports = append(rc.sc.ExpenseReports, out)
	}
	return nil
}

// tasks reads the tasks as they are: an expense submission names its
// report, a payment approval its transaction. Their assignees are not
// shown: a loaded task is assigned to its legal entity's reviewers.
func (rc *recording) tasks(ctx context.Context, le string) error {
	ts, err := items[struct {
		ID, Type, Status, Timestamp, UpdatedAt string
		Data                                   map[string]any
	}](ctx, rc, "tasks", "/task", nil, le)
	if err != nil {
		return err
	}
	for _, t := range ts {
		out := scenario.Task{ID: t.ID, LegalEntityID: le, Type: t.Type, Status: t.Status, CreatedAt: t.Timestamp,
			UpdatedAt: t.UpdatedAt, Data: whole(t.Data)}
		switch id, _ := t.Data["transactionId"].(string); t.Type {
		case "payment_approval":
			out.TransactionID = id
		case "expense_submission":
			out.ExpenseReportID, _ = t.Data["expenseReportId"].(string)
		}
		rc.sc.Tasks = append(rc.sc.Tasks, out)
	}
	if len(ts) > 0 {
		rc.note("tasks' assignees (a loaded task is assigned to its legal entity's reviewers)")
	}
	return nil
}
