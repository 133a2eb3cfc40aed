package invoices

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Invoice statuses.
const (
	StatusScheduled     = "scheduled"
	StatusUnpaid        = "unpaid"
	StatusOverdue       = "overdue"
	StatusPaidPartially = "paid_partially"
	StatusPaid          = "paid"
	StatusVoid          = "void"
)

// Statuses lists every invoice status.
var Statuses = []string{
	StatusScheduled,
	StatusUnpaid,
	StatusOverdue,
	StatusPaidPartially,
	StatusPaid,
	StatusVoid,
}

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
	Name     string           `json:"name"`
	Email    string           `json:"email"`
	Address  *parties.Address `json:"address,omitempty"`
	CCEmails []string         `json:"ccEmails,omitempty"`
}

// Payment is a transaction linked to an invoice: an internal one
// names a credit on the legal entity's ledger; an external one records a
// payment made elsewhere.
type Payment struct {
	Type          string          `json:"transactionType"`
	TransactionID string          `json:"aggregatedTransactionId,omitempty"`
	PaymentMethod json.RawMessage `json:"paymentMethod,omitempty"`
	PaidAt        string          `json:"paidAt,omitempty"`
	AmountCents   int64           `json:"amountCents"`
}

// Sums are an invoice's amounts in cents.
type Sums struct {
	Subtotal, Discount, Tax, Total int64
}

