package webhooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// senderHeader is web.SenderHeader as the recorded request headers spell
// theirs, in lower case.
var senderHeader = strings.ToLower(web.SenderHeader)

// DeliveryTimeout is how long a receiver has to answer a delivery.
const DeliveryTimeout = 10 * time.Second

// Options tune a Sender. Zero values give the real service's timeouts.
type Options struct {
	// Timeout bounds each delivery request (default DeliveryTimeout).
	Timeout time.Duration
	// AuthorizationTimeout, when positive, replaces every authorization
	// webhook's timeoutDurationMs.
	AuthorizationTimeout time.Duration
	// WallClock reads the real time signed timestamp headers carry (nil is
	// time.Now); tests replace it.
	WallClock func() time.Time
	// AdvanceWait bounds each wait of a clock advance for the deliveries
	// it makes due (default DefaultAdvanceWait); the first wait that runs
	// out ends the waiting, and the advance answers with what is pending.
	AdvanceWait time.Duration
	// Self, when set, is told the address the sandbox listens on: no
	// delivery or authorization call connects to it.
	Self *Self
	// Log receives a line per delivery attempt and authorization call:
	// info when it succeeded, warn when it failed (zero value: none).
	Log zerolog.Logger
}

// DefaultAdvanceWait is how long a clock advance waits for deliveries
// unless Options.AdvanceWait says otherwise.
const DefaultAdvanceWait = 5 * time.Second

// Sender posts due deliveries. Each world has at most one worker
// goroutine, started when the engine reports deliveries due and ended when
// none are left; it posts one delivery at a time, in the engine's order,
// and reports each attempt back to the engine in a transaction of its own.
type Sender struct {
	eng    *kernel.Engine
	client *http.Client
	// Caller is the authorization-webhook caller registered on the engine.
	Caller *Caller
	// AdvanceWait is how long a clock advance waits for deliveries.
	AdvanceWait time.Duration
	log         zerolog.Logger

	mu     sync.Mutex
	queues map[*kernel.World]*queue
}

// queue is one world's sending state.
type queue struct {
	mu sync.Mutex
	// requested counts notifications; done is the count a worker had seen
	// when it last found nothing left to send.
	requested, done uint64
	running         bool
	waiters         []waiter
	// sent remembers recent attempts for Settle's answer; reported is the
	// last one a Settle returned.
	sent     []Sent
	sentSeq  int64
	reported int64
}

type waiter struct {
	gen uint64
	ch  chan struct{}
}

// Sent summarises one attempt the sender made.
type Sent struct {
	Seq            int64     `json:"-"`
	DeliveryID     string    `json:"deliveryId"`
	WebhookID      string    `json:"webhookId"`
	Event          string    `json:"event"`
	EventID        string    `json:"eventId"`
	Attempt        int       `json:"attempt"`
	At             time.Time `json:"at"`
	URL            string    `json:"url"`
	ResponseStatus int       `json:"responseStatus,omitempty"`
	Error          string    `json:"error,omitempty"`
	LatencyMs      int64     `json:"latencyMs"`
	// Status is the delivery's status after the attempt.
	Status string `json:"status"`
}

const keepSent = 1000

