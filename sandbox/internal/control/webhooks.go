package control

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/clock"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

func (c *Control) routesWebhooks(s *mux.Router) {
	route := func(method, path, name string, fn web.Func) { web.Route(s, web.Gen2, method, path, name, fn) }
	route(http.MethodGet, "/webhook-deliveries", "sandbox.webhook_deliveries.list", c.listDeliveries)
	route(http.MethodPost, "/webhook-deliveries/settle", "sandbox.webhook_deliveries.settle", c.settleDeliveries)
	route(http.MethodGet, "/webhook-deliveries/wait", "sandbox.webhook_deliveries.wait", c.waitDelivery)
	route(http.MethodGet, "/webhook-deliveries/{id}", "sandbox.webhook_deliveries.get", c.getDelivery)
	route(http.MethodPost, "/webhook-deliveries/{id}/redeliver", "sandbox.webhook_deliveries.redeliver", c.redeliver)
	route(http.MethodGet, "/webhooks/public-key", "sandbox.webhooks.public_key", c.publicKey)
	route(http.MethodPost, "/webhooks/chaos", "sandbox.webhooks.chaos", c.webhookChaos)
	route(http.MethodPost, "/webhooks/{id}/trigger", "sandbox.webhooks.trigger", c.triggerWebhook)
}

type attemptView struct {
	Number    int                `json:"number"`
	At        string             `json:"at" format:"date-time"`
	URL       string             `json:"url"`
	Request   attemptRequestView `json:"request"`
	Response  *attemptResponse   `json:"response"`
	LatencyMs int64              `json:"latencyMs"`
	Error     string             `json:"error,omitempty"`
	Succeeded bool               `json:"succeeded"`
}

type attemptRequestView struct {
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

type attemptResponse struct {
	Status int    `json:"status"`
	Body   string `json:"body"`
}

type deliveryView struct {
	ID            string          `json:"id"`
	WebhookID     string          `json:"webhookId"`
	LegalEntityID string          `json:"legalEntityId"`
	Event         string          `json:"event"`
	EventID       string          `json:"eventId"`
	EntityID      string          `json:"entityId"`
	Payload       json.RawMessage `json:"payload" ref:"WebhookEvent"`
	Status        string          `json:"status" enum:"queued,pending,retrying,succeeded,failed,canceled"`
	Source        string          `json:"source" enum:"event,trigger,redeliver,duplicate"`
	RelatedID     string          `json:"relatedId,omitempty"`
	AttemptCount  int             `json:"attemptCount"`
	Attempts      []attemptView   `json:"attempts"`
	NextAttemptAt *string         `json:"nextAttemptAt,omitempty" format:"date-time"`
	CreatedAt     string          `json:"createdAt" format:"date-time"`
	CompletedAt   *string         `json:"completedAt,omitempty" format:"date-time"`
}

// deliveryPage is the body of GET /_sandbox/webhook-deliveries.
type deliveryPage struct {
	Items    []deliveryView `json:"items"`
	Metadata pageCount      `json:"metadata"`
}

// settleResult is the body of POST /_sandbox/webhook-deliveries/settle.
type settleResult struct {
	// Settled is false when the wait ran out first.
	Settled   bool            `json:"settled"`
	Delivered []webhooks.Sent `json:"delivered"`
	// Due is how many deliveries are due now and not yet attempted.
	Due int `json:"due"`
}

func optTime(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := ts(*t)
	return &s
}

func deliveryOf(d *deliveries.WebhookDelivery) deliveryView {
	v := deliveryView{ID: d.ID, WebhookID: d.WebhookID, LegalEntityID: d.LegalEntityID, Event: d.Event, EventID: d.EventID,
		EntityID: d.EntityID, Payload: json.RawMessage(d.Body()), Status: d.Status, Source: d.Source, RelatedID: d.RelatedID,
		AttemptCount: len(d.Attempts), Attempts: make([]attemptView, len(d.Attempts)),
		NextAttemptAt: optTime(d.NextAttemptAt),
		CreatedAt:     ts(d.CreatedAt), CompletedAt: optTime(d.CompletedAt)}
	for i, a := range d.Attempts {
		av := attemptView{Number: a.Number, At: ts(a.At), URL: a.URL, LatencyMs: a.LatencyMs, Error: a.Error,
			Succeeded: a.Succeeded, Request: attemptRequestView{Headers: a.RequestHeaders, Body: a.RequestBody}}
		if av.Request.Headers == nil {
			av.Request.Headers = map[string]string{}
		}
		if a.ResponseStatus != 0 {
			av.Response = &attemptResponse{Status: a.ResponseStatus, Body: a.ResponseBody}
		}
		v.Attempts[i] = av
	}
	return v
}

// deliveryFilter reads the delivery filters of a query: webhookId, event
// and status.
func deliveryFilter(q url.Values) deliveries.Filter {
	return deliveries.Filter{WebhookID: q.Get("webhookId"), Event: q.Get("event"), Status: q.Get("status")}
}

func (c *Control) listDeliveries(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	req := kernel.PageRequest{Size: 100}
	if raw := q.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > 500 {
			return nil, kernel.InvalidField("limit", "must be a number from 1 to 500")
		}
		req.Size = n
	}
	if raw := q.Get("cursor"); raw != "" {
		after, err := base64.RawURLEncoding.DecodeString(raw)
		if err != nil {
			return nil, kernel.InvalidField("cursor", "pass metadata.nextCursor unchanged")
		}
		req.After = string(after)
	}
	page, err := deliveries.List(w, deliveryFilter(q), req)
	if err != nil {
		return nil, err
	}
	items := make([]deliveryView, len(page.Items))
	for i := range page.Items {
		items[i] = deliveryOf(&page.Items[i])
	}
	meta := pageCount{Count: len(items)}
	if page.Next != "" {
		meta.NextCursor = base64.RawURLEncoding.EncodeToString([]byte(page.Next))
	}
	return deliveryPage{Items: items, Metadata: meta}, nil
}

