package sandbox

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Invoice statuses.
const (
	InvoiceScheduled     = "scheduled"
	InvoiceUnpaid        = "unpaid"
	InvoiceOverdue       = "overdue"
	InvoicePaidPartially = "paid_partially"
	InvoicePaid          = "paid"
	InvoiceVoid          = "void"
)

// InvoiceStatuses lists every invoice status.
var InvoiceStatuses = []string{InvoiceScheduled, InvoiceUnpaid, InvoiceOverdue, InvoicePaidPartially, InvoicePaid, InvoiceVoid}

// EventRef names a scheduled event of a record and when it is due.
type EventRef struct {
	ID   string    `json:"id"`
	Kind string    `json:"kind"`
	At   time.Time `json:"at"`
}

// Adjustment is an invoice discount (percentage or fixed) or tax
// (percentage). Percentages are 0 to 100.
type Adjustment struct {
	Type        string   `json:"type" enum:"percentage,fixed"`
	Percent     *float64 `json:"percent,omitempty"`
	AmountCents *int64   `json:"amountCents,omitempty"`
}

// BilledTo is who an invoice is addressed to, copied from its customer
// (or contact) when it is issued.
type BilledTo struct {
	Name     string   `json:"name"`
	Email    string   `json:"email"`
	Address  *Address `json:"address,omitempty"`
	CCEmails []string `json:"ccEmails,omitempty"`
}

// InvoicePayment is a transaction linked to an invoice: an internal one
// names a credit on the legal entity's ledger; an external one records a
// payment made elsewhere.
type InvoicePayment struct {
	Type          string          `json:"transactionType"`
	TransactionID string          `json:"aggregatedTransactionId,omitempty"`
	PaymentMethod json.RawMessage `json:"paymentMethod,omitempty"`
	PaidAt        string          `json:"paidAt,omitempty"`
	AmountCents   int64           `json:"amountCents"`
}

// InvoiceSums are an invoice's amounts in cents.
type InvoiceSums struct {
	Subtotal, Discount, Tax, Total int64
}

func invoiceTotals(items []LineItem, discount, tax *Adjustment) InvoiceSums {
	var sub float64
	for _, li := range items {
		sub += li.Quantity * float64(li.PriceCents)
	}
	s := InvoiceSums{Subtotal: int64(math.Round(sub))}
	if discount != nil {
		if discount.Type == "fixed" && discount.AmountCents != nil {
			s.Discount = min(*discount.AmountCents, s.Subtotal)
		} else if discount.Percent != nil {
			s.Discount = int64(math.Round(float64(s.Subtotal) * *discount.Percent / 100))
		}
	}
	if tax != nil && tax.Percent != nil {
		s.Tax = int64(math.Round(float64(s.Subtotal-s.Discount) * *tax.Percent / 100))
	}
	s.Total = s.Subtotal - s.Discount + s.Tax
	return s
}

// Sums returns the invoice's subtotal, discount, tax and total.
func (inv *Invoice) Sums() InvoiceSums { return invoiceTotals(inv.LineItems, inv.Discount, inv.Tax) }

// Open reports whether an invoice still expects money: neither paid nor
// void.
func (inv *Invoice) Open() bool { return inv.Status != InvoicePaid && inv.Status != InvoiceVoid }

var invoiceNumberPattern = regexp.MustCompile(`^[A-Z0-9-_]{1,50}$`)

// InvoiceNumberProblem explains why an invoice number is malformed ("" when
// it is fine).
func InvoiceNumberProblem(n string) string {
	if !invoiceNumberPattern.MatchString(n) {
		return "must be 1 to 50 characters of A-Z, 0-9, - and _"
	}
	return ""
}

// InvoiceFilter narrows and orders the invoice list.
type InvoiceFilter struct {
	Status     string
	CustomerID string
	ContactID  string
	AccountID  string
	// Sort is issuedAt (the default) or dueAt.
	Sort string
	Asc  bool
}

