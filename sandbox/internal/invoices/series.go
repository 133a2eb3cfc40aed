package invoices

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Invoice series statuses.
const (
	SeriesActive    = "active"
	SeriesEnded     = "ended"
	SeriesCancelled = "cancelled"
)

// PrefixSeries starts every invoice series id.
const PrefixSeries = "invoice_series_"

// EventSeriesIssue is the scheduled event that issues a series' invoice.
const EventSeriesIssue = "invoice_series.issue"

// KindSeries is the record kind of an invoice series.
const KindSeries = "invoice_series"

const (
	indexSeriesStart   = "series.start"
	indexSeriesNext    = "series.next"
	seriesNeverPending = "999999999999999"
)

// SeriesTemplate is what every invoice of a series bills.
type SeriesTemplate struct {
	LineItems []LineItem  `json:"lineItems"`
	Discount  *Adjustment `json:"discount,omitempty"`
	Tax       *Adjustment `json:"tax,omitempty"`
	Memo      string      `json:"memo,omitempty"`
	CCEmails  []string    `json:"ccEmails,omitempty"`
}

// Series issues an invoice on every date its rule selects. It keeps
// its next invoice ready, scheduled for that date; when the clock reaches
// it the invoice is sent and the following one is prepared, until the end
// condition is met.
type Series struct {
	ID                string          `json:"id"`
	LegalEntityID     string          `json:"legalEntityId"`
	Status            string          `json:"status"`
	Rule              RecurrenceRule  `json:"recurrenceRule"`
	PaymentTermsDays  int             `json:"paymentTermsDays"`
	Timezone          string          `json:"invoiceTz"`
	StartDate         string          `json:"startDate"`
	End               EndCondition    `json:"endCondition"`
	NextScheduledDate *time.Time      `json:"nextScheduledDate,omitempty"`
	Template          SeriesTemplate  `json:"template"`
	PaymentMethods    json.RawMessage `json:"paymentMethods,omitempty"`
	AccountID         string          `json:"accountId"`
	ContactID         string          `json:"contactId,omitempty"`
	CustomerID        string          `json:"customerId,omitempty"`
	// Occurrences counts the dates used so far, issued or skipped.
	Occurrences int    `json:"occurrences"`
	LastDate    string `json:"lastDate,omitempty"`
	// PendingInvoiceID is the scheduled invoice of NextScheduledDate.
	PendingInvoiceID string    `json:"pendingInvoiceId,omitempty"`
	EventID          string    `json:"eventId,omitempty"`
	CreatedAt        time.Time `json:"createdAt"`
	Seq              int64     `json:"seq"`
}

func seriesIndexes(s *Series) []string {
	seq := store.Seq(s.Seq)
	start, _ := ParseCalDate(s.StartDate)
	next := seriesNeverPending
	if s.NextScheduledDate != nil {
		next = store.Millis(*s.NextScheduledDate)
	}
	return []string{
		kernel.IndexKey(indexSeriesStart, s.LegalEntityID, store.Millis(start.Start(time.UTC)), seq, s.ID),
		kernel.IndexKey(indexSeriesNext, s.LegalEntityID, next, seq, s.ID),
	}
}

