// Package client is a typed client for the sandbox's control API, used by
// the command line and by tests that drive a running sandbox.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Client talks to one sandbox's control API.
type Client struct {
	// BaseURL is the sandbox's address, e.g. http://127.0.0.1:8080.
	BaseURL string
	// World, when set, names the world every call acts on.
	World string
	// AdminToken is sent when the sandbox requires one.
	AdminToken string
	HTTP       *http.Client
	// Received, when set, is given the body of every response the client
	// reads, before it is decoded: the control API's own JSON, to log or
	// print as it came.
	Received func(method, path string, status int, body []byte)
}

// New makes a client for a base URL. Its HTTP client gives up after 90
// seconds: longer than the longest wait the sandbox allows.
func New(baseURL string) *Client {
	return &Client{BaseURL: strings.TrimRight(baseURL, "/"), HTTP: &http.Client{Timeout: 90 * time.Second}}
}

// Error is a control API error (second-generation envelope).
type Error struct {
	Status      int               `json:"-"`
	Code        string            `json:"code"`
	Message     string            `json:"message"`
	Details     map[string]string `json:"details"`
	ReferenceID string            `json:"referenceId"`
}

// Error prints the status, the code and the message, then each detail
// on a line of its own, in the order of their names.
func (e *Error) Error() string {
	s := fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message)
	for _, k := range slices.Sorted(maps.Keys(e.Details)) {
		s += fmt.Sprintf("\n  %s: %s", k, e.Details[k])
	}
	return s
}

// Do calls method path with a JSON body (nil for none) and decodes the
// answer into out (nil to discard). It returns the raw body too.
func (c *Client) Do(ctx context.Context, method, path string, body, out any) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, rd)
	if err != nil {
		return nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.World != "" {
		req.Header.Set("X-Sandbox-World", c.World)
	}
	if c.AdminToken != "" {
		req.Header.Set("X-Admin-Token", c.AdminToken)
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	if c.Received != nil {
		c.Received(method, path, res.StatusCode, raw)
	}
	if res.StatusCode >= 300 {
		e := &Error{Status: res.StatusCode}
		if json.Unmarshal(raw, e) != nil || e.Code == "" {
			e.Code, e.Message = http.StatusText(res.StatusCode), strings.TrimSpace(string(raw))
		}
		return raw, e
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return raw, fmt.Errorf("decode %s %s: %w", method, path, err)
		}
	}
	return raw, nil
}

// Clock is the virtual clock.
type Clock struct {
	Now         time.Time  `json:"now"`
	Mode        string     `json:"mode"`
	Scale       float64    `json:"scale,omitempty"`
	Start       time.Time  `json:"start"`
	NextEventAt *time.Time `json:"nextEventAt"`
}

