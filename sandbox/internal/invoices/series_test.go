package invoices_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// weekly is a series billing Vandelay $50.00 every Wednesday in New York
// from start, due 14 days after each date, ending as end says.
func weekly(start string, end *invoices.EndInput) *invoices.SeriesInput {
	return &invoices.SeriesInput{
		AccountID:             "sa_group_acmeoperating",
		LegalEntityCustomerID: ptr("le_cust_vandelay"),
		RecurrenceRule:        &invoices.RecurrenceInput{Type: invoices.RecurWeekly, DayOfWeek: ptr(3)},
		PaymentTermsDays:      ptr(14),
		InvoiceTz:             "America/New_York",
		StartDate:             start,
		EndCondition:          end,
		Template: &invoices.TemplateInput{LineItemsAndTotals: &invoices.LineItemsInput{
			LineItems: []invoices.LineItemInput{{Name: "Weekly check", Quantity: 1, PriceCents: ptr[int64](5000)}}}},
	}
}

// series loads a series as it is stored now.
func series(t *testing.T, w *kernel.World, id string) *invoices.Series {
	t.Helper()
	var s *invoices.Series
	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		var err error
		s, err = invoices.SeriesOf(op, a, id)
		return err
	}))
	return s
}

// number is the n-th invoice number of a series.
func number(s *invoices.Series, n int) string {
	code := strings.ToUpper(strings.TrimPrefix(s.ID, invoices.PrefixSeries))
	return fmt.Sprintf("S%s-%03d", code[:min(8, len(code))], n)
}

// A series keeps its next invoice scheduled for its next date, sends it
// when the clock gets there, and ends after its count.
func TestSeriesIssuesOnItsDatesAndEnds(t *testing.T) {
	w := enginetest.Demo(t)
	var s *invoices.Series
	var first *invoices.Invoice
	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		var err error
		s, first, err = invoices.CreateSeries(op, a, weekly("2026-06-15",
			&invoices.EndInput{Type: invoices.EndAfterCount, Count: ptr(2)}))
		return err
	}))
	wed := at(t, "2026-06-17T04:00:00Z") // the first Wednesday, midnight in New York
	if first.Status != invoices.StatusScheduled || first.Number != number(s, 1) ||
		!first.IssuedAt.Equal(wed) || first.DueAt.Format("2006-01-02") != "2026-07-01" || first.TotalCents() != 5000 {
		t.Fatalf("first invoice %s %s issued %v due %v total %d; want scheduled %s on %v, due 2026-07-01, 5000",
			first.Status, first.Number, first.IssuedAt, first.DueAt, first.TotalCents(), number(s, 1), wed)
	}
	if s.Status != invoices.SeriesActive || s.NextScheduledDate == nil || !s.NextScheduledDate.Equal(wed) ||
		s.PendingInvoiceID != first.ID {
		t.Fatalf("series %s next %v pending %s; want active, %v, %s", s.Status, s.NextScheduledDate,
			s.PendingInvoiceID, wed, first.ID)
	}

	advance(t, w, "2026-06-17T04:00:00Z")
	if got := load(t, w, first.ID); got.Status != invoices.StatusUnpaid || got.SentAt == nil {
		t.Errorf("on its date the first invoice is %s, sent %v; want unpaid and sent", got.Status, got.SentAt)
	}
	s = series(t, w, s.ID)
	second := load(t, w, s.PendingInvoiceID)
	if s.Occurrences != 1 || second.Number != number(s, 2) || !second.IssuedAt.Equal(wed.AddDate(0, 0, 7)) ||
		second.Status != invoices.StatusScheduled {
		t.Errorf("after the first: %d used, next %s %s on %v; want 1, a scheduled %s a week on", s.Occurrences,
			second.Status, second.Number, second.IssuedAt, number(s, 2))
	}

	advance(t, w, "2026-06-24T04:00:00Z")
	s = series(t, w, s.ID)
	if s.Status != invoices.SeriesEnded || s.NextScheduledDate != nil || s.PendingInvoiceID != "" || s.Occurrences != 2 {
		t.Errorf("after its count: %s, next %v, pending %q, %d used; want ended with nothing pending, 2", s.Status,
			s.NextScheduledDate, s.PendingInvoiceID, s.Occurrences)
	}
	if got := load(t, w, second.ID); got.Status != invoices.StatusUnpaid {
		t.Errorf("the second invoice is %s, want unpaid (sent)", got.Status)
	}
}

