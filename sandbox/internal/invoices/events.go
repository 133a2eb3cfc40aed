package invoices

import (
	"encoding/json"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

// Scheduled event kinds of invoices.
const (
	EventSend    = "invoice.send"
	EventOverdue = "invoice.overdue"
	EventRemind  = "invoice.remind"
)

// Reminder timings: automatic reminders go out when an invoice becomes
// overdue and every ReminderInterval after while it stays open; a manual
// reminder is refused within ReminderCooldown of the last reminder.
const (
	ReminderInterval = 7 * 24 * time.Hour
	ReminderCooldown = 24 * time.Hour
)

type invoicePayload struct {
	InvoiceID string `json:"invoiceId"`
}

// OverdueAt is when an invoice becomes overdue: the first instant
// after its due date, in its time zone.
func OverdueAt(inv *Invoice) time.Time {
	loc := inv.Location()
	return CalDateOf(inv.DueAt, loc).AddDays(1).Start(loc)
}

// Location is the invoice's time zone (UTC when it cannot be loaded).
func (inv *Invoice) Location() *time.Location {
	loc, err := time.LoadLocation(inv.Timezone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// nextReminderAt is the first automatic reminder after now: overdueAt, then
// every ReminderInterval.
func nextReminderAt(overdueAt, now time.Time) time.Time {
	if now.Before(overdueAt) {
		return overdueAt
	}
	k := now.Sub(overdueAt)/ReminderInterval + 1
	return overdueAt.Add(k * ReminderInterval)
}

// NextAutoReminderAt is when the next automatic reminder goes out; nil for
// a closed invoice.
func (inv *Invoice) NextAutoReminderAt() *time.Time {
	if ref, ok := inv.Events["due"]; ok && inv.Open() {
		at := ref.At
		return &at
	}
	return nil
}

// planInvoiceEvents keeps exactly the events an invoice's state calls for:
// its send while scheduled, and while open its overdue transition or its
// next automatic reminder. Unchanged events are kept; others are canceled.
func planInvoiceEvents(op *kernel.Op, inv *Invoice) error {
	want := map[string]EventRef{}
	if inv.Status == StatusScheduled && inv.ScheduledSendDate != nil {
		want["send"] = EventRef{Kind: EventSend, At: *inv.ScheduledSendDate}
	}
	if inv.Open() {
		due := OverdueAt(inv)
		if op.Now.Before(due) {
			want["due"] = EventRef{Kind: EventOverdue, At: due}
		} else {
			want["due"] = EventRef{Kind: EventRemind, At: nextReminderAt(due, op.Now)}
		}
	}
	if inv.Events == nil {
		inv.Events = map[string]EventRef{}
	}
	for _, purpose := range []string{"due", "send"} {
		ref, had := inv.Events[purpose]
		w, wanted := want[purpose]
		if had && wanted && ref.Kind == w.Kind && ref.At.Equal(w.At) {
			continue
		}
		if had {
			if err := op.CancelEvent(ref.ID); err != nil {
				return err
			}
			delete(inv.Events, purpose)
		}
		if wanted {
			ev, err := op.Schedule(w.Kind, w.At, invoicePayload{InvoiceID: inv.ID})
			if err != nil {
				return err
			}
			inv.Events[purpose] = EventRef{ID: ev.ID, Kind: w.Kind, At: w.At}
		}
	}
	return nil
}

// eventInvoice loads the invoice an event is about and forgets the event,
// which is running.
func eventInvoice(op *kernel.Op, ev *kernel.Event) (*Invoice, error) {
	var p invoicePayload
	if err := json.Unmarshal(ev.Payload, &p); err != nil {
		return nil, err
	}
	var inv Invoice
	ok, err := op.Get(Kind, p.InvoiceID, &inv)
	if err != nil {
		return nil, fmt.Errorf("invoice %s: not found (%w)", p.InvoiceID, err)
	}
	if !ok {
		return nil, fmt.Errorf("invoice %s: not found", p.InvoiceID)
	}
	for purpose, ref := range inv.Events {
		if ref.ID == ev.ID {
			delete(inv.Events, purpose)
		}
	}
	return &inv, nil
}

// RunSend sends a scheduled invoice on its send date.
func RunSend(op *kernel.Op, ev *kernel.Event) (string, error) {
	inv, err := eventInvoice(op, ev)
	if err != nil {
		return "", err
	}
	if inv.Status != StatusScheduled {
		return fmt.Sprintf("invoice %s already %s", inv.Number, inv.Status), nil
	}
	refreshInvoice(op, inv)
	if err := deliverInvoice(op, inv); err != nil {
		return "", err
	}
	return fmt.Sprintf("invoice %s sent to %s: %s", inv.Number, inv.BilledTo.Email, inv.Status), Store(op, inv)
}

// RunDue makes an open invoice overdue once its due date has passed
// and sends the automatic reminder.
func RunDue(op *kernel.Op, ev *kernel.Event) (string, error) {
	inv, err := eventInvoice(op, ev)
	if err != nil {
		return "", err
	}
	refreshInvoice(op, inv)
	summary := fmt.Sprintf("invoice %s is %s", inv.Number, inv.Status)
	if inv.Open() && inv.Status != StatusScheduled && !op.Now.Before(OverdueAt(inv)) {
		if err := remindInvoice(op, inv); err != nil {
			return "", err
		}
		summary += "; reminder sent to " + inv.BilledTo.Email
	}
	return summary, Store(op, inv)
}

// deliverInvoice records that an invoice was sent and emails it.
func deliverInvoice(op *kernel.Op, inv *Invoice) error {
	now := op.Now
	inv.SentAt = &now
	return emailInvoice(op, inv, MessageInvoice)
}

// Email puts an invoice's email in the outbox, as sending it did: a
// scenario's sent invoices were sent before the world started.
func Email(op *kernel.Op, inv *Invoice) error {
	return emailInvoice(op, inv, MessageInvoice)
}

// remindInvoice emails a reminder and remembers when.
func remindInvoice(op *kernel.Op, inv *Invoice) error {
	now := op.Now
	inv.LastReminderAt = &now
	return emailInvoice(op, inv, MessageReminder)
}

// Remind sends a reminder for one of the actor's sent, open
// invoices. It reports false, writing nothing, within ReminderCooldown of
// the previous reminder.
func Remind(op *kernel.Op, a *kernel.Actor, id string) (bool, error) {
	inv, err := InvoiceOf(op, a, id)
	if err != nil {
		return false, err
	}
	switch inv.Status {
	case StatusScheduled:
		return false, kernel.Errorf(kernel.CodeConflict, "invoice %s is scheduled and has not been sent yet", id).
			With("status", inv.Status)
	case StatusPaid, StatusVoid:
		return false, kernel.Errorf(kernel.CodeConflict, "invoice %s is %s; there is nothing to remind about", id,
			inv.Status).
			With("status", inv.Status)
	}
	if inv.LastReminderAt != nil && op.Now.Before(inv.LastReminderAt.Add(ReminderCooldown)) {
		return false, nil
	}
	if err := remindInvoice(op, inv); err != nil {
		return false, err
	}
	return true, Store(op, inv)
}

// emailInvoice puts an invoice or reminder email in the outbox.
func emailInvoice(op *kernel.Op, inv *Invoice, kind string) error {
	s, err := SettingsOf(op, inv.LegalEntityID)
	if err != nil {
		return err
	}
	loc := inv.Location()
	due := CalDateOf(inv.DueAt, loc).String()
	owed := ledger.FormatCents(inv.TotalCents() - inv.CollectedCents)
	link := kernel.SandboxPath(op.W.ID, "/documents/"+inv.DocumentID)
	subject := fmt.Sprintf("Invoice %s from %s", inv.Number, s.CompanyName)
	lead := fmt.Sprintf("%s sent you invoice %s for %s, due %s.", s.CompanyName, inv.Number, owed, due)
	if kind == MessageReminder {
		state := "is due " + due
		if inv.Status == StatusOverdue || !op.Now.Before(OverdueAt(inv)) {
			state = "was due " + due + " and is overdue"
		}
		subject = fmt.Sprintf("Reminder: invoice %s from %s %s", inv.Number, s.CompanyName, state)
		lead = fmt.Sprintf("A reminder that invoice %s from %s %s. %s remains to be paid.", inv.Number, s.CompanyName, state,
			owed)
	}
	text := fmt.Sprintf("Hello %s,\n\n%s\n\nView and pay the invoice: %s\n\n%s\n", inv.BilledTo.Name, lead, link,
		s.CompanyName)
	body := fmt.Sprintf("<p>Hello %s,</p><p>%s</p><p><a href=\"%s\">View and pay the invoice</a></p><p>%s</p>",
		html.EscapeString(inv.BilledTo.Name), html.EscapeString(lead), link, html.EscapeString(s.CompanyName))
	return op.SendEmail(
		&kernel.Message{Kind: kind, To: []string{inv.BilledTo.Email}, CC: inv.BilledTo.CCEmails, Subject: subject,
			Text: text, HTML: body, Links: map[string]string{"invoice": link}, RelatedID: inv.ID,
			LegalEntityID: inv.LegalEntityID},
	)
}

// renderInvoice renders an invoice as a small HTML document.
func renderInvoice(op *kernel.Op, id string) ([]byte, error) {
	var inv Invoice
	ok, err := op.Get(Kind, id, &inv)
	if err != nil {
		return nil, fmt.Errorf("invoice %s: not found (%w)", id, err)
	}
	if !ok {
		return nil, fmt.Errorf("invoice %s: not found", id)
	}
	s, err := SettingsOf(op, inv.LegalEntityID)
	if err != nil {
		return nil, err
	}
	loc := inv.Location()
	e := html.EscapeString
	var b strings.Builder
	fmt.Fprintf(&b, "<!doctype html><html><head><meta charset=\"utf-8\"><title>Invoice %s</title></head><body>",
		e(inv.Number))
	fmt.Fprintf(&b, "<h1>%s</h1><p>Invoice %s &middot; %s</p>", e(s.CompanyName), e(inv.Number), e(inv.Status))
	fmt.Fprintf(&b, "<p>Billed to %s &lt;%s&gt;<br>Issued %s &middot; Due %s</p><table>", e(inv.BilledTo.Name),
		e(inv.BilledTo.Email), CalDateOf(inv.IssuedAt, loc), CalDateOf(inv.DueAt, loc))
	for _, li := range inv.LineItems {
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%g</td><td>%s</td></tr>", e(li.Name), li.Quantity,
			ledger.FormatCents(li.PriceCents))
	}
	sums := inv.Sums()
	fmt.Fprintf(&b,
		"</table><p>Subtotal %s &middot; Discount %s &middot; Tax %s &middot; <strong>Total %s</strong> &middot; Paid %s</p>",
		ledger.FormatCents(sums.Subtotal), ledger.FormatCents(sums.Discount), ledger.FormatCents(sums.Tax),
		ledger.FormatCents(sums.Total), ledger.FormatCents(inv.CollectedCents))
	if inv.Memo != "" {
		fmt.Fprintf(&b, "<p>%s</p>", e(inv.Memo))
	}
	if s.InvoiceTerms != "" {
		fmt.Fprintf(&b, "<p><small>%s</small></p>", e(s.InvoiceTerms))
	}
	b.WriteString("</body></html>")
	return []byte(b.String()), nil
}
