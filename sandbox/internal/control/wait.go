package control

import (
	"net/http"
	"net/url"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// The bounds of a wait: how long one may last, and how many may be open on
// one world at once.
const (
	defaultWaitTimeout = 10 * time.Second
	maxWaitTimeout     = 60 * time.Second
	maxWaitersPerWorld = 32
)

// waiters counts a world's open waits; it is kept on the world.
type waiters struct{ open atomic.Int32 }

// waitParams reads the parameters every wait takes: timeout, since and
// after.
func waitParams(q url.Values) (timeout time.Duration, since time.Time, err error) {
	timeout = defaultWaitTimeout
	if raw := q.Get("timeout"); raw != "" {
		d, perr := scenario.ParseDuration(raw)
		if perr != nil || d <= 0 || d > maxWaitTimeout {
			return 0, since, kernel.InvalidField("timeout", "must be a duration from 1ms to 60s, such as 5s")
		}
		timeout = d
	}
	if raw := q.Get("since"); raw != "" {
		t, perr := time.Parse(time.RFC3339Nano, raw)
		if perr != nil {
			return 0, since, kernel.InvalidField("since", "must be an RFC 3339 time, such as 2026-06-15T14:00:00Z")
		}
		since = t
	}
	return timeout, since, nil
}

// waitFor answers the first value find finds: it looks once, then again
// each time topic is announced in the world, until the timeout (408
// timeout), the world's deletion (404), or the end of the request (the
// client went away or the server is shutting down). No loop polls: the
// wait sleeps until the world says the topic changed.
func (c *Control) waitFor(
	r *http.Request,
	w *kernel.World,
	topic string,
	timeout time.Duration,
	find func() (any, error),
) (any, error) {
	count := w.Attached(waiters{}, func() any { return &waiters{} }).(*waiters)
	if count.open.Add(1) > maxWaitersPerWorld {
		count.open.Add(-1)
		return nil, kernel.Errorf(kernel.CodeConflict, "the world already has %d waits open: end one, or wait with a"+
			" shorter timeout",
			maxWaitersPerWorld).
			With("limit", strconv.Itoa(maxWaitersPerWorld))
	}
	defer count.open.Add(-1)
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		changed := w.Changed(topic)
		v, err := find()
		if err != nil || v != nil {
			return v, err
		}
		select {
		case <-changed:
		case <-timer.C:
			return nil, kernel.Errorf(kernel.CodeTimeout, "nothing matched within %s", timeout).With("timeout", timeout.String())
		case <-r.Context().Done():
			return nil, kernel.Errorf(kernel.CodeUnavailable,
				"the wait was stopped: the client went away or the server is shutting down")
		}
		if cur, ok := c.Engine.World(w.ID); !ok || cur != w {
			return nil, kernel.NotFound("world", "X-Sandbox-World", w.ID)
		}
	}
}

// waitRoute serves a wait on topic: find looks for the first match of the
// request's filters, made at or after since and after the record named
// after.
func (c *Control) waitRoute(
	r *http.Request,
	topic string,
	find func(w *kernel.World, since time.Time, after string) (any, error),
) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	timeout, since, err := waitParams(q)
	if err != nil {
		return nil, err
	}
	return c.waitFor(r, w, topic, timeout, func() (any, error) { return find(w, since, q.Get("after")) })
}

// waitOutbox answers the first email that matches the outbox filters (and
// since, after), waiting for it when none has been sent yet.
func (c *Control) waitOutbox(r *http.Request) (any, error) {
	f := outboxFilter(r.URL.Query())
	return c.waitRoute(r, kernel.TopicOutbox, func(w *kernel.World, since time.Time, after string) (any, error) {
		f.Since = since
		m, err := w.FirstMessage(f, after)
		if err != nil || m == nil {
			return nil, err
		}
		return messageOf(r, w, m), nil
	})
}

// waitDelivery answers the first webhook delivery that matches the
// delivery list's filters (and since, after), waiting for one that does:
// a status filter waits for a delivery to reach that status.
func (c *Control) waitDelivery(r *http.Request) (any, error) {
	f := deliveryFilter(r.URL.Query())
	return c.waitRoute(r, deliveries.TopicDeliveries, func(w *kernel.World, since time.Time, after string) (any, error) {
		f.Since = since
		d, err := deliveries.FirstDelivery(w, f, after)
		if err != nil || d == nil {
			return nil, err
		}
		return deliveryOf(d), nil
	})
}
