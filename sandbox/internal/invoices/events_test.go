package invoices_test

import (
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// at parses an RFC 3339 instant.
func at(t *testing.T, s string) time.Time {
	t.Helper()
	v, err := time.Parse(time.RFC3339, s)
	enginetest.Must(t, err)
	return v
}

// advance moves w's clock to the instant s, running what falls due.
func advance(t *testing.T, w *kernel.World, s string) {
	t.Helper()
	_, err := w.Advance(at(t, s))
	enginetest.Must(t, err)
}

// emails lists the outbox messages of one kind about a record, oldest
// first.
func emails(t *testing.T, w *kernel.World, relatedID, kind string) []kernel.Message {
	t.Helper()
	page, err := w.Outbox(kernel.OutboxFilter{RelatedID: relatedID, Kind: kind}, kernel.PageRequest{Size: 100})
	enginetest.Must(t, err)
	out := make([]kernel.Message, 0, len(page.Items))
	for i := len(page.Items) - 1; i >= 0; i-- {
		out = append(out, page.Items[i])
	}
	return out
}

// An invoice due on 17 June in New York becomes overdue at the first
// instant of the 18th there, when the first reminder goes out; the next
// follows a week later.
func TestOverdueAndRemindersFollowTheClock(t *testing.T) {
	w := enginetest.Demo(t)
	inv := create(t, w, input("ACME-2101", "2026-06-15", "2026-06-17"))
	overdueAt := at(t, "2026-06-18T04:00:00Z") // midnight in New York
	if got := invoices.OverdueAt(inv); !got.Equal(overdueAt) {
		t.Fatalf("InvoiceOverdueAt = %v, want %v", got, overdueAt)
	}
	if next := inv.NextAutoReminderAt(); next == nil || !next.Equal(overdueAt) {
		t.Fatalf("next reminder %v, want %v", next, overdueAt)
	}

	advance(t, w, "2026-06-18T03:59:59Z")
	if got := load(t, w, inv.ID); got.Status != invoices.StatusUnpaid {
		t.Errorf("a second before: status %s, want unpaid", got.Status)
	}
	if n := len(emails(t, w, inv.ID, invoices.MessageReminder)); n != 0 {
		t.Errorf("%d reminders before the invoice is overdue, want 0", n)
	}

	advance(t, w, "2026-06-18T04:00:00Z")
	got := load(t, w, inv.ID)
	if got.Status != invoices.StatusOverdue || got.LastReminderAt == nil || !got.LastReminderAt.Equal(overdueAt) {
		t.Errorf("at overdueAt: status %s, last reminder %v; want overdue, %v", got.Status, got.LastReminderAt, overdueAt)
	}
	reminders := emails(t, w, inv.ID, invoices.MessageReminder)
	if len(reminders) != 1 || reminders[0].Subject !=
		"Reminder: invoice ACME-2101 from Acme Robotics Inc. was due 2026-06-17 and is overdue" {
		t.Fatalf("reminders %+v, want one saying the invoice is overdue", reminders)
	}
	week := overdueAt.Add(invoices.ReminderInterval)
	if next := got.NextAutoReminderAt(); next == nil || !next.Equal(week) {
		t.Errorf("next reminder %v, want a week on (%v)", next, week)
	}

	advance(t, w, "2026-06-25T04:00:00Z")
	if n := len(emails(t, w, inv.ID, invoices.MessageReminder)); n != 2 {
		t.Errorf("%d reminders a week after it fell overdue, want 2", n)
	}
}

// A manual reminder goes out for a sent, open invoice, but not twice
// within a day: the second reports false and sends nothing.
func TestManualRemindersWaitADay(t *testing.T) {
	w := enginetest.Demo(t)
	inv := create(t, w, input("ACME-2102", "2026-06-15", "2026-07-15"))
	remind := func() bool {
		t.Helper()
		var sent bool
		enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
			var err error
			sent, err = invoices.Remind(op, a, inv.ID)
			return err
		}))
		return sent
	}
	if !remind() {
		t.Fatal("the first reminder was not sent")
	}
	reminders := emails(t, w, inv.ID, invoices.MessageReminder)
	want := "Reminder: invoice ACME-2102 from Acme Robotics Inc. is due 2026-07-15"
	if len(reminders) != 1 || reminders[0].Subject != want {
		t.Fatalf("reminders %+v, want one saying the invoice is due", reminders)
	}
	advance(t, w, "2026-06-16T13:59:59Z")
	if remind() {
		t.Error("a second reminder within 24 hours was sent")
	}
	if n := len(emails(t, w, inv.ID, invoices.MessageReminder)); n != 1 {
		t.Errorf("%d reminders after the refused one, want 1", n)
	}
	advance(t, w, "2026-06-16T14:00:00Z")
	if !remind() {
		t.Error("a reminder 24 hours after the last was not sent")
	}
}

// An invoice issued on a day still ahead waits, scheduled and unsent, and
// goes out at the first instant of that day in its zone.
func TestScheduledInvoiceIsSentOnItsIssueDate(t *testing.T) {
	w := enginetest.Demo(t)
	inv := create(t, w, input("ACME-2103", "2026-06-18", "2026-07-18"))
	sendAt := at(t, "2026-06-18T04:00:00Z")
	if inv.Status != invoices.StatusScheduled || inv.SentAt != nil || inv.ScheduledSendDate == nil ||
		!inv.ScheduledSendDate.Equal(sendAt) {
		t.Fatalf("status %s, sentAt %v, send date %v; want scheduled, unsent, %v", inv.Status, inv.SentAt,
			inv.ScheduledSendDate, sendAt)
	}
	if n := len(emails(t, w, inv.ID, "")); n != 0 {
		t.Errorf("%d emails about a scheduled invoice, want 0", n)
	}
	enginetest.WantError(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := invoices.Remind(op, a, inv.ID)
		return err
	}), kernel.CodeConflict, map[string]string{"status": "scheduled"})
	enginetest.WantError(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, _, err := invoices.SimulatePayment(op, &invoices.SimulatedPayment{InvoiceID: inv.ID})
		return err
	}), kernel.CodeConflict, map[string]string{"status": "scheduled"})

	advance(t, w, "2026-06-18T04:00:00Z")
	got := load(t, w, inv.ID)
	if got.Status != invoices.StatusUnpaid || got.SentAt == nil || !got.SentAt.Equal(sendAt) {
		t.Errorf("on its issue date: status %s, sentAt %v; want unpaid, %v", got.Status, got.SentAt, sendAt)
	}
	if n := len(emails(t, w, inv.ID, invoices.MessageInvoice)); n != 1 {
		t.Errorf("%d invoice emails on its issue date, want 1", n)
	}
}
