package deliveries

import (
	"fmt"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Every event a legal entity raises is fanned out to its endpoints, and
// every delivery queued looks at the head of its endpoint's queue. Both
// read index entries that keep what they need after the id (see
// kernel.Covering), so that neither loads and decodes a record: an
// endpoint's webhook.le entry keeps its status, whether it is archived
// and the events it receives; a delivery's delivery.webhook entry keeps its
// status. Entries written before they kept facts hold the id alone, and
// their record is read instead.

// Covering keeps in the endpoint's webhook.le entry what fanning an event
// out reads: its status, "archived" or "", and its enabled events joined
// by commas.
func (w *Webhook) Covering() (string, string) {
	archived := ""
	if w.ArchivedAt != nil {
		archived = "archived"
	}
	for _, e := range w.EnabledEvents {
		if e == "" || strings.ContainsAny(e, ","+store.Sep+kernel.FactsSep) {
			return IndexWebhookLE, ""
		}
	}
	if w.Status == "" || strings.ContainsAny(w.Status, store.Sep+kernel.FactsSep) {
		return IndexWebhookLE, ""
	}
	return IndexWebhookLE, w.Status + store.Sep + archived + store.Sep + strings.Join(w.EnabledEvents, ",")
}

// endpoint is what fanning an event out reads of an endpoint.
type endpoint struct {
	id, status string
	archived   bool
	// events are the event types it takes, joined by commas ("" for all).
	events string
}

// wants reports whether the endpoint takes an event type.
func (e *endpoint) wants(event string) bool {
	if e.events == "" {
		return true
	}
	for t := range strings.SplitSeq(e.events, ",") {
		if t == event {
			return true
		}
	}
	return false
}

// endpoints lists a legal entity's endpoints in creation order, with what
// fanning an event out reads of them.
func endpoints(op *kernel.Op, le string) ([]endpoint, error) {
	out := make([]endpoint, 0, 4) // a legal entity has a few
	var stale []int               // entries that keep no facts
	var bad error
	err := op.Tx.Scan(kernel.IndexPrefix(IndexWebhookLE, le), "", false, func(key, val string) bool {
		id, facts := kernel.SplitIndexValue(val)
		status, rest, ok1 := strings.Cut(facts, store.Sep)
		archived, events, ok2 := strings.Cut(rest, store.Sep)
		if !ok1 || !ok2 || (archived != "" && archived != "archived") {
			if facts != "" {
				bad = fmt.Errorf("index entry %q keeps facts %q that do not read", key, facts)
				return false
			}
			stale = append(stale, len(out))
		}
		out = append(out, endpoint{id: id, status: status, archived: archived != "", events: events})
		return true
	})
	if err == nil {
		err = bad
	}
	if err != nil {
		return nil, err
	}
	for _, i := range stale {
		w, ok, err := LoadWebhook(op, out[i].id)
		if err != nil {
			return nil, fmt.Errorf("webhook index names missing webhook %q: %w", out[i].id, err)
		}
		if !ok {
			return nil, fmt.Errorf("webhook index names missing webhook %q", out[i].id)
		}
		out[i] = endpoint{
			id:       w.ID,
			status:   w.Status,
			archived: w.ArchivedAt != nil,
			events:   strings.Join(w.EnabledEvents, ","),
		}
	}
	return out, nil
}

// Covering keeps a delivery's status in its endpoint's entry.
func (d *WebhookDelivery) Covering() (string, string) {
	if strings.ContainsAny(d.Status, store.Sep+kernel.FactsSep) {
		return IndexDeliveryWebhook, ""
	}
	return IndexDeliveryWebhook, d.Status
}

// deliveryNames are the stored forms of a delivery's object names.
var deliveryNames = struct {
	id, webhookID, legalEntityID, eventID, event, entityID, status, source, relatedID, attempts,
	nextAttemptAt, retryEventID, createdAt, completedAt, seq, order store.Name
}{store.NameOf("id"), store.NameOf("webhookId"), store.NameOf("legalEntityId"), store.NameOf("eventId"),
	store.NameOf("event"), store.NameOf("entityId"), store.NameOf("status"), store.NameOf("source"),
	store.NameOf("relatedId"), store.NameOf("attempts"), store.NameOf("nextAttemptAt"), store.NameOf("retryEventId"),
	store.NameOf("createdAt"), store.NameOf("completedAt"), store.NameOf("seq"), store.NameOf("order")}

// AppendStored writes a delivery not yet attempted in its stored form
// (store.StoredAppender): queueing one is the work of every event, and
// encoding/json's reflection and the compaction of its names a good part
// of it. Others, and strings that need escaping, are left to json.Marshal.
func (d *WebhookDelivery) AppendStored(b []byte) ([]byte, bool) {
	if len(d.Attempts) > 0 || d.Attempts == nil {
		return b, false
	}
	n := &deliveryNames
	o := store.NewStoredObject(b)
	o.String(n.id, d.ID)
	o.String(n.webhookID, d.WebhookID)
	o.String(n.legalEntityID, d.LegalEntityID)
	o.String(n.eventID, d.EventID)
	o.String(n.event, d.Event)
	o.String(n.entityID, d.EntityID)
	o.String(n.status, d.Status)
	o.String(n.source, d.Source)
	if d.RelatedID != "" {
		o.String(n.relatedID, d.RelatedID)
	}
	o.JSON(n.attempts, "[]")
	if d.NextAttemptAt != nil {
		o.Time(n.nextAttemptAt, *d.NextAttemptAt)
	}
	if d.RetryEventID != "" {
		o.String(n.retryEventID, d.RetryEventID)
	}
	o.Time(n.createdAt, d.CreatedAt)
	if d.CompletedAt != nil {
		o.Time(n.completedAt, *d.CompletedAt)
	}
	o.Int(n.seq, d.Seq)
	o.String(n.order, d.Order)
	return o.End()
}
