package cards

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

// Presets of a utilization limit.
var Presets = []string{"daily", "weekly", "monthly", "yearly", "collective"}

// Restrictions of a list rule.
var Restrictions = []string{"allowlist", "blacklist"}

// DefaultRestriction is the restriction of a list rule that names none: the
// spec's request examples carry only the lists.
const DefaultRestriction = "allowlist"

// ValidateConstraint checks a spending constraint against the spec's rules;
// problems are keyed by JSON pointer below the constraint.
func ValidateConstraint(c *SpendingConstraint, now time.Time, cat *fixtures.Catalog) error {
	return validateConstraintAt(c, "", now, cat)
}

// validateConstraintAt is ValidateConstraint with every pointer below at.
func validateConstraintAt(c *SpendingConstraint, at string, now time.Time, cat *fixtures.Catalog) error {
	d := map[string]string{}
	if r := c.MerchantCategoryRule; r != nil {
		checkRestriction(d, at+"/merchantCategoryRule", r.Restriction)
		for i, id := range r.MerchantCategories {
			if _, ok := cat.Category(id); !ok {
				d[fmt.Sprintf("%s/merchantCategoryRule/merchantCategories/%d", at, i)] = "unknown merchant category"
			}
		}
	}
	if r := c.MerchantRule; r != nil {
		checkRestriction(d, at+"/merchantRule", r.Restriction)
		for i, id := range r.Merchants {
			if _, ok := cat.Merchant(id); !ok {
				d[fmt.Sprintf("%s/merchantRule/merchants/%d", at, i)] = "unknown merchant"
			}
		}
	}
	if r := c.CountryRule; r != nil {
		checkRestriction(d, at+"/countryRule", r.Restriction)
		for i, cc := range r.Countries {
			if !parties.IsCountryCode(cc) {
				d[fmt.Sprintf("%s/countryRule/countries/%d", at, i)] = "must be a two-letter country code"
			}
		}
	}
	if r := c.MerchantCategoryCodeRule; r != nil {
		checkRestriction(d, at+"/merchantCategoryCodeRule", r.Restriction)
		for i, code := range r.MerchantCategoryCodes {
			if !isMCC(code) {
				d[fmt.Sprintf("%s/merchantCategoryCodeRule/merchantCategoryCodes/%d", at, i)] = "must be a four-digit MCC"
			}
		}
	}
	if r := c.SpendingRule; r != nil {
		checkSpendingRule(d, at+"/spendingRule", r, now)
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

func checkRestriction(d map[string]string, path, r string) {
	if !slices.Contains(Restrictions, r) {
		d[path+"/restriction"] = "must be allowlist or blacklist"
	}
}

func checkSpendingRule(d map[string]string, path string, r *SpendingRule, now time.Time) {
	if r.UtilizationLimit != nil {
		checkLimit(d, path+"/utilizationLimit", r.UtilizationLimit, now)
	}
	for i := range r.UtilizationLimitV2 {
		checkLimit(d, fmt.Sprintf("%s/utilizationLimitV2/%d", path, i), &r.UtilizationLimitV2[i], now)
	}
	if t := r.TransactionSizeLimit; t != nil {
		if t.Minimum != nil {
			ledger.CheckAmount(d, path+"/transactionSizeLimit/minimum/amountCents", float64(t.Minimum.AmountCents), 0)
		}
		if t.Maximum != nil {
			ledger.CheckAmount(d, path+"/transactionSizeLimit/maximum/amountCents", float64(t.Maximum.AmountCents), 0)
		}
		if t.Minimum != nil && t.Maximum != nil && t.Minimum.AmountCents > t.Maximum.AmountCents {
			d[path+"/transactionSizeLimit"] = "minimum is greater than maximum"
		}
	}
}

func checkLimit(d map[string]string, path string, l *UtilizationLimit, now time.Time) {
	if !slices.Contains(Presets, l.Preset) {
		d[path+"/preset"] = "must be one of daily, weekly, monthly, yearly, collective"
	}
	ledger.CheckAmount(d, path+"/limitAmount/amountCents", float64(l.LimitAmount.AmountCents), 0)
	loc := time.UTC
	if l.Timezone != "" {
		if problem := ZoneProblem(l.Timezone); problem != "" {
			d[path+"/timezone"] = problem
		} else {
			loc, _ = time.LoadLocation(l.Timezone)
		}
	}
	if l.StartDate == "" {
		return
	}
	day, err := time.ParseInLocation(time.DateOnly, l.StartDate, loc)
	switch {
	case err != nil:
		d[path+"/startDate"] = "must be an ISO-8601 day (YYYY-MM-DD)"
	case l.Preset == "daily":
		// Ignored for a daily limit: any well-formed day is accepted.
	case day.After(midnightOf(now.In(loc))):
		d[path+"/startDate"] = fmt.Sprintf("must be today or in the past (today is %s in %s)",
			now.In(loc).Format(time.DateOnly), loc)
	}
}

var (
	enumConstant = regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$`)
	bareOffset   = regexp.MustCompile(`^(?i:(UTC|GMT|Z)?\s*[+\-−]\s*\d{1,2}(:?\d{2})?)$`)
	abbreviation = regexp.MustCompile(`^[A-Za-z]{1,6}$`)
)

// ZoneProblem says what is wrong with a time zone name ("" when it is a
// canonical IANA zone in Area/Location form).
func ZoneProblem(name string) string {
	if fixtures.CanonicalZone(name) {
		return ""
	}
	const want = "must be a canonical IANA time zone in Area/Location form, e.g. America/New_York"
	switch {
	case enumConstant.MatchString(name):
		hint := ""
		if z := enumToZone(name); z != "" {
			hint = "; did you mean " + z + "?"
		}
		return want + ": " + name + " is an enum-constant name, not a zone" + hint
	case bareOffset.MatchString(name):
		return want + ": " + name + " is a bare UTC offset, which does not follow daylight saving"
	case name == "UTC" || name == "Etc/UTC":
		return want + ": omit timezone to use UTC"
	case abbreviation.MatchString(name):
		return want + ": " + name + " is an abbreviation, not a zone"
	}
	if _, err := time.LoadLocation(name); err == nil && name != "" && name != "Local" {
		return want + ": " + name + " is a link (alias), not a canonical zone"
	}
	return want
}

// enumToZone turns AMERICA_NEW_YORK into America/New_York when that is a
// canonical zone.
func enumToZone(name string) string {
	parts := strings.SplitN(name, "_", 2)
	if len(parts) != 2 {
		return ""
	}
	title := func(s string) string {
		words := strings.Split(strings.ToLower(s), "_")
		for i, w := range words {
			if w != "" {
				words[i] = strings.ToUpper(w[:1]) + w[1:]
			}
		}
		return strings.Join(words, "_")
	}
	if z := title(parts[0]) + "/" + title(parts[1]); fixtures.CanonicalZone(z) {
		return z
	}
	return ""
}

func isMCC(s string) bool {
	if len(s) != 4 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// constraintNode is the JSON tree of a spending constraint: a body is checked
// against it property by property, each problem keyed by its JSON pointer.
type constraintNode struct {
	kind     string                     // object, string, strings, integer or objects
	fields   map[string]*constraintNode // an object's properties
	required []string                   // an object's required properties
	elem     *constraintNode            // the item of objects
}

func listRuleShape(list string) *constraintNode {
	return &constraintNode{
		kind:     "object",
		fields:   map[string]*constraintNode{list: {kind: "strings"}, "restriction": {kind: "string"}},
		required: []string{list},
	}
}

var (
	moneyShape = &constraintNode{kind: "object", fields: map[string]*constraintNode{"amountCents": {kind: "integer"}},
		required: []string{"amountCents"}}
	limitShape = &constraintNode{kind: "object", fields: map[string]*constraintNode{"limitAmount": moneyShape,
		"preset": {kind: "string"}, "timezone": {kind: "string"}, "startDate": {kind: "string"}},
		required: []string{"limitAmount", "preset"}}
	constraintShape = &constraintNode{kind: "object", fields: map[string]*constraintNode{
		"merchantCategoryRule":     listRuleShape("merchantCategories"),
		"merchantRule":             listRuleShape("merchants"),
		"countryRule":              listRuleShape("countries"),
		"merchantCategoryCodeRule": listRuleShape("merchantCategoryCodes"),
		"spendingRule": {kind: "object", fields: map[string]*constraintNode{
			"utilizationLimit":   limitShape,
			"utilizationLimitV2": {kind: "objects", elem: limitShape},
			"transactionSizeLimit": {kind: "object", fields: map[string]*constraintNode{
				"minimum": moneyShape, "maximum": moneyShape}},
		}},
	}}
)

// check walks v against s. A partial check (a PATCH body) skips required
// properties and lets any property be null.
func (s *constraintNode) check(v any, at string, partial bool, d map[string]string) {
	if v == nil && partial {
		return
	}
	switch s.kind {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			d[bodyPointer(at)] = "must be an object"
			return
		}
		for k, child := range m {
			if f := s.fields[k]; f == nil {
				d[at+"/"+k] = "is not a known property"
			} else {
				f.check(child, at+"/"+k, partial, d)
			}
		}
		for _, r := range s.required {
			if _, ok := m[r]; !ok && !partial {
				d[at+"/"+r] = "required"
			}
		}
	case "string":
		if _, ok := v.(string); !ok {
			d[at] = "must be a string"
		}
	case "integer":
		n, ok := v.(json.Number)
		if _, err := n.Int64(); !ok || err != nil {
			d[at] = "must be an integer"
		}
	case "strings", "objects":
		items, ok := v.([]any)
		if !ok {
			d[at] = "must be an array"
			return
		}
		for i, item := range items {
			if s.kind == "objects" {
				s.elem.check(item, fmt.Sprintf("%s/%d", at, i), false, d)
			} else if _, ok := item.(string); !ok {
				d[fmt.Sprintf("%s/%d", at, i)] = "must be a string"
			}
		}
	}
}

// bodyPointer names the whole body when a problem is at its root.
func bodyPointer(at string) string {
	if at == "" {
		return "body"
	}
	return at
}

// decodeValue decodes JSON keeping numbers exact.
func decodeValue(raw []byte, at string) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return nil, kernel.InvalidField(bodyPointer(at), "malformed JSON")
	}
	return v, nil
}

// stripNulls removes null properties from every object of v.
func stripNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, child := range t {
			if child == nil {
				delete(t, k)
			} else {
				t[k] = stripNulls(child)
			}
		}
	case []any:
		for i := range t {
			t[i] = stripNulls(t[i])
		}
	}
	return v
}

// mergePatch applies a JSON merge patch: objects merge property by property,
// null removes a property, anything else replaces.
func mergePatch(target, patch any) any {
	pm, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	tm, ok := target.(map[string]any)
	if !ok {
		tm = map[string]any{}
	}
	for k, v := range pm {
		if v == nil {
			delete(tm, k)
			continue
		}
		tm[k] = mergePatch(tm[k], v)
	}
	return tm
}

// ParseConstraint reads a whole spending constraint (a PUT body, or the
// spendingConstraint of a create or update body found at pointer at). A
// null property is absent; a list rule without restriction is an
// allowlist.
func ParseConstraint(raw []byte, at string, now time.Time, cat *fixtures.Catalog) (*SpendingConstraint, error) {
	v, err := decodeValue(raw, at)
	if err != nil {
		return nil, err
	}
	return constraintOf(v, at, now, cat)
}

// MergeConstraint applies a partial constraint (a PATCH body) to base: what
// the patch names changes, what it sets to null is removed, everything else
// is preserved. The result is checked as a whole.
func MergeConstraint(
	base *SpendingConstraint,
	patch []byte,
	at string,
	now time.Time,
	cat *fixtures.Catalog,
) (*SpendingConstraint, error) {
	p, err := decodeValue(patch, at)
	if err != nil {
		return nil, err
	}
	d := map[string]string{}
	constraintShape.check(p, at, true, d)
	if len(d) > 0 {
		return nil, kernel.Invalid(d)
	}
	var target any = map[string]any{}
	if base != nil {
		raw, err := json.Marshal(base)
		if err != nil {
			return nil, err
		}
		if target, err = decodeValue(raw, at); err != nil {
			return nil, err
		}
	}
	return constraintOf(mergePatch(target, p), at, now, cat)
}

func constraintOf(v any, at string, now time.Time, cat *fixtures.Catalog) (*SpendingConstraint, error) {
	v = stripNulls(v)
	d := map[string]string{}
	constraintShape.check(v, at, false, d)
	if len(d) > 0 {
		return nil, kernel.Invalid(d)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var c SpendingConstraint
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, kernel.InvalidField(bodyPointer(at), err.Error())
	}
	for _, r := range c.restrictions() {
		if *r == "" {
			*r = DefaultRestriction
		}
	}
	if err := validateConstraintAt(&c, at, now, cat); err != nil {
		return nil, err
	}
	return &c, nil
}

// restrictions points at the restriction of every list rule present.
func (c *SpendingConstraint) restrictions() []*string {
	var out []*string
	if r := c.MerchantCategoryRule; r != nil {
		out = append(out, &r.Restriction)
	}
	if r := c.MerchantRule; r != nil {
		out = append(out, &r.Restriction)
	}
	if r := c.CountryRule; r != nil {
		out = append(out, &r.Restriction)
	}
	if r := c.MerchantCategoryCodeRule; r != nil {
		out = append(out, &r.Restriction)
	}
	return out
}
