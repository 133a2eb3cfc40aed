package scenario

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
)

// receivables checks invoice series and settings, user bank accounts,
// custom merchants, expense reports and tasks.
func (v *validator) receivables() {
	v.invoiceSeries()
	v.spend()
	v.tasks()
}

func (v *validator) invoiceSeries() {
	for i, s := range v.sc.InvoiceSeries {
		p := fmt.Sprintf("invoiceSeries[%d]", i)
		owner, _ := v.owner("account", s.AccountID)
		if s.CustomerID == "" && s.ContactID == "" {
			v.add(p, "needs customerId or contactId")
		}
		if o, ok := v.owner("customer", s.CustomerID); ok {
			v.sameEntity(p+".customerId", owner, o)
		}
		if o, ok := v.owner("contact", s.ContactID); ok {
			v.sameEntity(p+".contactId", owner, o)
		}
		v.recurrence(p+".recurrence", s.Recurrence)
		if s.PaymentTermsDays < 0 {
			v.add(p+".paymentTermsDays", "must be 0 or more")
		}
		if s.Timezone != "" && !fixtures.CanonicalZone(s.Timezone) {
			v.add(p+".timezone", "%q is not a canonical IANA time zone", s.Timezone)
		}
		v.time(p+".startDate", s.StartDate)
		v.seriesRecord(p, s)
		if e := s.End; e != nil {
			if e.Type == "after_count" && e.Count < 1 {
				v.add(p+".end.count", "must be at least 1")
			}
			if _, err := time.Parse(time.DateOnly, e.Date); e.Type == "on_date" && err != nil {
				v.add(p+".end.date", "must be a YYYY-MM-DD date")
			}
		}
	}
}

func (v *validator) recurrence(p string, r Recurrence) {
	if r.Type == "weekly" || r.Type == "monthly_nth_weekday" {
		if r.DayOfWeek == nil || *r.DayOfWeek < 0 || *r.DayOfWeek > 6 {
			v.add(p+".dayOfWeek", "must be 0 (Sunday) to 6 (Saturday)")
		}
	}
	if r.Type == "monthly_day_of_month" && (r.DayOfMonth == nil || *r.DayOfMonth < 1 || *r.DayOfMonth > 31) {
		v.add(p+".dayOfMonth", "must be 1 to 31")
	}
	if r.Type == "monthly_nth_weekday" {
		n, err := strconv.Atoi(fmt.Sprint(r.Nth))
		if fmt.Sprint(r.Nth) != "last" && (err != nil || n < 1 || n > 4) {
			v.add(p+".nth", "must be 1 to 4 or last")
		}
	}
}

func (v *validator) spend() {
	for i, b := range v.sc.UserBankAccounts {
		v.prefixed(fmt.Sprintf("userBankAccounts[%d].id", i), b.ID, "ub_")
	}
	for i, m := range v.sc.CustomMerchants {
		v.prefixed(fmt.Sprintf("customMerchants[%d].id", i), m.ID, "custom_merchant_")
	}
	for i, r := range v.sc.ExpenseReports {
		v.expenseReport(fmt.Sprintf("expenseReports[%d]", i), r)
	}
}

func (v *validator) expenseReport(p string, r ExpenseReport) {
	v.prefixed(p+".id", r.ID, "expense_report_")
	if r.AmountCents <= 0 {
		v.add(p+".amountCents", "must be a positive amount in cents")
	}
	if r.Currency != "" && r.Currency != "USD" && r.FxRateToUsd == "" {
		v.add(p+".fxRateToUsd", "is required for a currency other than USD")
	}
	v.time(p+".transactionDate", r.TransactionDate)
	v.time(p+".submittedAt", r.SubmittedAt)
	if o, ok := v.owner("custom_merchant", r.MerchantID); ok {
		v.sameEntity(p+".merchantId", r.LegalEntityID, o)
	}
	if o, ok := v.owner("user_bank_account", r.DestinationID); ok && o != r.SubmittedByUserID {
		v.add(p+".destinationId", "belongs to user %s, not the submitter", o)
	}
	reviewed := r.Status != "" && r.Status != "pending_review" && r.Status != "cancelled"
	if reviewed && r.ReviewedByUserID == "" {
		v.add(p+".reviewedByUserId", "is required once the report is reviewed")
	}
	if reviewed && r.ReviewedByUserID != "" && r.ReviewedByUserID == r.SubmittedByUserID {
		v.add(p+".reviewedByUserId", "a report cannot be reviewed by its submitter")
	}
	if r.Status == "rejected" && strings.TrimSpace(r.RejectionReason) == "" {
		v.add(p+".rejectionReason", "is required when the report is rejected")
	}
	v.time(p+".fxRateUpdatedAt", r.FxRateUpdatedAt)
	v.time(p+".reviewedAt", r.ReviewedAt)
	v.time(p+".payoutAt", r.PayoutAt)
	v.time(p+".updatedAt", r.UpdatedAt)
	v.prefixed(p+".reviewId", r.ReviewID, "expense_report_review_")
	for _, kv := range [][2]string{{"reviewId", r.ReviewID}, {"reviewedAt", r.ReviewedAt}} {
		if !reviewed && kv[1] != "" {
			v.add(p+"."+kv[0], "a report %s has no review", cmp.Or(r.Status, "pending_review"))
		}
	}
	if paid := reviewed && r.Status != "rejected"; r.TransactionID != "" && !paid {
		v.add(p+".transactionId", "only an approved report (payment_processing, payment_completed or "+
			"payment_failed) has a reimbursement")
	}
	if r.PayoutAt != "" && r.Status != "payment_processing" {
		v.add(p+".payoutAt", "only a payment_processing report waits for its reimbursement")
	}
}

func (v *validator) tasks() {
	reports := map[string]string{} // expense report id → the path of the task naming it
	for i, t := range v.sc.Tasks {
		p := fmt.Sprintf("tasks[%d]", i)
		v.prefixed(p+".id", t.ID, "task_")
		v.time(p+".createdAt", t.CreatedAt)
		v.time(p+".updatedAt", t.UpdatedAt)
		if v.expenseTask(p, t, reports) || t.Type != "payment_approval" {
			continue
		}
		if t.TransactionID == "" {
			v.add(p+".transactionId", "is required for a payment_approval task")
			continue
		}
		i := slices.IndexFunc(v.sc.Transactions, func(x Transaction) bool { return x.ID == t.TransactionID })
		if (t.Status == "" || t.Status == "action_required") && i >= 0 &&
			v.sc.Transactions[i].DetailedStatus != "pending_approval" {
			v.add(p+".transactionId", "a payment_approval task that needs action names a pending_approval transaction")
		}
	}
}

// expenseTask checks the report an expense_submission task names, once:
// a report named by a task opens none of its own. It reports whether the
// task is an expense_submission.
func (v *validator) expenseTask(p string, t Task, reports map[string]string) bool {
	if t.Type != "expense_submission" {
		if t.ExpenseReportID != "" {
			v.add(p+".expenseReportId", "only an expense_submission task names an expense report")
		}
		return false
	}
	if t.ExpenseReportID == "" {
		v.add(p+".expenseReportId", "is required for an expense_submission task (a report pending review "+
			"opens its own: declare the report alone)")
		return true
	}
	if o, ok := v.owner("expense_report", t.ExpenseReportID); ok {
		v.sameEntity(p+".expenseReportId", t.LegalEntityID, o)
	}
	if at, dup := reports[t.ExpenseReportID]; dup {
		v.add(p+".expenseReportId", "expense report %s has its task at %s already", t.ExpenseReportID, at)
	}
	reports[t.ExpenseReportID] = p
	return true
}
