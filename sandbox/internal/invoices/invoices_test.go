package invoices_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

// acmeKey is the demo's legal-entity key of Acme Robotics.
const acmeKey = "sk_sandbox_acme"

func ptr[T any](v T) *T { return &v }

// input is a valid invoice for Initech, paid into Acme's operating
// account: two lines coming to $300.00, dates in New York.
func input(number, issued, due string) *invoices.Input {
	return &invoices.Input{
		AccountID:             "sa_group_acmeoperating",
		LegalEntityCustomerID: "le_cust_initech",
		Details: &invoices.DetailsInput{
			IssuedAt: issued, DueAt: due, InvoiceTz: "America/New_York", InvoiceNumber: number,
			LineItemsAndTotals: &invoices.LineItemsInput{LineItems: []invoices.LineItemInput{
				{Name: "Calibration", Quantity: 2, PriceCents: ptr[int64](10000)},
				{Name: "Travel", Quantity: 1, PriceCents: ptr[int64](10000)},
			}},
		},
	}
}

// create issues in as Acme and returns the stored invoice.
func create(t *testing.T, w *kernel.World, in *invoices.Input) *invoices.Invoice {
	t.Helper()
	var inv *invoices.Invoice
	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		var err error
		inv, err = invoices.Create(op, a, in)
		return err
	}))
	return inv
}

// load reads an invoice as it is stored now.
func load(t *testing.T, w *kernel.World, id string) *invoices.Invoice {
	t.Helper()
	var inv *invoices.Invoice
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		var err error
		inv, err = invoices.InvoiceOf(op, enginetest.ActorInOp(t, op, acmeKey), id)
		return err
	}))
	return inv
}

func TestInvoiceNumberProblem(t *testing.T) {
	for n, ok := range map[string]bool{
		"ACME-1001": true, "INV_2026-07": true, "7": true, strings.Repeat("A", 50): true,
		"": false, "acme-1001": false, "ACME 1001": false, "ACME/1001": false, "ÄCME-1": false,
		strings.Repeat("A", 51): false,
	} {
		if got := invoices.NumberProblem(n) == ""; got != ok {
			t.Errorf("InvoiceNumberProblem(%q) accepts: %v, want %v", n, got, ok)
		}
	}
}

// A number belongs to one invoice of a legal entity for good: voiding the
// invoice does not free it, and another legal entity may use it.
func TestInvoiceNumberIsUniqueAndNeverFreed(t *testing.T) {
	w := enginetest.Demo(t)
	inv := create(t, w, input("ACME-2001", "2026-06-15", "2026-07-15"))

	err := enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := invoices.Create(op, a, input("ACME-2001", "2026-06-15", "2026-07-15"))
		return err
	})
	enginetest.WantError(t, err, kernel.CodeConflict, map[string]string{"field": "/details/invoiceNumber",
		"invoiceNumber": "ACME-2001", "invoiceId": inv.ID})

	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := invoices.Void(op, a, inv.ID)
		return err
	}))
	err = enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		free, err := invoices.NumberAvailable(op, a, "ACME-2001")
		if err == nil && free {
			return errors.New("ACME-2001 is available again once its invoice is void")
		}
		_, err = invoices.Create(op, a, input("ACME-2001", "2026-06-15", "2026-07-15"))
		return err
	})
	enginetest.WantError(t, err, kernel.CodeConflict, map[string]string{"invoiceId": inv.ID})

	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		free, err := invoices.NumberAvailable(op, enginetest.ActorInOp(t, op, "sk_sandbox_globex"), "ACME-2001")
		if err == nil && !free {
			return errors.New("Globex may not use a number Acme used")
		}
		return err
	}))
}

