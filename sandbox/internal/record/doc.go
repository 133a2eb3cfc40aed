// Package record reads an account of the Slash API through its public GET
// operations and makes a scenario of it: a world loaded from the scenario
// answers with the account's ids, amounts, dates, statuses, relationships
// and balances. It sends GET requests only, so a read-only key is enough;
// it never asks for a card's number or CVV. People's and businesses' names,
// emails, addresses, phone numbers and bank numbers are replaced by fake
// ones of the same shape, the same for the same seed, unless they are kept.
package record
