package scenario

import (
	"fmt"
	"maps"
	"math"
	"reflect"
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

// detailedStatuses repeats the engine's enum: the scenario package is a
// leaf and checks files before any engine exists.
var detailedStatuses = tagEnum(reflect.TypeFor[Transaction](), "detailedStatus")

// tagEnum reads the fixed set of a key of a type.
func tagEnum(t reflect.Type, key string) []string {
	for i := range t.NumField() {
		if f := t.Field(i); f.Tag.Get("yaml") == key {
			return strings.Split(f.Tag.Get("enum"), ",")
		}
	}
	return nil
}

// refKinds names the kinds of thing a key may name by id, as problems say
// them. The catalogue's merchants and card products are fixtures, not
// declarations.
var refKinds = map[string]string{
	"legal_entity": "legal entity", "user": "user", "account": "account", "virtual_account": "virtual account",
	"card_group": "card group", "card": "card", "contact": "contact", "customer": "customer", "invoice": "invoice",
	"transaction": "transaction", "webhook": "webhook", "user_bank_account": "user bank account",
	"custom_merchant": "custom merchant", "invoice_series": "invoice series", "expense_report": "expense report",
	"task": "task", "document": "document", "card_product": "card product", "merchant": "merchant",
	"merchant_or_custom": "merchant",
	"key":                "API key", "account_or_virtual_account": "account or virtual account",
	"webhook_entity": "card, transaction or expense report", "event": "scheduled event",
	"webhook_delivery": "webhook delivery", "agent_request": "agent request",
	// external ids name something outside the scenario (the card network's
	// authorization, a transfer): kept as they are, never checked.
	"external": "outside identifier",
}

// refUnions are the kinds a key may name one of several kinds by.
var refUnions = map[string][]string{
	"account_or_virtual_account": {"account", "virtual_account"},
	"webhook_entity":             {"card", "transaction", "expense_report"},
}

// refWhere says where a kind of thing is looked up, when not among the
// file's declarations.
var refWhere = map[string]string{"card_product": " in the fixtures catalogue", "merchant": " in the fixtures catalogue",
	"merchant_or_custom": " in the fixtures catalogue or among the custom merchants"}

// validator collects problems and knows every declared id by kind.
type validator struct {
	sc   *Scenario
	cat  *fixtures.Catalog
	ps   Problems
	ids  map[string]map[string]string // kind → id → owning legal entity
	seen map[string]string            // id → path that declared it
	skip map[string]bool              // paths whose values could not be decoded
}

func (sc *Scenario) validate(skip map[string]bool) Problems {
	v := &validator{
		sc:   sc,
		cat:  fixtures.MustLoad(),
		ids:  map[string]map[string]string{},
		seen: map[string]string{},
		skip: skip,
	}
	v.header()
	v.declare()
	v.refs("", reflect.ValueOf(sc).Elem())
	v.people()
	v.money()
	v.cards()
	v.parties()
	v.rest()
	v.receivables()
	v.events()
	v.activity()
	return v.ps
}

// add records a problem, unless its path, or one it lies under, could
// not be decoded: that problem is reported already.
func (v *validator) add(path, format string, args ...any) {
	for p := path; p != ""; {
		if v.skip[p] {
			return
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	v.ps = append(v.ps, v.sc.Problemf(path, format, args...))
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
	v.known(kind, id, owner)
}

// known records an id of a kind, owned by a legal entity.
func (v *validator) known(kind, id, owner string) {
	if v.ids[kind] == nil {
		v.ids[kind] = map[string]string{}
	}
	v.ids[kind][id] = owner
}

// owner returns the legal entity that owns a declared id.
func (v *validator) owner(kind, id string) (string, bool) {
	owner, ok := v.ids[kind][id]
	return owner, ok && id != ""
}

// refs checks every key whose ref tag says it names something by id.
func (v *validator) refs(path string, x reflect.Value) {
	switch x.Kind() {
	case reflect.Pointer:
		if !x.IsNil() {
			v.refs(path, x.Elem())
		}
	case reflect.Slice:
		for i := range x.Len() {
			v.refs(fmt.Sprintf("%s[%d]", path, i), x.Index(i))
		}
	case reflect.Struct:
		for _, f := range shapeOf(x.Type()).fields {
			fv, p := x.Field(f.index), join(path, f.key)
			switch {
			case f.ref == "":
				v.refs(p, fv)
			case fv.Kind() == reflect.String:
				v.ref(p, f.ref, fv.String())
			case fv.Kind() == reflect.Slice:
				for i := range fv.Len() {
					v.ref(fmt.Sprintf("%s[%d]", p, i), f.ref, fv.Index(i).String())
				}
			}
		}
	}
}

// ref checks a reference to a declared id or a catalogue entry, and
// suggests the nearest one when it misses.
func (v *validator) ref(path, kind, id string) {
	if id == "" {
		return
	}
	var known []string
	switch kind {
	case "external":
		return
	case "card_product":
		if _, ok := v.cat.CardProduct(id); ok {
			return
		}
		for _, p := range v.cat.CardProducts {
			known = append(known, p.ID)
		}
	case "merchant", "merchant_or_custom":
		if _, ok := v.cat.Merchant(id); ok {
			return
		}
		if _, ok := v.owner("custom_merchant", id); ok && kind == "merchant_or_custom" {
			return
		}
		for _, m := range v.cat.Merchants {
			known = append(known, m.ID)
		}
		if kind == "merchant_or_custom" {
			known = append(known, slices.Sorted(maps.Keys(v.ids["custom_merchant"]))...)
		}
	case "account_or_virtual_account", "webhook_entity":
		for _, k := range refUnions[kind] {
			if _, ok := v.owner(k, id); ok {
				return
			}
			known = append(known, slices.Sorted(maps.Keys(v.ids[k]))...)
		}
	default:
		if _, ok := v.owner(kind, id); ok {
			return
		}
		known = slices.Sorted(maps.Keys(v.ids[kind]))
	}
	v.add(path, "no %s %q%s%s", refKinds[kind], id, refWhere[kind], suggest(id, known))
}

// sameEntity checks that a reference stays inside one legal entity.
func (v *validator) sameEntity(path, want, got string) {
	if want != "" && got != "" && want != got {
		v.add(path, "belongs to legal entity %s, not %s", got, want)
	}
}

func (v *validator) header() {
	for name, n := range v.sc.IDCounters {
		if c, ok := CounterValue(n); !ok || c < 0 || name == "" || strings.ContainsAny(name, " \n") {
			v.add("idCounters."+name, "must be a whole number of 0 or more, named without spaces")
		}
	}
	if a := v.sc.AgentRequests; a != nil && a.ExpiresAfter != "" {
		if d, err := ParseDuration(a.ExpiresAfter); err != nil || d < time.Minute {
			v.add("agentRequests.expiresAfter", "must be a duration of at least 1m, such as 72h or 7d")
		}
	}
	if r := v.sc.RateLimit; r != nil {
		if r.Requests < 1 {
			v.add("rateLimit.requests", "must be at least 1")
		}
		if d, err := ParseDuration(r.Window); r.Window != "" && (err != nil || d < time.Second) {
			v.add("rateLimit.window", "must be a duration of at least 1s, such as 1m")
		}
	}
	if v.sc.ClockStart != "" {
		if _, err := ParseTime(v.sc.ClockStart, time.Unix(0, 0)); err != nil || strings.HasPrefix(v.sc.ClockStart, "+") ||
			strings.HasPrefix(v.sc.ClockStart, "-") {
			v.add("clockStart", "must be an RFC 3339 instant or a YYYY-MM-DD day")
		}
	}
	if v.sc.TokenPrices != nil && v.sc.TokenPrices.TickInterval != "" {
		if d, err := ParseDuration(v.sc.TokenPrices.TickInterval); err != nil || d < time.Minute {
			v.add("tokenPrices.tickInterval", "must be a duration of at least 1m")
		}
	}
	if v.sc.TokenPrices != nil {
		v.tokenPrices(v.sc.TokenPrices)
	}
}

// tokenPrices checks the prices a walk starts from: tokens of the
// catalogue, each once, at a positive price.
func (v *validator) tokenPrices(tp *TokenPrices) {
	if tp.Tick < 0 {
		v.add("tokenPrices.tick", "must not be negative")
	}
	seen := map[string]bool{}
	for i, p := range tp.Prices {
		path := fmt.Sprintf("tokenPrices.prices[%d]", i)
		known := false
		for _, t := range v.cat.Tokens {
			known = known || t.Symbol == p.Symbol
		}
		switch {
		case !known:
			v.add(path+".symbol", "%q is no token of the fixtures catalogue", p.Symbol)
		case seen[p.Symbol]:
			v.add(path+".symbol", "%q is given twice", p.Symbol)
		}
		seen[p.Symbol] = true
		if p.Micros <= 0 {
			v.add(path+".micros", "must be positive")
		}
		v.time(path+".lastUpdatedAt", p.LastUpdatedAt)
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
	// API keys are secrets, not record ids: people checks they are unique.
	for _, k := range sc.Keys {
		if k.Key != "" {
			v.known("key", k.Key, k.LegalEntityID)
		}
	}
	for i, a := range sc.Accounts {
		v.id(fmt.Sprintf("accounts[%d].id", i), "account", a.ID, a.LegalEntityID)
		if a.Primary != nil {
			v.id(fmt.Sprintf("accounts[%d].primaryVirtualAccount.id", i), "virtual_account", a.Primary.ID, a.LegalEntityID)
		}
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
	for i, e := range sc.CardEvents {
		v.id(fmt.Sprintf("cardEvents[%d].id", i), "card_event", e.ID, "")
	}
	for i, b := range sc.UserBankAccounts {
		v.id(fmt.Sprintf("userBankAccounts[%d].id", i), "user_bank_account", b.ID, b.UserID)
	}
	for i, m := range sc.CustomMerchants {
		v.id(fmt.Sprintf("customMerchants[%d].id", i), "custom_merchant", m.ID, m.LegalEntityID)
	}
	for i, d := range sc.Documents {
		v.id(fmt.Sprintf("documents[%d].id", i), "document", d.ID, d.LegalEntityID)
	}
	for i, s := range sc.InvoiceSeries {
		v.id(fmt.Sprintf("invoiceSeries[%d].id", i), "invoice_series", s.ID, "")
	}
	for i, r := range sc.ExpenseReports {
		v.id(fmt.Sprintf("expenseReports[%d].id", i), "expense_report", r.ID, r.LegalEntityID)
	}
	for i, t := range sc.Tasks {
		v.id(fmt.Sprintf("tasks[%d].id", i), "task", t.ID, t.LegalEntityID)
	}
	v.declareUnderWay()
}

// CounterValue reads a value of idCounters: a whole number.
func CounterValue(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case uint64:
		return int64(n), n <= math.MaxInt64
	}
	return 0, false
}