// Attach makes a sender and an authorization caller for an engine and
// registers both, then looks for deliveries left due in every world (a
// restarted, file-backed world may have some).
func Attach(eng *kernel.Engine, o Options) *Sender {
	if o.Timeout <= 0 {
		o.Timeout = DeliveryTimeout
	}
	if o.AdvanceWait <= 0 {
		o.AdvanceWait = DefaultAdvanceWait
	}
	// Redirects are not followed: a receiver cannot send a delivery on.
	client := &http.Client{Timeout: o.Timeout, Transport: transport(o.Self),
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	s := &Sender{eng: eng, client: client, queues: map[*kernel.World]*queue{}, AdvanceWait: o.AdvanceWait, log: o.Log,
		Caller: &Caller{Client: &http.Client{Transport: client.Transport, CheckRedirect: client.CheckRedirect},
			Timeout: o.AuthorizationTimeout, WallClock: o.WallClock, Log: o.Log}}
	deliveries.SetNotifier(eng, func(w *kernel.World) { s.Kick(w) })
	cards.SetAuthorizer(eng, s.Caller)
	eng.OnWorldDeleted(s.forgetDeleted)
	for _, w := range eng.Worlds() {
		s.Kick(w)
	}
	return s
}

func (s *Sender) queue(w *kernel.World) *queue {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, ok := s.queues[w]
	if !ok {
		q = &queue{}
		s.queues[w] = q
	}
	return q
}

// Kick tells the sender a world may have deliveries due; it starts the
// world's worker when none runs. It returns the notification's number.
func (s *Sender) Kick(w *kernel.World) uint64 {
	q := s.queue(w)
	q.mu.Lock()
	defer q.mu.Unlock()
	q.requested++
	if !q.running {
		q.running = true
		go s.run(w, q)
	}
	return q.requested
}

// run sends until a pass finds nothing due and no notification came in
// meanwhile.
func (s *Sender) run(w *kernel.World, q *queue) {
	for {
		q.mu.Lock()
		gen := q.requested
		q.mu.Unlock()
		s.drain(w, q)
		q.mu.Lock()
		q.done = gen
		q.release()
		if q.requested == gen {
			q.running = false
			q.mu.Unlock()
			s.forget(w)
			return
		}
		q.mu.Unlock()
	}
}

// forgetDeleted drops the state of a deleted world whose worker is idle; a
// running worker forgets its world itself when it finishes.
func (s *Sender) forgetDeleted(id string) {
	s.mu.Lock()
	var gone []*kernel.World
	for w := range s.queues {
		if w.ID == id {
			gone = append(gone, w)
		}
	}
	s.mu.Unlock()
	for _, w := range gone {
		s.forget(w)
	}
}

// forget drops the state of a world the engine no longer has.
func (s *Sender) forget(w *kernel.World) {
	if current, ok := s.eng.World(w.ID); ok && current == w {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if q := s.queues[w]; q != nil {
		q.mu.Lock()
		idle := !q.running && len(q.waiters) == 0
		q.mu.Unlock()
		if idle {
			delete(s.queues, w)
		}
	}
}

// release wakes the waiters whose notification has been served. The
// caller holds q.mu.
func (q *queue) release() {
	kept := q.waiters[:0]
	for _, wt := range q.waiters {
		if wt.gen <= q.done {
			close(wt.ch)
		} else {
			kept = append(kept, wt)
		}
	}
	q.waiters = kept
}

// drain posts due deliveries, one at a time, until none is left. A
// delivery whose attempt could not be recorded is not posted again in the
// same pass.
func (s *Sender) drain(w *kernel.World, q *queue) {
	posted := map[string]int{}
	for {
		due, err := deliveries.DueDeliveries(w, 1)
		if err != nil || len(due) == 0 {
			return
		}
		d := due[0]
		if posted[d.ID] == d.Attempt {
			return
		}
		posted[d.ID] = d.Attempt
		res := s.post(d, w.Now())
		rec, err := deliveries.RecordDeliveryAttempt(w, d.ID, res)
		status := ""
		if err == nil {
			status = rec.Status
		}
		s.logAttempt(w, d, res, status)
		q.remember(Sent{DeliveryID: d.ID, WebhookID: d.WebhookID, Event: d.Event, EventID: d.EventID,
			Attempt: d.Attempt, At: res.SentAt, URL: d.URL, ResponseStatus: res.ResponseStatus, Error: res.Error,
			LatencyMs: res.LatencyMs, Status: status})
	}
}

// logAttempt logs one delivery attempt: info when the receiver took it,
// warn when it did not.
func (s *Sender) logAttempt(w *kernel.World, d deliveries.DueDelivery, res deliveries.AttemptResult, status string) {
	ev := s.log.Info()
	if res.Error != "" || res.ResponseStatus < 200 || res.ResponseStatus > 299 {
		ev = s.log.Warn()
	}
	ev = ev.Str("world", w.ID).Str("url", d.URL).Str("webhook_id", d.WebhookID).Str("event", d.Event).
		Str("delivery_id", d.ID).Int("attempt", d.Attempt)
	logOutcome(ev, res.ResponseStatus, res.Error, time.Duration(res.LatencyMs)*time.Millisecond).
		Str("delivery_status", status).Msg("webhook delivery " + d.Event + " to " + d.URL)
}

// logOutcome adds an outgoing request's answer to a log line: its status
// or its error, and how long it took.
func logOutcome(ev *zerolog.Event, status int, errText string, latency time.Duration) *zerolog.Event {
	if status != 0 {
		ev = ev.Int("status", status)
	}
	if errText != "" {
		ev = ev.Str("error", errText)
	}
	return ev.Dur("latency", latency)
}

func (q *queue) remember(s Sent) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.sentSeq++
	s.Seq = q.sentSeq
	q.sent = append(q.sent, s)
	if len(q.sent) > keepSent {
		q.sent = append([]Sent(nil), q.sent[len(q.sent)-keepSent:]...)
	}
}

// post makes one delivery request.
func (s *Sender) post(d deliveries.DueDelivery, now time.Time) deliveries.AttemptResult {
	res := deliveries.AttemptResult{SentAt: now, URL: d.URL, RequestBody: string(d.Body)}
	sig, err := Sign(d.Body)
	if err != nil {
		res.Error = "signing failed: " + err.Error()
		return res
	}
	res.RequestHeaders = map[string]string{
		"content-type":    "application/json",
		"user-agent":      "slash-sandbox-webhooks/1.0",
		HeaderSignature:   sig,
		HeaderDeliveryID:  d.ID,
		HeaderEventID:     d.EventID,
		HeaderEvent:       d.Event,
		HeaderTimestamp:   strconv.FormatInt(now.Unix(), 10),
		HeaderAttempt:     strconv.Itoa(d.Attempt),
		HeaderVirtualTime: virtualTime(now),
		// The sandbox refuses a request that carries it: a delivery
		// pointed at the sandbox itself cannot act on it.
		senderHeader: web.SentByWebhook,
	}
	req, err := http.NewRequest(http.MethodPost, d.URL, bytes.NewReader(d.Body))
	if err != nil {
		res.Error = err.Error()
		return res
	}
	for k, v := range res.RequestHeaders {
		req.Header.Set(k, v)
	}
	start := time.Now()
	resp, err := s.client.Do(req)
	if err != nil {
		res.LatencyMs = time.Since(start).Milliseconds()
		res.Error = describe(err, s.client.Timeout)
		return res
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, deliveries.MaxResponseBody))
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	res.LatencyMs = time.Since(start).Milliseconds()
	res.ResponseStatus, res.ResponseBody = resp.StatusCode, string(body)
	if err != nil {
		res.Error = describe(err, s.client.Timeout)
	}
	return res
}

