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

// AppendJSON writes a delivery not yet attempted, whose strings need no
// escaping, as json.Marshal does (store.JSONAppender): queueing one is
// the work of every event, and the encoder's reflection a good part of
// it. Others are left to json.Marshal.
func (d *WebhookDelivery) AppendJSON(b []byte) ([]byte, bool) {
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
		b = append(b, `"`...)
		b = append(b, name...)
		b = append(b, `":"`...)
		b = append(b, value...)
		return append(b, `",`...)
	}
	at := func(b []byte, name string, t time.Time) ([]byte, bool) {
		b = append(b, `"`...)
		b = append(b, name...)
		b = append(b, `":"`...)
		b, err := t.AppendText(b)
		return append(b, `",`...), err == nil
	}
	b = append(b, '{')
	b = str(b, "id", d.ID)
	b = str(b, "webhookId", d.WebhookID)
	b = str(b, "legalEntityId", d.LegalEntityID)
	b = str(b, "eventId", d.EventID)
	b = str(b, "event", d.Event)
	b = str(b, "entityId", d.EntityID)
	b = str(b, "status", d.Status)
	b = str(b, "source", d.Source)
	if d.RelatedID != "" {
		b = str(b, "relatedId", d.RelatedID)
	}
	b = append(b, `"attempts":[],`...)
	ok := true
	if d.NextAttemptAt != nil {
		if b, ok = at(b, "nextAttemptAt", *d.NextAttemptAt); !ok {
			return b, false
		}
	}
	if d.RetryEventID != "" {
		b = str(b, "retryEventId", d.RetryEventID)
	}
	if b, ok = at(b, "createdAt", d.CreatedAt); !ok {
		return b, false
	}
	if d.CompletedAt != nil {
		if b, ok = at(b, "completedAt", *d.CompletedAt); !ok {
			return b, false
		}
	}
	b = append(b, `"seq":`...)
	b = strconv.AppendInt(b, d.Seq, 10)
	b = append(b, `,"order":"`...)
	b = append(b, d.Order...)
	return append(b, `"}`...), true
}
