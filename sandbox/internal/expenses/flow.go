package expenses

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

// Filter narrows and orders the expense report list.
type Filter struct {
	Status      string
	SubmittedBy string
	// Sort is submittedAt (the default), amountCents or transactionDate.
	Sort string
	Asc  bool
}

// List lists the actor's expense reports, newest submission
// first unless the filter says otherwise.
func List(
	op *kernel.Op,
	a *kernel.Actor,
	f Filter,
	req kernel.PageRequest,
) (kernel.Page[Report], error) {
	d := map[string]string{}
	if f.Status != "" && !slices.Contains(Statuses, f.Status) {
		d["filter:status"] = "must be one of " + strings.Join(Statuses, ", ")
	}
	index, ok := map[string]string{"": indexExpenseSub, "submittedAt": indexExpenseSub,
		"amountCents": indexExpenseAmount, "transactionDate": indexExpenseTxDate}[f.Sort]
	if !ok {
		d["sort"] = "must be submittedAt, amountCents or transactionDate"
	}
	if len(d) > 0 {
		return kernel.Page[Report]{}, kernel.Invalid(d)
	}
	req.Desc = !f.Asc
	return kernel.List(
		op,
		KindReport,
		kernel.IndexPrefix(index, a.LegalEntityID()),
		req,
		func(r *Report) bool {
			return (f.Status == "" || r.Status == f.Status) && (f.SubmittedBy == "" || r.SubmittedByUserID == f.SubmittedBy)
		},
	)
}

// ExpenseReportOf loads one of the actor's expense reports.
func ExpenseReportOf(op *kernel.Op, a *kernel.Actor, id string) (*Report, error) {
	return expenseOf(op, a.LegalEntityID(), id, "")
}

func expenseOf(op *kernel.Op, legalEntityID, id, field string) (*Report, error) {
	var r Report
	ok, err := op.Get(KindReport, id, &r)
	if err != nil {
		return nil, err
	}
	if !ok || r.LegalEntityID != legalEntityID {
		return nil, kernel.NotFound("expense report", field, id)
	}
	return &r, nil
}

// checkDestination checks that a bank account is one of the submitter's.
func checkDestination(op *kernel.Op, userID, id, field string) error {
	var b UserBankAccount
	ok, err := op.Get(KindUserBankAccount, id, &b)
	if err != nil {
		return err
	}
	if !ok || b.UserID != userID {
		return kernel.NotFound("reimbursement source", field, id)
	}
	return nil
}

// checkReceipts checks that documents are receipts of the legal entity.
func checkReceipts(op *kernel.Op, legalEntityID string, ids []string) error {
	for i, id := range ids {
		field := "/documentIds/" + strconv.Itoa(i)
		doc, err := invoices.DocumentOf(op, legalEntityID, id, field)
		if err != nil {
			return err
		}
		if doc.Type != invoices.DocumentReceipt {
			return kernel.InvalidField(field,
				"document "+id+" is not a receipt; upload receipts with POST /expense-report/receipt")
		}
	}
	return nil
}

// setMerchant points a report at a catalogue merchant or a custom one of
// its legal entity.
func setMerchant(op *kernel.Op, r *Report, m *MerchantRef) error {
	if m.Type == "merchantV2" {
		if _, ok := op.W.Catalog.Merchant(m.ID); !ok {
			return kernel.NotFound("merchant", "/merchant/id", m.ID)
		}
		r.MerchantV2ID, r.CustomMerchantID = m.ID, ""
		return nil
	}
	var cm CustomMerchant
	ok, err := op.Get(KindCustomMerchant, m.ID, &cm)
	if err != nil {
		return err
	}
	if !ok || cm.LegalEntityID != r.LegalEntityID {
		return kernel.NotFound("custom merchant", "/merchant/id", m.ID)
	}
	r.MerchantV2ID, r.CustomMerchantID = "", m.ID
	return nil
}

