package cards

import (
	"encoding/json"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Card is a virtual card.
type Card struct {
	ID                 string              `json:"id"`
	LegalEntityID      string              `json:"legalEntityId"`
	AccountID          string              `json:"accountId"`
	VirtualAccountID   string              `json:"virtualAccountId,omitempty"`
	CardGroupID        string              `json:"cardGroupId,omitempty"`
	CardProductID      string              `json:"cardProductId,omitempty"`
	Name               string              `json:"name"`
	Status             string              `json:"status"`
	PAN                string              `json:"pan"`
	CVV                string              `json:"cvv"`
	ExpiryMonth        string              `json:"expiryMonth"`
	ExpiryYear         string              `json:"expiryYear"`
	IsPhysical         bool                `json:"isPhysical"`
	IsSingleUse        bool                `json:"isSingleUse"`
	SpendingConstraint *SpendingConstraint `json:"spendingConstraint,omitempty"`
	UserData           json.RawMessage     `json:"userData,omitempty"`
	Modifiers          []Modifier          `json:"modifiers,omitempty"`
	CreatedAt          time.Time           `json:"createdAt"`
	Seq                int64               `json:"seq"`
	// StatusHistory is every change of the card's status, oldest first:
	// kept with the card, never part of its API view.
	StatusHistory []StatusChange `json:"statusHistory,omitempty"`
}

// Last4 is the last four digits of the PAN.
func (c *Card) Last4() string {
	if len(c.PAN) < 4 {
		return c.PAN
	}
	return c.PAN[len(c.PAN)-4:]
}

// Modifier is an enterprise card setting.
type Modifier struct {
	Name  string `json:"name" yaml:"name" enum:"only_allow_recurring_payments"`
	Value bool   `json:"value" yaml:"value"`
}

// Group groups cards under one spending constraint.
type Group struct {
	ID                 string              `json:"id"`
	LegalEntityID      string              `json:"legalEntityId"`
	Name               string              `json:"name"`
	VirtualAccountID   string              `json:"virtualAccountId,omitempty"`
	Status             string              `json:"status"`
	SpendingConstraint *SpendingConstraint `json:"spendingConstraint,omitempty"`
	CreatedAt          time.Time           `json:"createdAt"`
	Seq                int64               `json:"seq"`
}

// SpendingConstraint is the API's constraint object: five optional rules.
type SpendingConstraint struct {
	MerchantCategoryRule     *MerchantCategoryRule     `json:"merchantCategoryRule,omitempty" yaml:"merchantCategoryRule"`
	MerchantRule             *MerchantRule             `json:"merchantRule,omitempty" yaml:"merchantRule"`
	SpendingRule             *SpendingRule             `json:"spendingRule,omitempty" yaml:"spendingRule"`
	CountryRule              *CountryRule              `json:"countryRule,omitempty" yaml:"countryRule"`
	MerchantCategoryCodeRule *MerchantCategoryCodeRule `json:"merchantCategoryCodeRule,omitempty" yaml:"merchantCategoryCodeRule"`
}

// MerchantCategoryRule allows or blocks merchant categories.
type MerchantCategoryRule struct {
	MerchantCategories []string `json:"merchantCategories" yaml:"merchantCategories"`
	Restriction        string   `json:"restriction" yaml:"restriction" enum:"allowlist,blacklist"`
}

// MerchantRule allows or blocks merchants.
type MerchantRule struct {
	Merchants   []string `json:"merchants" yaml:"merchants"`
	Restriction string   `json:"restriction" yaml:"restriction" enum:"allowlist,blacklist"`
}

// CountryRule allows or blocks merchant countries.
type CountryRule struct {
	Countries   []string `json:"countries" yaml:"countries"`
	Restriction string   `json:"restriction" yaml:"restriction" enum:"allowlist,blacklist"`
}

// MerchantCategoryCodeRule allows or blocks MCCs.
type MerchantCategoryCodeRule struct {
	MerchantCategoryCodes []string `json:"merchantCategoryCodes" yaml:"merchantCategoryCodes"`
	Restriction           string   `json:"restriction" yaml:"restriction" enum:"allowlist,blacklist"`
}

// SpendingRule limits amounts.
type SpendingRule struct {
	UtilizationLimit     *UtilizationLimit     `json:"utilizationLimit,omitempty" yaml:"utilizationLimit"`
	UtilizationLimitV2   []UtilizationLimit    `json:"utilizationLimitV2,omitempty" yaml:"utilizationLimitV2"`
	TransactionSizeLimit *TransactionSizeLimit `json:"transactionSizeLimit,omitempty" yaml:"transactionSizeLimit"`
}

// UtilizationLimit caps spend inside a resetting window.
type UtilizationLimit struct {
	LimitAmount ledger.Money `json:"limitAmount" yaml:"limitAmount"`
	Preset      string       `json:"preset" yaml:"preset" enum:"daily,weekly,monthly,yearly,collective"`
	Timezone    string       `json:"timezone,omitempty" yaml:"timezone"`
	StartDate   string       `json:"startDate,omitempty" yaml:"startDate" format:"date"`
}

// TransactionSizeLimit bounds a single purchase.
type TransactionSizeLimit struct {
	Minimum *ledger.Money `json:"minimum,omitempty" yaml:"minimum"`
	Maximum *ledger.Money `json:"maximum,omitempty" yaml:"maximum"`
}

// cardNames are the stored forms of a card's object names.
var cardNames = struct {
	id, legalEntityID, accountID, virtualAccountID, cardGroupID, cardProductID, name, status, pan, cvv,
	expiryMonth, expiryYear, isPhysical, isSingleUse, createdAt, seq store.Name
}{store.NameOf("id"), store.NameOf("legalEntityId"), store.NameOf("accountId"), store.NameOf("virtualAccountId"),
	store.NameOf("cardGroupId"), store.NameOf("cardProductId"), store.NameOf("name"), store.NameOf("status"),
	store.NameOf("pan"), store.NameOf("cvv"), store.NameOf("expiryMonth"), store.NameOf("expiryYear"),
	store.NameOf("isPhysical"), store.NameOf("isSingleUse"), store.NameOf("createdAt"), store.NameOf("seq")}

// AppendStored writes a card without a spending constraint, user data,
// modifiers or status history in its stored form (store.StoredAppender): every POST /card
// stores one. Others, and strings that need escaping, are left to
// json.Marshal.
func (c *Card) AppendStored(b []byte) ([]byte, bool) {
	if c.SpendingConstraint != nil || len(c.UserData) > 0 || len(c.Modifiers) > 0 || len(c.StatusHistory) > 0 {
		return b, false
	}
	n := &cardNames
	o := store.NewStoredObject(b)
	o.String(n.id, c.ID)
	o.String(n.legalEntityID, c.LegalEntityID)
	o.String(n.accountID, c.AccountID)
	if c.VirtualAccountID != "" {
		o.String(n.virtualAccountID, c.VirtualAccountID)
	}
	if c.CardGroupID != "" {
		o.String(n.cardGroupID, c.CardGroupID)
	}
	if c.CardProductID != "" {
		o.String(n.cardProductID, c.CardProductID)
	}
	o.String(n.name, c.Name)
	o.String(n.status, c.Status)
	o.String(n.pan, c.PAN)
	o.String(n.cvv, c.CVV)
	o.String(n.expiryMonth, c.ExpiryMonth)
	o.String(n.expiryYear, c.ExpiryYear)
	o.Bool(n.isPhysical, c.IsPhysical)
	o.Bool(n.isSingleUse, c.IsSingleUse)
	o.Time(n.createdAt, c.CreatedAt)
	o.Int(n.seq, c.Seq)
	return o.End()
}

// Card-group models a legal entity can be on (kernel.LegalEntity.CardGroupModel).
const (
	GroupModelLegalEntity    = "legal_entity"
	GroupModelVirtualAccount = "virtual_account"
)