func TestCreateSeriesRefusesDatesItCannotUse(t *testing.T) {
	cases := []struct {
		name   string
		in     *invoices.SeriesInput
		field  string
		detail string
	}{
		{"a start in the past", weekly("2026-06-14", &invoices.EndInput{Type: invoices.EndNever}), "/startDate",
			"must be today (2026-06-15 in America/New_York) or later"},
		{"an end before the start", weekly("2026-06-15", &invoices.EndInput{Type: invoices.EndOnDate,
			Date: ptr("2026-06-01")}), "/endCondition/date", "must not be before startDate"},
		{"an end before the first Wednesday", weekly("2026-06-15", &invoices.EndInput{Type: invoices.EndOnDate,
			Date: ptr("2026-06-16")}), "/endCondition", "leaves no date to issue an invoice on"},
		{"a count of 0", weekly("2026-06-15", &invoices.EndInput{Type: invoices.EndAfterCount, Count: ptr(0)}),
			"/endCondition/count", "required: at least 1"},
		{"a day of the week past Saturday", func() *invoices.SeriesInput {
			in := weekly("2026-06-15", &invoices.EndInput{Type: invoices.EndNever})
			in.RecurrenceRule.DayOfWeek = ptr(7)
			return in
		}(), "/recurrenceRule/dayOfWeek", "required: 0 (Sunday) to 6 (Saturday)"},
	}
	w := enginetest.Demo(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
				_, _, err := invoices.CreateSeries(op, a, c.in)
				return err
			})
			enginetest.WantError(t, err, kernel.CodeInvalidRequest, map[string]string{c.field: c.detail})
		})
	}
}

// Skipping voids the scheduled invoice and counts its date as used;
// voiding that invoice directly does the same. Cancelling voids the next
// one and is final.
func TestSeriesSkipAndCancel(t *testing.T) {
	w := enginetest.Demo(t)
	var s *invoices.Series
	var first *invoices.Invoice
	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		var err error
		s, first, err = invoices.CreateSeries(op, a, weekly("2026-06-15", &invoices.EndInput{Type: invoices.EndNever}))
		return err
	}))
	var voided *invoices.Invoice
	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		var err error
		_, voided, err = invoices.SkipNextInvoice(op, a, s.ID)
		return err
	}))
	if voided.ID != first.ID || load(t, w, first.ID).Status != invoices.StatusVoid {
		t.Errorf("skip voided %s, want the scheduled %s", voided.ID, first.ID)
	}
	s = series(t, w, s.ID)
	second := load(t, w, s.PendingInvoiceID)
	if s.Occurrences != 1 || second.Number != number(s, 2) || second.IssuedAt.Format("2006-01-02") != "2026-06-24" {
		t.Errorf("after a skip: %d used, next %s on %v; want 1, %s on 2026-06-24", s.Occurrences, second.Number,
			second.IssuedAt, number(s, 2))
	}

	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := invoices.Void(op, a, second.ID)
		return err
	}))
	s = series(t, w, s.ID)
	if s.Occurrences != 2 || s.NextScheduledDate == nil || s.NextScheduledDate.Format("2006-01-02") != "2026-07-01" {
		t.Errorf("after voiding the next invoice: %d used, next %v; want 2, 2026-07-01", s.Occurrences,
			s.NextScheduledDate)
	}

	pendingID := s.PendingInvoiceID
	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := invoices.Void(op, a, pendingID)
		if err == nil {
			_, _, err = invoices.CancelSeries(op, a, s.ID)
		}
		return err
	}))
	s = series(t, w, s.ID)
	if s.Status != invoices.SeriesCancelled || s.PendingInvoiceID != "" || s.NextScheduledDate != nil {
		t.Errorf("cancelled series: %s, pending %q, next %v", s.Status, s.PendingInvoiceID, s.NextScheduledDate)
	}
	for name, refuse := range map[string]func(op *kernel.Op, a *kernel.Actor) error{
		"cancel": func(op *kernel.Op, a *kernel.Actor) error {
			_, _, err := invoices.CancelSeries(op, a, s.ID)
			return err
		},
		"skip": func(op *kernel.Op, a *kernel.Actor) error {
			_, _, err := invoices.SkipNextInvoice(op, a, s.ID)
			return err
		},
	} {
		t.Run(name, func(t *testing.T) {
			enginetest.WantError(t, enginetest.As(t, w, acmeKey, refuse), kernel.CodeConflict,
				map[string]string{"status": "cancelled"})
		})
	}
	// Nothing is issued for a cancelled series when its dates come.
	advance(t, w, "2026-07-09T04:00:00Z")
	if got := series(t, w, s.ID); got.Occurrences != s.Occurrences || got.PendingInvoiceID != "" {
		t.Errorf("a cancelled series moved on: %d used, pending %q", got.Occurrences, got.PendingInvoiceID)
	}
}
