package sandbox

import (
	"encoding/json"
	"time"
)

// Contact is a payee of a legal entity.
type Contact struct {
	ID                 string          `json:"id"`
	LegalEntityID      string          `json:"legalEntityId"`
	Name               string          `json:"name"`
	RecipientType      string          `json:"recipientType"`
	RecipientLegalName string          `json:"recipientLegalName"`
	RecipientEmail     string          `json:"recipientEmail,omitempty"`
	Address            *Address        `json:"address,omitempty"`
	Data               json.RawMessage `json:"data,omitempty"`
	ArchivedAt         *time.Time      `json:"archivedAt,omitempty"`
	ACHDebitRecurring  bool            `json:"achDebitRecurring,omitempty"`
	CreatedAt          time.Time       `json:"createdAt"`
	Seq                int64           `json:"seq"`
}

// Destination types of a contact.
const (
	DestinationACH               = "bank_account"
	DestinationInternationalWire = "international_wire"
	DestinationCrypto            = "crypto_address"
)

// Destination is where a contact can be paid.
type Destination struct {
	ID            string    `json:"id"`
	ContactID     string    `json:"contactId"`
	LegalEntityID string    `json:"legalEntityId"`
	Type          string    `json:"type"`
	Name          string    `json:"name,omitempty"`
	AccountNumber string    `json:"accountNumber,omitempty"`
	RoutingNumber string    `json:"routingNumber,omitempty"`
	AccountType   string    `json:"accountType,omitempty"`
	IBAN          string    `json:"iban,omitempty"`
	SWIFT         string    `json:"swift,omitempty"`
	BankName      string    `json:"bankName,omitempty"`
	BankCountry   string    `json:"bankCountry,omitempty"`
	Address       string    `json:"address,omitempty"`
	Chain         string    `json:"chain,omitempty"`
	Currency      string    `json:"currency,omitempty"`
	ReturnCode    string    `json:"returnCode,omitempty"` // ACH return code (R01, …) after settling
	CreatedAt     time.Time `json:"createdAt"`
	Seq           int64     `json:"seq"`
}

// Customer is someone a legal entity invoices.
type Customer struct {
	ID             string          `json:"id"`
	LegalEntityID  string          `json:"legalEntityId"`
	Name           string          `json:"name"`
	Email          string          `json:"email"`
	Phone          string          `json:"phone,omitempty"`
	Address        *Address        `json:"address,omitempty"`
	CustomMetadata json.RawMessage `json:"customMetadata,omitempty"`
	Status         string          `json:"status"`
	// ACHDebitRecurring says the customer has an active recurring ACH debit
	// authorization.
	ACHDebitRecurring bool      `json:"achDebitRecurring,omitempty"`
	CreatedAt         time.Time `json:"createdAt"`
	Seq               int64     `json:"seq"`
}

// Invoice is a bill sent to a customer.
type Invoice struct {
	ID                string           `json:"id"`
	LegalEntityID     string           `json:"legalEntityId"`
	AccountID         string           `json:"accountId"`
	CustomerID        string           `json:"customerId"`
	DetailsID         string           `json:"detailsId"`
	Number            string           `json:"number"`
	Status            string           `json:"status"`
	IssuedAt          time.Time        `json:"issuedAt"`
	DueAt             time.Time        `json:"dueAt"`
	Timezone          string           `json:"timezone"`
	Currency          string           `json:"currency"`
	LineItems         []LineItem       `json:"lineItems"`
	Memo              string           `json:"memo,omitempty"`
	CollectedCents    int64            `json:"collectedCents"`
	PaymentMethods    json.RawMessage  `json:"paymentMethods,omitempty"`
	Transactions      []InvoicePayment `json:"transactions,omitempty"`
	ClosedAt          *time.Time       `json:"closedAt,omitempty"`
	SeriesID          string           `json:"seriesId,omitempty"`
	ScheduledSendDate *time.Time       `json:"scheduledSendDate,omitempty"`
	Version           int              `json:"version"`
	ContactID         string           `json:"contactId,omitempty"`
	Discount          *Adjustment      `json:"discount,omitempty"`
	Tax               *Adjustment      `json:"tax,omitempty"`
	BilledTo          BilledTo         `json:"billedTo"`
	DocumentID        string           `json:"documentId,omitempty"`
	SentAt            *time.Time       `json:"sentAt,omitempty"`
	LastReminderAt    *time.Time       `json:"lastReminderAt,omitempty"`
	// Events are the invoice's scheduled events, by purpose.
	Events    map[string]EventRef `json:"events,omitempty"`
	CreatedAt time.Time           `json:"createdAt"`
	Seq       int64               `json:"seq"`
}

// LineItem is one line of an invoice.
type LineItem struct {
	Name       string  `json:"name" yaml:"name"`
	Quantity   float64 `json:"quantity" yaml:"quantity"`
	PriceCents int64   `json:"priceCents" yaml:"priceCents"`
	CatalogID  string  `json:"catalogItemId,omitempty" yaml:"catalogItemId"`
}

// TotalCents is the invoice total: the subtotal less the discount plus
// the tax on what remains.
func (inv *Invoice) TotalCents() int64 {
	return invoiceTotals(inv.LineItems, inv.Discount, inv.Tax).Total
}

// Webhook is an event-delivery endpoint.
type Webhook struct {
	ID              string     `json:"id"`
	LegalEntityID   string     `json:"legalEntityId"`
	URL             string     `json:"url"`
	Name            string     `json:"name"`
	Status          string     `json:"status"`
	EnabledEvents   []string   `json:"enabledEvents,omitempty"`
	CreatedAt       time.Time  `json:"createdAt"`
	ArchivedAt      *time.Time `json:"archivedAt,omitempty"`
	PausedAt        *time.Time `json:"pausedAt,omitempty"`
	BackingOffUntil *time.Time `json:"backingOffUntil,omitempty"`
	DisabledAt      *time.Time `json:"disabledAt,omitempty"`
	// ConsecutiveFailures counts deliveries that failed permanently since
	// the last success or re-enable; six disable the endpoint.
	ConsecutiveFailures int `json:"consecutiveFailures,omitempty"`
	// ResumeEventID names the scheduled webhook.resume that ends a backoff.
	ResumeEventID string `json:"resumeEventId,omitempty"`
	// StatusReason is the reason given with the last status change.
	StatusReason string `json:"statusReason,omitempty"`
	Seq          int64  `json:"seq"`
}