// ListInvoices lists the actor's invoices, newest issue date first unless
// the filter says otherwise.
func (op *Op) ListInvoices(a *Actor, f InvoiceFilter, req PageRequest) (Page[Invoice], error) {
	d := map[string]string{}
	if f.Status != "" && !slices.Contains(InvoiceStatuses, f.Status) {
		d["filter:status"] = "must be one of " + strings.Join(InvoiceStatuses, ", ")
	}
	if f.Sort != "" && f.Sort != "issuedAt" && f.Sort != "dueAt" {
		d["sort"] = "must be issuedAt or dueAt"
	}
	if len(d) > 0 {
		return Page[Invoice]{}, Invalid(d)
	}
	index := indexInvoiceLE
	if f.Sort == "dueAt" {
		index = indexInvoiceDue
	}
	req.Desc = !f.Asc
	eq := func(want, got string) bool { return want == "" || want == got }
	return list(op, kindInvoice, IndexPrefix(index, a.LegalEntityID()), req, func(inv *Invoice) bool {
		return eq(f.Status, inv.Status) && eq(f.CustomerID, inv.CustomerID) && eq(f.ContactID, inv.ContactID) && eq(f.AccountID, inv.AccountID)
	})
}

// InvoiceOf loads one of the actor's invoices.
func (op *Op) InvoiceOf(a *Actor, id string) (*Invoice, error) {
	var inv Invoice
	ok, err := op.get(kindInvoice, id, &inv)
	if err != nil {
		return nil, err
	}
	if !ok || inv.LegalEntityID != a.LegalEntityID() {
		return nil, NotFound("invoice", "", id)
	}
	return &inv, nil
}

// invoiceNumberOwner returns the invoice that holds a number in a legal
// entity ("" when it is free). Numbers are never freed, not even by void.
func (op *Op) invoiceNumberOwner(legalEntityID, number string) (string, error) {
	var id string
	err := op.Tx.Scan(IndexPrefix(indexInvoiceNumber, legalEntityID, number), "", false, func(_, v string) bool {
		id = v
		return false
	})
	return id, err
}

// InvoiceNumberAvailable reports whether the actor's legal entity may use
// an invoice number.
func (op *Op) InvoiceNumberAvailable(a *Actor, number string) (bool, error) {
	owner, err := op.invoiceNumberOwner(a.LegalEntityID(), number)
	return owner == "", err
}

func (op *Op) claimInvoiceNumber(legalEntityID, number, self string) error {
	owner, err := op.invoiceNumberOwner(legalEntityID, number)
	if err != nil || owner == "" || owner == self {
		return err
	}
	return Errorf(CodeConflict, "invoice number %s is already used by invoice %s", number, owner).
		With("field", "/details/invoiceNumber").With("invoiceNumber", number).With("invoiceId", owner)
}

// invoiceTarget resolves an invoice's accountId: an open account of the
// legal entity, or one of its open virtual accounts.
func (op *Op) invoiceTarget(legalEntityID, id, field string) (*Account, *VirtualAccount, error) {
	var acc Account
	var va VirtualAccount
	if ok, err := op.get(kindVirtualAccount, id, &va); err != nil {
		return nil, nil, err
	} else if ok && va.LegalEntityID == legalEntityID {
		if va.ClosedAt != nil {
			return nil, nil, InvalidField(field, "virtual account "+id+" is closed")
		}
		_, err := op.get(kindAccount, va.AccountID, &acc)
		return &acc, &va, err
	}
	ok, err := op.get(kindAccount, id, &acc)
	if err != nil {
		return nil, nil, err
	}
	if !ok || acc.LegalEntityID != legalEntityID {
		return nil, nil, NotFound("account", field, id)
	}
	if acc.Status == "closed" {
		return nil, nil, InvalidField(field, "account "+id+" is closed")
	}
	if _, err := op.get(kindVirtualAccount, acc.PrimaryVirtualAccountID, &va); err != nil {
		return nil, nil, err
	}
	return &acc, &va, nil
}