// Event is a scheduled or finished event.
type Event struct {
	ID      string          `json:"id"`
	Kind    string          `json:"kind"`
	At      time.Time       `json:"at"`
	Status  string          `json:"status"`
	Summary string          `json:"summary,omitempty"`
	Error   string          `json:"error,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
}

// Advanced is what an advance did.
type Advanced struct {
	From  time.Time `json:"from"`
	To    time.Time `json:"to"`
	Clock Clock     `json:"clock"`
	// Events are every event that ran, in the order they ran.
	Events   []Event          `json:"events"`
	Webhooks AdvancedWebhooks `json:"webhooks"`
}

// AdvancedWebhooks are the webhook deliveries an advance made on the way.
type AdvancedWebhooks struct {
	// Settled is whether the advance waited, at every instant, for the
	// deliveries due then.
	Settled   bool          `json:"settled"`
	Delivered []SentWebhook `json:"delivered"`
	// Pending are the deliveries due and not yet answered when the advance
	// answered (at most 100); they go on in the background.
	Pending []PendingWebhook `json:"pending"`
}

// PendingWebhook is a delivery an advance made due and left unanswered.
type PendingWebhook struct {
	DeliveryID string `json:"deliveryId"`
	WebhookID  string `json:"webhookId"`
	Event      string `json:"event"`
	URL        string `json:"url"`
	// Attempt is the number of the attempt it waits for.
	Attempt int `json:"attempt"`
}

// SentWebhook is one delivery attempt an advance made.
type SentWebhook struct {
	DeliveryID     string    `json:"deliveryId"`
	WebhookID      string    `json:"webhookId"`
	Event          string    `json:"event"`
	EventID        string    `json:"eventId"`
	Attempt        int       `json:"attempt"`
	At             time.Time `json:"at"`
	ResponseStatus int       `json:"responseStatus,omitempty"`
	Error          string    `json:"error,omitempty"`
	// Status is the delivery's status after the attempt.
	Status string `json:"status"`
}

// Health is the sandbox's readiness.
type Health struct {
	Status     string `json:"status"`
	Version    string `json:"version"`
	World      string `json:"world"`
	Scenario   string `json:"scenario"`
	Seed       int64  `json:"seed"`
	Persistent bool   `json:"persistent"`
	Clock      Clock  `json:"clock"`
	// Worlds is how many worlds the sandbox holds.
	Worlds int `json:"worlds"`
	// Memory is what the worlds and snapshots hold, as the memory budget
	// counts it, and the budget.
	Memory Memory `json:"memory"`
}

// Memory is what the worlds and snapshots hold, in bytes, and the memory
// budget (nil: none).
type Memory struct {
	Used   int64  `json:"used"`
	Budget *int64 `json:"budget"`
}

// Key is an API key and what it may do.
type Key struct {
	Key            string   `json:"key"`
	Name           string   `json:"name"`
	Kind           string   `json:"kind"`
	ReadOnly       bool     `json:"readOnly"`
	LegalEntityIDs []string `json:"legalEntityIds"`
	UserID         string   `json:"userId,omitempty"`
}

// World is an isolated world.
type World struct {
	ID        string  `json:"id"`
	Scenario  string  `json:"scenario"`
	Seed      int64   `json:"seed"`
	Default   bool    `json:"default"`
	Clock     Clock   `json:"clock"`
	Keys      []Key   `json:"keys"`
	ExpiresAt *string `json:"expiresAt,omitempty"`
}

// NewWorld asks for a world.
type NewWorld struct {
	ID         string `json:"id,omitempty"`
	Scenario   string `json:"scenario,omitempty"`
	YAML       string `json:"yaml,omitempty"`
	Snapshot   string `json:"snapshot,omitempty"`
	Seed       *int64 `json:"seed,omitempty"`
	ClockStart string `json:"clockStart,omitempty"`
	TTL        string `json:"ttl,omitempty"`
}

// Snapshot is a saved state of a world.
type Snapshot struct {
	ID       string    `json:"id"`
	World    string    `json:"world,omitempty"`
	Scenario string    `json:"scenario"`
	Seed     int64     `json:"seed"`
	Clock    time.Time `json:"clock"`
	Label    string    `json:"label,omitempty"`
	// Size is the snapshot's size in bytes.
	Size int `json:"size"`
}

// Message is an email the sandbox would have sent, kept in its outbox.
type Message struct {
	ID            string            `json:"id"`
	Kind          string            `json:"kind"`
	To            []string          `json:"to"`
	CC            []string          `json:"cc"`
	Subject       string            `json:"subject"`
	Text          string            `json:"text"`
	HTML          string            `json:"html"`
	Links         map[string]string `json:"links"`
	RelatedID     string            `json:"relatedId,omitempty"`
	LegalEntityID string            `json:"legalEntityId,omitempty"`
	CreatedAt     time.Time         `json:"createdAt"`
}

// Delivery is a webhook event on its way to one webhook, with its
// attempts.
type Delivery struct {
	ID            string          `json:"id"`
	WebhookID     string          `json:"webhookId"`
	LegalEntityID string          `json:"legalEntityId"`
	Event         string          `json:"event"`
	EventID       string          `json:"eventId"`
	EntityID      string          `json:"entityId"`
	Payload       json.RawMessage `json:"payload"`
	// Status is queued, pending, retrying, succeeded, failed or canceled.
	Status string `json:"status"`
	// Source is event, trigger, redeliver or duplicate.
	Source        string            `json:"source"`
	RelatedID     string            `json:"relatedId,omitempty"`
	AttemptCount  int               `json:"attemptCount"`
	Attempts      []DeliveryAttempt `json:"attempts"`
	NextAttemptAt *time.Time        `json:"nextAttemptAt,omitempty"`
	CreatedAt     time.Time         `json:"createdAt"`
	CompletedAt   *time.Time        `json:"completedAt,omitempty"`
}

// DeliveryAttempt is one POST of a delivery to its webhook.
type DeliveryAttempt struct {
	Number int       `json:"number"`
	At     time.Time `json:"at"`
	URL    string    `json:"url"`
	// Request and Response are what was sent and what came back (null
	// when nothing did).
	Request   json.RawMessage `json:"request"`
	Response  json.RawMessage `json:"response"`
	LatencyMs int64           `json:"latencyMs"`
	Error     string          `json:"error,omitempty"`
	Succeeded bool            `json:"succeeded"`
}

type items[T any] struct {
	Items []T `json:"items"`
}

// Health reads /_sandbox/health.
func (c *Client) Health(ctx context.Context) (Health, error) {
	var h Health
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/health", nil, &h)
	return h, err
}

// Clock reads the virtual clock.
func (c *Client) Clock(ctx context.Context) (Clock, error) {
	var v Clock
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/clock", nil, &v)
	return v, err
}

// Advance moves the clock by a duration ("36h", "2d").
func (c *Client) Advance(ctx context.Context, by string) (Advanced, error) {
	var a Advanced
	_, err := c.Do(ctx, http.MethodPost, "/_sandbox/clock/advance", map[string]string{"by": by}, &a)
	return a, err
}

// AdvanceTo moves the clock to an instant, or to the next event with "next".
func (c *Client) AdvanceTo(ctx context.Context, to string) (Advanced, error) {
	var a Advanced
	_, err := c.Do(ctx, http.MethodPost, "/_sandbox/clock/advance", map[string]string{"to": to}, &a)
	return a, err
}

// AdvanceToNext moves the clock to the next scheduled event whose kind is
// not one of skip, running the skipped kinds on the way: with
// token_prices.tick skipped, to the next business event.
func (c *Client) AdvanceToNext(ctx context.Context, skip []string) (Advanced, error) {
	var a Advanced
	body := map[string]any{"to": "next", "skip": append([]string{}, skip...)}
	_, err := c.Do(ctx, http.MethodPost, "/_sandbox/clock/advance", body, &a)
	return a, err
}

// Reset puts the world back to its scenario's start.
func (c *Client) Reset(ctx context.Context) error {
	_, err := c.Do(ctx, http.MethodPost, "/_sandbox/reset", nil, nil)
	return err
}

// Keys lists the world's API keys.
func (c *Client) Keys(ctx context.Context) ([]Key, error) {
	var v items[Key]
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/keys", nil, &v)
	return v.Items, err
}

// Events lists scheduled ("scheduled") or finished ("done") events.
func (c *Client) Events(ctx context.Context, status string) ([]Event, error) {
	var v items[Event]
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/events?status="+url.QueryEscape(status), nil, &v)
	return v.Items, err
}

// Worlds lists the worlds.
func (c *Client) Worlds(ctx context.Context) ([]World, error) {
	var v items[World]
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/worlds", nil, &v)
	return v.Items, err
}

// CreateWorld makes an isolated world with its own keys.
func (c *Client) CreateWorld(ctx context.Context, w NewWorld) (World, error) {
	var out World
	_, err := c.Do(ctx, http.MethodPost, "/_sandbox/worlds", w, &out)
	return out, err
}

// DeleteWorld removes a world.
func (c *Client) DeleteWorld(ctx context.Context, id string) error {
	_, err := c.Do(ctx, http.MethodDelete, "/_sandbox/worlds/"+url.PathEscape(id), nil, nil)
	return err
}

// ExportWorld reads a world as a scenario file (YAML) that loads into a
// world answering every public read the same. With id "" it reads the
// client's World, else the sandbox's default world.
func (c *Client) ExportWorld(ctx context.Context, id string) ([]byte, error) {
	if id == "" {
		id = c.World
	}
	if id == "" {
		worlds, err := c.Worlds(ctx)
		if err != nil {
			return nil, err
		}
		for _, w := range worlds {
			if w.Default {
				id = w.ID
			}
		}
	}
	return c.Do(ctx, http.MethodGet, "/_sandbox/worlds/"+url.PathEscape(id)+"/scenario", nil, nil)
}

// Snapshot saves the world's state and returns the snapshot id.
func (c *Client) Snapshot(ctx context.Context, label string) (string, error) {
	s, err := c.CreateSnapshot(ctx, label)
	return s.ID, err
}

// CreateSnapshot saves the world's state under a label ("" for none).
func (c *Client) CreateSnapshot(ctx context.Context, label string) (Snapshot, error) {
	var s Snapshot
	_, err := c.Do(ctx, http.MethodPost, "/_sandbox/snapshots", map[string]string{"label": label}, &s)
	return s, err
}

// Snapshots lists the snapshots of every world.
func (c *Client) Snapshots(ctx context.Context) ([]Snapshot, error) {
	var v items[Snapshot]
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/snapshots", nil, &v)
	return v.Items, err
}

// Restore puts the world into a snapshot's state.
func (c *Client) Restore(ctx context.Context, id string) error {
	_, err := c.Do(ctx, http.MethodPost, "/_sandbox/snapshots/"+url.PathEscape(id)+"/restore", nil, nil)
	return err
}

// Outbox lists the world's outbox, newest first.
func (c *Client) Outbox(ctx context.Context) ([]Message, error) {
	var v items[Message]
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/outbox", nil, &v)
	return v.Items, err
}

// Message reads one message of the outbox.
func (c *Client) Message(ctx context.Context, id string) (Message, error) {
	var m Message
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/outbox/"+url.PathEscape(id), nil, &m)
	return m, err
}

// Deliveries lists the world's webhook deliveries: the first page, of
// 100.
func (c *Client) Deliveries(ctx context.Context) ([]Delivery, error) {
	var v items[Delivery]
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/webhook-deliveries", nil, &v)
	return v.Items, err
}

// List reads any control collection ({"items": […]}) as raw objects.
func (c *Client) List(ctx context.Context, path string) ([]map[string]any, error) {
	var v items[map[string]any]
	_, err := c.Do(ctx, http.MethodGet, path, nil, &v)
	return v.Items, err
}

// WebhookEventTypes lists every webhook event type, in the real service's
// order.
var WebhookEventTypes = []string{"card.update", "card.delete", "card_creation.event", "aggregated_transaction.create",
	"aggregated_transaction.update", "expense_report.create", "expense_report.update"}

// EventTrigger asks the world to raise a webhook event through a real
// action (POST /_sandbox/events/trigger).
type EventTrigger struct {
	Event string `json:"event"`
	// EntityID, when set, names what to act on: the card, transaction or
	// expense report the event is about, or for a creation event the
	// account, card or user to create it with.
	EntityID string `json:"entityId,omitempty"`
	// LegalEntityID, when set, names the legal entity to act for.
	LegalEntityID string `json:"legalEntityId,omitempty"`
}

// Triggered is what a trigger did.
type Triggered struct {
	Event         string `json:"event"`
	EventID       string `json:"eventId"`
	EntityID      string `json:"entityId"`
	LegalEntityID string `json:"legalEntityId"`
	// Actions says what was done, in order.
	Actions []string `json:"actions"`
	// Events are every event the actions raised, the one asked for last.
	Events []TriggeredEvent `json:"events"`
	// Deliveries are the webhook deliveries the events queued.
	Deliveries []Delivery `json:"deliveries"`
}

// TriggeredEvent is one webhook event a trigger raised.
type TriggeredEvent struct {
	EventID  string `json:"eventId"`
	Event    string `json:"event"`
	EntityID string `json:"entityId"`
}

// TriggerEvent makes the world raise a webhook event: every endpoint of
// the legal entity gets it as in real use.
func (c *Client) TriggerEvent(ctx context.Context, t EventTrigger) (Triggered, error) {
	var out Triggered
	_, err := c.Do(ctx, http.MethodPost, "/_sandbox/events/trigger", t, &out)
	return out, err
}

// PublicKeyPEM reads the public key webhook signatures verify with, PEM
// encoded.
func (c *Client) PublicKeyPEM(ctx context.Context) (string, error) {
	var v struct {
		PEM string `json:"pem"`
	}
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/webhooks/public-key", nil, &v)
	return v.PEM, err
}

// EmailFilter chooses the email WaitForEmail answers; empty fields match
// every email.
type EmailFilter struct {
	// To is a recipient, To or CC, in any case.
	To        string
	Kind      string
	RelatedID string
	// Subject is a part of the subject, in any case.
	Subject string
	// Since keeps the emails sent at or after this virtual time.
	Since time.Time
	// After is a message id: only emails sent after it match.
	After string
	// Timeout is how long the sandbox waits, up to a minute (0: 10s).
	Timeout time.Duration
}

// DeliveryFilter chooses the webhook delivery WaitForDelivery answers;
// empty fields match every delivery.
type DeliveryFilter struct {
	WebhookID string
	Event     string
	// Status waits for a delivery to reach it: queued, pending, retrying,
	// succeeded, failed or canceled.
	Status string
	// Since keeps the deliveries made at or after this virtual time.
	Since time.Time
	// After is a delivery id: only deliveries made after it match.
	After string
	// Timeout is how long the sandbox waits, up to a minute (0: 10s).
	Timeout time.Duration
}

// waitQuery is the query string of a wait: the non-empty filters.
func waitQuery(pairs []string, since time.Time, timeout time.Duration) string {
	q := url.Values{}
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			q.Set(pairs[i], pairs[i+1])
		}
	}
	if !since.IsZero() {
		q.Set("since", since.UTC().Format(time.RFC3339Nano))
	}
	if timeout > 0 {
		q.Set("timeout", timeout.String())
	}
	return q.Encode()
}

// WaitForEmail answers the first email, in the order they were sent, that
// f matches, waiting for the sandbox to send one. When none comes before
// the timeout the error is an *Error with Status 408 and Code "timeout".
func (c *Client) WaitForEmail(ctx context.Context, f EmailFilter) (Message, error) {
	var m Message
	q := waitQuery([]string{"to", f.To, "kind", f.Kind, "relatedId", f.RelatedID, "subject", f.Subject, "after", f.After},
		f.Since, f.Timeout)
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/outbox/wait?"+q, nil, &m)
	return m, err
}

// WaitForDelivery answers the first webhook delivery, in the order they
// were made, that f matches, waiting for one to match (with Status, for a
// delivery to reach it). When none does before the timeout the error is an
// *Error with Status 408 and Code "timeout".
func (c *Client) WaitForDelivery(ctx context.Context, f DeliveryFilter) (Delivery, error) {
	var d Delivery
	q := waitQuery([]string{"webhookId", f.WebhookID, "event", f.Event, "status", f.Status, "after", f.After},
		f.Since, f.Timeout)
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/webhook-deliveries/wait?"+q, nil, &d)
	return d, err
}
