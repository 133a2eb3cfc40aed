package parties

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

// Address is a postal address in the API's shape.
type Address struct {
	AddressLine    string `json:"addressLine" yaml:"addressLine"`
	AddressLine2   string `json:"addressLine2,omitempty" yaml:"addressLine2"`
	AddressCity    string `json:"addressCity" yaml:"addressCity"`
	AddressState   string `json:"addressState" yaml:"addressState"`
	AddressZip     string `json:"addressZip" yaml:"addressZip"`
	AddressCountry string `json:"addressCountry,omitempty" yaml:"addressCountry"`
}

// IsCountryCode reports whether s is shaped as an ISO 3166-1 alpha-2 code:
// two capital letters.
func IsCountryCode(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}