// describe names a request failure, a timeout in plain words.
func describe(err error, timeout time.Duration) string {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return fmt.Sprintf("timeout: no answer within %s", timeout)
	}
	return err.Error()
}

// Settled is what Settle saw.
type Settled struct {
	// Settled is false when the wait ended before the queue was empty.
	Settled bool `json:"settled"`
	// Delivered lists the attempts made since the previous Settle of the
	// world returned, in order (at most the last 1000).
	Delivered []Sent `json:"delivered"`
}

// Settle waits until every delivery due in the world at the call has been
// attempted, and every delivery those attempts made due too, or until ctx
// ends. It never sleeps: it waits for the worker to report an empty queue.
func (s *Sender) Settle(ctx context.Context, w *kernel.World) Settled {
	q := s.queue(w)
	gen := s.Kick(w)
	ch := make(chan struct{})
	q.mu.Lock()
	if q.done >= gen {
		close(ch)
	} else {
		q.waiters = append(q.waiters, waiter{gen: gen, ch: ch})
	}
	q.mu.Unlock()
	out := Settled{Delivered: []Sent{}}
	select {
	case <-ch:
		out.Settled = true
	case <-ctx.Done():
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, sent := range q.sent {
		if sent.Seq > q.reported {
			out.Delivered = append(out.Delivered, sent)
		}
	}
	q.reported = q.sentSeq
	return out
}
