package sandbox

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
)

// ExpensePayoutDelay is how long an approved report's reimbursement stays
// in payment_processing before it completes or fails.
const ExpensePayoutDelay = 24 * time.Hour

// EventExpensePayout is the scheduled event that finishes a reimbursement.
const EventExpensePayout = "expense_report.payout"

func init() { RegisterEvent(EventExpensePayout, runExpensePayout) }

// ApproveExpenseReport approves a pending report and starts its payout.
func (op *Op) ApproveExpenseReport(a *Actor, id, reviewerID string) (*ExpenseReport, error) {
	r, err := op.ExpenseReportOf(a, id)
	if err != nil {
		return nil, err
	}
	return r, op.approveExpense(r, reviewerID, "/reviewedByUserId")
}

// reviewer checks who reviews a report: a member of its legal entity who
// did not submit it.
func (op *Op) reviewer(r *ExpenseReport, id, field string) error {
	if _, err := op.memberOf(r.LegalEntityID, id, field); err != nil {
		return err
	}
	if id == r.SubmittedByUserID {
		return InvalidField(field, "a report cannot be reviewed by the user who submitted it")
	}
	return nil
}

// usdCents converts a report's amount to US cents with its rate (units of
// its currency per US dollar).
func usdCents(r *ExpenseReport) int64 {
	if r.Currency == "USD" || r.FxRateToUsd == nil {
		return r.AmountCents
	}
	rate, _ := strconv.ParseFloat(*r.FxRateToUsd, 64)
	return int64(math.Round(float64(r.AmountCents) / rate))
}

// payoutSource is the account reimbursements leave from: the legal
// entity's first open debit account, through its primary virtual account.
func (op *Op) payoutSource(legalEntityID string) (*Account, *VirtualAccount, error) {
	accs, err := all[Account](op, kindAccount, IndexPrefix(indexAccount, legalEntityID))
	if err != nil {
		return nil, nil, err
	}
	for _, acc := range accs {
		if acc.Type == "debit" && acc.Status == "open" {
			var va VirtualAccount
			_, err := op.get(kindVirtualAccount, acc.PrimaryVirtualAccountID, &va)
			return &acc, &va, err
		}
	}
	return nil, nil, Errorf(CodeInvalidRequest, "legal entity %s has no open debit account to pay reimbursements from", legalEntityID)
}

// checkPayoutFunds refuses a payout larger than the source can send.
func (op *Op) checkPayoutFunds(acc *Account, va *VirtualAccount, amount int64) error {
	cash, err := op.totals(acc.ID, "cash")
	if err != nil {
		return err
	}
	own, err := op.totals(va.ID, "virtual")
	if err != nil {
		return err
	}
	avail := min(cash.Available(), own.Available())
	if amount > avail {
		return Errorf(CodeInsufficientFunds, "insufficient funds: %s requested, %s available on %s", FormatCents(amount),
			FormatCents(avail), acc.ID).With("available", FormatCents(avail)).With("requested", FormatCents(amount))
	}
	return nil
}

// approveExpense checks everything first and only then writes: a pending
// ACH debit from the payout source, the review, payment_processing, and
// the event that finishes the payout.
func (op *Op) approveExpense(r *ExpenseReport, reviewerID, field string) error {
	if err := requirePending(r); err != nil {
		return err
	}
	if err := op.reviewer(r, reviewerID, field); err != nil {
		return err
	}
	amount := usdCents(r)
	acc, va, err := op.payoutSource(r.LegalEntityID)
	if err != nil {
		return err
	}
	if err := op.checkPayoutFunds(acc, va, amount); err != nil {
		return err
	}
	t, err := op.payoutTransaction(r, acc, va, amount, "pending", op.Now)
	if err != nil {
		return err
	}
	if err := op.review(r, reviewerID, "approved", nil); err != nil {
		return err
	}
	r.TransactionID, r.Status = t.ID, ExpenseProcessing
	if _, err := op.Schedule(EventExpensePayout, op.Now.Add(ExpensePayoutDelay), map[string]string{"expenseReportId": r.ID}); err != nil {
		return err
	}
	return op.changeExpense(r)
}

