package ledger

import "time"

// Transaction statuses.
const (
	StatusPending = "pending"
	StatusPosted  = "posted"
	StatusFailed  = "failed"
)

// DetailedStatuses lists every detailed status the official SDKs know. The
// upstream OpenAPI document adds in_review, which the SDKs reject, so the
// sandbox never produces it.
var DetailedStatuses = []string{
	"pending", "pending_approval", "canceled", "failed", "settled",
	"declined", "refund", "reversed", "returned", "dispute",
}

// Categories lists the transaction categories the list filter takes.
var Categories = []string{"card", "ach", "wire", "international_wire", "rtp", "fee", "internal"}

// StatusOf maps a detailed status to the coarse status.
func StatusOf(detailed string) string {
	switch detailed {
	case "pending", "pending_approval":
		return StatusPending
	case "settled", "refund", "returned", "dispute":
		return StatusPosted
	default:
		return StatusFailed
	}
}

// Transaction is one ledger entry on an account.
type Transaction struct {
	ID                      string        `json:"id"`
	LegalEntityID           string        `json:"legalEntityId"`
	AccountID               string        `json:"accountId"`
	VirtualAccountID        string        `json:"virtualAccountId"`
	AccountSubtype          string        `json:"accountSubtype"`
	CardID                  string        `json:"cardId,omitempty"`
	CardGroupID             string        `json:"cardGroupId,omitempty"`
	Category                string        `json:"category"`
	Date                    time.Time     `json:"date"`
	CreatedAt               time.Time     `json:"createdAt"`
	Description             string        `json:"description"`
	Memo                    string        `json:"memo,omitempty"`
	Note                    string        `json:"note,omitempty"`
	AmountCents             int64         `json:"amountCents"`
	Status                  string        `json:"status"`
	DetailedStatus          string        `json:"detailedStatus"`
	Merchant                *MerchantData `json:"merchantData,omitempty"`
	ReferenceNumber         string        `json:"referenceNumber,omitempty"`
	DeclineReason           string        `json:"declineReason,omitempty"`
	ApprovalReason          string        `json:"approvalReason,omitempty"`
	ProviderAuthorizationID string        `json:"providerAuthorizationId,omitempty"`
	AuthorizedAt            *time.Time    `json:"authorizedAt,omitempty"`
	TransferID              string        `json:"transferId,omitempty"`
	WireInfo                *WireInfo     `json:"wireInfo,omitempty"`
	ACHInfo                 *ACHInfo      `json:"achInfo,omitempty"`
	SEPAInfo                *SEPAInfo     `json:"sepaInfo,omitempty"`
	PIXInfo                 *PIXInfo      `json:"pixInfo,omitempty"`
	SPEIInfo                *SPEIInfo     `json:"speiInfo,omitempty"`
	FPSInfo                 *FPSInfo      `json:"fpsInfo,omitempty"`
	RTPInfo                 *RTPInfo      `json:"rtpInfo,omitempty"`
	FeeInfo                 *FeeInfo      `json:"feeInfo,omitempty"`
	Seq                     int64         `json:"seq"`
}

// MerchantData describes the merchant of a card transaction.
type MerchantData struct {
	Description  string            `json:"description"`
	CategoryCode string            `json:"categoryCode"`
	Location     *MerchantLocation `json:"location,omitempty"`
	MerchantID   string            `json:"-"`
}

// MerchantLocation is where a merchant is.
type MerchantLocation struct {
	City    string `json:"city"`
	State   string `json:"state"`
	Country string `json:"country"`
	Zip     string `json:"zip"`
}

// WireInfo carries Fedwire details.
type WireInfo struct {
	CounterpartyBank     string `json:"counterpartyBank,omitempty"`
	TypeCode             string `json:"typeCode"`
	SubtypeCode          string `json:"subtypeCode"`
	OMAD                 string `json:"omad"`
	IMAD                 string `json:"imad"`
	SenderReference      string `json:"senderReference"`
	BusinessFunctionCode string `json:"businessFunctionCode"`
}

