package checker_test

import "testing"

// TestBalancesAgainstEntries: a debit that takes a debit account below zero
// at its date (the declared balance then needs an opening balance the
// history overdraws) is reported at its line.
func TestBalancesAgainstEntries(t *testing.T) {
	expectPlanted(t, `transactions:
  - {accountId: sa_x, amountCents: -2000000, date: -5d} # planted
  - {accountId: sa_x, amountCents: 2500000, date: -1d}
`, "balance.overdrawn", "balance.overdrawn", "at -$15,000.00")
}

// TestOpeningBalanceOverdrawn: a declared balance below what the history
// spends needs a negative opening balance, reported at the account.
func TestOpeningBalanceOverdrawn(t *testing.T) {
	found := findings(t, base+`transactions:
  - {accountId: sa_x, amountCents: 2000000, date: -5d}
`)
	if len(found) != 1 || found[0].Rule != "balance.overdrawn" || found[0].Line != 4 {
		t.Fatalf("findings = %v, want balance.overdrawn at line 4 (the account)", found)
	}
}