// payoutTransaction posts a report's reimbursement: an ACH debit from the
// payout source in the given detailed status, made at a given time.
func (op *Op) payoutTransaction(r *ExpenseReport, acc *Account, va *VirtualAccount, amount int64, detailed string, at time.Time) (*Transaction, error) {
	var submitter User
	if _, err := op.get(kindUser, r.SubmittedByUserID, &submitter); err != nil {
		return nil, err
	}
	t := &Transaction{LegalEntityID: r.LegalEntityID, AccountID: acc.ID, VirtualAccountID: va.ID, AccountSubtype: "cash",
		Category: "ach", AmountCents: -amount, DetailedStatus: detailed, CreatedAt: at,
		Description: "Reimbursement to " + submitter.Name, Memo: "Expense report " + r.ID}
	fillRail(op.W.faker("expense-payout:"+r.ID, 0), t, "")
	return t, op.PostTransaction(t)
}

func (op *Op) review(r *ExpenseReport, reviewerID, decision string, reason *string) error {
	id, err := op.newID(PrefixExpenseReview)
	if err != nil {
		return err
	}
	r.Review = &ExpenseReview{ID: id, Decision: decision, ReviewedByUserID: reviewerID, ReviewedAt: op.Now, RejectionReason: reason}
	return nil
}

// RejectExpenseReport rejects a pending report with a reason.
func (op *Op) RejectExpenseReport(a *Actor, id, reviewerID, reason string) (*ExpenseReport, error) {
	r, err := op.ExpenseReportOf(a, id)
	if err != nil {
		return nil, err
	}
	return r, op.rejectExpense(r, reviewerID, reason, "/reviewedByUserId")
}

func (op *Op) rejectExpense(r *ExpenseReport, reviewerID, reason, field string) error {
	if err := requirePending(r); err != nil {
		return err
	}
	if err := op.reviewer(r, reviewerID, field); err != nil {
		return err
	}
	if err := op.review(r, reviewerID, "rejected", &reason); err != nil {
		return err
	}
	r.Status = ExpenseRejected
	return op.changeExpense(r)
}

// cancelExpense cancels a pending report on behalf of a member.
func (op *Op) cancelExpense(r *ExpenseReport, byUserID, field string) error {
	if err := requirePending(r); err != nil {
		return err
	}
	if _, err := op.memberOf(r.LegalEntityID, byUserID, field); err != nil {
		return err
	}
	r.Status = ExpenseCancelled
	return op.changeExpense(r)
}

// runExpensePayout settles an approved report's debit, or fails it when
// the destination account is not active.
func runExpensePayout(op *Op, ev *Event) (string, error) {
	var p struct {
		ID string `json:"expenseReportId"`
	}
	if err := jsonUnmarshal(ev.Payload, &p); err != nil {
		return "", err
	}
	var r ExpenseReport
	if ok, err := op.get(kindExpenseReport, p.ID, &r); err != nil || !ok {
		return "", fmt.Errorf("expense report %s: not found (%v)", p.ID, err)
	}
	if r.Status != ExpenseProcessing {
		return fmt.Sprintf("expense report %s already %s", r.ID, r.Status), nil
	}
	var dest UserBankAccount
	if _, err := op.get(kindUserBankAccount, r.DestinationID, &dest); err != nil {
		return "", err
	}
	t, ok, err := op.Transaction(r.TransactionID)
	if err != nil || !ok {
		return "", fmt.Errorf("payout transaction %s: not found (%v)", r.TransactionID, err)
	}
	detailed, status := "settled", ExpenseCompleted
	if dest.Status != "active" {
		detailed, status = "failed", ExpenseFailed
	}
	if t.Status == StatusPending {
		if err := op.SetTransactionStatus(t, detailed); err != nil {
			return "", err
		}
	}
	r.Status = status
	if err := op.changeExpense(&r); err != nil {
		return "", err
	}
	return fmt.Sprintf("expense report %s %s (destination %s is %s)", r.ID, status, dest.ID, dest.Status), nil
}

// BulkExpenseAction is the body of PATCH /expense-report/bulk-action.
type BulkExpenseAction struct {
	Action            string   `json:"action"`
	ExpenseReportIDs  []string `json:"expenseReportIds"`
	ReviewedByUserID  *string  `json:"reviewedByUserId,omitempty"`
	CancelledByUserID *string  `json:"cancelledByUserId,omitempty"`
	Reason            *string  `json:"reason,omitempty"`
}

