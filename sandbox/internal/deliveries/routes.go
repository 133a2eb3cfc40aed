package deliveries

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/store"
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
		if err != nil || !ok {
			return nil, fmt.Errorf("webhook index names missing webhook %q: %v", out[i].id, err)
		}
		out[i] = endpoint{id: w.ID, status: w.Status, archived: w.ArchivedAt != nil, events: strings.Join(w.EnabledEvents, ",")}
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

// deliveryNames are the stored forms of a delivery's object names, in order
// (store.AppendName).
var deliveryNames = func() (n struct {
	id, webhookID, legalEntityID, eventID, event, entityID, status, source, relatedID, attempts,
	nextAttemptAt, retryEventID, createdAt, completedAt, seq, order string
}) {
	name := func(s string) string { return string(store.AppendName(nil, s)) }
	n.id, n.webhookID, n.legalEntityID, n.eventID = name("id"), name("webhookId"), name("legalEntityId"), name("eventId")
	n.event, n.entityID, n.status, n.source = name("event"), name("entityId"), name("status"), name("source")
	n.relatedID, n.attempts, n.nextAttemptAt = name("relatedId"), name("attempts"), name("nextAttemptAt")
	n.retryEventID, n.createdAt, n.completedAt = name("retryEventId"), name("createdAt"), name("completedAt")
	n.seq, n.order = name("seq"), name("order")
	return n
}()

// AppendStored writes a delivery not yet attempted, whose strings need no
// escaping, in its stored form (store.StoredAppender): queueing one is the
// work of every event, and encoding/json's reflection and the compaction
// of its names a good part of it. Others are left to json.Marshal.
func (d *WebhookDelivery) AppendStored(b []byte) ([]byte, bool) {
	if len(d.Attempts) > 0 || d.Attempts == nil {
		return b, false
	}
	for _, s := range []string{d.ID, d.WebhookID, d.LegalEntityID, d.EventID, d.Event, d.EntityID, d.Status,
		d.Source, d.RelatedID, d.RetryEventID, d.Order} {
		if !plainJSON(s) {
			return b, false
		}
	}
	str := func(b []byte, name, value string) []byte {
		b = append(b, name...)
		b = append(b, '"')
		b = append(b, value...)
		return append(b, '"', ',')
	}
	at := func(b []byte, name string, t time.Time) ([]byte, bool) {
		b = append(b, name...)
		b = append(b, '"')
		b, err := t.AppendText(b)
		return append(b, '"', ','), err == nil
	}
	b = append(b, '{')
	b = str(b, deliveryNames.id, d.ID)
	b = str(b, deliveryNames.webhookID, d.WebhookID)
	b = str(b, deliveryNames.legalEntityID, d.LegalEntityID)
	b = str(b, deliveryNames.eventID, d.EventID)
	b = str(b, deliveryNames.event, d.Event)
	b = str(b, deliveryNames.entityID, d.EntityID)
	b = str(b, deliveryNames.status, d.Status)
	b = str(b, deliveryNames.source, d.Source)
	if d.RelatedID != "" {
		b = str(b, deliveryNames.relatedID, d.RelatedID)
	}
	b = append(b, deliveryNames.attempts...)
	b = append(b, "[],"...)
	ok := true
	if d.NextAttemptAt != nil {
		if b, ok = at(b, deliveryNames.nextAttemptAt, *d.NextAttemptAt); !ok {
			return b, false
		}
	}
	if d.RetryEventID != "" {
		b = str(b, deliveryNames.retryEventID, d.RetryEventID)
	}
	if b, ok = at(b, deliveryNames.createdAt, d.CreatedAt); !ok {
		return b, false
	}
	if d.CompletedAt != nil {
		if b, ok = at(b, deliveryNames.completedAt, *d.CompletedAt); !ok {
			return b, false
		}
	}
	b = append(b, deliveryNames.seq...)
	b = strconv.AppendInt(b, d.Seq, 10)
	b = append(b, ',')
	b = str(b, deliveryNames.order, d.Order)
	b[len(b)-1] = '}'
	return b, true
}
