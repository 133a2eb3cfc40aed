package scenario

import (
	"fmt"
	"strings"
)

func (v *validator) people() {
	for i, le := range v.sc.LegalEntities {
		p := fmt.Sprintf("legalEntities[%d]", i)
		if v.required(p+".id", le.ID) && !legalEntityPattern.MatchString(le.ID) {
			v.add(p+".id", "%q must match ^le_[a-zA-Z0-9]+$", le.ID)
		}
		v.required(p+".name", le.Name)
		v.enum(p+".structure", le.Structure, "person", "llc", "lp", "llp", "gp", "partnership", "cooperative", "ccorp", "scorp", "other")
		v.enum(p+".cardGroupModel", le.CardGroupModel, "legal_entity", "virtual_account")
		v.time(p+".createdAt", le.CreatedAt)
	}
	for i, u := range v.sc.Users {
		p := fmt.Sprintf("users[%d]", i)
		if v.required(p+".id", u.ID) && !strings.HasPrefix(u.ID, "u_") {
			v.add(p+".id", "%q must start with u_", u.ID)
		}
		v.required(p+".name", u.Name)
		for j, r := range u.Roles {
			rp := fmt.Sprintf("%s.roles[%d]", p, j)
			if v.required(rp+".legalEntityId", r.LegalEntityID) {
				v.ref(rp+".legalEntityId", "legal_entity", r.LegalEntityID)
			}
			v.enum(rp+".role", r.Role, "admin", "member", "viewer", "bookkeeper")
		}
	}
	keys := map[string]bool{}
	for i, k := range v.sc.Keys {
		p := fmt.Sprintf("keys[%d]", i)
		if v.required(p+".key", k.Key) && keys[k.Key] {
			v.add(p+".key", "key %q is declared twice", k.Key)
		}
		keys[k.Key] = true
		v.enum(p+".kind", k.Kind, "legal_entity", "user")
		switch k.Kind {
		case "legal_entity":
			if v.required(p+".legalEntityId", k.LegalEntityID) {
				v.ref(p+".legalEntityId", "legal_entity", k.LegalEntityID)
			}
		case "user":
			if v.required(p+".userId", k.UserID) {
				v.ref(p+".userId", "user", k.UserID)
			}
		case "":
			v.add(p+".kind", "is required (legal_entity or user)")
		}
	}
}

func (v *validator) money() {
	if m := v.sc.Money; m != nil && m.ACHSettlementBusinessDays != nil && (*m.ACHSettlementBusinessDays < 0 || *m.ACHSettlementBusinessDays > 10) {
		v.add("money.achSettlementBusinessDays", "must be between 0 and 10")
	}
	for i, a := range v.sc.Accounts {
		p := fmt.Sprintf("accounts[%d]", i)
		if v.required(p+".legalEntityId", a.LegalEntityID) {
			v.ref(p+".legalEntityId", "legal_entity", a.LegalEntityID)
		}
		v.required(p+".name", a.Name)
		v.enum(p+".type", a.Type, "debit", "charge_card")
		v.enum(p+".status", a.Status, "open", "closed")
		if a.CreditLimitCents != nil && (*a.CreditLimitCents < 0 || a.Type != "charge_card") {
			v.add(p+".creditLimitCents", "must be a non-negative amount on a charge_card account")
		}
		v.time(p+".createdAt", a.CreatedAt)
		for j, va := range a.VirtualAccounts {
			vp := fmt.Sprintf("%s.virtualAccounts[%d]", p, j)
			v.required(vp+".name", va.Name)
			v.time(vp+".createdAt", va.CreatedAt)
		}
	}
	for i, t := range v.sc.Transactions {
		p := fmt.Sprintf("transactions[%d]", i)
		if t.AccountID == "" && t.CardID == "" {
			v.add(p, "needs accountId or cardId")
		}
		owner, _ := v.ref(p+".accountId", "account", t.AccountID)
		if cardOwner, ok := v.ref(p+".cardId", "card", t.CardID); ok {
			v.sameEntity(p+".cardId", owner, cardOwner)
		}
		if vaOwner, ok := v.ref(p+".virtualAccountId", "virtual_account", t.VirtualAccountID); ok {
			v.sameEntity(p+".virtualAccountId", owner, vaOwner)
		}
		v.enum(p+".category", t.Category, categories...)
		v.enum(p+".detailedStatus", t.DetailedStatus, detailedStatuses...)
		v.enum(p+".rail", t.Rail, "sepa", "pix", "spei", "fps")
		if t.AmountCents == 0 {
			v.add(p+".amountCents", "must not be zero")
		}
		if t.MerchantID != "" {
			if _, ok := v.cat.Merchant(t.MerchantID); !ok {
				v.add(p+".merchantId", "%q is not a merchant of the fixtures catalogue", t.MerchantID)
			}
		}
		v.time(p+".date", t.Date)
		v.time(p+".settlesAt", t.SettlesAt)
		if t.SettlesAt != "" && t.DetailedStatus != "" && t.DetailedStatus != "pending" {
			v.add(p+".settlesAt", "only a pending transaction can settle later")
		}
	}
}