func TestCreateInvoiceRefusesBadInput(t *testing.T) {
	cases := []struct {
		name   string
		change func(in *invoices.Input)
		code   kernel.Code
		field  string // the detail key
		detail string // its value; "" for any
	}{
		{"no account", func(in *invoices.Input) { in.AccountID = " " }, kernel.CodeInvalidRequest, "/accountId",
			"required"},
		{"a contact instead of a customer", func(in *invoices.Input) { in.LegalEntityContactID = ptr("le_c_x") },
			kernel.CodeInvalidRequest, "/legalEntityContactId", ""},
		{"due before issued", func(in *invoices.Input) { in.Details.DueAt = "2026-06-14" },
			kernel.CodeInvalidRequest, "/details/dueAt", "must not be before issuedAt"},
		{"a date that is no day", func(in *invoices.Input) { in.Details.IssuedAt = "2026-02-30" },
			kernel.CodeInvalidRequest, "/details/issuedAt", "required: a YYYY-MM-DD date"},
		{"an offset for a zone", func(in *invoices.Input) { in.Details.InvoiceTz = "UTC+2" },
			kernel.CodeInvalidRequest, "/details/invoiceTz", ""},
		{"a lower-case number", func(in *invoices.Input) { in.Details.InvoiceNumber = "inv-1" },
			kernel.CodeInvalidRequest, "/details/invoiceNumber", "must be 1 to 50 characters of A-Z, 0-9, - and _"},
		{"no lines", func(in *invoices.Input) { in.Details.LineItemsAndTotals.LineItems = nil },
			kernel.CodeInvalidRequest, "/details/lineItemsAndTotals/lineItems", "at least one line item is required"},
		{"a line without a price", func(in *invoices.Input) {
			in.Details.LineItemsAndTotals.LineItems[1].PriceCents = nil
		}, kernel.CodeInvalidRequest, "/details/lineItemsAndTotals/lineItems/1/priceCents", ""},
		{"a quantity of 0", func(in *invoices.Input) { in.Details.LineItemsAndTotals.LineItems[0].Quantity = 0 },
			kernel.CodeInvalidRequest, "/details/lineItemsAndTotals/lineItems/0/quantity", "must be greater than 0"},
		{"a discount over 100%", func(in *invoices.Input) {
			in.Details.LineItemsAndTotals.Discount = &invoices.Adjustment{Type: "percentage", Percent: ptr(100.5)}
		}, kernel.CodeInvalidRequest, "/details/lineItemsAndTotals/discount/percent", ""},
		{"a fixed tax", func(in *invoices.Input) {
			in.Details.LineItemsAndTotals.Tax = &invoices.Adjustment{Type: "fixed", AmountCents: ptr[int64](100)}
		}, kernel.CodeInvalidRequest, "/details/lineItemsAndTotals/tax/type", "must be percentage"},
		{"a total over the largest amount", func(in *invoices.Input) {
			in.Details.LineItemsAndTotals.LineItems[0].Quantity = 1e9
			in.Details.LineItemsAndTotals.LineItems[0].PriceCents = ptr[int64](ledger.MaxAmountCents)
		}, kernel.CodeInvalidRequest, "/details/lineItemsAndTotals", ""},
		{"an unknown payment method", func(in *invoices.Input) {
			in.PaymentMethods = []byte(`[{"method":"cheque","config":{}}]`)
		}, kernel.CodeInvalidRequest, "/paymentMethods/0/method", ""},
		{"card fees passed to the payer", func(in *invoices.Input) {
			in.PaymentMethods = []byte(`[{"method":"acquiring_payment","config":{"passFeeToPayer":true}}]`)
		}, kernel.CodeInvalidRequest, "/paymentMethods/0/config/passFeeToPayer",
			"must be false: card payment fees cannot be passed to the payer"},
		{"a method listed twice", func(in *invoices.Input) {
			in.PaymentMethods = []byte(`[{"method":"inbound_rtp","config":{}},{"method":"inbound_rtp","config":{}}]`)
		}, kernel.CodeInvalidRequest, "/paymentMethods/1/method", "is listed twice"},
		{"an archived customer", func(in *invoices.Input) { in.LegalEntityCustomerID = "le_cust_oldclient" },
			kernel.CodeInvalidRequest, "/legalEntityCustomerId", ""},
		{"another legal entity's customer", func(in *invoices.Input) {
			in.LegalEntityCustomerID = "le_cust_umbrella"
		}, kernel.CodeNotFound, "field", "/legalEntityCustomerId"},
		{"another legal entity's account", func(in *invoices.Input) { in.AccountID = "sa_group_globexmain" },
			kernel.CodeNotFound, "field", "/accountId"},
		{"a closed virtual account", func(in *invoices.Input) { in.AccountID = "subaccount_acmeoldproject" },
			kernel.CodeInvalidRequest, "/accountId", "virtual account subaccount_acmeoldproject is closed"},
	}
	w := enginetest.Demo(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := input("ACME-3001", "2026-06-15", "2026-07-15")
			c.change(in)
			err := enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
				_, err := invoices.Create(op, a, in)
				return err
			})
			e := enginetest.DomainError(t, err)
			got, ok := e.Details[c.field]
			if e.Code != c.code || !ok || (c.detail != "" && got != c.detail) {
				t.Errorf("got %s %v, want %s with %s: %q", e.Code, e.Details, c.code, c.field, c.detail)
			}
		})
	}
	// Nothing refused was stored: the number is still free.
	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		if free, err := invoices.NumberAvailable(op, a, "ACME-3001"); err != nil || !free {
			return errors.New("a refused invoice took its number")
		}
		return nil
	}))
}

