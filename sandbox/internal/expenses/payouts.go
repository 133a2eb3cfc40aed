package expenses

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

// PayoutDelay is how long an approved report's reimbursement stays
// in payment_processing before it completes or fails.
const PayoutDelay = 24 * time.Hour

// EventPayout is the scheduled event that finishes a reimbursement.
const EventPayout = "expense_report.payout"

// ApproveExpenseReport approves a pending report and starts its payout.
func ApproveExpenseReport(op *kernel.Op, a *kernel.Actor, id, reviewerID string) (*Report, error) {
	r, err := ExpenseReportOf(op, a, id)
	if err != nil {
		return nil, err
	}
	return r, approveExpense(op, r, reviewerID, "/reviewedByUserId")
}

// reviewer checks who reviews a report: a member of its legal entity who
// did not submit it.
func reviewer(op *kernel.Op, r *Report, id, field string) error {
	if _, err := memberOf(op, r.LegalEntityID, id, field); err != nil {
		return err
	}
	if id == r.SubmittedByUserID {
		return kernel.InvalidField(field, "a report cannot be reviewed by the user who submitted it")
	}
	return nil
}

// UsdCents converts a report's amount to US cents with its rate (units of
// its currency per US dollar).
func UsdCents(r *Report) int64 {
	if r.Currency == "USD" || r.FxRateToUsd == nil {
		return r.AmountCents
	}
	rate, _ := strconv.ParseFloat(*r.FxRateToUsd, 64)
	return int64(math.Round(float64(r.AmountCents) / rate))
}

// PayoutSource is the account reimbursements leave from: the legal
// entity's first open debit account, through its primary virtual account.
func PayoutSource(op *kernel.Op, legalEntityID string) (*ledger.Account, *ledger.VirtualAccount, error) {
	accs, err := kernel.All[ledger.Account](op, ledger.KindAccount, kernel.IndexPrefix(ledger.IndexAccount, legalEntityID))
	if err != nil {
		return nil, nil, err
	}
	for _, acc := range accs {
		if acc.Type == "debit" && acc.Status == "open" {
			var va ledger.VirtualAccount
			_, err := op.Get(ledger.KindVirtualAccount, acc.PrimaryVirtualAccountID, &va)
			return &acc, &va, err
		}
	}
	return nil, nil, kernel.Errorf(kernel.CodeInvalidRequest,
		"legal entity %s has no open debit account to pay reimbursements from", legalEntityID)
}

// checkPayoutFunds refuses a payout larger than the source can send.
func checkPayoutFunds(op *kernel.Op, acc *ledger.Account, va *ledger.VirtualAccount, amount int64) error {
	cash, err := ledger.TotalsOf(op, acc.ID, "cash")
	if err != nil {
		return err
	}
	own, err := ledger.TotalsOf(op, va.ID, "virtual")
	if err != nil {
		return err
	}
	avail := min(cash.Available(), own.Available())
	if amount > avail {
		return kernel.Errorf(kernel.CodeInsufficientFunds, "insufficient funds: %s requested, %s available on %s",
			ledger.FormatCents(amount),
			ledger.FormatCents(avail),
			acc.ID).
			With("available", ledger.FormatCents(avail)).
			With("requested", ledger.FormatCents(amount))
	}
	return nil
}

// approveExpense checks everything first and only then writes: a pending
// ACH debit from the payout source, the review, payment_processing, and
// the event that finishes the payout.
func approveExpense(op *kernel.Op, r *Report, reviewerID, field string) error {
	if err := requirePending(r); err != nil {
		return err
	}
	if err := reviewer(op, r, reviewerID, field); err != nil {
		return err
	}
	amount := UsdCents(r)
	acc, va, err := PayoutSource(op, r.LegalEntityID)
	if err != nil {
		return err
	}
	if err := checkPayoutFunds(op, acc, va, amount); err != nil {
		return err
	}
	t, err := PayoutTransaction(op, r, acc, va, amount, "pending", op.Now)
	if err != nil {
		return err
	}
	if err := Review(op, r, reviewerID, "approved", nil); err != nil {
		return err
	}
	r.TransactionID, r.Status = t.ID, StatusProcessing
	if _, err := op.Schedule(EventPayout, op.Now.Add(PayoutDelay),
		map[string]string{"expenseReportId": r.ID}); err != nil {
		return err
	}
	return changeExpense(op, r)
}

