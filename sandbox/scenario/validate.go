package scenario

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
)

var (
	legalEntityPattern   = regexp.MustCompile(`^le_[a-zA-Z0-9]+$`)
	invoiceNumberPattern = regexp.MustCompile(`^[A-Z0-9-_]+$`)
	returnCodePattern    = regexp.MustCompile(`^R[0-9][0-9]$`)
)

// DetailedStatuses and Categories repeat the engine's enums: the scenario
// package is a leaf and checks files before any engine exists.
var (
	detailedStatuses = []string{"pending", "pending_approval", "canceled", "failed", "settled", "declined", "refund", "reversed", "returned", "dispute"}
	categories       = []string{"card", "ach", "wire", "international_wire", "rtp", "fee", "internal"}
)

// validator collects problems and knows every declared id by kind.
type validator struct {
	sc   *Scenario
	cat  *fixtures.Catalog
	ps   Problems
	ids  map[string]map[string]string // kind → id → owning legal entity
	seen map[string]string            // id → path that declared it
}

func (sc *Scenario) validate() Problems {
	v := &validator{sc: sc, cat: fixtures.MustLoad(), ids: map[string]map[string]string{}, seen: map[string]string{}}
	v.header()
	v.declare()
	v.people()
	v.money()
	v.cards()
	v.parties()
	v.rest()
	v.receivables()
	v.activity()
	return v.ps
}

func (v *validator) add(path, format string, args ...any) {
	v.ps = append(v.ps, v.sc.Problemf(path, format, args...))
}

func (v *validator) required(path, value string) bool {
	if strings.TrimSpace(value) == "" {
		v.add(path, "is required")
		return false
	}
	return true
}

func (v *validator) enum(path, value string, allowed ...string) {
	if value != "" && !slices.Contains(allowed, value) {
		v.add(path, "%q is not one of %s", value, strings.Join(allowed, ", "))
	}
}

func (v *validator) time(path, spec string) {
	if _, err := ParseTime(spec, time.Unix(0, 0)); err != nil {
		v.add(path, "%v", err)
	}
}

// id records a declared id of a kind, owned by a legal entity.
func (v *validator) id(path, kind, id, owner string) {
	if id == "" {
		return
	}
	if prev, dup := v.seen[id]; dup {
		v.add(path, "id %q is already declared at line %d", id, v.sc.Line(prev))
		return
	}
	v.seen[id] = path
	if v.ids[kind] == nil {
		v.ids[kind] = map[string]string{}
	}
	v.ids[kind][id] = owner
}

// ref checks a reference to a declared id and returns its owner.
func (v *validator) ref(path, kind, id string) (string, bool) {
	if id == "" {
		return "", false
	}
	owner, ok := v.ids[kind][id]
	if !ok {
		v.add(path, "names %s %q, which the scenario does not declare", strings.ReplaceAll(kind, "_", " "), id)
	}
	return owner, ok
}

// sameEntity checks that a reference stays inside one legal entity.
func (v *validator) sameEntity(path, want, got string) {
	if want != "" && got != "" && want != got {
		v.add(path, "belongs to legal entity %s, not %s", got, want)
	}
}

func (v *validator) header() {
	if a := v.sc.AgentRequests; a != nil && a.ExpiresAfter != "" {
		if d, err := ParseDuration(a.ExpiresAfter); err != nil || d < time.Minute {
			v.add("agentRequests.expiresAfter", "must be a duration of at least 1m, such as 72h or 7d")
		}
	}
	if r := v.sc.RateLimit; r != nil {
		if r.Requests < 1 {
			v.add("rateLimit.requests", "must be at least 1")
		}
		if d, err := ParseDuration(r.Window); err != nil || d < time.Second {
			v.add("rateLimit.window", "must be a duration of at least 1s, such as 1m")
		}
	}
	if v.sc.ClockStart != "" {
		if _, err := ParseTime(v.sc.ClockStart, time.Unix(0, 0)); err != nil || strings.HasPrefix(v.sc.ClockStart, "+") || strings.HasPrefix(v.sc.ClockStart, "-") {
			v.add("clockStart", "must be an RFC 3339 instant or a YYYY-MM-DD day")
		}
	}
	if v.sc.TokenPrices != nil && v.sc.TokenPrices.TickInterval != "" {
		if d, err := ParseDuration(v.sc.TokenPrices.TickInterval); err != nil || d < time.Minute {
			v.add("tokenPrices.tickInterval", "must be a duration of at least 1m")
		}
	}
	if len(v.sc.LegalEntities) == 0 {
		v.add("legalEntities", "a scenario needs at least one legal entity")
	}
}

// declare records every id first, so references may point forwards.
func (v *validator) declare() {
	sc := v.sc
	for i, le := range sc.LegalEntities {
		v.id(fmt.Sprintf("legalEntities[%d].id", i), "legal_entity", le.ID, le.ID)
	}
	for i, u := range sc.Users {
		v.id(fmt.Sprintf("users[%d].id", i), "user", u.ID, "")
	}
	for i, a := range sc.Accounts {
		v.id(fmt.Sprintf("accounts[%d].id", i), "account", a.ID, a.LegalEntityID)
		for j, va := range a.VirtualAccounts {
			v.id(fmt.Sprintf("accounts[%d].virtualAccounts[%d].id", i, j), "virtual_account", va.ID, a.LegalEntityID)
		}
	}
	for i, g := range sc.CardGroups {
		v.id(fmt.Sprintf("cardGroups[%d].id", i), "card_group", g.ID, g.LegalEntityID)
	}
	for i, c := range sc.Cards {
		v.id(fmt.Sprintf("cards[%d].id", i), "card", c.ID, v.ids["account"][c.AccountID])
	}
	for i, c := range sc.Contacts {
		v.id(fmt.Sprintf("contacts[%d].id", i), "contact", c.ID, c.LegalEntityID)
	}
	for i, c := range sc.Customers {
		v.id(fmt.Sprintf("customers[%d].id", i), "customer", c.ID, c.LegalEntityID)
	}
	for i, inv := range sc.Invoices {
		v.id(fmt.Sprintf("invoices[%d].id", i), "invoice", inv.ID, "")
	}
	for i, t := range sc.Transactions {
		v.id(fmt.Sprintf("transactions[%d].id", i), "transaction", t.ID, "")
	}
	for i, w := range sc.Webhooks {
		v.id(fmt.Sprintf("webhooks[%d].id", i), "webhook", w.ID, w.LegalEntityID)
	}
}