func invoiceTotals(items []LineItem, discount, tax *Adjustment) Sums {
	var sub float64
	for _, li := range items {
		sub += li.Quantity * float64(li.PriceCents)
	}
	s := Sums{Subtotal: int64(math.Round(sub))}
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
func (inv *Invoice) Sums() Sums { return invoiceTotals(inv.LineItems, inv.Discount, inv.Tax) }

// Open reports whether an invoice still expects money: neither paid nor
// void.
func (inv *Invoice) Open() bool { return inv.Status != StatusPaid && inv.Status != StatusVoid }

var invoiceNumberPattern = regexp.MustCompile(`^[A-Z0-9-_]{1,50}$`)

// NumberProblem explains why an invoice number is malformed ("" when
// it is fine).
func NumberProblem(n string) string {
	if !invoiceNumberPattern.MatchString(n) {
		return "must be 1 to 50 characters of A-Z, 0-9, - and _"
	}
	return ""
}

// Filter narrows and orders the invoice list.
type Filter struct {
	Status     string
	CustomerID string
	ContactID  string
	AccountID  string
	// Sort is issuedAt (the default) or dueAt.
	Sort string
	Asc  bool
}

// List lists the actor's invoices, newest issue date first unless
// the filter says otherwise.
func List(
	op *kernel.Op,
	a *kernel.Actor,
	f Filter,
	req kernel.PageRequest,
) (kernel.Page[Invoice], error) {
	d := map[string]string{}
	if f.Status != "" && !slices.Contains(Statuses, f.Status) {
		d["filter:status"] = "must be one of " + strings.Join(Statuses, ", ")
	}
	if f.Sort != "" && f.Sort != "issuedAt" && f.Sort != "dueAt" {
		d["sort"] = "must be issuedAt or dueAt"
	}
	if len(d) > 0 {
		return kernel.Page[Invoice]{}, kernel.Invalid(d)
	}
	index := IndexLE
	if f.Sort == "dueAt" {
		index = indexInvoiceDue
	}
	req.Desc = !f.Asc
	eq := func(want, got string) bool { return want == "" || want == got }
	return kernel.List(op, Kind, kernel.IndexPrefix(index, a.LegalEntityID()), req, func(inv *Invoice) bool {
		return eq(f.Status, inv.Status) && eq(f.CustomerID, inv.CustomerID) && eq(f.ContactID, inv.ContactID) &&
			eq(f.AccountID, inv.AccountID)
	})
}

// InvoiceOf loads one of the actor's invoices.
func InvoiceOf(op *kernel.Op, a *kernel.Actor, id string) (*Invoice, error) {
	var inv Invoice
	ok, err := op.Get(Kind, id, &inv)
	if err != nil {
		return nil, err
	}
	if !ok || inv.LegalEntityID != a.LegalEntityID() {
		return nil, kernel.NotFound("invoice", "", id)
	}
	return &inv, nil
}

// invoiceNumberOwner returns the invoice that holds a number in a legal
// entity ("" when it is free). Numbers are never freed, not even by void.
func invoiceNumberOwner(op *kernel.Op, legalEntityID, number string) (string, error) {
	var id string
	err := op.Tx.Scan(kernel.IndexPrefix(indexInvoiceNumber, legalEntityID, number), "", false, func(_, v string) bool {
		id = v
		return false
	})
	return id, err
}

// NumberAvailable reports whether the actor's legal entity may use
// an invoice number.
func NumberAvailable(op *kernel.Op, a *kernel.Actor, number string) (bool, error) {
	owner, err := invoiceNumberOwner(op, a.LegalEntityID(), number)
	return owner == "", err
}

func claimInvoiceNumber(op *kernel.Op, legalEntityID, number, self string) error {
	owner, err := invoiceNumberOwner(op, legalEntityID, number)
	if err != nil || owner == "" || owner == self {
		return err
	}
	return kernel.Errorf(kernel.CodeConflict, "invoice number %s is already used by invoice %s", number, owner).
		With("field", "/details/invoiceNumber").With("invoiceNumber", number).With("invoiceId", owner)
}

// invoiceTarget resolves an invoice's accountId: an open account of the
// legal entity, or one of its open virtual accounts.
func invoiceTarget(op *kernel.Op, legalEntityID, id, field string) (*ledger.Account, *ledger.VirtualAccount, error) {
	var acc ledger.Account
	var va ledger.VirtualAccount
	if ok, err := op.Get(ledger.KindVirtualAccount, id, &va); err != nil {
		return nil, nil, err
	} else if ok && va.LegalEntityID == legalEntityID {
		if va.ClosedAt != nil {
			return nil, nil, kernel.InvalidField(field, "virtual account "+id+" is closed")
		}
		_, err := op.Get(ledger.KindAccount, va.AccountID, &acc)
		return &acc, &va, err
	}
	ok, err := op.Get(ledger.KindAccount, id, &acc)
	if err != nil {
		return nil, nil, err
	}
	if !ok || acc.LegalEntityID != legalEntityID {
		return nil, nil, kernel.NotFound("account", field, id)
	}
	if acc.Status == "closed" {
		return nil, nil, kernel.InvalidField(field, "account "+id+" is closed")
	}
	if _, err := op.Get(ledger.KindVirtualAccount, acc.PrimaryVirtualAccountID, &va); err != nil {
		return nil, nil, err
	}
	return &acc, &va, nil
}

// AccountOf returns the account an invoice is paid into and, when
// its accountId names a virtual account, that virtual account.
func AccountOf(op *kernel.Op, inv *Invoice) (*ledger.Account, *ledger.VirtualAccount, error) {
	var acc ledger.Account
	var va ledger.VirtualAccount
	ok, err := op.Get(ledger.KindVirtualAccount, inv.AccountID, &va)
	if err != nil {
		return nil, nil, err
	}
	if ok {
		_, err := op.Get(ledger.KindAccount, va.AccountID, &acc)
		return &acc, &va, err
	}
	_, err = op.Get(ledger.KindAccount, inv.AccountID, &acc)
	return &acc, nil, err
}

// Create issues a new invoice to one of the actor's active
// customers. An issue date still ahead leaves it scheduled until then;
// otherwise it is sent at once.
func Create(op *kernel.Op, a *kernel.Actor, in *Input) (*Invoice, error) {
	if err := in.Validate(); err != nil {
		return nil, err
	}
	le := a.LegalEntityID()
	if _, _, err := invoiceTarget(op, le, in.AccountID, "/accountId"); err != nil {
		return nil, err
	}
	cust, err := parties.CustomerOf(op, a, in.LegalEntityCustomerID, "/legalEntityCustomerId")
	if err != nil {
		return nil, err
	}
	if cust.Status != parties.CustomerActive {
		return nil, kernel.InvalidField("/legalEntityCustomerId",
			"customer "+cust.ID+" is archived; reactivate it before invoicing")
	}
	if err := claimInvoiceNumber(op, le, in.Details.InvoiceNumber, ""); err != nil {
		return nil, err
	}
	inv := &Invoice{LegalEntityID: le, AccountID: in.AccountID, CustomerID: cust.ID, Currency: "USD",
		BilledTo: BilledTo{Name: cust.Name, Email: cust.Email, Address: cust.Address}}
	in.Details.apply(inv)
	if parties.Present(in.PaymentMethods) {
		inv.PaymentMethods = compactJSON(in.PaymentMethods)
	}
	if inv.Memo == "" {
		settings, err := SettingsOf(op, le)
		if err != nil {
			return nil, err
		}
		inv.Memo = settings.DefaultMemo
	}
	return inv, issueInvoice(op, inv)
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
func issueInvoice(op *kernel.Op, inv *Invoice) error {
	var err error
	if inv.ID, err = op.NewID(Prefix); err != nil {
		return err
	}
	if inv.DetailsID, err = op.NewID(PrefixDetails); err != nil {
		return err
	}
	if inv.Seq, err = op.NextSeq(); err != nil {
		return err
	}
	inv.Version, inv.CreatedAt, inv.Status = 1, op.Now, StatusUnpaid
	if inv.IssuedAt.After(op.Now) {
		at := inv.IssuedAt
		inv.ScheduledSendDate = &at
	}
	if err := AttachDocument(op, inv); err != nil {
		return err
	}
	refreshInvoice(op, inv)
	if inv.Status != StatusScheduled {
		if err := deliverInvoice(op, inv); err != nil {
			return err
		}
	}
	return Store(op, inv)
}

// AttachDocument gives an invoice its generated document: the
// invoice rendered as HTML whenever it is read. An invoice that names its
// document already (a restored one) keeps that id.
func AttachDocument(op *kernel.Op, inv *Invoice) error {
	doc := &Document{ID: inv.DocumentID, LegalEntityID: inv.LegalEntityID, Type: DocumentInvoice,
		Source: DocumentGenerated, ContentType: "text/html; charset=utf-8", Filename: "invoice-" + inv.Number + ".html",
		RelatedID: inv.ID}
	if err := SaveDocument(op, doc); err != nil {
		return err
	}
	inv.DocumentID = doc.ID
	return nil
}

// refreshInvoice derives the status from amounts, dates and the clock, and
// sets or clears closedAt.
func refreshInvoice(op *kernel.Op, inv *Invoice) {
	inv.Status = StatusOf(inv, inv.Status == StatusVoid, op.Now)
	if inv.Open() {
		inv.ClosedAt = nil
	} else if inv.ClosedAt == nil {
		now := op.Now
		inv.ClosedAt = &now
	}
}

// Store refreshes the status, plans the invoice's scheduled events
// and saves it.
func Store(op *kernel.Op, inv *Invoice) error {
	refreshInvoice(op, inv)
	if err := planInvoiceEvents(op, inv); err != nil {
		return err
	}
	return op.Save(Kind, inv.ID, inv, invoiceIndexes(inv)...)
}

// Update changes an open invoice. Details replace the old ones and
// must carry the current version; every update bumps the version.
func Update(op *kernel.Op, a *kernel.Actor, id string, p *Patch) (*Invoice, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	inv, err := InvoiceOf(op, a, id)
	if err != nil {
		return nil, err
	}
	if !inv.Open() {
		return nil, kernel.Errorf(kernel.CodeConflict, "invoice %s is %s and can no longer be changed", id, inv.Status).
			With("status", inv.Status)
	}
	if p.Details != nil && *p.Details.Version != inv.Version {
		return nil, kernel.Errorf(kernel.CodeConflict, "invoice %s is at version %d, not %d: read it again and reapply your"+
			" change",
			id, inv.Version, *p.Details.Version).
			With("currentVersion", fmt.Sprint(inv.Version)).
			With("field", "/details/version")
	}
	if p.AccountID != nil {
		if _, _, err := invoiceTarget(op, inv.LegalEntityID, *p.AccountID, "/accountId"); err != nil {
			return nil, err
		}
		inv.AccountID = *p.AccountID
	}
	if p.PaymentMethods != nil {
		inv.PaymentMethods = nil
		if parties.Present(p.PaymentMethods) {
			inv.PaymentMethods = compactJSON(p.PaymentMethods)
		}
	}
	if p.Details != nil {
		if err := claimInvoiceNumber(op, inv.LegalEntityID, p.Details.InvoiceNumber, inv.ID); err != nil {
			return nil, err
		}
		if err := replaceDetails(op, inv, p.Details); err != nil {
			return nil, err
		}
	}
	inv.Version++
	return inv, Store(op, inv)
}

// replaceDetails applies new details; an invoice not sent yet is
// rescheduled to its new issue date, or sent now when that has come.
func replaceDetails(op *kernel.Op, inv *Invoice, in *DetailsInput) error {
	in.apply(inv)
	if inv.Status != StatusScheduled {
		return nil
	}
	at := inv.IssuedAt
	inv.ScheduledSendDate = &at
	if at.After(op.Now) {
		return nil
	}
	refreshInvoice(op, inv)
	return deliverInvoice(op, inv)
}

// Void voids an invoice that is not paid: void is final.
func Void(op *kernel.Op, a *kernel.Actor, id string) (*Invoice, error) {
	inv, err := InvoiceOf(op, a, id)
	if err != nil {
		return nil, err
	}
	return inv, voidInvoice(op, inv)
}

func voidInvoice(op *kernel.Op, inv *Invoice) error {
	switch inv.Status {
	case StatusVoid:
		return kernel.Errorf(kernel.CodeConflict, "invoice %s is already void", inv.ID).With("status", inv.Status)
	case StatusPaid:
		return kernel.Errorf(kernel.CodeConflict, "invoice %s is paid; unreconcile its payments before voiding it", inv.ID).
			With("status", inv.Status)
	}
	if err := markVoid(op, inv); err != nil {
		return err
	}
	return seriesInvoiceVoided(op, inv)
}

// markVoid voids an invoice and closes it.
func markVoid(op *kernel.Op, inv *Invoice) error {
	inv.Status = StatusVoid
	return Store(op, inv)
}

// TotalCents is the invoice total: the subtotal less the discount plus
// the tax on what remains.
func (inv *Invoice) TotalCents() int64 {
	return invoiceTotals(inv.LineItems, inv.Discount, inv.Tax).Total
}

// LineItem is one line of an invoice.
type LineItem struct {
	Name       string  `json:"name" yaml:"name"`
	Quantity   float64 `json:"quantity" yaml:"quantity"`
	PriceCents int64   `json:"priceCents" yaml:"priceCents"`
	CatalogID  string  `json:"catalogItemId,omitempty" yaml:"catalogItemId"`
}

// Invoice is a bill sent to a customer.
type Invoice struct {
	ID                string          `json:"id"`
	LegalEntityID     string          `json:"legalEntityId"`
	AccountID         string          `json:"accountId"`
	CustomerID        string          `json:"customerId"`
	DetailsID         string          `json:"detailsId"`
	Number            string          `json:"number"`
	Status            string          `json:"status"`
	IssuedAt          time.Time       `json:"issuedAt"`
	DueAt             time.Time       `json:"dueAt"`
	Timezone          string          `json:"timezone"`
	Currency          string          `json:"currency"`
	LineItems         []LineItem      `json:"lineItems"`
	Memo              string          `json:"memo,omitempty"`
	CollectedCents    int64           `json:"collectedCents"`
	PaymentMethods    json.RawMessage `json:"paymentMethods,omitempty"`
	Transactions      []Payment       `json:"transactions,omitempty"`
	ClosedAt          *time.Time      `json:"closedAt,omitempty"`
	SeriesID          string          `json:"seriesId,omitempty"`
	ScheduledSendDate *time.Time      `json:"scheduledSendDate,omitempty"`
	Version           int             `json:"version"`
	ContactID         string          `json:"contactId,omitempty"`
	Discount          *Adjustment     `json:"discount,omitempty"`
	Tax               *Adjustment     `json:"tax,omitempty"`
	BilledTo          BilledTo        `json:"billedTo"`
	DocumentID        string          `json:"documentId,omitempty"`
	SentAt            *time.Time      `json:"sentAt,omitempty"`
	LastReminderAt    *time.Time      `json:"lastReminderAt,omitempty"`
	// Events are the invoice's scheduled events, by purpose.
	Events    map[string]EventRef `json:"events,omitempty"`
	CreatedAt time.Time           `json:"createdAt"`
	Seq       int64               `json:"seq"`
}

// StatusOf derives an invoice's status from its amounts and dates:
// overdue from the first instant after its due date (InvoiceOverdueAt).
func StatusOf(inv *Invoice, void bool, now time.Time) string {
	total := inv.TotalCents()
	switch {
	case void:
		return "void"
	case inv.CollectedCents >= total && total > 0:
		return "paid"
	case inv.CollectedCents > 0:
		return "paid_partially"
	case inv.ScheduledSendDate != nil && inv.ScheduledSendDate.After(now):
		return "scheduled"
	case !now.Before(OverdueAt(inv)):
		return "overdue"
	}
	return "unpaid"
}

func invoiceIndexes(inv *Invoice) []string {
	seq := store.Seq(inv.Seq)
	keys := []string{
		kernel.IndexKey(IndexLE, inv.LegalEntityID, store.Millis(inv.IssuedAt), seq, inv.ID),
		kernel.IndexKey(indexInvoiceDue, inv.LegalEntityID, store.Millis(inv.DueAt), seq, inv.ID),
		kernel.IndexKey(indexInvoiceNumber, inv.LegalEntityID, inv.Number, inv.ID),
	}
	for _, p := range inv.Transactions {
		if p.TransactionID != "" {
			keys = append(keys, kernel.IndexKey(indexInvoiceTxn, p.TransactionID, inv.ID))
		}
	}
	return keys
}

// Invoices by due date, by number (unique per legal entity) and by the
// transactions reconciled to them.
const (
	indexInvoiceDue    = "invoice.due"
	indexInvoiceNumber = "invoice.number"
	indexInvoiceTxn    = "invoice.txn"
)

// IndexLE holds a legal entity's invoices in order of issue.
const IndexLE = "invoice.le"