// ACHInfo carries NACHA entry details.
type ACHInfo struct {
	CounterpartyBank         string `json:"counterpartyBank,omitempty"`
	ReceiverID               string `json:"receiverId"`
	CompanyID                string `json:"companyId"`
	CompanyDiscretionaryData string `json:"companyDiscretionaryData"`
	CompanyEntryDescription  string `json:"companyEntryDescription,omitempty"`
	TraceNumber              string `json:"traceNumber"`
	EntryClassCode           string `json:"entryClassCode"`
	PaymentRelatedInfo       string `json:"paymentRelatedInfo"`
}

// SEPAInfo carries a SEPA deposit's details.
type SEPAInfo struct {
	SenderName    string `json:"senderName,omitempty"`
	RecipientName string `json:"recipientName,omitempty"`
	Reference     string `json:"reference,omitempty"`
	IBAN          string `json:"iban,omitempty"`
	IBANLast4     string `json:"ibanLast4,omitempty"`
	BIC           string `json:"bic,omitempty"`
	UETR          string `json:"uetr,omitempty"`
	PaymentScheme string `json:"paymentScheme,omitempty"`
}

// PIXInfo carries a PIX deposit's details.
type PIXInfo struct {
	SenderName     string `json:"senderName,omitempty"`
	Description    string `json:"description,omitempty"`
	Reference      string `json:"reference,omitempty"`
	TrackingNumber string `json:"trackingNumber,omitempty"`
}

// SPEIInfo carries a SPEI deposit's details.
type SPEIInfo struct {
	SenderName     string `json:"senderName,omitempty"`
	Description    string `json:"description,omitempty"`
	Reference      string `json:"reference,omitempty"`
	CLABE          string `json:"clabe,omitempty"`
	TrackingNumber string `json:"trackingNumber,omitempty"`
}

// FPSInfo carries a Faster Payments deposit's details.
type FPSInfo struct {
	SenderName    string `json:"senderName,omitempty"`
	RecipientName string `json:"recipientName,omitempty"`
	Reference     string `json:"reference,omitempty"`
	AccountNumber string `json:"accountNumber,omitempty"`
	Last4         string `json:"last4,omitempty"`
	SortCode      string `json:"sortCode,omitempty"`
	UETR          string `json:"uetr,omitempty"`
}

// Account is a bank or charge-card account of a legal entity.
type Account struct {
	ID                      string    `json:"id"`
	LegalEntityID           string    `json:"legalEntityId"`
	Name                    string    `json:"name"`
	Type                    string    `json:"type"`
	Status                  string    `json:"status"`
	Commercial              bool      `json:"commercial"`
	AccountNumber           string    `json:"accountNumber"`
	RoutingNumber           string    `json:"routingNumber"`
	PrimaryVirtualAccountID string    `json:"primaryVirtualAccountId"`
	CreatedAt               time.Time `json:"createdAt"`
	Seq                     int64     `json:"seq"`

	// CreditLimitCents is a charge-card account's credit limit.
	CreditLimitCents int64 `json:"creditLimitCents,omitempty"`
}

// Totals are the running sums of a ledger bucket (an account subtype or a
// virtual account): posted entries and pending ones.
type Totals struct {
	Posted         int64 `json:"posted"`
	PendingDebits  int64 `json:"pendingDebits"`
	PendingCredits int64 `json:"pendingCredits"`
	Spend          int64 `json:"spend"`
}

// Available is what can be spent: posted money less pending debits.
func (t Totals) Available() int64 { return t.Posted + t.PendingDebits }

// Add adds (sign 1) or removes (sign -1) an effect.
func (t *Totals) Add(e Totals, sign int64) {
	t.Posted += sign * e.Posted
	t.PendingDebits += sign * e.PendingDebits
	t.PendingCredits += sign * e.PendingCredits
	t.Spend += sign * e.Spend
}

// Instant wraps a time so call sites read as "at".
type Instant struct{ Time time.Time }

// At makes an Instant.
func At(t time.Time) Instant { return Instant{Time: t} }