func TestInvoiceSums(t *testing.T) {
	lines := []invoices.LineItem{{Name: "Arm", Quantity: 2, PriceCents: 12345}, {Name: "Hours", Quantity: 1.5,
		PriceCents: 1000}}
	cases := []struct {
		name          string
		discount, tax *invoices.Adjustment
		want          invoices.Sums
	}{
		{"lines only", nil, nil, invoices.Sums{Subtotal: 26190, Total: 26190}},
		// 10% of 261.90 is 26.19; 8.25% of the 235.71 left is 19.446, rounded.
		{"percentage discount, then tax on what remains",
			&invoices.Adjustment{Type: "percentage", Percent: ptr(10.0)},
			&invoices.Adjustment{Type: "percentage", Percent: ptr(8.25)},
			invoices.Sums{Subtotal: 26190, Discount: 2619, Tax: 1945, Total: 25516}},
		{"a fixed discount above the subtotal stops at it",
			&invoices.Adjustment{Type: "fixed", AmountCents: ptr[int64](99999)},
			&invoices.Adjustment{Type: "percentage", Percent: ptr(20.0)},
			invoices.Sums{Subtotal: 26190, Discount: 26190, Total: 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inv := &invoices.Invoice{LineItems: lines, Discount: c.discount, Tax: c.tax}
			if got := inv.Sums(); got != c.want {
				t.Errorf("Sums() = %+v, want %+v", got, c.want)
			}
			if got := inv.TotalCents(); got != c.want.Total {
				t.Errorf("TotalCents() = %d, want %d", got, c.want.Total)
			}
		})
	}
}

// A new invoice is billed to its customer, takes the default memo of the
// settings, starts at version 1 and is sent at once when issued today.
func TestCreateInvoiceSendsItToTheCustomer(t *testing.T) {
	w := enginetest.Demo(t)
	in := input("ACME-2002", "2026-06-15", "2026-07-15")
	in.Details.CCEmails = []string{"cfo@initech.test"}
	inv := create(t, w, in)
	if inv.Status != invoices.StatusUnpaid || inv.Version != 1 || inv.CustomerID != "le_cust_initech" {
		t.Errorf("status %s, version %d, customer %s; want unpaid, 1, le_cust_initech", inv.Status, inv.Version,
			inv.CustomerID)
	}
	if inv.BilledTo.Name != "Initech" || inv.BilledTo.Email != "ap@initech.test" || inv.BilledTo.Address == nil {
		t.Errorf("billed to %+v, want Initech's name, email and address", inv.BilledTo)
	}
	if inv.Memo != "Thank you for your business." {
		t.Errorf("memo %q, want the settings' default memo", inv.Memo)
	}
	if inv.SentAt == nil || !inv.SentAt.Equal(w.Now()) {
		t.Errorf("sentAt %v, want now (%v)", inv.SentAt, w.Now())
	}
	page, err := w.Outbox(kernel.OutboxFilter{RelatedID: inv.ID}, kernel.PageRequest{})
	enginetest.Must(t, err)
	if len(page.Items) != 1 {
		t.Fatalf("%d emails about the invoice, want 1", len(page.Items))
	}
	m := page.Items[0]
	if m.Kind != invoices.MessageInvoice || m.To[0] != "ap@initech.test" ||
		len(m.CC) != 1 || m.CC[0] != "cfo@initech.test" ||
		m.Subject != "Invoice ACME-2002 from Acme Robotics Inc." || !strings.Contains(m.Text, "$300.00, due 2026-07-15") {
		t.Errorf("email %s to %v cc %v: %q\n%s", m.Kind, m.To, m.CC, m.Subject, m.Text)
	}
}

