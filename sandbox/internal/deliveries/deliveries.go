package deliveries

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Delivery rules, the real service's: an attempt succeeds on a 2xx answer;
// anything else (or no answer) is retried on the virtual clock after
// RetryDelay, up to MaxAttempts attempts (the first and 12
// retries). A delivery whose last attempt fails has failed permanently: its
// endpoint backs off for EndpointBackoff, longer after each consecutive
// permanent failure, and DisableAfterFailures of them in a row disable it.
const (
	MaxAttempts          = 13
	DisableAfterFailures = 6
	firstRetryDelay      = 500 * time.Millisecond
	retryGrowth          = 5
	firstEndpointBackoff = time.Hour
)

// Scheduled events of the delivery rules: a failed delivery's next
// attempt, and the end of an endpoint's backoff.
const (
	EventWebhookRetry  = "webhook.retry"
	EventWebhookResume = "webhook.resume"
)

// RetryDelay is the wait after the n-th failed attempt: 0.5 s multiplied
// by 5 each time (0.5 s, 2.5 s, 12.5 s, 62.5 s, … 24 414 062.5 s after the
// 12th), the intervals the real service published.
func RetryDelay(n int) time.Duration {
	d := firstRetryDelay
	for i := 1; i < n; i++ {
		d *= retryGrowth
	}
	return d
}

// EndpointBackoff is how long an endpoint backs off after its n-th
// consecutive permanent failure: one hour, doubled each time (1 h, 2 h,
// 4 h, 8 h, 16 h; the 6th disables it instead).
func EndpointBackoff(n int) time.Duration {
	d := firstEndpointBackoff
	for i := 1; i < n; i++ {
		d *= 2
	}
	return d
}

// webhookEvent is the body every delivery posts: upstream's WebhookEvent.
type webhookEvent struct {
	EntityID string `json:"entityId"`
	Event    string `json:"event"`
	EventID  string `json:"eventId"`
}

// eventBody is json.Marshal(e) as a string. Ids and event types need no
// escaping, so it is usually written directly, in one allocation.
func eventBody(e webhookEvent) string {
	if !store.PlainJSON(e.EntityID) || !store.PlainJSON(e.Event) || !store.PlainJSON(e.EventID) {
		b, _ := json.Marshal(e) // strings always marshal
		return string(b)
	}
	return `{"entityId":"` + e.EntityID + `","event":"` + e.Event + `","eventId":"` + e.EventID + `"}`
}

// FanOut gives every endpoint of the event's legal entity that wants it a
// delivery.
func FanOut(op *kernel.Op, e *kernel.Emitted) error {
	hooks, err := endpoints(op, e.LegalEntityID)
	if err != nil || len(hooks) == 0 {
		return err
	}
	// Queueing writes no chaos settings: one read serves every endpoint.
	chaos, err := webhookChaos(op)
	if err != nil {
		return err
	}
	var w Webhook // the fields queueing reads
	for i := range hooks {
		h := &hooks[i]
		if h.archived || !h.wants(e.Event) {
			continue
		}
		w = Webhook{ID: h.id, LegalEntityID: e.LegalEntityID, Status: h.status}
		if _, err := queueDelivery(op, &w, chaos, e.EventID, e.Event, e.EntityID, SourceEvent, ""); err != nil {
			return err
		}
	}
	return nil
}

// enqueueDelivery adds a delivery at the end of an endpoint's queue (and,
// with the duplicate chaos setting, sometimes a second one for the same
// event), then sends the head of the queue when the endpoint is sending.
// It returns the delivery as stored after that.
func enqueueDelivery(
	op *kernel.Op,
	w *Webhook,
	eventID, event, entityID, source, related string,
) (*WebhookDelivery, error) {
	d, err := QueueDelivery(op, w, eventID, event, entityID, source, related)
	if err != nil {
		return nil, err
	}
	return delivery(op, d.ID)
}

// QueueDelivery is enqueueDelivery for callers that need only the new
// delivery's id (the delivery it returns may have been sent since).
func QueueDelivery(
	op *kernel.Op,
	w *Webhook,
	eventID, event, entityID, source, related string,
) (*WebhookDelivery, error) {
	chaos, err := webhookChaos(op)
	if err != nil {
		return nil, err
	}
	return queueDelivery(op, w, chaos, eventID, event, entityID, source, related)
}

