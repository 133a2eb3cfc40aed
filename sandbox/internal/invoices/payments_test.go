package invoices_test

import (
	"encoding/json"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

// entries reads a reconcile or unreconcile body as the API receives it.
func entries(t *testing.T, body string) []invoices.TransactionInput {
	t.Helper()
	var out []invoices.TransactionInput
	enginetest.Must(t, json.Unmarshal([]byte(body), &out))
	return out
}

// external is a reconcile body of one payment made elsewhere, with its
// amount when amount is not "".
func external(t *testing.T, paidAt, amount string) []invoices.TransactionInput {
	t.Helper()
	if amount != "" {
		amount = `,"amountCents":` + amount
	}
	return entries(t, `[{"transactionType":"external","transaction":{"paymentMethod":"other","paidAt":"`+paidAt+`"`+
		amount+`}}]`)
}

// internal is a reconcile body of one transaction of the ledger.
func internal(t *testing.T, id string) []invoices.TransactionInput {
	t.Helper()
	return entries(t, `[{"transactionType":"internal","transaction":{"aggregatedTransactionId":"`+id+`"}}]`)
}

// Payments reduce what is due: a partial one leaves the invoice
// paid_partially, the rest pays it, closes it and stops its reminders;
// nothing more can then be paid, and it cannot be voided.
func TestPaymentsReduceTheAmountDue(t *testing.T) {
	w := enginetest.Demo(t)
	inv := create(t, w, input("ACME-2201", "2026-06-15", "2026-07-15")) // $300.00

	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := invoices.Reconcile(op, a, inv.ID,
			external(t, "2026-06-15", "12000"))
		return err
	}))
	got := load(t, w, inv.ID)
	if got.Status != invoices.StatusPaidPartially || got.CollectedCents != 12000 || got.ClosedAt != nil {
		t.Fatalf("after $120.00: status %s, collected %d, closedAt %v; want paid_partially, 12000, open",
			got.Status, got.CollectedCents, got.ClosedAt)
	}

	enginetest.WantError(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, _, err := invoices.SimulatePayment(op, &invoices.SimulatedPayment{InvoiceID: inv.ID,
			AmountCents: ptr[int64](18001)})
		return err
	}), kernel.CodeInvalidRequest, map[string]string{"/amountCents": "is more than the $180.00 that remains to be paid",
		"remaining": "$180.00"})
	enginetest.WantError(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, _, err := invoices.SimulatePayment(op, &invoices.SimulatedPayment{InvoiceID: inv.ID,
			Method: "cheque"})
		return err
	}), kernel.CodeInvalidRequest, nil)

	var txn *ledger.Transaction
	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		var err error
		_, txn, err = invoices.SimulatePayment(op, &invoices.SimulatedPayment{InvoiceID: inv.ID})
		return err
	}))
	if txn.AmountCents != 18000 || txn.Category != "ach" || txn.Status != ledger.StatusPosted ||
		txn.AccountID != "sa_group_acmeoperating" || txn.Memo != "ACME-2201" {
		t.Errorf("payment %d cents, %s, %s, into %s, memo %q; want the $180.00 left, an ACH posted into the"+
			" invoice's account with its number", txn.AmountCents, txn.Category, txn.Status, txn.AccountID, txn.Memo)
	}
	got = load(t, w, inv.ID)
	if got.Status != invoices.StatusPaid || got.CollectedCents != 30000 || got.ClosedAt == nil ||
		got.NextAutoReminderAt() != nil || len(got.Transactions) != 2 || got.Transactions[1].TransactionID != txn.ID {
		t.Errorf("after the rest: status %s, collected %d, closedAt %v, next reminder %v, payments %+v", got.Status,
			got.CollectedCents, got.ClosedAt, got.NextAutoReminderAt(), got.Transactions)
	}

	for name, refuse := range map[string]func(op *kernel.Op, a *kernel.Actor) error{
		"pay": func(op *kernel.Op, a *kernel.Actor) error {
			_, _, err := invoices.SimulatePayment(op, &invoices.SimulatedPayment{InvoiceID: inv.ID})
			return err
		},
		"reconcile": func(op *kernel.Op, a *kernel.Actor) error {
			_, err := invoices.Reconcile(op, a, inv.ID,
				external(t, "2026-06-15", "1"))
			return err
		},
		"void": func(op *kernel.Op, a *kernel.Actor) error { _, err := invoices.Void(op, a, inv.ID); return err },
		"remind": func(op *kernel.Op, a *kernel.Actor) error {
			_, err := invoices.Remind(op, a, inv.ID)
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			enginetest.WantError(t, enginetest.As(t, w, acmeKey, refuse), kernel.CodeConflict,
				map[string]string{"status": "paid"})
		})
	}
}

