package sandbox

import (
	"fmt"
	"slices"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
)

// Presets of a utilization limit.
var Presets = []string{"daily", "weekly", "monthly", "yearly", "collective"}

// Restrictions of a list rule.
var Restrictions = []string{"allowlist", "blacklist"}

// ValidateConstraint checks a spending constraint against the spec's rules;
// problems are keyed by JSON pointer below the constraint.
func ValidateConstraint(c *SpendingConstraint, now time.Time, cat *fixtures.Catalog) error {
	d := map[string]string{}
	if r := c.MerchantCategoryRule; r != nil {
		checkRestriction(d, "/merchantCategoryRule", r.Restriction)
		for i, id := range r.MerchantCategories {
			if _, ok := cat.Category(id); !ok {
				d[fmt.Sprintf("/merchantCategoryRule/merchantCategories/%d", i)] = "unknown merchant category"
			}
		}
	}
	if r := c.MerchantRule; r != nil {
		checkRestriction(d, "/merchantRule", r.Restriction)
		for i, id := range r.Merchants {
			if _, ok := cat.Merchant(id); !ok {
				d[fmt.Sprintf("/merchantRule/merchants/%d", i)] = "unknown merchant"
			}
		}
	}
	if r := c.CountryRule; r != nil {
		checkRestriction(d, "/countryRule", r.Restriction)
		for i, cc := range r.Countries {
			if !isCountryCode(cc) {
				d[fmt.Sprintf("/countryRule/countries/%d", i)] = "must be a two-letter country code"
			}
		}
	}
	if r := c.MerchantCategoryCodeRule; r != nil {
		checkRestriction(d, "/merchantCategoryCodeRule", r.Restriction)
		for i, code := range r.MerchantCategoryCodes {
			if !isMCC(code) {
				d[fmt.Sprintf("/merchantCategoryCodeRule/merchantCategoryCodes/%d", i)] = "must be a four-digit MCC"
			}
		}
	}
	if r := c.SpendingRule; r != nil {
		checkSpendingRule(d, r, now)
	}
	if len(d) > 0 {
		return Invalid(d)
	}
	return nil
}

func checkRestriction(d map[string]string, path, r string) {
	if !slices.Contains(Restrictions, r) {
		d[path+"/restriction"] = "must be allowlist or blacklist"
	}
}

func checkSpendingRule(d map[string]string, r *SpendingRule, now time.Time) {
	if r.UtilizationLimit != nil {
		checkLimit(d, "/spendingRule/utilizationLimit", r.UtilizationLimit, now)
	}
	for i := range r.UtilizationLimitV2 {
		checkLimit(d, fmt.Sprintf("/spendingRule/utilizationLimitV2/%d", i), &r.UtilizationLimitV2[i], now)
	}
	if t := r.TransactionSizeLimit; t != nil {
		if t.Minimum != nil && t.Minimum.AmountCents < 0 {
			d["/spendingRule/transactionSizeLimit/minimum/amountCents"] = "must not be negative"
		}
		if t.Maximum != nil && t.Maximum.AmountCents < 0 {
			d["/spendingRule/transactionSizeLimit/maximum/amountCents"] = "must not be negative"
		}
		if t.Minimum != nil && t.Maximum != nil && t.Minimum.AmountCents > t.Maximum.AmountCents {
			d["/spendingRule/transactionSizeLimit"] = "minimum is greater than maximum"
		}
	}
}

func checkLimit(d map[string]string, path string, l *UtilizationLimit, now time.Time) {
	if !slices.Contains(Presets, l.Preset) {
		d[path+"/preset"] = "must be one of daily, weekly, monthly, yearly, collective"
	}
	if l.LimitAmount.AmountCents < 0 {
		d[path+"/limitAmount/amountCents"] = "must not be negative"
	}
	loc := time.UTC
	if l.Timezone != "" {
		if !fixtures.CanonicalZone(l.Timezone) {
			d[path+"/timezone"] = "must be a canonical IANA time zone in Area/Location form, e.g. America/New_York"
		} else {
			loc, _ = time.LoadLocation(l.Timezone)
		}
	}
	if l.StartDate != "" {
		day, err := time.ParseInLocation("2006-01-02", l.StartDate, loc)
		today := now.In(loc)
		todayStart := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, loc)
		switch {
		case err != nil:
			d[path+"/startDate"] = "must be an ISO-8601 day (YYYY-MM-DD)"
		case day.After(todayStart):
			d[path+"/startDate"] = "must be today or in the past"
		}
	}
}

func isCountryCode(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
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
