package expenses

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Expense report statuses.
const (
	StatusPending    = "pending_review"
	StatusCancelled  = "cancelled"
	StatusRejected   = "rejected"
	StatusProcessing = "payment_processing"
	StatusCompleted  = "payment_completed"
	StatusFailed     = "payment_failed"
)

// Statuses lists every expense report status.
var Statuses = []string{
	StatusPending,
	StatusCancelled,
	StatusRejected,
	StatusProcessing,
	StatusCompleted,
	StatusFailed,
}

// ID prefixes of expense reports and what they refer to.
const (
	PrefixReport          = "expense_report_"
	PrefixReview          = "expense_report_review_"
	PrefixUserBankAccount = "ub_"
	PrefixCustomMerchant  = "custom_merchant_"
)

// Record kinds of the expenses domain, and the indexes of its lists.
const (
	KindReport          = "expense_report"
	KindUserBankAccount = "user_bank_account"
	KindCustomMerchant  = "custom_merchant"
	indexExpenseSub     = "expense.submitted"
	indexExpenseAmount  = "expense.amount"
	indexExpenseTxDate  = "expense.txdate"
	// IndexUserBank holds each user's bank accounts in the order they were
	// added.
	IndexUserBank = "ub.user"
)

// ExpenseReview is the decision on an expense report.
type ExpenseReview struct {
	ID               string    `json:"id"`
	Decision         string    `json:"decision"`
	ReviewedByUserID string    `json:"reviewedByUserId"`
	ReviewedAt       time.Time `json:"reviewedAt"`
	RejectionReason  *string   `json:"rejectionReason,omitempty"`
}

// Report is a request by a user to be reimbursed for a purchase.
type Report struct {
	ID                string         `json:"id"`
	LegalEntityID     string         `json:"legalEntityId"`
	SubmittedByUserID string         `json:"submittedByUserId"`
	AmountCents       int64          `json:"amountCents"`
	Currency          string         `json:"currency"`
	TransactionDate   time.Time      `json:"transactionDate"`
	MerchantV2ID      string         `json:"merchantV2Id,omitempty"`
	CustomMerchantID  string         `json:"customMerchantId,omitempty"`
	Memo              *string        `json:"memo,omitempty"`
	DestinationID     string         `json:"destinationId"`
	DocumentIDs       []string       `json:"documentIds,omitempty"`
	SubmittedAt       time.Time      `json:"submittedAt"`
	Status            string         `json:"status"`
	Timestamp         time.Time      `json:"timestamp"`
	FxRateToUsd       *string        `json:"fxRateToUsd,omitempty"`
	FxRateUpdatedAt   *time.Time     `json:"fxRateUpdatedAt,omitempty"`
	NoReceiptReason   string         `json:"noReceiptReason,omitempty"`
	Review            *ExpenseReview `json:"review,omitempty"`
	TransactionID     string         `json:"transactionId,omitempty"`
	TaskID            string         `json:"taskId,omitempty"`
	Seq               int64          `json:"seq"`
}

func expenseIndexes(r *Report) []string {
	seq := store.Seq(r.Seq)
	return []string{
		kernel.IndexKey(indexExpenseSub, r.LegalEntityID, store.Millis(r.SubmittedAt), seq, r.ID),
		kernel.IndexKey(indexExpenseAmount, r.LegalEntityID, store.Int(r.AmountCents), seq, r.ID),
		kernel.IndexKey(indexExpenseTxDate, r.LegalEntityID, store.Millis(r.TransactionDate), seq, r.ID),
	}
}

// UserBankAccount is a user's own bank account, where reimbursements go.
// A payout to an account whose status is not active fails.
type UserBankAccount struct {
	ID               string    `json:"id"`
	UserID           string    `json:"userId"`
	Status           string    `json:"latestStatus"`
	AccountName      string    `json:"accountName"`
	AccountOwnerName string    `json:"accountOwnerName,omitempty"`
	Type             string    `json:"type"`
	Subtype          string    `json:"subtype"`
	Mask             string    `json:"mask,omitempty"`
	InstitutionID    string    `json:"institutionId"`
	InstitutionName  string    `json:"institutionName"`
	InstitutionLogo  string    `json:"institutionLogo,omitempty"`
	BalanceCents     int64     `json:"balanceCents"`
	CreatedAt        time.Time `json:"createdAt"`
	Seq              int64     `json:"seq"`
}

