package invoices

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

// configField checks one property of a payment method's config.
type configField struct {
	required bool
	check    func(raw json.RawMessage) string
}

func boolField(raw json.RawMessage) string {
	var b *bool
	if json.Unmarshal(raw, &b) != nil || b == nil {
		return "must be a boolean"
	}
	return ""
}

// paymentMethodConfigs is every invoice payment method and the properties
// its config takes.
var paymentMethodConfigs = map[string]map[string]configField{
	"ach_debit": {"passFeeToPayer": {true, boolField}},
	"acquiring_payment": {"passFeeToPayer": {true, func(raw json.RawMessage) string {
		if string(bytes.TrimSpace(raw)) != "false" {
			return "must be false: card payment fees cannot be passed to the payer"
		}
		return ""
	}}},
	"crypto_deposit": {"passFeeToPayer": {true, boolField}, "fiatRail": {false, func(raw json.RawMessage) string {
		var s string
		if json.Unmarshal(raw, &s) != nil || !slices.Contains([]string{"wire", "ach", "instant"}, s) {
			return "must be wire, ach or instant"
		}
		return ""
	}}},
	"inbound_ach_transfer":       {},
	"inbound_international_wire": {},
	"inbound_rtp":                {},
	"inbound_wire_transfer":      {},
}

// PaymentMethodNames lists the invoice payment methods, sorted.
func PaymentMethodNames() []string {
	names := make([]string, 0, len(paymentMethodConfigs))
	for n := range paymentMethodConfigs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// checkPaymentMethod checks one {method, config} object and returns its
// method.
func checkPaymentMethod(d map[string]string, path string, raw json.RawMessage) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil || obj == nil {
		d[path] = "must be a payment method object {method, config}"
		return ""
	}
	for k := range obj {
		if k != "method" && k != "config" {
			d[path+"/"+k] = "is not a known property"
		}
	}
	var method string
	_ = json.Unmarshal(obj["method"], &method)
	fields, ok := paymentMethodConfigs[method]
	if !ok {
		d[path+"/method"] = "must be one of " + strings.Join(PaymentMethodNames(), ", ")
		return ""
	}
	var cfg map[string]json.RawMessage
	if json.Unmarshal(obj["config"], &cfg) != nil || cfg == nil {
		d[path+"/config"] = "required: an object"
		return method
	}
	for k, v := range cfg {
		f, ok := fields[k]
		if !ok {
			d[path+"/config/"+k] = "is not a property of the " + method + " config"
		} else if p := f.check(v); p != "" {
			d[path+"/config/"+k] = p
		}
	}
	for k, f := range fields {
		if _, given := cfg[k]; f.required && !given {
			d[path+"/config/"+k] = "required"
		}
	}
	return method
}

// checkPaymentMethods checks an optional list of payment methods, each
// method at most once.
func checkPaymentMethods(d map[string]string, path string, raw json.RawMessage) {
	if !parties.Present(raw) {
		return
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		d[path] = "must be an array of payment methods"
		return
	}
	seen := map[string]bool{}
	for i, it := range items {
		p := fmt.Sprintf("%s/%d", path, i)
		if m := checkPaymentMethod(d, p, it); m != "" && seen[m] {
			d[p+"/method"] = "is listed twice"
		} else {
			seen[m] = true
		}
	}
}

// TransactionInput is one entry of a reconcile or unreconcile body.
// External entries may carry amountCents (a sandbox extension); without
// it they pay what remains.
type TransactionInput struct {
	TransactionType string `json:"transactionType"`
	Transaction     *struct {
		AggregatedTransactionID string          `json:"aggregatedTransactionId"`
		PaymentMethod           json.RawMessage `json:"paymentMethod,omitempty" ref:"InvoiceReconciliationPaymentMethod"`
		PaidAt                  string          `json:"paidAt"`
		AmountCents             *int64          `json:"amountCents,omitempty"`
	} `json:"transaction,omitempty"`
}