// queueDelivery is QueueDelivery with the world's chaos settings as read in
// the same operation.
func queueDelivery(
	op *kernel.Op,
	w *Webhook,
	chaos WebhookChaos,
	eventID, event, entityID, source, related string,
) (*WebhookDelivery, error) {
	d, err := newDelivery(op, w, eventID, event, entityID, source, related, chaos)
	if err != nil {
		return nil, err
	}
	if source != SourceDuplicate && chaos.Duplicate > 0 && chaosDraw(op, "webhook.duplicate", d.Seq) < chaos.Duplicate {
		if _, err := newDelivery(op, w, eventID, event, entityID, SourceDuplicate, d.ID, chaos); err != nil {
			return nil, err
		}
	}
	if err := pump(op, w, chaos); err != nil {
		return nil, err
	}
	return d, nil
}

func newDelivery(
	op *kernel.Op,
	w *Webhook,
	eventID, event, entityID, source, related string,
	chaos WebhookChaos,
) (*WebhookDelivery, error) {
	n, err := op.Counter(PrefixDelivery)
	if err != nil {
		return nil, err
	}
	id := kernel.OrderedID(op.W.Seed, PrefixDelivery, n)
	seq, err := op.NextSeq()
	if err != nil {
		return nil, err
	}
	d := &WebhookDelivery{ID: id, WebhookID: w.ID, LegalEntityID: w.LegalEntityID, EventID: eventID, Event: event,
		EntityID: entityID, Status: StatusQueued, Source: source, RelatedID: related,
		Attempts: []Attempt{}, CreatedAt: op.Now, Seq: seq, Order: store.Seq(seq)}
	if chaos.Shuffle {
		d.Order = fmt.Sprintf("%016x", kernel.Derive(op.W.Seed, "webhook.shuffle", seq))
	}
	return d, saveDelivery(op, d)
}

// chaosDraw is a seeded number in [0, 1).
func chaosDraw(op *kernel.Op, label string, n int64) float64 {
	return float64(kernel.Derive(op.W.Seed, label, n)>>11) / (1 << 53)
}

func saveDelivery(op *kernel.Op, d *WebhookDelivery) error {
	op.Announce(TopicDeliveries)
	return op.Save(KindDelivery, d.ID, d, Indexes(d)...)
}

func delivery(op *kernel.Op, id string) (*WebhookDelivery, error) {
	var d WebhookDelivery
	ok, err := op.Get(KindDelivery, id, &d)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, kernel.NotFound("webhook delivery", "id", id)
	}
	return &d, nil
}

// unfinished lists an endpoint's queued, pending and retrying deliveries in
// event order.
func unfinished(op *kernel.Op, webhookID string) ([]WebhookDelivery, error) {
	return kernel.All[WebhookDelivery](op, KindDelivery, queuePrefix(webhookID))
}

// pumpDeliveries makes the head of a sending endpoint's queue due.
// Deliveries go out one at a time, in event order; while deliveries are
// shuffled every queued one is due at once.
func pumpDeliveries(op *kernel.Op, w *Webhook) error {
	if !w.sending() {
		return nil
	}
	chaos, err := webhookChaos(op)
	if err != nil {
		return err
	}
	return pump(op, w, chaos)
}

// pump is pumpDeliveries with the world's chaos settings as read in the
// same operation.
func pump(op *kernel.Op, w *Webhook, chaos WebhookChaos) error {
	if !w.sending() {
		return nil
	}
	queue := queuePrefix(w.ID)
	if chaos.Shuffle {
		page, err := kernel.List[WebhookDelivery](op, KindDelivery, queue, kernel.PageRequest{Size: 1000}, nil)
		if err != nil {
			return err
		}
		for i := range page.Items {
			if d := &page.Items[i]; d.Status == StatusQueued {
				if err := makeDue(op, d); err != nil {
					return err
				}
			}
		}
		return nil
	}
	id, queued, err := queueHead(op, queue)
	if err != nil || !queued {
		return err
	}
	d, err := delivery(op, id)
	if err != nil {
		return err
	}
	return makeDue(op, d)
}

// deliveryState is the one field of a delivery the head of a queue is
// looked at for, read from its record when its queue entry was written
// before entries kept it. The head is often a delivery that has failed
// many times; decoding its status alone spares a copy of every attempt it
// made.
type deliveryState struct {
	Status string `json:"status"`
}

// queueHead finds the first delivery under a queue's index prefix and
// reports whether it is queued (not yet due), from the status its entry
// keeps.
func queueHead(op *kernel.Op, queue string) (id string, queued bool, err error) {
	var key string
	scanErr := op.Tx.Scan(queue, "", false, func(k, val string) bool {
		key, id = k, val
		return false
	})
	if scanErr != nil || key == "" {
		return "", false, scanErr
	}
	id, status := kernel.SplitIndexValue(id)
	if status != "" {
		return id, status == StatusQueued, nil
	}
	var st deliveryState
	ok, err := op.Get(KindDelivery, id, &st)
	if err == nil && !ok {
		err = fmt.Errorf("index %q names missing %s %q", key, KindDelivery, id)
	}
	return id, st.Status == StatusQueued, err
}