// CreateExpenseReport submits a report for review: it starts
// pending_review with an expense_submission task for the reviewers.
func CreateExpenseReport(op *kernel.Op, a *kernel.Actor, in *ReportInput) (*Report, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	le := a.LegalEntityID()
	if _, err := memberOf(op, le, in.SubmittedByUserID, "/submittedByUserId"); err != nil {
		return nil, err
	}
	txDate, _ := time.Parse(time.RFC3339, in.TransactionDate)
	if txDate.After(op.Now) {
		return nil, kernel.InvalidField("/transactionDate", "must not be in the future")
	}
	if err := checkDestination(op, in.SubmittedByUserID, in.DestinationID, "/destinationId"); err != nil {
		return nil, err
	}
	if err := checkReceipts(op, le, in.DocumentIDs); err != nil {
		return nil, err
	}
	r := &Report{LegalEntityID: le, SubmittedByUserID: in.SubmittedByUserID, AmountCents: *in.AmountCents,
		Currency: in.currency(), TransactionDate: txDate.UTC(), Memo: in.Memo, DestinationID: in.DestinationID,
		DocumentIDs: in.DocumentIDs, FxRateToUsd: in.FxRateToUsd,
		NoReceiptReason: strings.TrimSpace(jsonshape.Value(in.NoReceiptReason))}
	if in.FxRateUpdatedAt != nil {
		t, _ := time.Parse(time.RFC3339, *in.FxRateUpdatedAt)
		t = t.UTC()
		r.FxRateUpdatedAt = &t
	}
	if err := setMerchant(op, r, in.Merchant); err != nil {
		return nil, err
	}
	return r, Submit(op, r, "")
}

// Submit stores a new report (pending unless a scenario says
// otherwise), raises expense_report.create and opens its review task,
// unless a scenario gives it one already (its TaskID) and the time it
// last changed (its Timestamp).
func Submit(op *kernel.Op, r *Report, declaredID string) error {
	var err error
	if r.ID = declaredID; r.ID == "" {
		if r.ID, err = op.NewID(PrefixReport); err != nil {
			return err
		}
	}
	if r.Seq, err = op.NextSeq(); err != nil {
		return err
	}
	if r.SubmittedAt.IsZero() {
		r.SubmittedAt = op.Now
	}
	if r.Status == "" {
		r.Status = StatusPending
	}
	if r.Timestamp.IsZero() {
		r.Timestamp = op.Now
	}
	if r.TaskID == "" {
		if err := openExpenseTask(op, r); err != nil {
			return err
		}
	}
	if err := saveExpense(op, r); err != nil {
		return err
	}
	return op.Emit(r.LegalEntityID, deliveries.EventExpenseReportNew, r.ID)
}

func saveExpense(op *kernel.Op, r *Report) error {
	return op.Save(KindReport, r.ID, r, expenseIndexes(r)...)
}

// changeExpense stores a changed report, raises expense_report.update and
// brings its review task along.
func changeExpense(op *kernel.Op, r *Report) error {
	r.Timestamp = op.Now
	if err := saveExpense(op, r); err != nil {
		return err
	}
	if err := syncExpenseTask(op, r); err != nil {
		return err
	}
	return op.Emit(r.LegalEntityID, deliveries.EventExpenseReportUpdate, r.ID)
}

func requirePending(r *Report) error {
	if r.Status != StatusPending {
		return kernel.Errorf(kernel.CodeConflict, "expense report %s is %s; only a report pending review can change", r.ID,
			r.Status).
			With("status", r.Status)
	}
	return nil
}

// UpdateExpenseReport edits a report still pending review; status
// cancelled cancels it.
func UpdateExpenseReport(op *kernel.Op, a *kernel.Actor, id string, p *ReportPatch) (*Report, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	r, err := ExpenseReportOf(op, a, id)
	if err != nil {
		return nil, err
	}
	if err := requirePending(r); err != nil {
		return nil, err
	}
	if _, err := memberOf(op, r.LegalEntityID, p.UpdatedByUserID, "/updatedByUserId"); err != nil {
		return nil, err
	}
	if err := patchExpense(op, r, p); err != nil {
		return nil, err
	}
	if p.Status != nil {
		r.Status = StatusCancelled
	}
	return r, changeExpense(op, r)
}