func (c *Control) getDelivery(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	d, err := deliveries.Delivery(w, mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	return deliveryOf(d), nil
}

func (c *Control) redeliver(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	d, err := deliveries.Redeliver(w, mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	return web.Status(http.StatusCreated, deliveryOf(d)), nil
}

type triggerRequest struct {
	Event    string `json:"event"`
	EntityID string `json:"entityId"`
}

func (c *Control) triggerWebhook(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var req triggerRequest
	if err := web.Decode(r, &req, true); err != nil {
		return nil, err
	}
	d, err := deliveries.TriggerWebhook(w, mux.Vars(r)["id"], req.Event, strings.TrimSpace(req.EntityID))
	if err != nil {
		return nil, err
	}
	return web.Status(http.StatusCreated, deliveryOf(d)), nil
}

func (c *Control) webhookChaos(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var req deliveries.WebhookChaos
	if err := web.Decode(r, &req, true); err != nil {
		return nil, err
	}
	if err := deliveries.SetWebhookChaos(w, req); err != nil {
		return nil, err
	}
	return deliveries.ChaosOf(w)
}

func (c *Control) publicKey(r *http.Request) (any, error) {
	pemText, err := webhooks.PublicKeyPEM()
	if err != nil {
		return nil, err
	}
	switch r.URL.Query().Get("format") {
	case "pem":
		return &web.Response{Status: http.StatusOK, Raw: []byte(pemText), ContentType: "application/x-pem-file"}, nil
	case "", "json":
	default:
		return nil, kernel.InvalidField("format", "must be json or pem")
	}
	jwk, err := webhooks.PublicJWK()
	if err != nil {
		return nil, err
	}
	return map[string]any{"header": webhooks.HeaderSignature, "algorithm": webhooks.SignatureAlgorithm,
		"pem": pemText, "jwk": jwk}, nil
}

const (
	defaultSettleTimeout = 30 * time.Second
	maxSettleTimeout     = 10 * time.Minute
)

// optionalBody decodes a JSON body when there is one; an absent or empty
// body leaves v as it is.
func optionalBody(r *http.Request, v any) error {
	raw, err := io.ReadAll(io.LimitReader(r.Body, web.MaxBody+1))
	if err != nil {
		return web.ReadError(err, "the request body is larger than the request limit")
	}
	if strings.TrimSpace(string(raw)) == "" {
		return nil
	}
	if err := web.RequireJSON(r); err != nil {
		return err
	}
	return web.DecodeBytes(raw, v, true)
}

func (c *Control) settleDeliveries(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var req struct {
		Timeout string `json:"timeout"`
	}
	if err := optionalBody(r, &req); err != nil {
		return nil, err
	}
	timeout := defaultSettleTimeout
	if req.Timeout != "" {
		d, err := scenario.ParseDuration(req.Timeout)
		if err != nil || d <= 0 || d > maxSettleTimeout {
			return nil, kernel.InvalidField("/timeout", "must be a duration from 1s to 10m, such as 30s")
		}
		timeout = d
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	out := c.Webhooks.Settle(ctx, w)
	due, err := deliveries.DueDeliveries(w, 500)
	return settleResult{Settled: out.Settled, Delivered: out.Delivered, Due: len(due)}, err
}

// advanceSettling advances the clock instant by instant: it runs the
// events due at each instant, then waits for the deliveries they made due,
// so every attempt and retry happens at its own virtual time. Each wait
// lasts at most the sender's AdvanceWait, and the first that runs out ends
// the waiting: the advance goes on without it and reports settled false,
// so a slow or dead receiver holds it for AdvanceWait at most once (and
// all the waits together never pass maxSettleTimeout). A clock that moves
// by itself (real or scaled) is advanced in one step and settled after:
// its instants cannot be held still. The first step works the target out
// with resolve from the clock it finds; each is called with every event
// that ran.
func (c *Control) advanceSettling(parent context.Context, w *kernel.World, resolve func(time.Time) (time.Time, error),
	each func(kernel.Event)) ([]kernel.Event, []webhooks.Sent, bool, error) {
	total, cancelTotal := context.WithTimeout(parent, maxSettleTimeout)
	defer cancelTotal()
	var ran []kernel.Event
	sent := []webhooks.Sent{}
	settled := true
	settle := func() {
		ctx, cancel := context.WithTimeout(total, c.Webhooks.AdvanceWait)
		if !settled {
			cancel() // no more waiting: only collect the attempts made
		}
		out := c.Webhooks.Settle(ctx, w)
		cancel()
		sent = append(sent, out.Delivered...)
		settled = settled && out.Settled
	}
	step := &steps{w: w, resolve: resolve}
	for !step.last {
		if w.Clock().Mode == clock.Frozen {
			settle()
		}
		evs, err := w.AdvanceFrom(parent, step.next, kernel.MaxAdvanceEvents-len(ran), each)
		ran = append(ran, evs...)
		if err != nil {
			return ran, sent, settled, err
		}
	}
	if w.Clock().Mode != clock.Frozen {
		settle()
	}
	return ran, sent, settled, nil
}

// steps are the instants a settling advance stops at: each next instant an
// event is due (when the clock is frozen), then the target, which the
// first step works out.
type steps struct {
	w        *kernel.World
	resolve  func(time.Time) (time.Time, error)
	to       time.Time
	resolved bool
	// last is set once the step to the target is given.
	last bool
}

// next is where the advance that finds the clock at now goes. A restore
// that moved the clock past the target meanwhile leaves only what is due
// to run: the clock does not go back.
func (s *steps) next(now time.Time) (time.Time, error) {
	if !s.resolved {
		to, err := s.resolve(now)
		if err != nil {
			return to, err
		}
		s.to, s.resolved = to, true
	}
	if s.w.Clock().Mode == clock.Frozen {
		next, ok, err := s.w.NextEventAt()
		if err != nil {
			return now, err
		}
		if ok && !next.After(s.to) {
			return later(next, now), nil
		}
	}
	s.last = true
	return later(s.to, now), nil
}

// later is the later of two instants.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