// Unreconciling a payment gives back what it paid: a paid invoice opens
// again. An entry that matches no payment is refused.
func TestUnreconcileReopensTheInvoice(t *testing.T) {
	w := enginetest.Demo(t)
	inv := create(t, w, input("ACME-2202", "2026-06-15", "2026-07-15"))
	var txn *ledger.Transaction
	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		var err error
		_, txn, err = invoices.SimulatePayment(op, &invoices.SimulatedPayment{InvoiceID: inv.ID})
		return err
	}))
	// The payment already pays this invoice: another cannot take it.
	other := create(t, w, input("ACME-2203", "2026-06-15", "2026-07-15"))
	enginetest.WantError(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := invoices.Reconcile(op, a, other.ID, internal(t, txn.ID))
		return err
	}), kernel.CodeConflict, map[string]string{"invoiceId": inv.ID, "field": "/0/transaction/aggregatedTransactionId"})

	enginetest.WantError(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := invoices.Unreconcile(op, a, inv.ID,
			external(t, "2026-06-15", ""))
		return err
	}), kernel.CodeInvalidRequest, map[string]string{"/0": "is not reconciled to invoice " + inv.ID})

	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := invoices.Unreconcile(op, a, inv.ID, internal(t, txn.ID))
		return err
	}))
	got := load(t, w, inv.ID)
	if got.Status != invoices.StatusUnpaid || got.CollectedCents != 0 || got.ClosedAt != nil ||
		len(got.Transactions) != 0 {
		t.Errorf("after unreconciling: status %s, collected %d, closedAt %v, payments %+v; want unpaid and open",
			got.Status, got.CollectedCents, got.ClosedAt, got.Transactions)
	}
	// Freed, the payment may pay the other invoice.
	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := invoices.Reconcile(op, a, other.ID, internal(t, txn.ID))
		return err
	}))
	if got := load(t, w, other.ID); got.Status != invoices.StatusPaid {
		t.Errorf("the other invoice is %s, want paid", got.Status)
	}
}

func TestValidateInvoiceTransactions(t *testing.T) {
	err := invoices.ValidateTransactions(entries(t, `[
		{"transactionType":"external","transaction":{"paymentMethod":"other","paidAt":"yesterday","amountCents":0,
			"aggregatedTransactionId":"txn_x"}},
		{"transactionType":"cash","transaction":{"paidAt":"2026-06-15"}},
		{"transactionType":"internal"}]`))
	enginetest.WantError(t, err, kernel.CodeInvalidRequest, map[string]string{
		"/0/transaction/paidAt":                  "required: an RFC 3339 date-time or a YYYY-MM-DD date",
		"/0/transaction/aggregatedTransactionId": "does not apply to an external transaction",
		"/1/transactionType":                     "must be internal or external",
		"/2/transaction":                         "required",
	})
	if _, ok := enginetest.DomainError(t, err).Details["/0/transaction/amountCents"]; !ok {
		t.Error("an external amount of 0 cents is accepted")
	}
	enginetest.WantError(t, invoices.ValidateTransactions(nil), kernel.CodeInvalidRequest,
		map[string]string{"body": "an array of at least one invoice transaction is required"})
}