// InvoiceAccount returns the account an invoice is paid into and, when
// its accountId names a virtual account, that virtual account.
func (op *Op) InvoiceAccount(inv *Invoice) (*Account, *VirtualAccount, error) {
	var acc Account
	var va VirtualAccount
	ok, err := op.get(kindVirtualAccount, inv.AccountID, &va)
	if err != nil {
		return nil, nil, err
	}
	if ok {
		_, err := op.get(kindAccount, va.AccountID, &acc)
		return &acc, &va, err
	}
	_, err = op.get(kindAccount, inv.AccountID, &acc)
	return &acc, nil, err
}

// CreateInvoice issues a new invoice to one of the actor's active
// customers. An issue date still ahead leaves it scheduled until then;
// otherwise it is sent at once.
func (op *Op) CreateInvoice(a *Actor, in *InvoiceInput) (*Invoice, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	le := a.LegalEntityID()
	if _, _, err := op.invoiceTarget(le, in.AccountID, "/accountId"); err != nil {
		return nil, err
	}
	cust, err := op.CustomerOf(a, in.LegalEntityCustomerID, "/legalEntityCustomerId")
	if err != nil {
		return nil, err
	}
	if cust.Status != CustomerActive {
		return nil, InvalidField("/legalEntityCustomerId", "customer "+cust.ID+" is archived; reactivate it before invoicing")
	}
	if err := op.claimInvoiceNumber(le, in.Details.InvoiceNumber, ""); err != nil {
		return nil, err
	}
	inv := &Invoice{LegalEntityID: le, AccountID: in.AccountID, CustomerID: cust.ID, Currency: "USD",
		BilledTo: BilledTo{Name: cust.Name, Email: cust.Email, Address: cust.Address}}
	in.Details.apply(inv)
	if present(in.PaymentMethods) {
		inv.PaymentMethods = compactJSON(in.PaymentMethods)
	}
	if inv.Memo == "" {
		settings, err := op.InvoiceSettingsOf(le)
		if err != nil {
			return nil, err
		}
		inv.Memo = settings.DefaultMemo
	}
	return inv, op.issueInvoice(inv)
}

func compactJSON(raw json.RawMessage) json.RawMessage {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	b, _ := json.Marshal(v)
	return b
}

// issueInvoice stores a new invoice with its ids, version 1 and its
// generated document, and sends it unless its issue date is still ahead.
func (op *Op) issueInvoice(inv *Invoice) error {
	var err error
	if inv.ID, err = op.newID(PrefixInvoice); err != nil {
		return err
	}
	if inv.DetailsID, err = op.newID(PrefixInvoiceDetails); err != nil {
		return err
	}
	if inv.Seq, err = op.nextSeq(); err != nil {
		return err
	}
	inv.Version, inv.CreatedAt, inv.Status = 1, op.Now, InvoiceUnpaid
	if inv.IssuedAt.After(op.Now) {
		at := inv.IssuedAt
		inv.ScheduledSendDate = &at
	}
	if err := op.attachInvoiceDocument(inv); err != nil {
		return err
	}
	op.refreshInvoice(inv)
	if inv.Status != InvoiceScheduled {
		if err := op.deliverInvoice(inv); err != nil {
			return err
		}
	}
	return op.storeInvoice(inv)
}

// attachInvoiceDocument gives an invoice its generated document: the
// invoice rendered as HTML whenever it is read.
func (op *Op) attachInvoiceDocument(inv *Invoice) error {
	doc := &Document{LegalEntityID: inv.LegalEntityID, Type: DocumentInvoice, Source: DocumentGenerated,
		ContentType: "text/html; charset=utf-8", Filename: "invoice-" + inv.Number + ".html", RelatedID: inv.ID}
	if err := op.SaveDocument(doc); err != nil {
		return err
	}
	inv.DocumentID = doc.ID
	return nil
}