func (v *validator) cards() {
	for i, g := range v.sc.CardGroups {
		p := fmt.Sprintf("cardGroups[%d]", i)
		if v.required(p+".legalEntityId", g.LegalEntityID) {
			v.ref(p+".legalEntityId", "legal_entity", g.LegalEntityID)
		}
		v.required(p+".name", g.Name)
		if owner, ok := v.ref(p+".virtualAccountId", "virtual_account", g.VirtualAccountID); ok {
			v.sameEntity(p+".virtualAccountId", g.LegalEntityID, owner)
		}
		v.time(p+".createdAt", g.CreatedAt)
	}
	for i, c := range v.sc.Cards {
		p := fmt.Sprintf("cards[%d]", i)
		owner := ""
		if v.required(p+".accountId", c.AccountID) {
			owner, _ = v.ref(p+".accountId", "account", c.AccountID)
		}
		if o, ok := v.ref(p+".virtualAccountId", "virtual_account", c.VirtualAccountID); ok {
			v.sameEntity(p+".virtualAccountId", owner, o)
		}
		if o, ok := v.ref(p+".cardGroupId", "card_group", c.CardGroupID); ok {
			v.sameEntity(p+".cardGroupId", owner, o)
		}
		if c.CardProductID != "" {
			if _, ok := v.cat.CardProduct(c.CardProductID); !ok {
				v.add(p+".cardProductId", "%q is not a card product of the fixtures catalogue", c.CardProductID)
			}
		}
		v.required(p+".name", c.Name)
		v.enum(p+".status", c.Status, "active", "paused", "inactive", "closed")
		v.time(p+".createdAt", c.CreatedAt)
		for j, m := range c.Modifiers {
			v.enum(fmt.Sprintf("%s.modifiers[%d].name", p, j), m.Name, "only_allow_recurring_payments")
		}
	}
}