// CustomMerchant is a merchant a legal entity added itself.
type CustomMerchant struct {
	ID            string    `json:"id"`
	LegalEntityID string    `json:"legalEntityId"`
	AddedByUserID string    `json:"addedByUserId"`
	MerchantName  string    `json:"merchantName"`
	CreatedAt     time.Time `json:"createdAt"`
}

// memberOf loads a user with an active role on a legal entity; anyone else
// is not found, naming the request field.
func memberOf(op *kernel.Op, legalEntityID, id, field string) (*kernel.User, error) {
	var u kernel.User
	ok, err := op.Get(kernel.Users.Name, id, &u)
	if err != nil {
		return nil, err
	}
	if !ok || u.RoleOn(legalEntityID) == "" {
		return nil, kernel.NotFound("user", field, id)
	}
	return &u, nil
}

// SaveUserBankAccount stores a user bank account, giving it an id when it
// has none.
func SaveUserBankAccount(op *kernel.Op, b *UserBankAccount) error {
	if b.ID == "" {
		id, err := op.NewID(PrefixUserBankAccount)
		if err != nil {
			return err
		}
		b.ID = id
	}
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	b.Seq = seq
	return op.Save(KindUserBankAccount, b.ID, b, kernel.IndexKey(IndexUserBank, b.UserID, store.Seq(seq), b.ID))
}

// ReimbursementSources lists a member's bank accounts.
func ReimbursementSources(op *kernel.Op, a *kernel.Actor, userID string) ([]UserBankAccount, error) {
	if _, err := memberOf(op, a.LegalEntityID(), userID, "userId"); err != nil {
		return nil, err
	}
	return kernel.All[UserBankAccount](op, KindUserBankAccount, kernel.IndexPrefix(IndexUserBank, userID))
}

// MerchantRef names a catalogue merchant or a custom one.
type MerchantRef struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// ReportInput is the body of POST /expense-report. A pointer is nil
// when the property is absent; only memo, fxRateToUsd, fxRateUpdatedAt and
// noReceiptReason may be null.
type ReportInput struct {
	SubmittedByUserID string       `json:"submittedByUserId"`
	AmountCents       *int64       `json:"amountCents,omitempty"`
	Currency          *string      `json:"currency,omitempty"`
	TransactionDate   string       `json:"transactionDate"`
	Memo              *string      `json:"memo"`
	DestinationID     string       `json:"destinationId"`
	DocumentIDs       []string     `json:"documentIds"`
	Merchant          *MerchantRef `json:"merchant,omitempty"`
	FxRateToUsd       *string      `json:"fxRateToUsd"`
	FxRateUpdatedAt   *string      `json:"fxRateUpdatedAt"`
	NoReceiptReason   *string      `json:"noReceiptReason"`
}

var currencyPattern = regexp.MustCompile(`^[A-Z]{3}$`)