// refreshInvoice derives the status from amounts, dates and the clock, and
// sets or clears closedAt.
func (op *Op) refreshInvoice(inv *Invoice) {
	inv.Status = InvoiceStatus(inv, inv.Status == InvoiceVoid, op.Now)
	if inv.Open() {
		inv.ClosedAt = nil
	} else if inv.ClosedAt == nil {
		now := op.Now
		inv.ClosedAt = &now
	}
}

// storeInvoice refreshes the status, plans the invoice's scheduled events
// and saves it.
func (op *Op) storeInvoice(inv *Invoice) error {
	op.refreshInvoice(inv)
	if err := op.planInvoiceEvents(inv); err != nil {
		return err
	}
	return op.save(kindInvoice, inv.ID, inv, invoiceIndexes(inv)...)
}

// UpdateInvoice changes an open invoice. Details replace the old ones and
// must carry the current version; every update bumps the version.
func (op *Op) UpdateInvoice(a *Actor, id string, p *InvoicePatch) (*Invoice, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	inv, err := op.InvoiceOf(a, id)
	if err != nil {
		return nil, err
	}
	if !inv.Open() {
		return nil, Errorf(CodeConflict, "invoice %s is %s and can no longer be changed", id, inv.Status).With("status", inv.Status)
	}
	if p.Details != nil && *p.Details.Version != inv.Version {
		return nil, Errorf(CodeConflict, "invoice %s is at version %d, not %d: read it again and reapply your change",
			id, inv.Version, *p.Details.Version).With("currentVersion", fmt.Sprint(inv.Version)).With("field", "/details/version")
	}
	if p.AccountID != nil {
		if _, _, err := op.invoiceTarget(inv.LegalEntityID, *p.AccountID, "/accountId"); err != nil {
			return nil, err
		}
		inv.AccountID = *p.AccountID
	}
	if p.PaymentMethods != nil {
		inv.PaymentMethods = nil
		if present(p.PaymentMethods) {
			inv.PaymentMethods = compactJSON(p.PaymentMethods)
		}
	}
	if p.Details != nil {
		if err := op.claimInvoiceNumber(inv.LegalEntityID, p.Details.InvoiceNumber, inv.ID); err != nil {
			return nil, err
		}
		if err := op.replaceDetails(inv, p.Details); err != nil {
			return nil, err
		}
	}
	inv.Version++
	return inv, op.storeInvoice(inv)
}

// replaceDetails applies new details; an invoice not sent yet is
// rescheduled to its new issue date, or sent now when that has come.
func (op *Op) replaceDetails(inv *Invoice, in *InvoiceDetailsInput) error {
	in.apply(inv)
	if inv.Status != InvoiceScheduled {
		return nil
	}
	at := inv.IssuedAt
	inv.ScheduledSendDate = &at
	if at.After(op.Now) {
		return nil
	}
	op.refreshInvoice(inv)
	return op.deliverInvoice(inv)
}

// VoidInvoice voids an invoice that is not paid: void is final.
func (op *Op) VoidInvoice(a *Actor, id string) (*Invoice, error) {
	inv, err := op.InvoiceOf(a, id)
	if err != nil {
		return nil, err
	}
	return inv, op.voidInvoice(inv)
}

func (op *Op) voidInvoice(inv *Invoice) error {
	switch inv.Status {
	case InvoiceVoid:
		return Errorf(CodeConflict, "invoice %s is already void", inv.ID).With("status", inv.Status)
	case InvoicePaid:
		return Errorf(CodeConflict, "invoice %s is paid; unreconcile its payments before voiding it", inv.ID).With("status", inv.Status)
	}
	if err := op.markVoid(inv); err != nil {
		return err
	}
	return op.seriesInvoiceVoided(inv)
}

// markVoid voids an invoice and closes it.
func (op *Op) markVoid(inv *Invoice) error {
	inv.Status = InvoiceVoid
	return op.storeInvoice(inv)
}