// makeDue puts a delivery in the sender's queue now, canceling a retry it
// was waiting for.
func makeDue(op *kernel.Op, d *WebhookDelivery) error {
	if d.RetryEventID != "" {
		if err := op.CancelEvent(d.RetryEventID); err != nil {
			return err
		}
	}
	d.Status, d.NextAttemptAt, d.RetryEventID = StatusPending, nil, ""
	notifyDue(op)
	return saveDelivery(op, d)
}

// holdDeliveries stops an endpoint's unfinished deliveries: queued (kept
// for later) or canceled (never sent).
func holdDeliveries(op *kernel.Op, webhookID, status string) error {
	queue, err := unfinished(op, webhookID)
	if err != nil {
		return err
	}
	for i := range queue {
		d := &queue[i]
		if d.RetryEventID != "" {
			if err := op.CancelEvent(d.RetryEventID); err != nil {
				return err
			}
		}
		d.Status, d.NextAttemptAt, d.RetryEventID = status, nil, ""
		if status == StatusCanceled {
			now := op.Now
			d.CompletedAt = &now
		}
		if err := saveDelivery(op, d); err != nil {
			return err
		}
	}
	return nil
}

// RunWebhookRetry makes a retrying delivery due again for its next attempt.
// An event that is no longer the delivery's retry (it was canceled, sent
// or rescheduled meanwhile) does nothing.
func RunWebhookRetry(op *kernel.Op, ev *kernel.Event) (string, error) {
	var p struct {
		DeliveryID string `json:"deliveryId"`
	}
	if err := json.Unmarshal(ev.Payload, &p); err != nil {
		return "", err
	}
	d, err := delivery(op, p.DeliveryID)
	if err != nil {
		return "", err
	}
	if d.Status != StatusRetrying || d.RetryEventID != ev.ID {
		return fmt.Sprintf("delivery %s is %s; nothing to retry", d.ID, d.Status), nil
	}
	d.RetryEventID = ""
	if err := makeDue(op, d); err != nil {
		return "", err
	}
	return fmt.Sprintf("delivery %s: attempt %d due", d.ID, len(d.Attempts)+1), nil
}

// RecordDeliveryAttempt stores the outcome of a request the sender made and
// applies the delivery rules: success finishes the delivery and resets the
// endpoint's backoff cycle; a failure schedules the next attempt on the
// virtual clock or, after the last attempt, fails the delivery for good and
// backs the endpoint off (or disables it). The next queued delivery is
// then made due when the endpoint is still sending.
func RecordDeliveryAttempt(w *kernel.World, id string, r AttemptResult) (*WebhookDelivery, error) {
	var d *WebhookDelivery
	err := w.Update(func(op *kernel.Op) error {
		var err error
		d, err = recordAttempt(op, id, r)
		return err
	})
	return d, err
}

func recordAttempt(op *kernel.Op, id string, r AttemptResult) (*WebhookDelivery, error) {
	d, err := delivery(op, id)
	if err != nil {
		return nil, err
	}
	hook, ok, err := LoadWebhook(op, d.WebhookID)
	if err != nil {
		return nil, fmt.Errorf("delivery %s names missing webhook %s: %w", d.ID, d.WebhookID, err)
	}
	if !ok {
		return nil, fmt.Errorf("delivery %s names missing webhook %s", d.ID, d.WebhookID)
	}
	at := r.SentAt.UTC()
	if at.IsZero() || at.After(op.Now) {
		at = op.Now
	}
	ok = r.Error == "" && r.ResponseStatus >= 200 && r.ResponseStatus < 300
	held := false
	d.Attempts = append(d.Attempts, Attempt{Number: len(d.Attempts) + 1, At: at, URL: r.URL,
		RequestHeaders: r.RequestHeaders, RequestBody: r.RequestBody, ResponseStatus: r.ResponseStatus,
		ResponseBody: capBytes(r.ResponseBody, MaxResponseBody), LatencyMs: r.LatencyMs, Error: r.Error, Succeeded: ok})
	switch {
	case d.Status != StatusPending:
		// Paused or archived while the request was in flight: keep the
		// attempt; only a success changes the outcome.
		if ok && d.Status != StatusSucceeded {
			finishDelivery(op, d, StatusSucceeded)
		}
	case ok:
		finishDelivery(op, d, StatusSucceeded)
		hook.ConsecutiveFailures = 0
	case len(d.Attempts) >= MaxAttempts:
		finishDelivery(op, d, StatusFailed)
		if held, err = failPermanently(op, hook); err != nil {
			return nil, err
		}
	default:
		if err := scheduleRetry(op, d, at.Add(RetryDelay(len(d.Attempts)))); err != nil {
			return nil, err
		}
	}
	if err := saveDelivery(op, d); err != nil {
		return nil, err
	}
	if held {
		// Shuffled deliveries may be due side by side: hold them all.
		if err := holdDeliveries(op, hook.ID, StatusQueued); err != nil {
			return nil, err
		}
	}
	if err := saveWebhook(op, hook); err != nil {
		return nil, err
	}
	return d, pumpDeliveries(op, hook)
}

