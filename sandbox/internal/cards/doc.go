// Package cards holds cards and card groups, spending constraints and their
// windows, the authorization rules and the authorization webhook, simulated
// card activity, and the card event log.
package cards
