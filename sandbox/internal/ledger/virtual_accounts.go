package ledger

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// PrefixCommissionRule starts the id of a virtual account's commission rule.
const PrefixCommissionRule = "commission_rule_"

// CommissionDetails is a virtual account's commission: a flat fee every
// month or year, or a take rate (a percentage) of incoming funds.
type CommissionDetails struct {
	Type      string   `json:"type"`
	Amount    *Money   `json:"amount,omitempty"`
	Frequency string   `json:"frequency,omitempty"`
	StartDate string   `json:"startDate,omitempty"`
	TakeRate  *float64 `json:"takeRate,omitempty"`
}

// CommissionRule is the stored commission of a virtual account.
type CommissionRule struct {
	ID                string            `json:"id"`
	VirtualAccountID  string            `json:"virtualAccountId"`
	CommissionDetails CommissionDetails `json:"commissionDetails" ref:"VirtualAccountCommissionDetails"`
}

// ParseCommissionDetails decodes and checks commission details given at a
// JSON pointer; problems are 400s naming the field.
func ParseCommissionDetails(raw json.RawMessage, pointer string) (*CommissionDetails, error) {
	var d CommissionDetails
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, kernel.InvalidField(
			pointer,
			"must be {type: flatFee, amount: {amountCents}, frequency: monthly|yearly, startDate?} or {type: takeRate,"+
				" takeRate}: "+err.Error(),
		)
	}
	p := map[string]string{}
	if !jsonshape.CheckAt(p, pointer, raw, &d) {
		return nil, kernel.Invalid(p)
	}
	switch d.Type {
	case "flatFee":
		if d.Amount == nil {
			p[pointer+"/amount"] = "required: {amountCents} greater than zero"
		} else {
			CheckAmount(p, pointer+"/amount/amountCents", float64(d.Amount.AmountCents), 1)
		}
		if d.Frequency != "monthly" && d.Frequency != "yearly" {
			p[pointer+"/frequency"] = "must be monthly or yearly"
		}
		if _, err := time.Parse(time.RFC3339, d.StartDate); d.StartDate != "" && err != nil {
			p[pointer+"/startDate"] = "must be an RFC 3339 date-time"
		}
		if d.TakeRate != nil {
			p[pointer+"/takeRate"] = "belongs to a takeRate commission, not flatFee"
		}
	case "takeRate":
		if d.TakeRate == nil || *d.TakeRate <= 0 || *d.TakeRate > 100 {
			p[pointer+"/takeRate"] = "required: a percentage greater than 0 and at most 100"
		}
		if d.Amount != nil || d.Frequency != "" || d.StartDate != "" {
			p[pointer] = "a takeRate commission takes only type and takeRate"
		}
	default:
		p[pointer+"/type"] = "must be flatFee or takeRate"
	}
	if len(p) > 0 {
		return nil, kernel.Invalid(p)
	}
	return &d, nil
}

// CommissionRuleOf returns a virtual account's commission rule, if any.
func (va *VirtualAccount) CommissionRuleOf() *CommissionRule {
	if len(va.CommissionRule) == 0 || string(va.CommissionRule) == "null" {
		return nil
	}
	var r CommissionRule
	if json.Unmarshal(va.CommissionRule, &r) != nil {
		return nil
	}
	return &r
}

// setCommission replaces (d not nil) or removes (nil) the commission rule,
// keeping its id when one existed.
func setCommission(op *kernel.Op, va *VirtualAccount, d *CommissionDetails) error {
	if d == nil {
		va.CommissionRule = nil
		return nil
	}
	rule := CommissionRule{VirtualAccountID: va.ID, CommissionDetails: *d}
	if old := va.CommissionRuleOf(); old != nil {
		rule.ID = old.ID
	} else {
		id, err := op.NewID(PrefixCommissionRule)
		if err != nil {
			return err
		}
		rule.ID = id
	}
	raw, err := json.Marshal(rule)
	va.CommissionRule = raw
	return err
}

// VirtualAccountOf loads one of the actor's virtual accounts.
func VirtualAccountOf(op *kernel.Op, a *kernel.Actor, id, field string) (*VirtualAccount, error) {
	var va VirtualAccount
	ok, err := op.Get(KindVirtualAccount, id, &va)
	if err != nil {
		return nil, err
	}
	if !ok || va.LegalEntityID != a.LegalEntityID() {
		return nil, kernel.NotFound("virtual account", field, id)
	}
	return &va, nil
}

// ListVirtualAccounts lists the actor's virtual accounts, primary ones
// included, grouped by account and in creation order; closed ones only
// when asked. accountID narrows the list to one of the actor's accounts.
func ListVirtualAccounts(
	op *kernel.Op,
	a *kernel.Actor,
	accountID string,
	includeClosed bool,
	req kernel.PageRequest,
) (kernel.Page[VirtualAccount], error) {
	prefix := kernel.IndexPrefix(indexVA)
	if accountID != "" {
		if _, err := AccountOf(op, a, accountID, "filter:accountId"); err != nil {
			return kernel.Page[VirtualAccount]{}, err
		}
		prefix = kernel.IndexPrefix(indexVA, accountID)
	}
	le := a.LegalEntityID()
	return kernel.List(op, KindVirtualAccount, prefix, req, func(va *VirtualAccount) bool {
		return va.LegalEntityID == le && (includeClosed || va.ClosedAt == nil)
	})
}

