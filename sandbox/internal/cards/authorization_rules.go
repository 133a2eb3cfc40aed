package cards

import (
	"slices"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

// Fallback behaviours of an authorization webhook.
const (
	FallbackReject  = "reject"
	FallbackDefault = "default"
)

// AuthorizationConfig is what happens when the authorization webhook gives
// no valid answer in time: reject declines; default continues with the
// standard authorization, restricted by When when it is set.
type AuthorizationConfig struct {
	FallbackBehavior string                  `json:"fallbackBehavior"`
	When             *AuthorizationCondition `json:"when,omitempty"`
}

// AuthorizationCondition is a node of the fallback's condition tree:
// and/or over Left and Right; lte, lt, gte, gt, eq comparing amountCents
// with Value; in testing merchantCategoryCode or merchantCountry against
// Values.
type AuthorizationCondition struct {
	Operator string                  `json:"operator"`
	Left     *AuthorizationCondition `json:"left,omitempty"`
	Right    *AuthorizationCondition `json:"right,omitempty"`
	Field    string                  `json:"field,omitempty"`
	Value    *int64                  `json:"value,omitempty"`
	Values   []string                `json:"values,omitempty"`
}

// maxConditionDepth bounds the condition tree.
const maxConditionDepth = 10

// Problems validates the config, adding problems keyed by JSON pointer
// under at.
func (c *AuthorizationConfig) Problems(at string, d map[string]string) {
	switch c.FallbackBehavior {
	case FallbackReject:
		if c.When != nil {
			d[at+"/when"] = "only allowed with fallbackBehavior default"
		}
	case FallbackDefault:
		if c.When != nil {
			c.When.problems(at+"/when", 1, d)
		}
	case "":
		d[at+"/fallbackBehavior"] = "required: reject or default"
	default:
		d[at+"/fallbackBehavior"] = "must be reject or default"
	}
}

func (c *AuthorizationCondition) problems(at string, depth int, d map[string]string) {
	if depth > maxConditionDepth {
		d[at] = "the condition tree is nested too deeply (at most 10 levels)"
		return
	}
	switch c.Operator {
	case "and", "or":
		if c.Field != "" || c.Value != nil || c.Values != nil {
			d[at] = c.Operator + " takes left and right only"
		}
		for side, sub := range map[string]*AuthorizationCondition{"/left": c.Left, "/right": c.Right} {
			if sub == nil {
				d[at+side] = "required"
			} else {
				sub.problems(at+side, depth+1, d)
			}
		}
	case "lte", "lt", "gte", "gt", "eq":
		if c.Left != nil || c.Right != nil || c.Values != nil {
			d[at] = c.Operator + " takes field and value only"
		}
		if c.Field != "amountCents" {
			d[at+"/field"] = "must be amountCents"
		}
		if c.Value == nil {
			d[at+"/value"] = "required: an integer amount in USD cents"
		}
		ledger.CheckAmountOf(d, at+"/value", c.Value, 0)
	case "in":
		if c.Left != nil || c.Right != nil || c.Value != nil {
			d[at] = "in takes field and values only"
		}
		if c.Field != "merchantCategoryCode" && c.Field != "merchantCountry" {
			d[at+"/field"] = "must be merchantCategoryCode or merchantCountry"
		}
		if len(c.Values) == 0 || slices.Contains(c.Values, "") {
			d[at+"/values"] = "required: at least one non-empty string"
		}
	case "":
		d[at+"/operator"] = "required"
	default:
		d[at+"/operator"] = "must be one of and, or, lte, lt, gte, gt, eq, in"
	}
}

// FallbackApproves reports whether the fallback lets a transaction
// continue: never with reject; with default, always, or only when it
// matches the When condition.
func (c AuthorizationConfig) FallbackApproves(r AuthorizationEvent) bool {
	if c.FallbackBehavior != FallbackDefault {
		return false
	}
	return c.When == nil || c.When.Matches(r)
}

// Matches evaluates the condition for a transaction. Amounts compare the
// absolute amount in USD cents; a condition on a field the transaction
// lacks is false.
func (c *AuthorizationCondition) Matches(r AuthorizationEvent) bool {
	switch c.Operator {
	case "and":
		return c.Left != nil && c.Right != nil && c.Left.Matches(r) && c.Right.Matches(r)
	case "or":
		return (c.Left != nil && c.Left.Matches(r)) || (c.Right != nil && c.Right.Matches(r))
	case "in":
		return c.matchesIn(r)
	}
	if c.Field != "amountCents" || c.Value == nil {
		return false
	}
	amount, v := absCents(r.AmountCents), *c.Value
	switch c.Operator {
	case "lte":
		return amount <= v
	case "lt":
		return amount < v
	case "gte":
		return amount >= v
	case "gt":
		return amount > v
	case "eq":
		return amount == v
	}
	return false
}

func (c *AuthorizationCondition) matchesIn(r AuthorizationEvent) bool {
	var got string
	switch c.Field {
	case "merchantCategoryCode":
		got = r.MerchantCategoryCode
	case "merchantCountry":
		got = r.MerchantCountry
	}
	if got == "" {
		return false
	}
	for _, v := range c.Values {
		if strings.EqualFold(v, got) {
			return true
		}
	}
	return false
}

func absCents(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}
