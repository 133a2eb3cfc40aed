// Package invoices holds receivables: invoices, invoice series, their payments,
// settings, documents and scheduled sends and reminders.
package invoices
