// Package parties holds contacts (payees) with their payment destinations, and
// customers (whom a legal entity invoices).
package parties
