package sandbox

import (
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// Webhook endpoint statuses. Users set active and paused (and archive an
// endpoint); the system sets backing-off and disabled.
const (
	WebhookActive     = "active"
	WebhookPaused     = "paused"
	WebhookBackingOff = "backing-off"
	WebhookDisabled   = "disabled"
	// WebhookArchived is a PATCH value, not a status: it soft-deletes the
	// endpoint.
	WebhookArchived = "archived"
)

// setStatus moves an endpoint to a status at a time, keeping the status
// timestamps true: pausedAt only while paused, backingOffUntil only while
// backing off, disabledAt only while disabled.
func (w *Webhook) setStatus(status string, at time.Time, until *time.Time) {
	w.Status = status
	w.PausedAt, w.BackingOffUntil, w.DisabledAt = nil, nil, nil
	switch status {
	case WebhookPaused:
		w.PausedAt = &at
	case WebhookDisabled:
		w.DisabledAt = &at
	case WebhookBackingOff:
		w.BackingOffUntil = until
	}
}

// sending reports whether deliveries to the endpoint go out: it is active
// and not archived. A backing-off, paused or disabled endpoint queues them.
func (w *Webhook) sending() bool {
	return w.ArchivedAt == nil && w.Status == WebhookActive
}

// wants reports whether the endpoint receives an event type: every type
// when enabledEvents is empty.
func (w *Webhook) wants(event string) bool {
	if len(w.EnabledEvents) == 0 {
		return true
	}
	for _, e := range w.EnabledEvents {
		if e == event {
			return true
		}
	}
	return false
}

// WebhookURLProblem says what is wrong with an endpoint URL ("" when it is
// an absolute http or https URL with a host).
func WebhookURLProblem(raw string) string {
	if strings.TrimSpace(raw) == "" {
		return "required"
	}
	if len(raw) > 2048 {
		return "must be at most 2048 characters"
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Hostname() == "" {
		return "must be an absolute http or https URL, such as http://localhost:4000/webhooks"
	}
	if u.User != nil {
		return "must not carry credentials"
	}
	return ""
}

// WebhookInput is a new delivery endpoint.
type WebhookInput struct {
	URL  string
	Name string
}

// Check validates a new endpoint, keyed by JSON pointer.
func (in WebhookInput) Check() error {
	d := map[string]string{}
	if p := WebhookURLProblem(in.URL); p != "" {
		d["/url"] = p
	}
	switch n := utf8.RuneCountInString(strings.TrimSpace(in.Name)); {
	case n == 0:
		d["/name"] = "required"
	case n > 255:
		d["/name"] = "must be at most 255 characters"
	}
	if len(d) > 0 {
		return Invalid(d)
	}
	return nil
}

func (op *Op) loadWebhook(id string) (*Webhook, bool, error) {
	var w Webhook
	ok, err := op.get(kindWebhook, id, &w)
	return &w, ok, err
}

func (op *Op) saveWebhook(w *Webhook) error {
	return op.save(kindWebhook, w.ID, w, webhookIndexes(w)...)
}

// Webhooks lists the actor's endpoints in creation order; archived ones are
// hidden.
func (op *Op) Webhooks(a *Actor, req PageRequest) (Page[Webhook], error) {
	return list(op, kindWebhook, IndexPrefix(indexWebhookLE, a.LegalEntityID()), req,
		func(w *Webhook) bool { return w.ArchivedAt == nil })
}

// WebhookOf loads one of the actor's endpoints; another legal entity's is
// not found. Archived endpoints stay readable.
func (op *Op) WebhookOf(a *Actor, id string) (*Webhook, error) {
	w, ok, err := op.loadWebhook(id)
	if err != nil {
		return nil, err
	}
	if !ok || w.LegalEntityID != a.LegalEntityID() {
		return nil, NotFound("webhook", "", id)
	}
	return w, nil
}

// CreateWebhook registers an active endpoint that receives every event.
func (op *Op) CreateWebhook(a *Actor, in WebhookInput) (*Webhook, error) {
	if err := in.Check(); err != nil {
		return nil, err
	}
	id, err := op.newID(PrefixWebhook)
	if err != nil {
		return nil, err
	}
	seq, err := op.nextSeq()
	if err != nil {
		return nil, err
	}
	w := &Webhook{ID: id, LegalEntityID: a.LegalEntityID(), URL: in.URL, Name: strings.TrimSpace(in.Name),
		Status: WebhookActive, CreatedAt: op.Now, Seq: seq}
	return w, op.saveWebhook(w)
}

// SetWebhookStatus applies a user's status change: active resumes the
// endpoint (from paused, backing-off or disabled) and sends what it kept,
// paused keeps events queued, archived soft-deletes it and cancels what it
// had not delivered.
func (op *Op) SetWebhookStatus(a *Actor, id, status, reason string) (*Webhook, error) {
	w, err := op.WebhookOf(a, id)
	if err != nil {
		return nil, err
	}
	if w.ArchivedAt != nil {
		return nil, Errorf(CodeConflict, "webhook %s is archived; create a new one instead", id)
	}
	switch status {
	case WebhookActive:
		err = op.resumeWebhook(w)
	case WebhookPaused:
		err = op.pauseWebhook(w)
	case WebhookArchived:
		err = op.archiveWebhook(w)
	default:
		return nil, InvalidField("/status", "must be active, paused or archived")
	}
	if err != nil {
		return nil, err
	}
	if reason != "" {
		w.StatusReason = reason
	}
	return w, op.saveWebhook(w)
}

// resumeWebhook makes an endpoint active and sends its head delivery now,
// even one that was waiting for its next retry.
func (op *Op) resumeWebhook(w *Webhook) error {
	if w.Status == WebhookActive {
		return nil
	}
	if err := op.cancelResume(w); err != nil {
		return err
	}
	w.setStatus(WebhookActive, op.Now, nil)
	w.ConsecutiveFailures = 0
	queue, err := op.unfinished(w.ID)
	if err != nil {
		return err
	}
	for i := range queue {
		if d := &queue[i]; d.Status == DeliveryRetrying {
			if err := op.makeDue(d); err != nil {
				return err
			}
		}
	}
	return op.pumpDeliveries(w)
}

// pauseWebhook keeps every undelivered event of the endpoint queued.
func (op *Op) pauseWebhook(w *Webhook) error {
	if w.Status == WebhookPaused {
		return nil
	}
	if err := op.cancelResume(w); err != nil {
		return err
	}
	w.setStatus(WebhookPaused, op.Now, nil)
	return op.holdDeliveries(w.ID, DeliveryQueued)
}

// archiveWebhook soft-deletes an endpoint: it is hidden from the list,
// shown as disabled, and its undelivered events are canceled.
func (op *Op) archiveWebhook(w *Webhook) error {
	if err := op.cancelResume(w); err != nil {
		return err
	}
	now := op.Now
	w.ArchivedAt = &now
	w.setStatus(WebhookDisabled, now, nil)
	return op.holdDeliveries(w.ID, DeliveryCanceled)
}