// ValidateTransactions checks a reconcile or unreconcile body.
func ValidateTransactions(entries []TransactionInput) error {
	d := map[string]string{}
	if len(entries) == 0 {
		d["body"] = "an array of at least one invoice transaction is required"
	}
	seen := map[string]bool{}
	for i, e := range entries {
		p := fmt.Sprintf("/%d", i)
		t := e.Transaction
		if t == nil {
			d[p+"/transaction"] = "required"
			continue
		}
		switch e.TransactionType {
		case "internal":
			if t.AggregatedTransactionID == "" {
				d[p+"/transaction/aggregatedTransactionId"] = "required"
			} else if seen[t.AggregatedTransactionID] {
				d[p+"/transaction/aggregatedTransactionId"] = "is listed twice"
			}
			seen[t.AggregatedTransactionID] = true
			for name, given := range map[string]bool{"paymentMethod": t.PaymentMethod != nil, "paidAt": t.PaidAt != "",
				"amountCents": t.AmountCents != nil} {
				if given {
					d[p+"/transaction/"+name] = "does not apply to an internal transaction"
				}
			}
		case "external":
			checkExternal(d, p+"/transaction", t.PaymentMethod, t.PaidAt, t.AmountCents, t.AggregatedTransactionID)
		default:
			d[p+"/transactionType"] = "must be internal or external"
		}
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

func checkExternal(d map[string]string, p string, method json.RawMessage, paidAt string, amount *int64, txn string) {
	var other string
	switch {
	case !parties.Present(method):
		d[p+"/paymentMethod"] = `required: "other" or a payment method object`
	case json.Unmarshal(method, &other) == nil:
		if other != "other" {
			d[p+"/paymentMethod"] = `must be "other" or a payment method object`
		}
	default:
		checkPaymentMethod(d, p+"/paymentMethod", method)
	}
	if _, err := time.Parse(time.RFC3339, paidAt); err != nil {
		if _, ok := ParseCalDate(paidAt); !ok {
			d[p+"/paidAt"] = "required: an RFC 3339 date-time or a YYYY-MM-DD date"
		}
	}
	ledger.CheckAmountOf(d, p+"/amountCents", amount, 1)
	if txn != "" {
		d[p+"/aggregatedTransactionId"] = "does not apply to an external transaction"
	}
}

// invoiceOfTransaction returns the invoice a transaction is reconciled to
// ("" when none).
func invoiceOfTransaction(op *kernel.Op, txnID string) (string, error) {
	var id string
	err := op.Tx.Scan(kernel.IndexPrefix(indexInvoiceTxn, txnID), "", false, func(_, v string) bool {
		id = v
		return false
	})
	return id, err
}

// linkableCredit checks that a transaction may pay an invoice: a posted
// credit of the same legal entity that pays no other invoice.
func linkableCredit(op *kernel.Op, inv *Invoice, id, field string) (*ledger.Transaction, error) {
	t, ok, err := ledger.FindTransaction(op, id)
	if err != nil {
		return nil, err
	}
	if !ok || t.LegalEntityID != inv.LegalEntityID {
		return nil, kernel.NotFound("transaction", field, id)
	}
	switch {
	case t.AmountCents <= 0:
		return nil, kernel.InvalidField(field, "transaction "+id+" is a debit; only a credit can pay an invoice")
	case t.Status != ledger.StatusPosted:
		return nil, kernel.InvalidField(field,
			"transaction "+id+" is "+t.DetailedStatus+"; only a posted credit can pay an invoice")
	}
	other, err := invoiceOfTransaction(op, id)
	if err != nil {
		return nil, err
	}
	if other != "" {
		return nil, kernel.Errorf(kernel.CodeConflict, "transaction %s is already reconciled to invoice %s", id, other).
			With("field", field).With("invoiceId", other)
	}
	return t, nil
}

// refuseSettling refuses money movements on a void or paid invoice.
func refuseSettling(inv *Invoice) error {
	switch inv.Status {
	case StatusVoid:
		return kernel.Errorf(kernel.CodeConflict, "invoice %s is void; a void invoice cannot be paid or reconciled", inv.ID).
			With("status", inv.Status)
	case StatusPaid:
		return kernel.Errorf(kernel.CodeConflict, "invoice %s is already paid in full", inv.ID).With("status", inv.Status)
	}
	return nil
}

// Reconcile links transactions to one of the actor's invoices;
// the collected amount and the status follow.
func Reconcile(op *kernel.Op, a *kernel.Actor, id string, entries []TransactionInput) (*Invoice, error) {
	if err := ValidateTransactions(entries); err != nil {
		return nil, err
	}
	inv, err := InvoiceOf(op, a, id)
	if err != nil {
		return nil, err
	}
	if err := refuseSettling(inv); err != nil {
		return nil, err
	}
	for i, e := range entries {
		p := fmt.Sprintf("/%d/transaction", i)
		pay := Payment{Type: e.TransactionType}
		if e.TransactionType == "internal" {
			t, err := linkableCredit(op, inv, e.Transaction.AggregatedTransactionID, p+"/aggregatedTransactionId")
			if err != nil {
				return nil, err
			}
			pay.TransactionID, pay.AmountCents = t.ID, t.AmountCents
		} else {
			pay.PaymentMethod, pay.PaidAt = compactJSON(e.Transaction.PaymentMethod), e.Transaction.PaidAt
			pay.AmountCents = inv.TotalCents() - inv.CollectedCents
			if e.Transaction.AmountCents != nil {
				pay.AmountCents = *e.Transaction.AmountCents
			}
			if pay.AmountCents <= 0 {
				return nil, kernel.InvalidField(p+"/amountCents", "nothing remains to be paid on invoice "+inv.ID)
			}
		}
		inv.Transactions = append(inv.Transactions, pay)
		inv.CollectedCents += pay.AmountCents
	}
	return inv, Store(op, inv)
}

// Unreconcile unlinks transactions from one of the actor's
// invoices; each entry must match a linked one.
func Unreconcile(
	op *kernel.Op,
	a *kernel.Actor,
	id string,
	entries []TransactionInput,
) (*Invoice, error) {
	if err := ValidateTransactions(entries); err != nil {
		return nil, err
	}
	inv, err := InvoiceOf(op, a, id)
	if err != nil {
		return nil, err
	}
	if inv.Status == StatusVoid {
		return nil, refuseSettling(inv)
	}
	for i, e := range entries {
		at := slices.IndexFunc(inv.Transactions, func(p Payment) bool { return paymentMatches(p, e) })
		if at < 0 {
			return nil, kernel.InvalidField(fmt.Sprintf("/%d", i), "is not reconciled to invoice "+inv.ID)
		}
		inv.CollectedCents -= inv.Transactions[at].AmountCents
		inv.Transactions = slices.Delete(inv.Transactions, at, at+1)
	}
	return inv, Store(op, inv)
}

func paymentMatches(p Payment, e TransactionInput) bool {
	t := e.Transaction
	if p.Type != e.TransactionType {
		return false
	}
	if p.Type == "internal" {
		return p.TransactionID == t.AggregatedTransactionID
	}
	return p.PaidAt == t.PaidAt && bytes.Equal(p.PaymentMethod, compactJSON(t.PaymentMethod)) &&
		(t.AmountCents == nil || *t.AmountCents == p.AmountCents)
}