func patchExpense(op *kernel.Op, r *Report, p *ReportPatch) error {
	if p.AmountCents != nil {
		r.AmountCents = *p.AmountCents
	}
	if p.Currency != nil {
		r.Currency = *p.Currency
	}
	if p.TransactionDate != nil {
		t, _ := time.Parse(time.RFC3339, *p.TransactionDate)
		if t.After(op.Now) {
			return kernel.InvalidField("/transactionDate", "must not be in the future")
		}
		r.TransactionDate = t.UTC()
	}
	if p.Memo != nil {
		r.Memo = nil
		_ = json.Unmarshal(p.Memo, &r.Memo)
	}
	if p.DestinationID != nil {
		if err := checkDestination(op, r.SubmittedByUserID, *p.DestinationID, "/destinationId"); err != nil {
			return err
		}
		r.DestinationID = *p.DestinationID
	}
	if p.DocumentIDs != nil {
		if err := checkReceipts(op, r.LegalEntityID, *p.DocumentIDs); err != nil {
			return err
		}
		r.DocumentIDs = *p.DocumentIDs
	}
	if p.Merchant != nil {
		if err := setMerchant(op, r, p.Merchant); err != nil {
			return err
		}
	}
	switch {
	case r.Currency != "USD" && r.FxRateToUsd == nil:
		return kernel.InvalidField("/currency",
			"a currency other than USD needs fxRateToUsd, which only a new report can give")
	case len(r.DocumentIDs) == 0 && r.NoReceiptReason == "":
		return kernel.InvalidField("/documentIds",
			"a report without receipts needs a noReceiptReason, which only a new report can give")
	}
	return nil
}

// ReportDetails are the records an expense report refers to.
type ReportDetails struct {
	Merchant       *fixtures.Merchant
	CustomMerchant *CustomMerchant
	Documents      []invoices.Document
	Transaction    *ledger.Transaction
	Destination    *UserBankAccount
	Submitter      *kernel.User
	Reviewer       *kernel.User
}

// ExpenseReportDetailsOf loads what a report refers to. Documents come
// without their bytes.
func ExpenseReportDetailsOf(op *kernel.Op, r *Report) (*ReportDetails, error) {
	x := &ReportDetails{}
	if m, ok := op.W.Catalog.Merchant(r.MerchantV2ID); ok {
		x.Merchant = m
	}
	if r.CustomMerchantID != "" {
		x.CustomMerchant = &CustomMerchant{}
		if ok, err := op.Get(KindCustomMerchant, r.CustomMerchantID, x.CustomMerchant); err != nil || !ok {
			x.CustomMerchant = nil
		}
	}
	for _, id := range r.DocumentIDs {
		var d invoices.Document
		if ok, err := op.Get(invoices.KindDocument, id, &d); err != nil {
			return nil, err
		} else if ok {
			d.Data = nil
			x.Documents = append(x.Documents, d)
		}
	}
	if t, ok, err := ledger.FindTransaction(op, r.TransactionID); err != nil {
		return nil, err
	} else if ok {
		x.Transaction = t
	}
	x.Destination = &UserBankAccount{}
	if ok, err := op.Get(KindUserBankAccount, r.DestinationID, x.Destination); err != nil || !ok {
		x.Destination = nil
	}
	x.Submitter = userOrNil(op, r.SubmittedByUserID)
	if r.Review != nil {
		x.Reviewer = userOrNil(op, r.Review.ReviewedByUserID)
	}
	return x, nil
}

func userOrNil(op *kernel.Op, id string) *kernel.User {
	var u kernel.User
	if ok, err := op.Get(kernel.Users.Name, id, &u); err != nil || !ok {
		return nil
	}
	return &u
}
