// Package ledger holds the money: accounts, virtual accounts, transactions and
// the double-entry ledger under them, transfers, rails (ACH, wires, incoming
// deposits), payments to Slash handles, FDX reads, crypto off-ramp wallets and
// token prices.
package ledger