// Validate checks a new expense report's body: a foreign currency needs
// fxRateToUsd, and a report without receipts needs noReceiptReason.
func (in *ReportInput) Validate() error {
	d := map[string]string{}
	if in.SubmittedByUserID == "" {
		d["/submittedByUserId"] = "required"
	}
	if in.AmountCents == nil {
		d["/amountCents"] = "required: a positive amount in cents"
	}
	ledger.CheckAmountOf(d, "/amountCents", in.AmountCents, 1)
	cur := in.currency()
	if !currencyPattern.MatchString(cur) {
		d["/currency"] = "must be an ISO 4217 code such as USD"
	}
	checkInstant(d, "/transactionDate", in.TransactionDate, true)
	checkMemo(d, in.Memo)
	if !strings.HasPrefix(in.DestinationID, PrefixUserBankAccount) {
		d["/destinationId"] = "required: a user bank account id (ub_…) from the reimbursement sources"
	}
	checkMerchantRef(d, in.Merchant)
	if cur != "USD" && in.FxRateToUsd == nil {
		d["/fxRateToUsd"] = "required for a currency other than USD: how many units of it one US dollar buys"
	} else if in.FxRateToUsd != nil && !fxRateValid(*in.FxRateToUsd) {
		d["/fxRateToUsd"] = "must be a positive decimal number as a string, e.g. \"0.92\""
	}
	if in.FxRateUpdatedAt != nil {
		checkInstant(d, "/fxRateUpdatedAt", *in.FxRateUpdatedAt, true)
	}
	checkUnique(d, "/documentIds", in.DocumentIDs)
	if len(in.DocumentIDs) == 0 && strings.TrimSpace(jsonshape.Value(in.NoReceiptReason)) == "" {
		d["/noReceiptReason"] = "required when no documentIds (receipts) are given"
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

func (in *ReportInput) currency() string {
	if in.Currency == nil {
		return "USD"
	}
	return *in.Currency
}

func checkInstant(d map[string]string, path, s string, required bool) {
	if s == "" && !required {
		return
	}
	if _, err := time.Parse(time.RFC3339, s); err != nil {
		d[path] = "required: an RFC 3339 date-time"
	}
}

func checkMemo(d map[string]string, memo *string) {
	if memo != nil && len([]rune(*memo)) > 1000 {
		d["/memo"] = "must be at most 1000 characters"
	}
}

func checkMerchantRef(d map[string]string, m *MerchantRef) {
	switch {
	case m == nil:
		d["/merchant"] = "required: {type, id}"
	case m.Type != "merchantV2" && m.Type != "customMerchant":
		d["/merchant/type"] = "must be merchantV2 or customMerchant"
	case m.ID == "":
		d["/merchant/id"] = "required"
	}
}

// checkUnique refuses an id listed twice.
func checkUnique(d map[string]string, path string, ids []string) {
	for i, id := range ids {
		if slices.Index(ids, id) != i {
			d[path+"/"+strconv.Itoa(i)] = "is listed twice"
		}
	}
}

func fxRateValid(s string) bool {
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && f > 0 && !strings.ContainsAny(s, "eE")
}

// ReportPatch is the body of PATCH /expense-report/{id}: absent
// properties are nil and stay as they are; only memo may be null (removed).
type ReportPatch struct {
	UpdatedByUserID string          `json:"updatedByUserId"`
	AmountCents     *int64          `json:"amountCents,omitempty"`
	Currency        *string         `json:"currency,omitempty"`
	TransactionDate *string         `json:"transactionDate,omitempty"`
	Memo            json.RawMessage `json:"memo"`
	DestinationID   *string         `json:"destinationId,omitempty"`
	DocumentIDs     *[]string       `json:"documentIds,omitempty"`
	Merchant        *MerchantRef    `json:"merchant,omitempty"`
	Status          *string         `json:"status,omitempty"`
}

// Validate checks the fields a PATCH gives.
func (p *ReportPatch) Validate() error {
	d := map[string]string{}
	if p.UpdatedByUserID == "" {
		d["/updatedByUserId"] = "required"
	}
	ledger.CheckAmountOf(d, "/amountCents", p.AmountCents, 1)
	if p.Currency != nil && !currencyPattern.MatchString(*p.Currency) {
		d["/currency"] = "must be an ISO 4217 code such as USD"
	}
	if p.TransactionDate != nil {
		checkInstant(d, "/transactionDate", *p.TransactionDate, true)
	}
	var memo *string
	if parties.Present(p.Memo) && json.Unmarshal(p.Memo, &memo) != nil {
		d["/memo"] = "must be a string or null"
	}
	checkMemo(d, memo)
	if p.DestinationID != nil && !strings.HasPrefix(*p.DestinationID, PrefixUserBankAccount) {
		d["/destinationId"] = "must be a user bank account id (ub_…)"
	}
	if p.Merchant != nil {
		checkMerchantRef(d, p.Merchant)
	}
	if p.DocumentIDs != nil {
		checkUnique(d, "/documentIds", *p.DocumentIDs)
	}
	if p.Status != nil && *p.Status != StatusCancelled {
		d["/status"] = "can only be set to cancelled"
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}
