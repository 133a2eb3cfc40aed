package checker_test

import "testing"

// TestDatesAgainstCreation: a record dated before what it needs existed is
// reported at its line with the rule it breaks, and accepted when it says
// it breaks that rule (or its family) on purpose.
func TestDatesAgainstCreation(t *testing.T) {
	for _, c := range []struct {
		name, extra, rule, marker, want string
	}{
		{"a transaction before its account", `transactions:
  - {accountId: sa_x, amountCents: 5000, date: -301d} # planted
`, "date.beforeAccount", "date.beforeAccount", "before account sa_x existed"},
		{"a card before its account", `cards:
  - {id: card_early, accountId: sa_x, name: Early, createdAt: -310d} # planted
`, "date.beforeAccount", "date", "card card_early is dated"},
		{"an invoice before its customer", `invoices:
  - {accountId: sa_x, customerId: le_cust_y, number: Y-1, issuedAt: -120d, dueAt: -90d, # planted
     lineItems: [{name: a, quantity: 1, priceCents: 5000}]}
`, "date.beforeCustomer", "date.beforeCustomer", "before customer le_cust_y existed"},
		{"a payment after the clock start", `invoices:
  - {accountId: sa_x, customerId: le_cust_y, number: Y-2, issuedAt: -1d, paidCents: 5000, # planted
     lineItems: [{name: a, quantity: 1, priceCents: 5000}]}
`, "date.paymentInFuture", "date", "after the clock start"},
	} {
		t.Run(c.name, func(t *testing.T) { expectPlanted(t, c.extra, c.rule, c.marker, c.want) })
	}
}