func (s *Series) location() *time.Location {
	loc, err := time.LoadLocation(s.Timezone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// StartAt is the instant the series' start date begins in its zone.
func (s *Series) StartAt() time.Time {
	d, _ := ParseCalDate(s.StartDate)
	return d.Start(s.location())
}

// nextDate is the series' next date and whether the end condition allows
// it.
func (s *Series) nextDate() (CalDate, bool) {
	from, _ := ParseCalDate(s.StartDate)
	if last, ok := ParseCalDate(s.LastDate); ok && !last.AddDays(1).Before(from) {
		from = last.AddDays(1)
	}
	d := s.Rule.Next(from)
	return d, s.End.Allows(s.Occurrences+1, d)
}

// consume marks a date used, whether its invoice was issued or skipped.
func (s *Series) consume(d CalDate) {
	s.Occurrences++
	s.LastDate = d.String()
	s.PendingInvoiceID, s.NextScheduledDate = "", nil
}

func saveSeries(op *kernel.Op, s *Series) error {
	return op.Save(KindSeries, s.ID, s, seriesIndexes(s)...)
}

// advanceSeries issues every date that has come and prepares the next
// invoice, or ends the series when its end condition is met. It returns
// the first invoice it made (nil when none).
func advanceSeries(op *kernel.Op, s *Series) (*Invoice, error) {
	var first *Invoice
	for range MaxRecurrenceSteps {
		d, ok := s.nextDate()
		if !ok {
			s.Status, s.PendingInvoiceID, s.NextScheduledDate = SeriesEnded, "", nil
			return first, saveSeries(op, s)
		}
		inv, err := seriesInvoice(op, s, d)
		if err != nil {
			return nil, err
		}
		if first == nil {
			first = inv
		}
		at := d.Start(s.location())
		if !at.After(op.Now) {
			s.consume(d)
			continue
		}
		return first, pendSeries(op, s, inv.ID, at)
	}
	return nil, fmt.Errorf("series %s: more than %d dates to issue at once", s.ID, MaxRecurrenceSteps)
}

// pendSeries makes an invoice the series' next one, due to be issued at
// at, and saves the series.
func pendSeries(op *kernel.Op, s *Series, invoiceID string, at time.Time) error {
	s.PendingInvoiceID, s.NextScheduledDate = invoiceID, &at
	ev, err := op.Schedule(EventSeriesIssue, at, map[string]string{"seriesId": s.ID})
	if err != nil {
		return err
	}
	s.EventID = ev.ID
	return saveSeries(op, s)
}

// billedTo is who a series bills: its customer, else its contact.
func seriesBilledTo(op *kernel.Op, s *Series) (BilledTo, error) {
	if s.CustomerID != "" {
		c, err := parties.CustomerOfEntity(op, s.LegalEntityID, s.CustomerID, "/legalEntityCustomerId")
		if err != nil {
			return BilledTo{}, err
		}
		return BilledTo{Name: c.Name, Email: c.Email, Address: c.Address, CCEmails: s.Template.CCEmails}, nil
	}
	var c parties.Contact
	if _, err := op.Get(parties.KindContact, s.ContactID, &c); err != nil {
		return BilledTo{}, err
	}
	return BilledTo{Name: c.Name, Email: c.RecipientEmail, Address: c.Address, CCEmails: s.Template.CCEmails}, nil
}

// seriesInvoice issues the series' invoice for a date: scheduled when the
// date is ahead, sent otherwise.
func seriesInvoice(op *kernel.Op, s *Series, d CalDate) (*Invoice, error) {
	inv := &Invoice{LegalEntityID: s.LegalEntityID, SeriesID: s.ID, Currency: "USD"}
	if err := fillSeriesInvoice(op, s, inv, d); err != nil {
		return nil, err
	}
	number, err := seriesNumber(op, s)
	if err != nil {
		return nil, err
	}
	inv.Number = number
	return inv, issueInvoice(op, inv)
}

// fillSeriesInvoice writes the series' current terms and a date onto one
// of its invoices.
func fillSeriesInvoice(op *kernel.Op, s *Series, inv *Invoice, d CalDate) error {
	billed, err := seriesBilledTo(op, s)
	if err != nil {
		return err
	}
	loc := s.location()
	inv.AccountID, inv.CustomerID, inv.ContactID, inv.BilledTo = s.AccountID, s.CustomerID, s.ContactID, billed
	inv.IssuedAt, inv.DueAt, inv.Timezone = d.Start(loc), d.AddDays(s.PaymentTermsDays).Start(loc), s.Timezone
	inv.LineItems, inv.Discount, inv.Tax, inv.Memo = s.Template.LineItems, s.Template.Discount, s.Template.Tax,
		s.Template.Memo
	inv.PaymentMethods = s.PaymentMethods
	return nil
}

// seriesNumber makes the next free invoice number of a series, e.g.
// SER7K2M9Q-004.
func seriesNumber(op *kernel.Op, s *Series) (string, error) {
	code := strings.ToUpper(strings.TrimPrefix(s.ID, PrefixSeries))
	if len(code) > 8 {
		code = code[:8]
	}
	for n := s.Occurrences + 1; ; n++ {
		number := fmt.Sprintf("S%s-%03d", code, n)
		owner, err := invoiceNumberOwner(op, s.LegalEntityID, number)
		if err != nil || owner == "" {
			return number, err
		}
	}
}

// RunSeriesIssue sends a series' pending invoice on its date and prepares
// the next one.
func RunSeriesIssue(op *kernel.Op, ev *kernel.Event) (string, error) {
	var p struct {
		SeriesID string `json:"seriesId"`
	}
	if err := json.Unmarshal(ev.Payload, &p); err != nil {
		return "", err
	}
	var s Series
	ok, err := op.Get(KindSeries, p.SeriesID, &s)
	if err != nil {
		return "", fmt.Errorf("invoice series %s: not found (%w)", p.SeriesID, err)
	}
	if !ok {
		return "", fmt.Errorf("invoice series %s: not found", p.SeriesID)
	}
	if s.Status != SeriesActive || s.EventID != ev.ID {
		return fmt.Sprintf("series %s is %s", s.ID, s.Status), nil
	}
	issued := s.PendingInvoiceID
	if err := sendPending(op, &s); err != nil {
		return "", err
	}
	s.consume(CalDateOf(ev.At, s.location()))
	s.EventID = ""
	if _, err := advanceSeries(op, &s); err != nil {
		return "", err
	}
	next := "none: the series has ended"
	if s.NextScheduledDate != nil {
		next = s.NextScheduledDate.Format(time.RFC3339)
	}
	return fmt.Sprintf("series %s issued invoice %s; next %s", s.ID, issued, next), nil
}

// sendPending sends the series' pending invoice if it is still scheduled
// (its own send event may have run first).
func sendPending(op *kernel.Op, s *Series) error {
	var inv Invoice
	ok, err := op.Get(Kind, s.PendingInvoiceID, &inv)
	if err != nil || !ok || inv.Status != StatusScheduled {
		return err
	}
	refreshInvoice(op, &inv)
	if err := deliverInvoice(op, &inv); err != nil {
		return err
	}
	return Store(op, &inv)
}
