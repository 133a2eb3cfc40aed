package checker

import (
	"regexp"
	"slices"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// Rules are the rules the checker reports, as a breaks key names them. A
// family is a rule's first part ("date" of "date.beforeAccount"); a breaks
// key may name a rule, a family, or one entry of a rule that is a list
// ("spendingRule.utilizationLimitV2[1]").
var Rules = []string{
	"card.status", "card.isSingleUse", "card.modifiers.only_allow_recurring_payments", "card.singleUseNotClosed",
	"merchantRule", "merchantCategoryRule", "merchantCategoryCodeRule", "countryRule",
	"spendingRule.transactionSizeLimit.minimum", "spendingRule.transactionSizeLimit.maximum",
	"spendingRule.utilizationLimit", "spendingRule.utilizationLimitV2",
	"declineReason",
	"balance.entries", "balance.declared", "balance.overdrawn",
	"date.beforeLegalEntity", "date.beforeAccount", "date.beforeVirtualAccount", "date.beforeCard",
	"date.beforeCardGroup", "date.beforeCustomer", "date.paymentBeforeInvoice", "date.paymentInFuture",
	"invoice.payments", "invoice.status", "invoice.voidPaid",
	"informationRequest.contact", "informationRequest.legalEntity", "informationRequest.beforeContact",
	"informationRequest.email", "informationRequest.pending",
}

// listEntry is a rule that names one entry of a list rule.
var listEntry = regexp.MustCompile(`^(.+)\[[0-9]+\]$`)

// knownBreak reports whether a breaks key names a rule, a family of rules
// or an entry of a list rule.
func knownBreak(b string) bool {
	if m := listEntry.FindStringSubmatch(b); m != nil {
		b = m[1]
	}
	return slices.ContainsFunc(Rules, func(r string) bool { return r == b || strings.HasPrefix(r, b+".") })
}

// breaksOnPurpose reports whether a breaks list names rule, a family of it
// ("date" names "date.beforeAccount") or the list rule it is an entry of
// ("spendingRule.utilizationLimitV2" names "spendingRule.utilizationLimitV2[1]").
func breaksOnPurpose(breaks []string, rule string) bool {
	return slices.ContainsFunc(breaks, func(b string) bool {
		return b == rule || strings.HasPrefix(rule, b+".") || strings.HasPrefix(rule, b+"[")
	})
}

// checkBreaks reports a breaks key that names no rule: a mistyped one
// would silence nothing.
func checkBreaks(c *check) {
	for _, path := range scenario.BreakPaths(c.sc) {
		for _, b := range c.sc.Breaks(path) {
			if !knownBreak(b) {
				c.found = append(c.found, Finding{File: c.sc.File, Line: c.sc.Line(path), Path: path, Rule: "breaks",
					Message: "breaks names " + b + ", which is no rule nor family of rules the checker reports " +
						"(see the rules in docs/scenarios.md)"})
			}
		}
	}
}
