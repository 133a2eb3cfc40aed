package sandbox

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
)

// ExpenseFilter narrows and orders the expense report list.
type ExpenseFilter struct {
	Status      string
	SubmittedBy string
	// Sort is submittedAt (the default), amountCents or transactionDate.
	Sort string
	Asc  bool
}

// ListExpenseReports lists the actor's expense reports, newest submission
// first unless the filter says otherwise.
func (op *Op) ListExpenseReports(a *Actor, f ExpenseFilter, req PageRequest) (Page[ExpenseReport], error) {
	d := map[string]string{}
	if f.Status != "" && !slices.Contains(ExpenseStatuses, f.Status) {
		d["filter:status"] = "must be one of " + strings.Join(ExpenseStatuses, ", ")
	}
	index, ok := map[string]string{"": indexExpenseSub, "submittedAt": indexExpenseSub,
		"amountCents": indexExpenseAmount, "transactionDate": indexExpenseTxDate}[f.Sort]
	if !ok {
		d["sort"] = "must be submittedAt, amountCents or transactionDate"
	}
	if len(d) > 0 {
		return Page[ExpenseReport]{}, Invalid(d)
	}
	req.Desc = !f.Asc
	return list(op, kindExpenseReport, IndexPrefix(index, a.LegalEntityID()), req, func(r *ExpenseReport) bool {
		return (f.Status == "" || r.Status == f.Status) && (f.SubmittedBy == "" || r.SubmittedByUserID == f.SubmittedBy)
	})
}

// ExpenseReportOf loads one of the actor's expense reports.
func (op *Op) ExpenseReportOf(a *Actor, id string) (*ExpenseReport, error) {
	return op.expenseOf(a.LegalEntityID(), id, "")
}

func (op *Op) expenseOf(legalEntityID, id, field string) (*ExpenseReport, error) {
	var r ExpenseReport
	ok, err := op.get(kindExpenseReport, id, &r)
	if err != nil {
		return nil, err
	}
	if !ok || r.LegalEntityID != legalEntityID {
		return nil, NotFound("expense report", field, id)
	}
	return &r, nil
}

// checkDestination checks that a bank account is one of the submitter's.
func (op *Op) checkDestination(userID, id, field string) error {
	var b UserBankAccount
	ok, err := op.get(kindUserBankAccount, id, &b)
	if err != nil {
		return err
	}
	if !ok || b.UserID != userID {
		return NotFound("reimbursement source", field, id)
	}
	return nil
}

// checkReceipts checks that documents are receipts of the legal entity.
func (op *Op) checkReceipts(legalEntityID string, ids []string) error {
	for i, id := range ids {
		field := "/documentIds/" + strconv.Itoa(i)
		doc, err := op.documentOf(legalEntityID, id, field)
		if err != nil {
			return err
		}
		if doc.Type != DocumentReceipt {
			return InvalidField(field, "document "+id+" is not a receipt; upload receipts with POST /expense-report/receipt")
		}
	}
	return nil
}

// setMerchant points a report at a catalogue merchant or a custom one of
// its legal entity.
func (op *Op) setMerchant(r *ExpenseReport, m *ExpenseMerchantRef) error {
	if m.Type == "merchantV2" {
		if _, ok := op.W.Catalog.Merchant(m.ID); !ok {
			return NotFound("merchant", "/merchant/id", m.ID)
		}
		r.MerchantV2ID, r.CustomMerchantID = m.ID, ""
		return nil
	}
	var cm CustomMerchant
	ok, err := op.get(kindCustomMerchant, m.ID, &cm)
	if err != nil {
		return err
	}
	if !ok || cm.LegalEntityID != r.LegalEntityID {
		return NotFound("custom merchant", "/merchant/id", m.ID)
	}
	r.MerchantV2ID, r.CustomMerchantID = "", m.ID
	return nil
}

// CreateExpenseReport submits a report for review: it starts
// pending_review with an expense_submission task for the reviewers.
func (op *Op) CreateExpenseReport(a *Actor, in *ExpenseReportInput) (*ExpenseReport, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	le := a.LegalEntityID()
	if _, err := op.memberOf(le, in.SubmittedByUserID, "/submittedByUserId"); err != nil {
		return nil, err
	}
	txDate, _ := time.Parse(time.RFC3339, in.TransactionDate)
	if txDate.After(op.Now) {
		return nil, InvalidField("/transactionDate", "must not be in the future")
	}
	if err := op.checkDestination(in.SubmittedByUserID, in.DestinationID, "/destinationId"); err != nil {
		return nil, err
	}
	if err := op.checkReceipts(le, in.DocumentIDs); err != nil {
		return nil, err
	}
	r := &ExpenseReport{LegalEntityID: le, SubmittedByUserID: in.SubmittedByUserID, AmountCents: *in.AmountCents,
		Currency: in.currency(), TransactionDate: txDate.UTC(), Memo: in.Memo, DestinationID: in.DestinationID,
		DocumentIDs: in.DocumentIDs, FxRateToUsd: in.FxRateToUsd, NoReceiptReason: strings.TrimSpace(deref(in.NoReceiptReason))}
	if in.FxRateUpdatedAt != nil {
		t, _ := time.Parse(time.RFC3339, *in.FxRateUpdatedAt)
		t = t.UTC()
		r.FxRateUpdatedAt = &t
	}
	if err := op.setMerchant(r, in.Merchant); err != nil {
		return nil, err
	}
	return r, op.submitExpense(r, "")
}

