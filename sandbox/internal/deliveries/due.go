package deliveries

import (
	"fmt"
	"slices"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// DueDelivery is a delivery the sender should post now.
type DueDelivery struct {
	ID        string
	WebhookID string
	URL       string
	EventID   string
	Event     string
	Body      []byte
	// Attempt is the number of the attempt about to be made.
	Attempt int
}

// DueDeliveries lists up to limit deliveries to post now, in the order to
// post them.
func DueDeliveries(w *kernel.World, limit int) ([]DueDelivery, error) {
	var out []DueDelivery
	err := w.View(func(op *kernel.Op) error {
		page, err := kernel.List[WebhookDelivery](op, KindDelivery, kernel.IndexPrefix(IndexDeliveryDue),
			kernel.PageRequest{Size: limit}, nil)
		if err != nil {
			return err
		}
		for _, d := range page.Items {
			hook, ok, err := LoadWebhook(op, d.WebhookID)
			if err != nil {
				return fmt.Errorf("delivery %s names missing webhook %s: %w", d.ID, d.WebhookID, err)
			}
			if !ok {
				return fmt.Errorf("delivery %s names missing webhook %s", d.ID, d.WebhookID)
			}
			out = append(out, DueDelivery{ID: d.ID, WebhookID: d.WebhookID, URL: hook.URL, EventID: d.EventID,
				Event: d.Event, Body: []byte(d.Body()), Attempt: len(d.Attempts) + 1})
		}
		return nil
	})
	return out, err
}

// Filter narrows the delivery list; empty fields match everything.
type Filter struct {
	WebhookID string
	Event     string
	Status    string
	// Since keeps the deliveries made at or after it (virtual time).
	Since time.Time
}

func (f Filter) match(d *WebhookDelivery) bool {
	return (f.WebhookID == "" || d.WebhookID == f.WebhookID) && (f.Event == "" || d.Event == f.Event) &&
		(f.Status == "" || d.Status == f.Status) && !d.CreatedAt.Before(f.Since)
}

// Check validates a filter, keyed by query parameter.
func (f Filter) Check() error {
	d := map[string]string{}
	if f.Event != "" && !slices.Contains(EventTypes, f.Event) {
		d["event"] = "must be one of the webhook event types"
	}
	if f.Status != "" && !slices.Contains(Statuses, f.Status) {
		d["status"] = "must be one of queued, pending, retrying, succeeded, failed, canceled"
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

// List lists the world's deliveries in creation order.
func List(w *kernel.World, f Filter, req kernel.PageRequest) (kernel.Page[WebhookDelivery], error) {
	if err := f.Check(); err != nil {
		return kernel.Page[WebhookDelivery]{}, err
	}
	var page kernel.Page[WebhookDelivery]
	err := w.View(func(op *kernel.Op) error {
		var err error
		if f.WebhookID != "" {
			page, err = endpointHistory(op, f.WebhookID, req, f.match)
		} else {
			page, err = kernel.ListRecords(op, KindDelivery, req, f.match)
		}
		return err
	})
	return page, err
}

// EventDeliveries lists the deliveries made for events, in creation
// order: what the write that raised them queued. Deliveries come after
// their event in sequence, so the walk goes back from the newest delivery
// to the first event's.
func EventDeliveries(op *kernel.Op, events []kernel.Emitted) ([]WebhookDelivery, error) {
	if len(events) == 0 {
		return nil, nil
	}
	ids := map[string]bool{}
	for _, e := range events {
		ids[e.EventID] = true
	}
	var out []WebhookDelivery
	req := kernel.PageRequest{Desc: true, Size: 500}
	for {
		earlier := false
		page, err := kernel.ListRecords(op, KindDelivery, req, func(d *WebhookDelivery) bool {
			earlier = earlier || d.Seq < events[0].Seq
			return !earlier && ids[d.EventID]
		})
		if err != nil {
			return nil, err
		}
		out = append(out, page.Items...)
		if page.Next == "" || earlier {
			slices.Reverse(out)
			return out, nil
		}
		req.After = page.Next
	}
}

// FirstDelivery is the first delivery, in the order they were made, that f
// matches and that was made after the delivery named after ("" for any);
// nil when there is none yet. An after that names no delivery is
// not_found.
func FirstDelivery(w *kernel.World, f Filter, after string) (*WebhookDelivery, error) {
	if err := f.Check(); err != nil {
		return nil, err
	}
	var found *WebhookDelivery
	err := w.View(func(op *kernel.Op) error {
		req := kernel.PageRequest{Size: 1}
		if after != "" {
			if _, err := delivery(op, after); err != nil {
				if e, ok := kernel.AsError(err); ok && e.Code == kernel.CodeNotFound {
					return kernel.NotFound("webhook delivery", "after", after)
				}
				return err
			}
			req.After = kernel.RecordKey(KindDelivery, after)
		}
		page, err := kernel.ListRecords(op, KindDelivery, req, f.match)
		if len(page.Items) > 0 {
			found = &page.Items[0]
		}
		return err
	})
	return found, err
}

// Delivery loads one delivery.
func Delivery(w *kernel.World, id string) (*WebhookDelivery, error) {
	var d *WebhookDelivery
	err := w.View(func(op *kernel.Op) error {
		var err error
		d, err = delivery(op, id)
		return err
	})
	return d, err
}

// Redeliver sends a delivery's event again, as a new delivery with the same
// event id, at the end of its endpoint's queue.
func Redeliver(w *kernel.World, id string) (*WebhookDelivery, error) {
	var d *WebhookDelivery
	err := w.Update(func(op *kernel.Op) error {
		old, err := delivery(op, id)
		if err != nil {
			return err
		}
		hook, err := liveWebhook(op, old.WebhookID)
		if err != nil {
			return err
		}
		d, err = enqueueDelivery(op, hook, old.EventID, old.Event, old.EntityID, SourceRedeliver, old.ID)
		return err
	})
	return d, err
}

// TriggerWebhook sends an endpoint an event of a chosen type for a chosen
// entity, with a new event id. The entity is not looked up: receivers can
// test ids they do not know.
func TriggerWebhook(w *kernel.World, webhookID, event, entityID string) (*WebhookDelivery, error) {
	d := map[string]string{}
	if !slices.Contains(EventTypes, event) {
		d["/event"] = "must be one of card.update, card.delete, card_creation.event, aggregated_transaction.create, " +
			"aggregated_transaction.update, expense_report.create, expense_report.update"
	}
	if entityID == "" || len(entityID) > 255 {
		d["/entityId"] = "required, at most 255 characters"
	}
	if len(d) > 0 {
		return nil, kernel.Invalid(d)
	}
	var out *WebhookDelivery
	err := w.Update(func(op *kernel.Op) error {
		hook, err := liveWebhook(op, webhookID)
		if err != nil {
			return err
		}
		eventID, err := op.NewID(kernel.Events.Prefix)
		if err != nil {
			return err
		}
		out, err = enqueueDelivery(op, hook, eventID, event, entityID, SourceTrigger, "")
		return err
	})
	return out, err
}

// liveWebhook loads an endpoint that is not archived.
func liveWebhook(op *kernel.Op, id string) (*Webhook, error) {
	hook, ok, err := LoadWebhook(op, id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, kernel.NotFound("webhook", "id", id)
	}
	if hook.ArchivedAt != nil {
		return nil, kernel.Errorf(kernel.CodeConflict, "webhook %s is archived; it receives nothing", id)
	}
	return hook, nil
}

// WebhookNotifications lists the deliveries of one of the actor's
// endpoints, newest first: its notification history. Another legal
// entity's endpoint is not found; an archived one keeps its history.
func WebhookNotifications(
	op *kernel.Op,
	a *kernel.Actor,
	webhookID string,
	req kernel.PageRequest,
) (kernel.Page[WebhookDelivery], error) {
	if _, err := WebhookOf(op, a, webhookID); err != nil {
		return kernel.Page[WebhookDelivery]{}, err
	}
	req.Desc = true
	return endpointHistory(op, webhookID, req, nil)
}

// Made is how many deliveries the world has made so far; the difference
// over a stretch of work is how many it queued.
func Made(w *kernel.World) (int64, error) {
	var n int64
	err := w.View(func(op *kernel.Op) error {
		var err error
		n, err = kernel.CounterValue(op, PrefixDelivery)
		return err
	})
	return n, err
}
