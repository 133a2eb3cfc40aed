package control

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/clock"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

type advanceRequest struct {
	By string `json:"by"`
	To string `json:"to"`
	// Skip, with to "next", names event kinds that do not count as the
	// next event: {"to":"next","skip":["token_prices.tick"]} runs to the
	// next business event, running the ticks before it on the way.
	Skip []string `json:"skip" doc:"With to \"next\": kinds of event that do not count as the next one, such as token_prices.tick (the next business event); they still run on the way."`
	// SettleWebhooks (default true) waits, at every instant, for the
	// webhook deliveries due then: see advanceSettling.
	SettleWebhooks *bool `json:"settleWebhooks" doc:"Wait, at every instant, for the webhook deliveries due then (default true), each time at most --webhook-advance-wait (5s by default); once a wait runs out the advance stops waiting."`
}

type eventView struct {
	ID      string  `json:"id"`
	Kind    string  `json:"kind"`
	At      string  `json:"at"`
	Status  string  `json:"status"`
	Summary string  `json:"summary,omitempty"`
	Error   string  `json:"error,omitempty"`
	RanAt   *string `json:"ranAt,omitempty"`
	Payload any     `json:"payload,omitempty"`
}

func eventOf(e kernel.Event) eventView {
	v := eventView{ID: e.ID, Kind: e.Kind, At: ts(e.At), Status: e.Status, Summary: e.Summary, Error: e.Error}
	if e.RanAt != nil {
		s := ts(*e.RanAt)
		v.RanAt = &s
	}
	if len(e.Payload) > 0 && string(e.Payload) != "null" && string(e.Payload) != "{}" {
		v.Payload = e.Payload
	}
	return v
}

// maxAdvanceSpan is the furthest one advance moves the clock: a year,
// leap day included. Further is a 400; advance again to go on.
const maxAdvanceSpan = 366 * 24 * time.Hour

// target resolves an advance request from the clock now: by a duration,
// to an instant, or to the next scheduled event.
func target(w *kernel.World, req advanceRequest, now time.Time) (time.Time, error) {
	var to time.Time
	field := "/to"
	switch {
	case req.By != "" && req.To != "":
		return time.Time{}, kernel.InvalidField("/by", "give either by or to, not both")
	case len(req.Skip) > 0 && req.To != "next":
		return time.Time{}, kernel.InvalidField("/skip", `only goes with "to": "next"`)
	case req.By != "":
		field = "/by"
		d, err := scenario.ParseDuration(req.By)
		if err != nil || d < 0 {
			return time.Time{}, kernel.InvalidField("/by", "must be a non-negative duration such as 36h, 2d or 1w")
		}
		to = now.Add(d)
	case req.To == "next":
		for i, kind := range req.Skip {
			if !w.HandlesEvent(kind) {
				return time.Time{}, kernel.InvalidField(fmt.Sprintf("/skip/%d", i),
					fmt.Sprintf("%q is not a kind of scheduled event", kind))
			}
		}
		next, ok, err := w.NextEventAtExcept(req.Skip)
		if err != nil || !ok {
			return now, err
		}
		to = next
	case req.To != "":
		t, err := time.Parse(time.RFC3339Nano, req.To)
		if err != nil {
			return time.Time{}, kernel.InvalidField("/to", `must be an RFC 3339 instant or "next"`)
		}
		if t.Before(now) {
			return time.Time{}, kernel.InvalidField("/to", "the clock never moves backwards; restore a snapshot instead")
		}
		to = t
	default:
		return time.Time{}, kernel.InvalidField("body", `give "by" (e.g. "36h") or "to" (an RFC 3339 instant or "next")`)
	}
	if to.Sub(now) > maxAdvanceSpan {
		return time.Time{}, kernel.InvalidField(field,
			"one advance moves the clock at most 366 days; advance again to go further")
	}
	if err := clock.InRange(to); err != nil {
		return time.Time{}, kernel.InvalidField(field, "the clock "+err.Error())
	}
	return to, nil
}

