// Package checker reads a world a scenario was loaded into and reports every
// record that contradicts the world's own rules (card purchases against their
// constraints, balances against entries, dates against creation, invoices
// against their payments, information requests against their contacts), each
// at the line of the scenario file it came from.
package checker
