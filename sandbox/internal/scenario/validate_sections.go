package scenario

import (
	"fmt"
	"regexp"
	"strings"
)

func (v *validator) people() {
	for i, le := range v.sc.LegalEntities {
		p := fmt.Sprintf("legalEntities[%d]", i)
		if le.ID != "" && !legalEntityPattern.MatchString(le.ID) {
			v.add(p+".id", "%q must match ^le_[a-zA-Z0-9]+$", le.ID)
		}
		v.time(p+".createdAt", le.CreatedAt)
	}
	for i, u := range v.sc.Users {
		v.prefixed(fmt.Sprintf("users[%d].id", i), u.ID, "u_")
	}
	keys := map[string]bool{}
	for i, k := range v.sc.Keys {
		p := fmt.Sprintf("keys[%d]", i)
		if k.Key != "" && keys[k.Key] {
			v.add(p+".key", "key %q is declared twice", k.Key)
		}
		keys[k.Key] = true
		switch {
		case k.Kind == "legal_entity" && k.LegalEntityID == "":
			v.add(p+".legalEntityId", "is required for a legal_entity key")
		case k.Kind == "user" && k.UserID == "":
			v.add(p+".userId", "is required for a user key")
		}
	}
}

func (v *validator) money() {
	if m := v.sc.Money; m != nil && m.ACHSettlementBusinessDays != nil &&
		(*m.ACHSettlementBusinessDays < 0 || *m.ACHSettlementBusinessDays > 10) {
		v.add("money.achSettlementBusinessDays", "must be between 0 and 10")
	}
	for i, a := range v.sc.Accounts {
		p := fmt.Sprintf("accounts[%d]", i)
		if a.CreditLimitCents != nil && (*a.CreditLimitCents < 0 || a.Type != "charge_card") {
			v.add(p+".creditLimitCents", "must be a non-negative amount on a charge_card account")
		}
		v.time(p+".createdAt", a.CreatedAt)
		for j, va := range a.VirtualAccounts {
			v.time(fmt.Sprintf("%s.virtualAccounts[%d].createdAt", p, j), va.CreatedAt)
			v.time(fmt.Sprintf("%s.virtualAccounts[%d].closedAt", p, j), va.ClosedAt)
			if va.ClosedAt != "" && !va.Closed {
				v.add(fmt.Sprintf("%s.virtualAccounts[%d].closedAt", p, j), "only a closed virtual account has closedAt")
			}
		}
		if a.Primary != nil {
			v.time(p+".primaryVirtualAccount.createdAt", a.Primary.CreatedAt)
		}
	}
	for i, t := range v.sc.Transactions {
		p := fmt.Sprintf("transactions[%d]", i)
		if t.AccountID == "" && t.CardID == "" {
			v.add(p, "needs accountId or cardId")
		}
		owner, _ := v.owner("account", t.AccountID)
		if cardOwner, ok := v.owner("card", t.CardID); ok {
			v.sameEntity(p+".cardId", owner, cardOwner)
		}
		if vaOwner, ok := v.owner("virtual_account", t.VirtualAccountID); ok {
			v.sameEntity(p+".virtualAccountId", owner, vaOwner)
		}
		if t.AmountCents == 0 {
			v.add(p+".amountCents", "must not be zero")
		}
		v.time(p+".date", t.Date)
		v.time(p+".settlesAt", t.SettlesAt)
		v.time(p+".createdAt", t.CreatedAt)
		v.time(p+".authorizedAt", t.AuthorizedAt)
		if t.SettlesAt != "" && t.DetailedStatus != "" && t.DetailedStatus != "pending" {
			v.add(p+".settlesAt", "only a pending transaction can settle later")
		}
	}
}

func (v *validator) cards() {
	for i, g := range v.sc.CardGroups {
		p := fmt.Sprintf("cardGroups[%d]", i)
		if owner, ok := v.owner("virtual_account", g.VirtualAccountID); ok {
			v.sameEntity(p+".virtualAccountId", g.LegalEntityID, owner)
		}
		v.time(p+".createdAt", g.CreatedAt)
	}
	for i, c := range v.sc.Cards {
		p := fmt.Sprintf("cards[%d]", i)
		owner, _ := v.owner("account", c.AccountID)
		if o, ok := v.owner("virtual_account", c.VirtualAccountID); ok {
			v.sameEntity(p+".virtualAccountId", owner, o)
		}
		if o, ok := v.owner("card_group", c.CardGroupID); ok {
			v.sameEntity(p+".cardGroupId", owner, o)
		}
		v.time(p+".createdAt", c.CreatedAt)
		if c.Last4 != "" && !last4Pattern.MatchString(c.Last4) {
			v.add(p+".last4", "%q must be four digits", c.Last4)
		}
		if c.ExpiryMonth != "" && !expiryMonthPattern.MatchString(c.ExpiryMonth) {
			v.add(p+".expiryMonth", "%q must be a month, 01 to 12", c.ExpiryMonth)
		}
		if c.ExpiryYear != "" && !expiryYearPattern.MatchString(c.ExpiryYear) {
			v.add(p+".expiryYear", "%q must be a year of four digits", c.ExpiryYear)
		}
		v.time(p+".statusSince", c.StatusSince)
		if c.StatusSince != "" && (c.Status == "" || c.Status == "active") {
			v.add(p+".statusSince", "only a card whose status is not active has one")
		}
	}
}