// Validate checks that each action has the fields it needs.
func (b *BulkExpenseAction) Validate() error {
	d := map[string]string{}
	switch b.Action {
	case "approve", "reject":
		if deref(b.ReviewedByUserID) == "" {
			d["/reviewedByUserId"] = "required to " + b.Action
		}
		if b.Action == "reject" && deref(b.Reason) == "" {
			d["/reason"] = "required to reject"
		}
	case "cancel":
		if deref(b.CancelledByUserID) == "" {
			d["/cancelledByUserId"] = "required to cancel"
		}
	default:
		d["/action"] = "must be approve, reject or cancel"
	}
	switch n := len(b.ExpenseReportIDs); {
	case n == 0:
		d["/expenseReportIds"] = "at least one id is required"
	case n > 100:
		d["/expenseReportIds"] = "at most 100 ids"
	}
	checkUnique(d, "/expenseReportIds", b.ExpenseReportIDs)
	if len(d) > 0 {
		return Invalid(d)
	}
	return nil
}

// BulkExpenseReports applies one action to many reports. Each report
// succeeds or fails on its own; a failed one changes nothing.
func (op *Op) BulkExpenseReports(a *Actor, b *BulkExpenseAction) (int, []string, error) {
	failed := []string{}
	ok := 0
	for _, id := range b.ExpenseReportIDs {
		r, err := op.ExpenseReportOf(a, id)
		if err == nil {
			switch b.Action {
			case "approve":
				err = op.approveExpense(r, *b.ReviewedByUserID, "/reviewedByUserId")
			case "reject":
				err = op.rejectExpense(r, *b.ReviewedByUserID, *b.Reason, "/reviewedByUserId")
			default:
				err = op.cancelExpense(r, *b.CancelledByUserID, "/cancelledByUserId")
			}
		}
		if _, domain := AsError(err); err != nil && !domain {
			return 0, nil, err
		}
		if err != nil {
			failed = append(failed, id)
		} else {
			ok++
		}
	}
	return ok, failed, nil
}

// MaxReceiptBytes is the largest receipt accepted (4 MiB).
const MaxReceiptBytes = 4 << 20

// CheckReceipt checks a receipt upload: PNG, JPEG, WebP or PDF by content,
// at most MaxReceiptBytes. It returns the content type.
func CheckReceipt(data []byte) (string, error) {
	if len(data) == 0 {
		return "", InvalidField("file", "required: a non-empty file")
	}
	if len(data) > MaxReceiptBytes {
		return "", Errorf(CodePayloadTooLarge, "the receipt is %d bytes; at most %d (4 MiB) are accepted", len(data), MaxReceiptBytes)
	}
	ct := SniffFileType(data)
	if ct == "" || ct == "image/svg+xml" {
		return "", InvalidField("file", "must be a PNG, JPEG, WebP or PDF file (checked by content)")
	}
	return ct, nil
}

// ParsedReceipt is what the sandbox reads from a receipt: a deterministic
// choice from the file's hash, so the same file always reads the same.
type ParsedReceipt struct {
	AmountCents        int64
	Currency           string
	AmountConfidence   string
	AmountRaw          string
	Date               string
	DateConfidence     string
	DateRaw            string
	Merchant           *fixtures.Merchant
	MerchantConfidence string
	MerchantRaw        string
}

// ParseReceipt reads a receipt: a catalogue merchant, an amount near its
// typical purchase and a date within the last two weeks, all chosen by the
// file's SHA-256.
func ParseReceipt(cat *fixtures.Catalog, data []byte, now time.Time) ParsedReceipt {
	sum := sha256.Sum256(data)
	n := func(i int) uint64 { return binary.BigEndian.Uint64(sum[i : i+8]) }
	m := &cat.Merchants[n(0)%uint64(len(cat.Merchants))]
	amount := m.TypicalCents * int64(75+n(8)%51) / 100
	date := now.UTC().AddDate(0, 0, -int(n(16)%14))
	conf := []string{"high", "high", "medium", "low"}[n(24)%4]
	return ParsedReceipt{AmountCents: amount, Currency: "USD", AmountConfidence: conf, AmountRaw: "TOTAL " + FormatCents(amount),
		Date: date.Format(time.DateOnly), DateConfidence: "high", DateRaw: date.Format("01/02/2006"),
		Merchant: m, MerchantConfidence: conf, MerchantRaw: m.Name}
}

// UploadReceipt stores a checked receipt and reads it.
func (op *Op) UploadReceipt(a *Actor, data []byte, filename, contentType string) (*Document, ParsedReceipt, error) {
	doc := &Document{LegalEntityID: a.LegalEntityID(), Type: DocumentReceipt, Source: DocumentUploaded,
		ContentType: contentType, Filename: filename, Data: data}
	if err := op.SaveDocument(doc); err != nil {
		return nil, ParsedReceipt{}, err
	}
	return doc, ParseReceipt(op.W.Catalog, data, op.Now), nil
}
