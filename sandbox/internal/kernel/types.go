package kernel

import (
	"time"
)

// Key kinds.
const (
	KeyLegalEntity = "legal_entity"
	KeyUser        = "user"
)

// Card-group models a legal entity can be on.
const (
	GroupModelLegalEntity    = "legal_entity"
	GroupModelVirtualAccount = "virtual_account"
)

// LegalEntity is one business the world holds.
type LegalEntity struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	Structure      string    `json:"structure,omitempty"`
	V2Enabled      bool      `json:"v2Enabled"`
	CardGroupModel string    `json:"cardGroupModel"`
	Enterprise     bool      `json:"enterprise"`
	CryptoOfframp  bool      `json:"cryptoOfframp"`
	CreatedAt      time.Time `json:"createdAt"`
	Seq            int64     `json:"seq"`
}

// User is a person who holds roles on legal entities.
type User struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
	Roles []Role `json:"roles"`
	Seq   int64  `json:"seq"`
}

// Role is a user's permission role on one legal entity.
type Role struct {
	LegalEntityID string `json:"legalEntityId"`
	Role          string `json:"role"`
	Active        bool   `json:"active"`
}

// APIKey is a credential. Legal-entity keys are pinned to one entity; user
// keys act for their user on any entity where the user has an active role.
type APIKey struct {
	Key string `json:"key"`
	// BaseKey is the key as the scenario declares it; a world created next
	// to others gets its own suffix on every key.
	BaseKey       string `json:"baseKey"`
	Name          string `json:"name"`
	Kind          string `json:"kind"`
	ReadOnly      bool   `json:"readOnly"`
	LegalEntityID string `json:"legalEntityId,omitempty"`
	UserID        string `json:"userId,omitempty"`
	Seq           int64  `json:"seq"`
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

// Money is an amount in cents.
type Money struct {
	AmountCents int64 `json:"amountCents"`
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

// Add adds (sign 1) or removes (sign -1) an effect.
func (t *Totals) Add(e Totals, sign int64) {
	t.Posted += sign * e.Posted
	t.PendingDebits += sign * e.PendingDebits
	t.PendingCredits += sign * e.PendingCredits
	t.Spend += sign * e.Spend
}
