package scenario

import (
	"strings"
	"testing"
)

// exactBase is a world to declare invoices and series in.
const exactBase = `clockStart: 2026-06-15T14:00:00Z
legalEntities: [{id: le_a, name: A}]
accounts: [{id: sa_a, legalEntityId: le_a, name: Ops}]
customers: [{id: le_cust_a, legalEntityId: le_a, name: C, email: c@a.test}]
transactions: [{id: txn_in, accountId: sa_a, amountCents: 500, category: ach}]
`

// TestExactInvoiceKeysAreChecked: the keys that restore invoices and
// series exactly refuse what cannot be, each at its own path.
func TestExactInvoiceKeysAreChecked(t *testing.T) {
	line := "{name: Work, quantity: 1, priceCents: 100}"
	tests := []struct{ name, yaml, want string }{
		{"no party", `invoices: [{accountId: sa_a, number: N-1, lineItems: [` + line + `]}]`,
			"invoices[0]: needs customerId or contactId"},
		{"details id", `invoices: [{accountId: sa_a, customerId: le_cust_a, number: N-1, detailsId: x_1, lineItems: [` +
			line + `]}]`, `invoices[0].detailsId: "x_1" must start with invoice_details_`},
		{"both paid", `invoices: [{accountId: sa_a, customerId: le_cust_a, number: N-1, paidCents: 100, lineItems: [` +
			line + `], payments: [{type: internal, transactionId: txn_in, amountCents: 100}]}]`,
			"invoices[0].paidCents: not with payments"},
		{"internal without transaction", `invoices: [{accountId: sa_a, customerId: le_cust_a, number: N-1,` +
			` lineItems: [` + line + `], payments: [{type: internal, amountCents: 100}]}]`,
			"invoices[0].payments[0].transactionId: required for an internal payment"},
		{"unknown transaction", `invoices: [{accountId: sa_a, customerId: le_cust_a, number: N-1,` +
			` lineItems: [` + line + `], payments: [{type: internal, transactionId: txn_nope, amountCents: 100}]}]`,
			`invoices[0].payments[0].transactionId: no transaction "txn_nope"`},
		{"external method", `invoices: [{accountId: sa_a, customerId: le_cust_a, number: N-1, lineItems: [` + line +
			`], payments: [{type: external, paymentMethod: cash, paidAt: 2026-06-01, amountCents: 100}]}]`,
			`invoices[0].payments[0].paymentMethod: must be "other" or a payment method object`},
		{"external day", `invoices: [{accountId: sa_a, customerId: le_cust_a, number: N-1, lineItems: [` + line +
			`], payments: [{type: external, paymentMethod: other, paidAt: soon, amountCents: 100}]}]`,
			"invoices[0].payments[0].paidAt: required for an external payment"},
		{"fixed tax", `invoices: [{accountId: sa_a, customerId: le_cust_a, number: N-1, lineItems: [` + line +
			`], tax: {type: fixed, amountCents: 5}}]`, "invoices[0].tax.type: a tax is a percentage"},
		{"method config", `invoices: [{accountId: sa_a, customerId: le_cust_a, number: N-1, lineItems: [` + line +
			`], paymentMethods: [{method: inbound_rtp}]}]`, "invoices[0].paymentMethods[0].config: required"},
		{"series state without status", `invoiceSeries: [{accountId: sa_a, customerId: le_cust_a,` +
			` recurrence: {type: weekly, dayOfWeek: 1}, lineItems: [` + line + `], occurrences: 2}]`,
			"invoiceSeries[0].occurrences: applies only to a series declared with its status"},
		{"active series without next", `invoiceSeries: [{accountId: sa_a, customerId: le_cust_a, status: active,` +
			` recurrence: {type: weekly, dayOfWeek: 1}, lineItems: [` + line + `]}]`,
			"invoiceSeries[0].nextScheduledAt: required for an active series"},
		{"ended series with next", `invoiceSeries: [{accountId: sa_a, customerId: le_cust_a, status: ended,` +
			` nextScheduledAt: +1d, recurrence: {type: weekly, dayOfWeek: 1}, lineItems: [` + line + `]}]`,
			"invoiceSeries[0].nextScheduledAt: a series that is ended schedules nothing"},
		{"counter", `idCounters: {invoice_: -1}`, "idCounters.invoice_: must be a whole number of 0 or more"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("exact.yaml", []byte(exactBase+tc.yaml))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse = %v\nwant a problem with %q", err, tc.want)
			}
		})
	}
	ok := exactBase + `invoices: [{accountId: sa_a, customerId: le_cust_a, number: N-1, lineItems: [` + line + `],
  payments: [{type: internal, transactionId: txn_in, amountCents: 50},
    {type: external, paymentMethod: other, paidAt: 2026-06-01, amountCents: 50}],
  discount: {type: fixed, amountCents: 5}, tax: {type: percentage, percent: 8},
  paymentMethods: [{method: ach_debit, config: {passFeeToPayer: true}}]}]
idCounters: {invoice_: 12, global: 40}
`
	if _, err := Parse("exact.yaml", []byte(ok)); err != nil {
		t.Errorf("a well-formed exact invoice: %v", err)
	}
}