// advance moves the world's clock, bounded by maxAdvanceSpan and
// sandbox.MaxAdvanceEvents, and stops between two events when the client
// goes away or the server stops.
func (c *Control) advance(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var req advanceRequest
	if err := web.Decode(r, &req, true); err != nil {
		return nil, err
	}
	req.By, req.To = strings.TrimSpace(req.By), strings.TrimSpace(req.To)
	// Refused at once, before any wait; the advance works its target out
	// again from the clock it finds (a restore may have moved it since).
	if _, err := target(w, req, w.Now()); err != nil {
		return nil, err
	}
	var from, to time.Time
	var progress *advanceLog
	resolve := func(now time.Time) (time.Time, error) {
		t, err := target(w, req, now)
		if err == nil {
			from, to, progress = now, t, c.advanceLog(w, now, t)
		}
		return t, err
	}
	each := func(e kernel.Event) { progress.event(e) }
	var ran []kernel.Event
	hooks := advanceHooks{Delivered: []webhooks.Sent{}}
	if c.Webhooks != nil && (req.SettleWebhooks == nil || *req.SettleWebhooks) {
		ran, hooks.Delivered, hooks.Settled, err = c.advanceSettling(r.Context(), w, resolve, each)
	} else {
		ran, err = w.AdvanceFrom(r.Context(), resolve, kernel.MaxAdvanceEvents, each)
	}
	if progress == nil {
		return nil, err
	}
	progress.done(err)
	if err != nil {
		return nil, err
	}
	if hooks.Pending, err = pendingDeliveries(w); err != nil {
		return nil, err
	}
	events := make([]eventView, len(ran))
	for i, e := range ran {
		events[i] = eventOf(e)
	}
	cv, err := clockOf(w)
	return advanceResult{From: ts(from), To: ts(to), Clock: cv, Events: events, Webhooks: hooks}, err
}

// advanceResult is the body of POST /_sandbox/clock/advance.
type advanceResult struct {
	From     string       `json:"from" format:"date-time"`
	To       string       `json:"to" format:"date-time"`
	Clock    clockView    `json:"clock" ref:"SandboxClock"`
	Events   []eventView  `json:"events"`
	Webhooks advanceHooks `json:"webhooks"`
}

// advanceHooks is what an advance saw of the webhook deliveries it made
// due.
type advanceHooks struct {
	Settled   bool              `json:"settled" doc:"True when every delivery made due was attempted; false when a wait for them ran out (each lasts at most --webhook-advance-wait, 5s by default, and the first that runs out ends the waiting) or settleWebhooks was false."`
	Delivered []webhooks.Sent   `json:"delivered" doc:"The attempts made during the advance, in order, each with its outcome."`
	Pending   []pendingDelivery `json:"pending" doc:"The deliveries due and not yet answered when the advance answered (at most 100): in flight, or waiting for their turn."`
}

// pendingDelivery is a delivery still to be attempted.
type pendingDelivery struct {
	DeliveryID string `json:"deliveryId"`
	WebhookID  string `json:"webhookId"`
	Event      string `json:"event"`
	URL        string `json:"url"`
	Attempt    int    `json:"attempt" doc:"The number of the attempt it waits for."`
}

// maxPendingShown is how many pending deliveries an advance lists.
const maxPendingShown = 100

func pendingDeliveries(w *kernel.World) ([]pendingDelivery, error) {
	due, err := deliveries.DueDeliveries(w, maxPendingShown)
	out := make([]pendingDelivery, len(due))
	for i, d := range due {
		out[i] = pendingDelivery{DeliveryID: d.ID, WebhookID: d.WebhookID, Event: d.Event, URL: d.URL, Attempt: d.Attempt}
	}
	return out, err
}

func (c *Control) events(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	status := r.URL.Query().Get("status")
	if status == "" {
		status = kernel.StatusScheduled
	}
	if status != kernel.StatusScheduled && status != "done" {
		return nil, kernel.InvalidField("status", "must be scheduled or done")
	}
	page, err := w.Events(status, kernel.PageRequest{Size: 500})
	if err != nil {
		return nil, err
	}
	items := make([]eventView, len(page.Items))
	for i, e := range page.Items {
		items[i] = eventOf(e)
	}
	return map[string]any{"items": items, "metadata": map[string]int{"count": len(items)}}, nil
}
