package checker_test

import "testing"

// TestCardPurchasesAgainstTheirRules: a purchase recorded as approved that
// the card's rules at its instant decline is reported at its line under
// the rule that declines it; a decline the rules do not give is reported
// too; each is accepted when it says it breaks that rule on purpose.
func TestCardPurchasesAgainstTheirRules(t *testing.T) {
	for _, c := range []struct {
		name, extra, rule, marker, want string
	}{
		{"above the card's maximum", `cards:
  - id: card_office
    accountId: sa_x
    name: Office
    createdAt: -30d
    spendingConstraint: {spendingRule: {transactionSizeLimit: {maximum: {amountCents: 50000}}}}
transactions:
  - {cardId: card_office, merchantId: merchant_v2_staples, amountCents: -8450, date: -2d}
  - {cardId: card_office, merchantId: merchant_v2_staples, amountCents: -60000, date: -1d} # planted
`, "spendingRule.transactionSizeLimit.maximum", "spendingRule.transactionSizeLimit.maximum",
			"$600.00 at Staples on card card_office on 2026-06-14T14:00:00Z is settled, but the rules then decline it " +
				"(transaction_size_exceeded): $600.00 is above the card's maximum of $500.00"},
		{"outside the group's categories", `cardGroups:
  - id: card_group_meals
    legalEntityId: le_x
    name: Meals
    createdAt: -40d
    spendingConstraint:
      merchantCategoryRule: {merchantCategories: [merchant_category_restaurants], restriction: allowlist}
cards:
  - {id: card_meals, accountId: sa_x, cardGroupId: card_group_meals, name: Meals, createdAt: -30d}
transactions:
  - {cardId: card_meals, merchantId: merchant_v2_apple, amountCents: -129900, detailedStatus: pending, # planted
     date: -1d}
`, "merchantCategoryRule", "merchantCategoryRule",
			"is pending, but the rules then decline it (merchant_category_blocked)"},
		{"on a paused card", `cards:
  - {id: card_paused, accountId: sa_x, name: Paused, createdAt: -30d, status: paused, statusSince: -10d}
transactions:
  - {cardId: card_paused, merchantId: merchant_v2_staples, amountCents: -4000, date: -5d} # planted
`, "card.status", "card", "the rules then decline it (card_paused): card card_paused is paused"},
		{"a single-use card tried but still active", `cards:
  - {id: card_once, accountId: sa_x, name: Once, isSingleUse: true, createdAt: -30d} # planted
transactions:
  - {cardId: card_once, merchantId: merchant_v2_staples, amountCents: -4000, detailedStatus: declined,
     declineReason: merchant_blocked, date: -5d, breaks: [declineReason]}
`, "card.singleUseNotClosed", "card",
			"card card_once is single-use and was tried on 2026-06-10T14:00:00Z ($40.00 at Staples, declined), " +
				"which closed it, but it is active"},
		{"declined for a rule it passes", `cards:
  - {id: card_open, accountId: sa_x, name: Open, createdAt: -30d}
transactions:
  - {cardId: card_open, merchantId: merchant_v2_staples, amountCents: -4000, detailedStatus: declined, # planted
     declineReason: merchant_blocked, date: -5d}
`, "declineReason", "declineReason",
			"is declined as merchant_blocked, but the rules then approve it"},
	} {
		t.Run(c.name, func(t *testing.T) { expectPlanted(t, c.extra, c.rule, c.marker, c.want) })
	}
}