// PayoutTransaction posts a report's reimbursement: an ACH debit from the
// payout source in the given detailed status, made at a given time.
func PayoutTransaction(
	op *kernel.Op,
	r *Report,
	acc *ledger.Account,
	va *ledger.VirtualAccount,
	amount int64,
	detailed string,
	at time.Time,
) (*ledger.Transaction, error) {
	var submitter kernel.User
	if _, err := op.Get(kernel.Users.Name, r.SubmittedByUserID, &submitter); err != nil {
		return nil, err
	}
	t := &ledger.Transaction{
		LegalEntityID:    r.LegalEntityID,
		AccountID:        acc.ID,
		VirtualAccountID: va.ID,
		AccountSubtype:   "cash",
		Category:         "ach",
		AmountCents:      -amount,
		DetailedStatus:   detailed,
		CreatedAt:        at,
		Description:      "Reimbursement to " + submitter.Name,
		Memo:             "Expense report " + r.ID,
	}
	ledger.FillRail(op.W.Faker("expense-payout:"+r.ID, 0), t, "")
	return t, ledger.PostTransaction(op, t)
}

// Review records a reviewer's decision on a report (approved or rejected,
// with the reason of a rejection) under a new review id; the caller saves
// the report.
func Review(op *kernel.Op, r *Report, reviewerID, decision string, reason *string) error {
	id, err := op.NewID(PrefixReview)
	if err != nil {
		return err
	}
	r.Review = &ExpenseReview{
		ID:               id,
		Decision:         decision,
		ReviewedByUserID: reviewerID,
		ReviewedAt:       op.Now,
		RejectionReason:  reason,
	}
	return nil
}

// RejectExpenseReport rejects a pending report with a reason.
func RejectExpenseReport(op *kernel.Op, a *kernel.Actor, id, reviewerID, reason string) (*Report, error) {
	r, err := ExpenseReportOf(op, a, id)
	if err != nil {
		return nil, err
	}
	return r, rejectExpense(op, r, reviewerID, reason, "/reviewedByUserId")
}

func rejectExpense(op *kernel.Op, r *Report, reviewerID, reason, field string) error {
	if err := requirePending(r); err != nil {
		return err
	}
	if err := reviewer(op, r, reviewerID, field); err != nil {
		return err
	}
	if err := Review(op, r, reviewerID, "rejected", &reason); err != nil {
		return err
	}
	r.Status = StatusRejected
	return changeExpense(op, r)
}

// cancelExpense cancels a pending report on behalf of a member.
func cancelExpense(op *kernel.Op, r *Report, byUserID, field string) error {
	if err := requirePending(r); err != nil {
		return err
	}
	if _, err := memberOf(op, r.LegalEntityID, byUserID, field); err != nil {
		return err
	}
	r.Status = StatusCancelled
	return changeExpense(op, r)
}

// RunPayout settles an approved report's debit, or fails it when
// the destination account is not active.
func RunPayout(op *kernel.Op, ev *kernel.Event) (string, error) {
	var p struct {
		ID string `json:"expenseReportId"`
	}
	if err := json.Unmarshal(ev.Payload, &p); err != nil {
		return "", err
	}
	var r Report
	ok, err := op.Get(KindReport, p.ID, &r)
	if err != nil {
		return "", fmt.Errorf("expense report %s: not found (%w)", p.ID, err)
	}
	if !ok {
		return "", fmt.Errorf("expense report %s: not found", p.ID)
	}
	if r.Status != StatusProcessing {
		return fmt.Sprintf("expense report %s already %s", r.ID, r.Status), nil
	}
	var dest UserBankAccount
	if _, err := op.Get(KindUserBankAccount, r.DestinationID, &dest); err != nil {
		return "", err
	}
	t, ok, err := ledger.FindTransaction(op, r.TransactionID)
	if err != nil {
		return "", fmt.Errorf("payout transaction %s: not found (%w)", r.TransactionID, err)
	}
	if !ok {
		return "", fmt.Errorf("payout transaction %s: not found", r.TransactionID)
	}
	detailed, status := "settled", StatusCompleted
	if dest.Status != "active" {
		detailed, status = "failed", StatusFailed
	}
	if t.Status == ledger.StatusPending {
		if err := ledger.SetTransactionStatus(op, t, detailed); err != nil {
			return "", err
		}
	}
	r.Status = status
	if err := changeExpense(op, &r); err != nil {
		return "", err
	}
	return fmt.Sprintf("expense report %s %s (destination %s is %s)", r.ID, status, dest.ID, dest.Status), nil
}

