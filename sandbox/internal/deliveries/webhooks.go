package deliveries

import (
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
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

// SetStatus moves an endpoint to a status at a time, keeping the status
// timestamps true: pausedAt only while paused, backingOffUntil only while
// backing off, disabledAt only while disabled.
func (w *Webhook) SetStatus(status string, at time.Time, until *time.Time) {
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
		return kernel.Invalid(d)
	}
	return nil
}

// LoadWebhook loads a webhook endpoint by id, whatever its legal entity;
// ok is false when there is none.
func LoadWebhook(op *kernel.Op, id string) (*Webhook, bool, error) {
	var w Webhook
	ok, err := op.Get(KindWebhook, id, &w)
	return &w, ok, err
}

func saveWebhook(op *kernel.Op, w *Webhook) error {
	return op.Save(KindWebhook, w.ID, w, WebhookIndexes(w)...)
}

// Webhooks lists the actor's endpoints in creation order; archived ones are
// hidden.
func Webhooks(op *kernel.Op, a *kernel.Actor, req kernel.PageRequest) (kernel.Page[Webhook], error) {
	return kernel.List(op, KindWebhook, kernel.IndexPrefix(IndexWebhookLE, a.LegalEntityID()), req,
		func(w *Webhook) bool { return w.ArchivedAt == nil })
}

// WebhookOf loads one of the actor's endpoints; another legal entity's is
// not found. Archived endpoints stay readable.
func WebhookOf(op *kernel.Op, a *kernel.Actor, id string) (*Webhook, error) {
	w, ok, err := LoadWebhook(op, id)
	if err != nil {
		return nil, err
	}
	if !ok || w.LegalEntityID != a.LegalEntityID() {
		return nil, kernel.NotFound("webhook", "", id)
	}
	return w, nil
}

// CreateWebhook registers an active endpoint that receives every event.
func CreateWebhook(op *kernel.Op, a *kernel.Actor, in WebhookInput) (*Webhook, error) {
	if err := in.Check(); err != nil {
		return nil, err
	}
	id, err := op.NewID(PrefixWebhook)
	if err != nil {
		return nil, err
	}
	seq, err := op.NextSeq()
	if err != nil {
		return nil, err
	}
	w := &Webhook{ID: id, LegalEntityID: a.LegalEntityID(), URL: in.URL, Name: strings.TrimSpace(in.Name),
		Status: WebhookActive, CreatedAt: op.Now, Seq: seq}
	return w, saveWebhook(op, w)
}

// SetWebhookStatus applies a user's status change: active resumes the
// endpoint (from paused, backing-off or disabled) and sends what it kept,
// paused keeps events queued, archived soft-deletes it and cancels what it
// had not delivered.
func SetWebhookStatus(op *kernel.Op, a *kernel.Actor, id, status, reason string) (*Webhook, error) {
	w, err := WebhookOf(op, a, id)
	if err != nil {
		return nil, err
	}
	if w.ArchivedAt != nil {
		return nil, kernel.Errorf(kernel.CodeConflict, "webhook %s is archived; create a new one instead", id)
	}
	switch status {
	case WebhookActive:
		err = resumeWebhook(op, w)
	case WebhookPaused:
		err = pauseWebhook(op, w)
	case WebhookArchived:
		err = archiveWebhook(op, w)
	default:
		return nil, kernel.InvalidField("/status", "must be active, paused or archived")
	}
	if err != nil {
		return nil, err
	}
	if reason != "" {
		w.StatusReason = reason
	}
	return w, saveWebhook(op, w)
}

// resumeWebhook makes an endpoint active and sends its head delivery now,
// even one that was waiting for its next retry.
func resumeWebhook(op *kernel.Op, w *Webhook) error {
	if w.Status == WebhookActive {
		return nil
	}
	if err := cancelResume(op, w); err != nil {
		return err
	}
	w.SetStatus(WebhookActive, op.Now, nil)
	w.ConsecutiveFailures = 0
	queue, err := unfinished(op, w.ID)
	if err != nil {
		return err
	}
	for i := range queue {
		if d := &queue[i]; d.Status == StatusRetrying {
			if err := makeDue(op, d); err != nil {
				return err
			}
		}
	}
	return pumpDeliveries(op, w)
}

// pauseWebhook keeps every undelivered event of the endpoint queued.
func pauseWebhook(op *kernel.Op, w *Webhook) error {
	if w.Status == WebhookPaused {
		return nil
	}
	if err := cancelResume(op, w); err != nil {
		return err
	}
	w.SetStatus(WebhookPaused, op.Now, nil)
	return holdDeliveries(op, w.ID, StatusQueued)
}

// archiveWebhook soft-deletes an endpoint: it is hidden from the list,
// shown as disabled, and its undelivered events are canceled.
func archiveWebhook(op *kernel.Op, w *Webhook) error {
	if err := cancelResume(op, w); err != nil {
		return err
	}
	now := op.Now
	w.ArchivedAt = &now
	w.SetStatus(WebhookDisabled, now, nil)
	return holdDeliveries(op, w.ID, StatusCanceled)
}

// Webhook is an event-delivery endpoint.
type Webhook struct {
	ID              string     `json:"id"`
	LegalEntityID   string     `json:"legalEntityId"`
	URL             string     `json:"url"`
	Name            string     `json:"name"`
	Status          string     `json:"status"`
	EnabledEvents   []string   `json:"enabledEvents,omitempty"`
	CreatedAt       time.Time  `json:"createdAt"`
	ArchivedAt      *time.Time `json:"archivedAt,omitempty"`
	PausedAt        *time.Time `json:"pausedAt,omitempty"`
	BackingOffUntil *time.Time `json:"backingOffUntil,omitempty"`
	DisabledAt      *time.Time `json:"disabledAt,omitempty"`
	// ConsecutiveFailures counts deliveries that failed permanently since
	// the last success or re-enable; six disable the endpoint.
	ConsecutiveFailures int `json:"consecutiveFailures,omitempty"`
	// ResumeEventID names the scheduled webhook.resume that ends a backoff.
	ResumeEventID string `json:"resumeEventId,omitempty"`
	// StatusReason is the reason given with the last status change.
	StatusReason string `json:"statusReason,omitempty"`
	Seq          int64  `json:"seq"`
}

// WebhookIndexes are the index keys of a webhook endpoint: its legal
// entity's endpoints in creation order.
func WebhookIndexes(w *Webhook) []string {
	return []string{kernel.IndexKey(IndexWebhookLE, w.LegalEntityID, store.Millis(w.CreatedAt), store.Seq(w.Seq), w.ID)}
}

// Index names and the entries each record kind keeps. Every list the API
// offers walks one of these in order.
const (
	IndexWebhookLE = "webhook.le"
)