// CheckVirtualAccountName refuses an empty or overlong name.
func CheckVirtualAccountName(name string) error {
	if strings.TrimSpace(name) == "" {
		return kernel.InvalidField("/name", "must not be empty")
	}
	if utf8.RuneCountInString(name) > 255 {
		return kernel.InvalidField("/name", "must be at most 255 characters")
	}
	return nil
}

// CreateVirtualAccount opens a virtual account in one of the actor's open
// accounts.
func CreateVirtualAccount(
	op *kernel.Op,
	a *kernel.Actor,
	accountID, name string,
	commission *CommissionDetails,
) (*VirtualAccount, error) {
	acc, err := AccountOf(op, a, accountID, "accountId")
	if err != nil {
		return nil, err
	}
	if acc.Status != "open" {
		return nil, kernel.InvalidField("/accountId", fmt.Sprintf("account %s is %s", acc.ID, acc.Status))
	}
	if err := CheckVirtualAccountName(name); err != nil {
		return nil, err
	}
	id, err := op.NewID(PrefixVirtualAccount)
	if err != nil {
		return nil, err
	}
	seq, err := op.NextSeq()
	if err != nil {
		return nil, err
	}
	va := &VirtualAccount{ID: id, AccountID: acc.ID, LegalEntityID: acc.LegalEntityID, Name: strings.TrimSpace(name),
		AccountNumber: op.W.Faker("virtual_account:"+id, 0).DigitN(12), RoutingNumber: acc.RoutingNumber,
		CreatedAt: op.Now, Seq: seq}
	if err := setCommission(op, va, commission); err != nil {
		return nil, err
	}
	return va, op.Save(KindVirtualAccount, va.ID, va, VaIndex(va))
}

// VirtualAccountUpdate changes a virtual account: a new name, and a new
// commission (SetCommission with Commission nil removes it).
type VirtualAccountUpdate struct {
	Name          *string
	SetCommission bool
	Commission    *CommissionDetails
}

// UpdateVirtualAccount renames a virtual account or changes its
// commission. A closed one cannot change.
func UpdateVirtualAccount(op *kernel.Op, a *kernel.Actor, id string, u VirtualAccountUpdate) (*VirtualAccount, error) {
	va, err := VirtualAccountOf(op, a, id, "")
	if err != nil {
		return nil, err
	}
	if va.ClosedAt != nil {
		return nil, kernel.Errorf(kernel.CodeInvalidRequest, "virtual account %s is closed and cannot change", va.ID)
	}
	if u.Name != nil {
		if err := CheckVirtualAccountName(*u.Name); err != nil {
			return nil, err
		}
		va.Name = strings.TrimSpace(*u.Name)
	}
	if u.SetCommission {
		if err := setCommission(op, va, u.Commission); err != nil {
			return nil, err
		}
	}
	return va, op.Save(KindVirtualAccount, va.ID, va, VaIndex(va))
}

// CloseVirtualAccount closes a virtual account. The primary one cannot be
// closed, nor one that still holds money or has pending transactions.
func CloseVirtualAccount(op *kernel.Op, a *kernel.Actor, id string) (*VirtualAccount, error) {
	va, err := VirtualAccountOf(op, a, id, "")
	if err != nil {
		return nil, err
	}
	switch {
	case va.Primary:
		return nil, kernel.Errorf(kernel.CodeInvalidRequest,
			"virtual account %s is its account's primary virtual account and cannot be closed", va.ID)
	case va.ClosedAt != nil:
		return nil, kernel.Errorf(kernel.CodeInvalidRequest, "virtual account %s is already closed", va.ID)
	}
	t, err := TotalsOf(op, va.ID, "virtual")
	if err != nil {
		return nil, err
	}
	if t.Posted != 0 {
		return nil, kernel.Errorf(kernel.CodeInvalidRequest, "virtual account %s still holds %s; transfer the balance out"+
			" before closing it",
			va.ID, FormatCents(t.Posted)).
			With("balance", FormatCents(t.Posted))
	}
	if t.PendingDebits != 0 || t.PendingCredits != 0 {
		return nil, kernel.Errorf(kernel.CodeInvalidRequest, "virtual account %s has pending transactions; close it once"+
			" they have settled", va.ID).
			With("pending", FormatCents(t.PendingDebits+t.PendingCredits))
	}
	now := op.Now
	va.ClosedAt = &now
	return va, op.Save(KindVirtualAccount, va.ID, va, VaIndex(va))
}

// VirtualAccount is a sub-account; every account has a primary one.
type VirtualAccount struct {
	ID            string     `json:"id"`
	AccountID     string     `json:"accountId"`
	LegalEntityID string     `json:"legalEntityId"`
	Name          string     `json:"name"`
	AccountNumber string     `json:"accountNumber,omitempty"`
	RoutingNumber string     `json:"routingNumber,omitempty"`
	Primary       bool       `json:"primary"`
	ClosedAt      *time.Time `json:"closedAt,omitempty"`
	CreatedAt     time.Time  `json:"createdAt"`
	Seq           int64      `json:"seq"`
	// CommissionRule is kept as the API shape it was given.
	CommissionRule json.RawMessage `json:"commissionRule,omitempty"`
}