var (
	last4Pattern       = regexp.MustCompile(`^[0-9]{4}$`)
	expiryMonthPattern = regexp.MustCompile(`^(0[1-9]|1[0-2])$`)
	expiryYearPattern  = regexp.MustCompile(`^[0-9]{4}$`)
)

func (v *validator) parties() {
	for i, c := range v.sc.Contacts {
		p := fmt.Sprintf("contacts[%d]", i)
		v.prefixed(p+".id", c.ID, "le_c_")
		v.time(p+".createdAt", c.CreatedAt)
		for j, d := range c.Destinations {
			dp := fmt.Sprintf("%s.destinations[%d]", p, j)
			if d.ReturnCode != "" && (d.Type != "bank_account" || !returnCodePattern.MatchString(d.ReturnCode)) {
				v.add(dp+".returnCode", "must be an ACH return code R01 to R99 on a bank_account destination")
			}
		}
	}
	for i, c := range v.sc.Customers {
		v.time(fmt.Sprintf("customers[%d].createdAt", i), c.CreatedAt)
	}
	numbers := map[string]bool{}
	for i, inv := range v.sc.Invoices {
		p := fmt.Sprintf("invoices[%d]", i)
		owner, _ := v.owner("account", inv.AccountID)
		if o, ok := v.owner("customer", inv.CustomerID); ok {
			v.sameEntity(p+".customerId", owner, o)
		}
		if inv.Number != "" {
			if !invoiceNumberPattern.MatchString(inv.Number) || len(inv.Number) > 50 {
				v.add(p+".number", "%q must match ^[A-Z0-9-_]+$ (at most 50 characters)", inv.Number)
			}
			if numbers[owner+"/"+inv.Number] {
				v.add(p+".number", "invoice number %q is already used by this legal entity", inv.Number)
			}
			numbers[owner+"/"+inv.Number] = true
		}
		v.time(p+".issuedAt", inv.IssuedAt)
		v.time(p+".dueAt", inv.DueAt)
		v.time(p+".scheduledSendAt", inv.ScheduledSend)
		v.invoiceRecord(p, inv, owner)
	}
}

// MaxGenerated is the most records a scenario's generate entries make
// together: what one load may take in time and memory.
const MaxGenerated = 1_000_000

func (v *validator) rest() {
	for i, w := range v.sc.Webhooks {
		v.time(fmt.Sprintf("webhooks[%d].createdAt", i), w.CreatedAt)
	}
	for i, e := range v.sc.CardEvents {
		p := fmt.Sprintf("cardEvents[%d]", i)
		v.prefixed(p+".id", e.ID, "card_event_")
		v.time(p+".at", e.At)
		if e.Last4 != "" && !last4Pattern.MatchString(e.Last4) {
			v.add(p+".last4", "%q must be four digits", e.Last4)
		}
	}
	for i, s := range v.sc.InvoiceSettings {
		v.time(fmt.Sprintf("invoiceSettings[%d].updatedAt", i), s.UpdatedAt)
	}
	for i, b := range v.sc.UserBankAccounts {
		v.time(fmt.Sprintf("userBankAccounts[%d].createdAt", i), b.CreatedAt)
	}
	for i, m := range v.sc.CustomMerchants {
		v.time(fmt.Sprintf("customMerchants[%d].createdAt", i), m.CreatedAt)
	}
	total := 0
	for i, g := range v.sc.Generate {
		p := fmt.Sprintf("generate[%d]", i)
		if g.Count < 1 || g.Count > MaxGenerated {
			v.add(p+".count", "must be between 1 and %d", MaxGenerated)
		} else if total += g.Count; total > MaxGenerated {
			v.add(p+".count", "brings the records generated to %d; a scenario generates at most %d in all", total, MaxGenerated)
		}
		if _, err := ParseDuration(g.Over); g.Over != "" && err != nil {
			v.add(p+".over", "%v", err)
		}
	}
}

// prefixed checks that a declared id starts as its kind's ids do.
func (v *validator) prefixed(path, id, prefix string) {
	if id != "" && !strings.HasPrefix(id, prefix) {
		v.add(path, "%q must start with %s", id, prefix)
	}
}