// BulkAction is the body of PATCH /expense-report/bulk-action.
type BulkAction struct {
	Action            string   `json:"action"`
	ExpenseReportIDs  []string `json:"expenseReportIds"`
	ReviewedByUserID  *string  `json:"reviewedByUserId,omitempty"`
	CancelledByUserID *string  `json:"cancelledByUserId,omitempty"`
	Reason            *string  `json:"reason,omitempty"`
}

// Validate checks that each action has the fields it needs.
func (b *BulkAction) Validate() error {
	d := map[string]string{}
	switch b.Action {
	case "approve", "reject":
		if jsonshape.Value(b.ReviewedByUserID) == "" {
			d["/reviewedByUserId"] = "required to " + b.Action
		}
		if b.Action == "reject" && jsonshape.Value(b.Reason) == "" {
			d["/reason"] = "required to reject"
		}
	case "cancel":
		if jsonshape.Value(b.CancelledByUserID) == "" {
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
		return kernel.Invalid(d)
	}
	return nil
}

// Bulk applies one action to many reports. Each report
// succeeds or fails on its own; a failed one changes nothing.
func Bulk(op *kernel.Op, a *kernel.Actor, b *BulkAction) (int, []string, error) {
	failed := []string{}
	ok := 0
	for _, id := range b.ExpenseReportIDs {
		r, err := ExpenseReportOf(op, a, id)
		if err == nil {
			switch b.Action {
			case "approve":
				err = approveExpense(op, r, *b.ReviewedByUserID, "/reviewedByUserId")
			case "reject":
				err = rejectExpense(op, r, *b.ReviewedByUserID, *b.Reason, "/reviewedByUserId")
			default:
				err = cancelExpense(op, r, *b.CancelledByUserID, "/cancelledByUserId")
			}
		}
		if _, domain := kernel.AsError(err); err != nil && !domain {
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
		return "", kernel.InvalidField("file", "required: a non-empty file")
	}
	if len(data) > MaxReceiptBytes {
		return "", kernel.Errorf(kernel.CodePayloadTooLarge, "the receipt is %d bytes; at most %d (4 MiB) are accepted",
			len(data), MaxReceiptBytes)
	}
	ct := invoices.SniffFileType(data)
	if ct == "" || ct == "image/svg+xml" {
		return "", kernel.InvalidField("file", "must be a PNG, JPEG, WebP or PDF file (checked by content)")
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
	return ParsedReceipt{
		AmountCents:        amount,
		Currency:           "USD",
		AmountConfidence:   conf,
		AmountRaw:          "TOTAL " + ledger.FormatCents(amount),
		Date:               date.Format(time.DateOnly),
		DateConfidence:     "high",
		DateRaw:            date.Format("01/02/2006"),
		Merchant:           m,
		MerchantConfidence: conf,
		MerchantRaw:        m.Name,
	}
}

// UploadReceipt stores a checked receipt and reads it.
func UploadReceipt(
	op *kernel.Op,
	a *kernel.Actor,
	data []byte,
	filename, contentType string,
) (*invoices.Document, ParsedReceipt, error) {
	doc := &invoices.Document{
		LegalEntityID: a.LegalEntityID(),
		Type:          invoices.DocumentReceipt,
		Source:        invoices.DocumentUploaded,
		ContentType:   contentType,
		Filename:      filename,
		Data:          data,
	}
	if err := invoices.SaveDocument(op, doc); err != nil {
		return nil, ParsedReceipt{}, err
	}
	return doc, ParseReceipt(op.W.Catalog, data, op.Now), nil
}