// Details replace the old ones only at the version last read; each
// update moves the version on.
func TestUpdateInvoiceChecksTheVersion(t *testing.T) {
	w := enginetest.Demo(t)
	inv := create(t, w, input("ACME-2003", "2026-06-15", "2026-07-15"))
	patch := func(version *int, number string) error {
		return enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
			d := input(number, "2026-06-15", "2026-07-31").Details
			d.Version = version
			_, err := invoices.Update(op, a, inv.ID, &invoices.Patch{Details: d})
			return err
		})
	}
	enginetest.WantError(t, patch(nil, "ACME-2003"), kernel.CodeInvalidRequest, map[string]string{
		"/details/version": "required on update: the version you last read (optimistic locking)"})
	enginetest.WantError(t, patch(ptr(2), "ACME-2003"), kernel.CodeConflict, map[string]string{
		"field": "/details/version", "currentVersion": "1"})
	enginetest.WantError(t, patch(ptr(1), "ACME-1001"), kernel.CodeConflict, map[string]string{
		"field": "/details/invoiceNumber", "invoiceId": "invoice_acme1001"})
	enginetest.Must(t, patch(ptr(1), "ACME-2003B"))

	got := load(t, w, inv.ID)
	if got.Version != 2 || got.Number != "ACME-2003B" || got.DueAt.Format("2006-01-02") != "2026-07-31" {
		t.Errorf("version %d, number %s, due %s; want 2, ACME-2003B, 2026-07-31", got.Version, got.Number, got.DueAt)
	}
	enginetest.WantError(t, patch(ptr(1), "ACME-2003C"), kernel.CodeConflict, map[string]string{"currentVersion": "2"})
	enginetest.WantError(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := invoices.Update(op, a, inv.ID, &invoices.Patch{})
		return err
	}), kernel.CodeInvalidRequest, map[string]string{"body": "give at least one of accountId, details, paymentMethods"})
}

// Void is final: a void invoice cannot be voided again, changed, reminded
// about or paid.
func TestVoidIsFinal(t *testing.T) {
	w := enginetest.Demo(t)
	inv := create(t, w, input("ACME-2004", "2026-06-15", "2026-07-15"))
	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := invoices.Void(op, a, inv.ID)
		return err
	}))
	got := load(t, w, inv.ID)
	if got.Status != invoices.StatusVoid || got.ClosedAt == nil || got.NextAutoReminderAt() != nil {
		t.Errorf("status %s, closedAt %v, next reminder %v; want void, closed, none", got.Status, got.ClosedAt,
			got.NextAutoReminderAt())
	}
	refusals := map[string]func(op *kernel.Op, a *kernel.Actor) error{
		"void": func(op *kernel.Op, a *kernel.Actor) error { _, err := invoices.Void(op, a, inv.ID); return err },
		"update": func(op *kernel.Op, a *kernel.Actor) error {
			_, err := invoices.Update(op, a, inv.ID, &invoices.Patch{AccountID: ptr("sa_group_acmeoperating")})
			return err
		},
		"remind": func(op *kernel.Op, a *kernel.Actor) error {
			_, err := invoices.Remind(op, a, inv.ID)
			return err
		},
		"pay": func(op *kernel.Op, a *kernel.Actor) error {
			_, _, err := invoices.SimulatePayment(op, &invoices.SimulatedPayment{InvoiceID: inv.ID})
			return err
		},
	}
	for name, refuse := range refusals {
		t.Run(name, func(t *testing.T) {
			enginetest.WantError(t, enginetest.As(t, w, acmeKey, refuse), kernel.CodeConflict,
				map[string]string{"status": "void"})
		})
	}
	if got := load(t, w, inv.ID); got.Status != invoices.StatusVoid || got.Version != 1 {
		t.Errorf("after the refusals: status %s, version %d; want void, 1", got.Status, got.Version)
	}
}
