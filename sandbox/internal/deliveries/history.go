package deliveries

import (
	"fmt"
	"net/url"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// PastEvent is an event an endpoint was told about before the world
// started.
type PastEvent struct {
	Event, EntityID string
}

// RecordRefusals writes the history of an endpoint that refused every
// connection since the operation's time: one delivery per event, the first
// attempted attempts times on the retry schedule and now waiting for its
// next attempt, the others queued behind it (an endpoint's deliveries go
// out one at a time). An attempt records its body and the error; it keeps
// no request headers, since it was never made. A scenario declares such an
// endpoint (webhooks[].failing).
func RecordRefusals(op *kernel.Op, w *Webhook, attempts int, events []PastEvent) error {
	refused := refusal(w.URL)
	for i, e := range events {
		eventID, err := op.NewID(kernel.Events.Prefix)
		if err != nil {
			return err
		}
		d, err := newDelivery(op, w, eventID, e.Event, e.EntityID, SourceEvent, "", WebhookChaos{})
		if err != nil {
			return err
		}
		if i > 0 {
			continue
		}
		at := op.Now
		for n := 1; n <= attempts; n++ {
			d.Attempts = append(d.Attempts, Attempt{Number: n, At: at, URL: w.URL, RequestHeaders: map[string]string{},
				RequestBody: d.Body(), Error: refused})
			at = at.Add(RetryDelay(n))
		}
		if err := scheduleRetry(op, d, at); err != nil {
			return err
		}
		if err := saveDelivery(op, d); err != nil {
			return err
		}
	}
	return nil
}

// refusal is the error a POST to raw meets when nothing listens there.
func refusal(raw string) string {
	host := raw
	if u, err := url.Parse(raw); err == nil {
		host = u.Host
		if u.Port() == "" {
			port := "80"
			if u.Scheme == "https" {
				port = "443"
			}
			host += ":" + port
		}
	}
	return fmt.Sprintf("Post %q: dial tcp %s: connect: connection refused", raw, host)
}

// Restore writes an endpoint's delivery as a world it was exported from
// holds it: its id, event, status, attempts and the retry it waits for
// are kept; it is numbered after the records written before it. A pending
// one is handed to the sender.
func Restore(op *kernel.Op, d *WebhookDelivery) error {
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	d.Seq, d.Order = seq, store.Seq(seq)
	if d.Attempts == nil {
		d.Attempts = []Attempt{}
	}
	if d.Status == StatusPending {
		notifyDue(op)
	}
	return saveDelivery(op, d)
}

// History lists every delivery of an endpoint in the order they were made.
func History(op *kernel.Op, webhookID string) ([]WebhookDelivery, error) {
	var out []WebhookDelivery
	req := kernel.PageRequest{Size: 1000}
	for {
		page, err := endpointHistory(op, webhookID, req, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, page.Items...)
		if page.Next == "" {
			return out, nil
		}
		req.After = page.Next
	}
}