// submitExpense stores a new report (pending unless a scenario says
// otherwise), raises expense_report.create and opens its review task.
func (op *Op) submitExpense(r *ExpenseReport, declaredID string) error {
	var err error
	if r.ID = declaredID; r.ID == "" {
		if r.ID, err = op.newID(PrefixExpenseReport); err != nil {
			return err
		}
	}
	if r.Seq, err = op.nextSeq(); err != nil {
		return err
	}
	if r.SubmittedAt.IsZero() {
		r.SubmittedAt = op.Now
	}
	if r.Status == "" {
		r.Status = ExpensePending
	}
	r.Timestamp = op.Now
	if err := op.openExpenseTask(r); err != nil {
		return err
	}
	if err := op.saveExpense(r); err != nil {
		return err
	}
	return op.Emit(r.LegalEntityID, EventExpenseReportNew, r.ID)
}

func (op *Op) saveExpense(r *ExpenseReport) error {
	return op.save(kindExpenseReport, r.ID, r, expenseIndexes(r)...)
}

// changeExpense stores a changed report, raises expense_report.update and
// brings its review task along.
func (op *Op) changeExpense(r *ExpenseReport) error {
	r.Timestamp = op.Now
	if err := op.saveExpense(r); err != nil {
		return err
	}
	if err := op.syncExpenseTask(r); err != nil {
		return err
	}
	return op.Emit(r.LegalEntityID, EventExpenseReportUpdate, r.ID)
}

func requirePending(r *ExpenseReport) error {
	if r.Status != ExpensePending {
		return Errorf(CodeConflict, "expense report %s is %s; only a report pending review can change", r.ID, r.Status).
			With("status", r.Status)
	}
	return nil
}

// UpdateExpenseReport edits a report still pending review; status
// cancelled cancels it.
func (op *Op) UpdateExpenseReport(a *Actor, id string, p *ExpenseReportPatch) (*ExpenseReport, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	r, err := op.ExpenseReportOf(a, id)
	if err != nil {
		return nil, err
	}
	if err := requirePending(r); err != nil {
		return nil, err
	}
	if _, err := op.memberOf(r.LegalEntityID, p.UpdatedByUserID, "/updatedByUserId"); err != nil {
		return nil, err
	}
	if err := op.patchExpense(r, p); err != nil {
		return nil, err
	}
	if p.Status != nil {
		r.Status = ExpenseCancelled
	}
	return r, op.changeExpense(r)
}

func (op *Op) patchExpense(r *ExpenseReport, p *ExpenseReportPatch) error {
	if p.AmountCents != nil {
		r.AmountCents = *p.AmountCents
	}
	if p.Currency != nil {
		r.Currency = *p.Currency
	}
	if p.TransactionDate != nil {
		t, _ := time.Parse(time.RFC3339, *p.TransactionDate)
		if t.After(op.Now) {
			return InvalidField("/transactionDate", "must not be in the future")
		}
		r.TransactionDate = t.UTC()
	}
	if p.Memo != nil {
		r.Memo = nil
		_ = json.Unmarshal(p.Memo, &r.Memo)
	}
	if p.DestinationID != nil {
		if err := op.checkDestination(r.SubmittedByUserID, *p.DestinationID, "/destinationId"); err != nil {
			return err
		}
		r.DestinationID = *p.DestinationID
	}
	if p.DocumentIDs != nil {
		if err := op.checkReceipts(r.LegalEntityID, *p.DocumentIDs); err != nil {
			return err
		}
		r.DocumentIDs = *p.DocumentIDs
	}
	if p.Merchant != nil {
		if err := op.setMerchant(r, p.Merchant); err != nil {
			return err
		}
	}
	switch {
	case r.Currency != "USD" && r.FxRateToUsd == nil:
		return InvalidField("/currency", "a currency other than USD needs fxRateToUsd, which only a new report can give")
	case len(r.DocumentIDs) == 0 && r.NoReceiptReason == "":
		return InvalidField("/documentIds", "a report without receipts needs a noReceiptReason, which only a new report can give")
	}
	return nil
}

// ExpenseReportDetails are the records an expense report refers to.
type ExpenseReportDetails struct {
	Merchant       *fixtures.Merchant
	CustomMerchant *CustomMerchant
	Documents      []Document
	Transaction    *Transaction
	Destination    *UserBankAccount
	Submitter      *User
	Reviewer       *User
}

// ExpenseReportDetailsOf loads what a report refers to. Documents come
// without their bytes.
func (op *Op) ExpenseReportDetailsOf(r *ExpenseReport) (*ExpenseReportDetails, error) {
	x := &ExpenseReportDetails{}
	if m, ok := op.W.Catalog.Merchant(r.MerchantV2ID); ok {
		x.Merchant = m
	}
	if r.CustomMerchantID != "" {
		x.CustomMerchant = &CustomMerchant{}
		if ok, err := op.get(kindCustomMerchant, r.CustomMerchantID, x.CustomMerchant); err != nil || !ok {
			x.CustomMerchant = nil
		}
	}
	for _, id := range r.DocumentIDs {
		var d Document
		if ok, err := op.get(kindDocument, id, &d); err != nil {
			return nil, err
		} else if ok {
			d.Data = nil
			x.Documents = append(x.Documents, d)
		}
	}
	if t, ok, err := op.Transaction(r.TransactionID); err != nil {
		return nil, err
	} else if ok {
		x.Transaction = t
	}
	x.Destination = &UserBankAccount{}
	if ok, err := op.get(kindUserBankAccount, r.DestinationID, x.Destination); err != nil || !ok {
		x.Destination = nil
	}
	x.Submitter = op.userOrNil(r.SubmittedByUserID)
	if r.Review != nil {
		x.Reviewer = op.userOrNil(r.Review.ReviewedByUserID)
	}
	return x, nil
}

func (op *Op) userOrNil(id string) *User {
	var u User
	if ok, err := op.get(kindUser, id, &u); err != nil || !ok {
		return nil
	}
	return &u
}