func finishDelivery(op *kernel.Op, d *WebhookDelivery, status string) {
	now := op.Now
	d.Status, d.CompletedAt, d.NextAttemptAt, d.RetryEventID = status, &now, nil, ""
}

// failPermanently counts a permanent failure against an endpoint: at the
// limit it is disabled; before it, an active endpoint backs off until a
// scheduled webhook.resume makes it active again. It reports whether the
// endpoint stopped sending.
func failPermanently(op *kernel.Op, hook *Webhook) (bool, error) {
	hook.ConsecutiveFailures++
	if hook.Status != WebhookActive && hook.Status != WebhookBackingOff {
		return false, nil
	}
	if err := cancelResume(op, hook); err != nil {
		return false, err
	}
	if hook.ConsecutiveFailures >= DisableAfterFailures {
		hook.SetStatus(WebhookDisabled, op.Now, nil)
		return true, nil
	}
	ev, err := op.Schedule(EventWebhookResume, op.Now.Add(EndpointBackoff(hook.ConsecutiveFailures)),
		map[string]string{"webhookId": hook.ID})
	if err != nil {
		return false, err
	}
	hook.SetStatus(WebhookBackingOff, op.Now, &ev.At)
	hook.ResumeEventID = ev.ID
	return true, nil
}

// cancelResume cancels the end of backoff an endpoint was waiting for.
func cancelResume(op *kernel.Op, hook *Webhook) error {
	if hook.ResumeEventID == "" {
		return nil
	}
	id := hook.ResumeEventID
	hook.ResumeEventID = ""
	return op.CancelEvent(id)
}

// RunWebhookResume ends an endpoint's backoff: it is active again and
// sends what it queued meanwhile.
func RunWebhookResume(op *kernel.Op, ev *kernel.Event) (string, error) {
	var p struct {
		WebhookID string `json:"webhookId"`
	}
	if err := json.Unmarshal(ev.Payload, &p); err != nil {
		return "", err
	}
	hook, ok, err := LoadWebhook(op, p.WebhookID)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", kernel.NotFound("webhook", "id", p.WebhookID)
	}
	if hook.Status != WebhookBackingOff || hook.ResumeEventID != ev.ID || hook.ArchivedAt != nil {
		return fmt.Sprintf("webhook %s is %s; nothing to resume", hook.ID, hook.Status), nil
	}
	hook.ResumeEventID = ""
	hook.SetStatus(WebhookActive, op.Now, nil)
	if err := saveWebhook(op, hook); err != nil {
		return "", err
	}
	if err := pumpDeliveries(op, hook); err != nil {
		return "", err
	}
	return fmt.Sprintf("webhook %s: backoff over, active again", hook.ID), nil
}

// scheduleRetry makes a delivery wait for its next attempt at a virtual
// instant.
func scheduleRetry(op *kernel.Op, d *WebhookDelivery, at time.Time) error {
	ev, err := op.Schedule(EventWebhookRetry, at, map[string]string{"deliveryId": d.ID})
	if err != nil {
		return err
	}
	d.Status, d.NextAttemptAt, d.RetryEventID = StatusRetrying, &ev.At, ev.ID
	return nil
}

// capBytes cuts s to at most n bytes.
func capBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// notifierKey is where the engine keeps the function told of due
// deliveries (SetNotifier).
type notifierKey struct{}

// SetNotifier registers the function told, after every commit that makes
// webhook deliveries due, which world has them. The webhook sender sets
// it; the function must not block.
func SetNotifier(e *kernel.Engine, f func(*kernel.World)) { e.Connect(notifierKey{}, f) }

// notifyDue tells the webhook sender, after the commit, that this world
// has deliveries due. Telling it twice is harmless.
func notifyDue(op *kernel.Op) {
	op.AfterCommit(func() {
		if f, ok := op.W.Connection(notifierKey{}).(func(*kernel.World)); ok {
			f(op.W)
		}
	})
}