func (v *validator) parties() {
	for i, c := range v.sc.Contacts {
		p := fmt.Sprintf("contacts[%d]", i)
		if v.required(p+".id", c.ID) && !strings.HasPrefix(c.ID, "le_c_") {
			v.add(p+".id", "%q must start with le_c_", c.ID)
		}
		if v.required(p+".legalEntityId", c.LegalEntityID) {
			v.ref(p+".legalEntityId", "legal_entity", c.LegalEntityID)
		}
		v.required(p+".name", c.Name)
		v.enum(p+".recipientType", c.RecipientType, "contact", "vendor")
		v.time(p+".createdAt", c.CreatedAt)
		for j, d := range c.Destinations {
			dp := fmt.Sprintf("%s.destinations[%d]", p, j)
			v.enum(dp+".type", d.Type, "bank_account", "international_wire", "crypto_address")
			v.required(dp+".type", d.Type)
			if d.ReturnCode != "" && (d.Type != "bank_account" || !returnCodePattern.MatchString(d.ReturnCode)) {
				v.add(dp+".returnCode", "must be an ACH return code R01 to R99 on a bank_account destination")
			}
		}
	}
	for i, c := range v.sc.Customers {
		p := fmt.Sprintf("customers[%d]", i)
		if v.required(p+".legalEntityId", c.LegalEntityID) {
			v.ref(p+".legalEntityId", "legal_entity", c.LegalEntityID)
		}
		v.required(p+".name", c.Name)
		v.required(p+".email", c.Email)
		v.enum(p+".status", c.Status, "active", "archived")
	}
	numbers := map[string]bool{}
	for i, inv := range v.sc.Invoices {
		p := fmt.Sprintf("invoices[%d]", i)
		owner, _ := v.ref(p+".accountId", "account", inv.AccountID)
		v.required(p+".accountId", inv.AccountID)
		if v.required(p+".customerId", inv.CustomerID) {
			if o, ok := v.ref(p+".customerId", "customer", inv.CustomerID); ok {
				v.sameEntity(p+".customerId", owner, o)
			}
		}
		if v.required(p+".number", inv.Number) {
			if !invoiceNumberPattern.MatchString(inv.Number) || len(inv.Number) > 50 {
				v.add(p+".number", "%q must match ^[A-Z0-9-_]+$ (at most 50 characters)", inv.Number)
			}
			if numbers[owner+"/"+inv.Number] {
				v.add(p+".number", "invoice number %q is already used by this legal entity", inv.Number)
			}
			numbers[owner+"/"+inv.Number] = true
		}
		if len(inv.LineItems) == 0 {
			v.add(p+".lineItems", "an invoice needs at least one line item")
		}
		v.time(p+".issuedAt", inv.IssuedAt)
		v.time(p+".dueAt", inv.DueAt)
		v.time(p+".scheduledSendAt", inv.ScheduledSend)
	}
}

// MaxGenerated is the most records a scenario's generate entries make
// together: what one load may take in time and memory.
const MaxGenerated = 1_000_000

func (v *validator) rest() {
	for i, w := range v.sc.Webhooks {
		p := fmt.Sprintf("webhooks[%d]", i)
		if v.required(p+".legalEntityId", w.LegalEntityID) {
			v.ref(p+".legalEntityId", "legal_entity", w.LegalEntityID)
		}
		v.required(p+".url", w.URL)
		v.required(p+".name", w.Name)
		v.enum(p+".status", w.Status, "active", "paused", "disabled")
	}
	total := 0
	for i, g := range v.sc.Generate {
		p := fmt.Sprintf("generate[%d]", i)
		v.enum(p+".kind", g.Kind, "card_transactions", "bank_transactions")
		v.required(p+".kind", g.Kind)
		if g.Count < 1 || g.Count > MaxGenerated {
			v.add(p+".count", "must be between 1 and %d", MaxGenerated)
		} else if total += g.Count; total > MaxGenerated {
			v.add(p+".count", "brings the records generated to %d; a scenario generates at most %d in all", total, MaxGenerated)
		}
		if _, err := ParseDuration(g.Over); g.Over != "" && err != nil {
			v.add(p+".over", "%v", err)
		}
		v.ref(p+".legalEntityId", "legal_entity", g.LegalEntityID)
		v.ref(p+".accountId", "account", g.AccountID)
		for j, c := range g.Cards {
			v.ref(fmt.Sprintf("%s.cards[%d]", p, j), "card", c)
		}
	}
	for i, e := range v.sc.Events {
		p := fmt.Sprintf("events[%d]", i)
		v.required(p+".kind", e.Kind)
		v.time(p+".at", e.At)
	}
}
