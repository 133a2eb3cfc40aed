package scenario

import (
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
	for i, b := range v.sc.UserBankAccounts {
		v.id(fmt.Sprintf("userBankAccounts[%d].id", i), "user_bank_account", b.ID, b.UserID)
	}
	for i, m := range v.sc.CustomMerchants {
		v.id(fmt.Sprintf("customMerchants[%d].id", i), "custom_merchant", m.ID, m.LegalEntityID)
	}
	for i, s := range v.sc.InvoiceSeries {
		v.id(fmt.Sprintf("invoiceSeries[%d].id", i), "invoice_series", s.ID, "")
	}
	for i, r := range v.sc.ExpenseReports {
		v.id(fmt.Sprintf("expenseReports[%d].id", i), "expense_report", r.ID, r.LegalEntityID)
	}
	for i, t := range v.sc.Tasks {
		v.id(fmt.Sprintf("tasks[%d].id", i), "task", t.ID, t.LegalEntityID)
	}
	v.invoiceSeries()
	v.spend()
	v.tasks()
}

func (v *validator) prefixed(path, id, prefix string) {
	if id != "" && !strings.HasPrefix(id, prefix) {
		v.add(path, "%q must start with %s", id, prefix)
	}
}

func (v *validator) invoiceSeries() {
	for i, s := range v.sc.InvoiceSeries {
		p := fmt.Sprintf("invoiceSeries[%d]", i)
		owner := ""
		if v.required(p+".accountId", s.AccountID) {
			owner, _ = v.ref(p+".accountId", "account", s.AccountID)
		}
		if s.CustomerID == "" && s.ContactID == "" {
			v.add(p, "needs customerId or contactId")
		}
		if o, ok := v.ref(p+".customerId", "customer", s.CustomerID); ok {
			v.sameEntity(p+".customerId", owner, o)
		}
		if o, ok := v.ref(p+".contactId", "contact", s.ContactID); ok {
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
		if e := s.End; e != nil {
			v.enum(p+".end.type", e.Type, "never", "after_count", "on_date")
			if e.Type == "after_count" && e.Count < 1 {
				v.add(p+".end.count", "must be at least 1")
			}
			if _, err := time.Parse(time.DateOnly, e.Date); e.Type == "on_date" && err != nil {
				v.add(p+".end.date", "must be a YYYY-MM-DD date")
			}
		}
		if len(s.LineItems) == 0 {
			v.add(p+".lineItems", "a series needs at least one line item")
		}
	}
	for i, s := range v.sc.InvoiceSettings {
		p := fmt.Sprintf("invoiceSettings[%d]", i)
		if v.required(p+".legalEntityId", s.LegalEntityID) {
			v.ref(p+".legalEntityId", "legal_entity", s.LegalEntityID)
		}
		v.required(p+".companyName", s.CompanyName)
		v.required(p+".email", s.Email)
		if s.Address == nil {
			v.add(p+".address", "is required")
		}
	}
}

func (v *validator) recurrence(p string, r Recurrence) {
	v.required(p+".type", r.Type)
	v.enum(p+".type", r.Type, "weekly", "monthly_day_of_month", "monthly_nth_weekday")
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

var userBankStatuses = []string{"active", "login_required", "inactive", "unknown_error"}

func (v *validator) spend() {
	for i, b := range v.sc.UserBankAccounts {
		p := fmt.Sprintf("userBankAccounts[%d]", i)
		if v.required(p+".id", b.ID) {
			v.prefixed(p+".id", b.ID, "ub_")
		}
		if v.required(p+".userId", b.UserID) {
			v.ref(p+".userId", "user", b.UserID)
		}
		v.enum(p+".status", b.Status, userBankStatuses...)
		v.enum(p+".subtype", b.Subtype, "checking", "savings")
	}
	for i, m := range v.sc.CustomMerchants {
		p := fmt.Sprintf("customMerchants[%d]", i)
		if v.required(p+".id", m.ID) {
			v.prefixed(p+".id", m.ID, "custom_merchant_")
		}
		if v.required(p+".legalEntityId", m.LegalEntityID) {
			v.ref(p+".legalEntityId", "legal_entity", m.LegalEntityID)
		}
		v.required(p+".merchantName", m.MerchantName)
		v.ref(p+".addedByUserId", "user", m.AddedByUserID)
	}
	for i, r := range v.sc.ExpenseReports {
		v.expenseReport(fmt.Sprintf("expenseReports[%d]", i), r)
	}
}

var expenseStatuses = []string{"pending_review", "cancelled", "rejected", "payment_processing", "payment_completed", "payment_failed"}

func (v *validator) expenseReport(p string, r ExpenseReport) {
	v.prefixed(p+".id", r.ID, "expense_report_")
	if v.required(p+".legalEntityId", r.LegalEntityID) {
		v.ref(p+".legalEntityId", "legal_entity", r.LegalEntityID)
	}
	if v.required(p+".submittedByUserId", r.SubmittedByUserID) {
		v.ref(p+".submittedByUserId", "user", r.SubmittedByUserID)
	}
	if r.AmountCents <= 0 {
		v.add(p+".amountCents", "must be a positive amount in cents")
	}
	if r.Currency != "" && r.Currency != "USD" && r.FxRateToUsd == "" {
		v.add(p+".fxRateToUsd", "is required for a currency other than USD")
	}
	v.time(p+".transactionDate", r.TransactionDate)
	v.time(p+".submittedAt", r.SubmittedAt)
	if strings.HasPrefix(r.MerchantID, "custom_merchant_") {
		if o, ok := v.ref(p+".merchantId", "custom_merchant", r.MerchantID); ok {
			v.sameEntity(p+".merchantId", r.LegalEntityID, o)
		}
	} else if _, ok := v.cat.Merchant(r.MerchantID); !ok {
		v.add(p+".merchantId", "%q is neither a merchant of the fixtures catalogue nor a declared custom merchant", r.MerchantID)
	}
	if o, ok := v.ref(p+".destinationId", "user_bank_account", r.DestinationID); ok && o != r.SubmittedByUserID {
		v.add(p+".destinationId", "belongs to user %s, not the submitter", o)
	}
	v.enum(p+".status", r.Status, expenseStatuses...)
	reviewed := r.Status != "" && r.Status != "pending_review" && r.Status != "cancelled"
	if reviewed && v.required(p+".reviewedByUserId", r.ReviewedByUserID) {
		v.ref(p+".reviewedByUserId", "user", r.ReviewedByUserID)
		if r.ReviewedByUserID == r.SubmittedByUserID {
			v.add(p+".reviewedByUserId", "a report cannot be reviewed by its submitter")
		}
	}
	if r.Status == "rejected" {
		v.required(p+".rejectionReason", r.RejectionReason)
	}
}

var taskStatuses = []string{"action_required", "pending", "completed", "rejected", "expired", "canceled"}

func (v *validator) tasks() {
	for i, t := range v.sc.Tasks {
		p := fmt.Sprintf("tasks[%d]", i)
		v.prefixed(p+".id", t.ID, "task_")
		if v.required(p+".legalEntityId", t.LegalEntityID) {
			v.ref(p+".legalEntityId", "legal_entity", t.LegalEntityID)
		}
		v.required(p+".type", t.Type)
		v.enum(p+".status", t.Status, taskStatuses...)
		for j, u := range t.Assignees {
			v.ref(fmt.Sprintf("%s.assignees[%d]", p, j), "user", u)
		}
		v.ref(p+".originatorUserId", "user", t.OriginatorUserID)
		v.time(p+".createdAt", t.CreatedAt)
		if t.Type == "expense_submission" {
			v.add(p+".type", "expense_submission tasks come from expense reports pending review; declare the report instead")
		}
		if t.Type != "payment_approval" {
			continue
		}
		if v.required(p+".transactionId", t.TransactionID) {
			v.ref(p+".transactionId", "transaction", t.TransactionID)
			i := slices.IndexFunc(v.sc.Transactions, func(x Transaction) bool { return x.ID == t.TransactionID })
			if (t.Status == "" || t.Status == "action_required") && i >= 0 && v.sc.Transactions[i].DetailedStatus != "pending_approval" {
				v.add(p+".transactionId", "a payment_approval task that needs action names a pending_approval transaction")
			}
		}
	}
}
