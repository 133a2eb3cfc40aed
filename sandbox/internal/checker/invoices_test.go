package checker_test

import "testing"

// TestInvoicesAgainstPayments: an invoice both void and paid in full is
// reported: a paid invoice cannot be voided.
func TestInvoicesAgainstPayments(t *testing.T) {
	expectPlanted(t, `invoices:
  - {accountId: sa_x, customerId: le_cust_y, number: Y-1, issuedAt: -20d, void: true, paidCents: 5000, # planted
     lineItems: [{name: a, quantity: 1, priceCents: 5000}]}
`, "invoice.voidPaid", "invoice", "is void but paid in full ($50.00 of $50.00)")
}
