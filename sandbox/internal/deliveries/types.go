package deliveries

import (
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// PrefixDelivery starts every webhook delivery id.
const PrefixDelivery = "whdel_"

// Delivery statuses.
const (
	// StatusQueued waits: its endpoint is paused or disabled, or an
	// earlier delivery to the same endpoint is not finished yet.
	StatusQueued = "queued"
	// StatusPending is due now: the sender posts it next.
	StatusPending = "pending"
	// StatusRetrying failed and waits for its next attempt (nextAttemptAt).
	StatusRetrying = "retrying"
	// StatusSucceeded got a 2xx answer.
	StatusSucceeded = "succeeded"
	// StatusFailed failed on its last attempt: a permanent failure.
	StatusFailed = "failed"
	// StatusCanceled will never be sent: its endpoint was archived.
	StatusCanceled = "canceled"
)

// Statuses lists every delivery status.
var Statuses = []string{StatusQueued, StatusPending, StatusRetrying, StatusSucceeded,
	StatusFailed, StatusCanceled}

// Why a delivery exists.
const (
	SourceEvent     = "event"
	SourceTrigger   = "trigger"
	SourceRedeliver = "redeliver"
	SourceDuplicate = "duplicate"
)

// WebhookDelivery is one event sent, or to be sent, to one endpoint, with
// every attempt made.
type WebhookDelivery struct {
	ID            string `json:"id"`
	WebhookID     string `json:"webhookId"`
	LegalEntityID string `json:"legalEntityId"`
	EventID       string `json:"eventId"`
	Event         string `json:"event"`
	EntityID      string `json:"entityId"`
	Status        string `json:"status"`
	// Source says why the delivery exists; RelatedID names the delivery it
	// redelivers or duplicates.
	Source        string     `json:"source"`
	RelatedID     string     `json:"relatedId,omitempty"`
	Attempts      []Attempt  `json:"attempts"`
	NextAttemptAt *time.Time `json:"nextAttemptAt,omitempty"`
	RetryEventID  string     `json:"retryEventId,omitempty"`
	CreatedAt     time.Time  `json:"createdAt"`
	CompletedAt   *time.Time `json:"completedAt,omitempty"`
	Seq           int64      `json:"seq"`
	// Order places the delivery in the sender's queue: the sequence, or a
	// seeded random key while deliveries are shuffled.
	Order string `json:"order"`
}

// Body is the exact JSON the delivery posts: the WebhookEvent. It is a
// function of the delivery's event, so it is not stored with it.
func (d *WebhookDelivery) Body() string {
	return eventBody(webhookEvent{EntityID: d.EntityID, Event: d.Event, EventID: d.EventID})
}

// Attempt is one HTTP request made for a delivery.
type Attempt struct {
	Number int `json:"number"`
	// At is the virtual time the request was sent.
	At             time.Time         `json:"at"`
	URL            string            `json:"url"`
	RequestHeaders map[string]string `json:"requestHeaders"`
	RequestBody    string            `json:"requestBody"`
	// ResponseStatus is 0 when no answer came (error or timeout).
	ResponseStatus int    `json:"responseStatus,omitempty"`
	ResponseBody   string `json:"responseBody,omitempty"`
	// LatencyMs is the real time the request took.
	LatencyMs int64  `json:"latencyMs"`
	Error     string `json:"error,omitempty"`
	Succeeded bool   `json:"succeeded"`
}

// AttemptResult is what the sender reports about one request it made.
type AttemptResult struct {
	// SentAt is the virtual time read when the request was sent.
	SentAt         time.Time
	URL            string
	RequestHeaders map[string]string
	RequestBody    string
	ResponseStatus int
	ResponseBody   string
	LatencyMs      int64
	Error          string
}

// MaxResponseBody is how much of a receiver's answer an attempt keeps.
const MaxResponseBody = 4 << 10

const (
	// TopicDeliveries is announced when a delivery is made or changes
	// (kernel.World.Changed).
	TopicDeliveries = "webhook_deliveries"
	// KindDelivery is the record kind of a webhook delivery.
	KindDelivery = "webhook_delivery"
	// IndexDeliveryWebhook holds each endpoint's deliveries in event
	// order, in two ranges: its queue, the unfinished ones (queued,
	// pending, retrying: stateQueued), and its finished ones
	// (stateFinished). A delivery moves from the first to the second
	// when it finishes; its history is the two merged (endpointHistory).
	IndexDeliveryWebhook = "delivery.webhook"
	// IndexDeliveryDue holds the deliveries the sender should post now.
	IndexDeliveryDue = "delivery.due"
	// RetiredDeliveryAll listed every delivery in the order they were
	// made, which their ids now give (kernel.ListRecords). Earlier data
	// files hold its entries; they are removed when a world adopts one.
	RetiredDeliveryAll = "delivery.all"
	// retiredDeliveryQueue held each endpoint's unfinished deliveries
	// apart from its history, in data files written before the two
	// shared IndexDeliveryWebhook (see UpgradeIndexes).
	retiredDeliveryQueue = "delivery.queue"
)

// The ranges of an endpoint's entries in IndexDeliveryWebhook.
const (
	stateQueued   = "q"
	stateFinished = "d"
)

// unfinishedStatus reports whether a delivery of that status is in its
// endpoint's queue.
func unfinishedStatus(status string) bool {
	return status == StatusQueued || status == StatusPending || status == StatusRetrying
}

// queuePrefix is the range of an endpoint's unfinished deliveries.
func queuePrefix(webhookID string) string {
	return kernel.IndexPrefix(IndexDeliveryWebhook, webhookID, stateQueued)
}

// Indexes are the index keys of a delivery: its place in its
// endpoint's queue or history and, while pending, in the sender's due list.
func Indexes(d *WebhookDelivery) []string {
	seq := store.Seq(d.Seq)
	if !unfinishedStatus(d.Status) {
		return []string{kernel.IndexKey(IndexDeliveryWebhook, d.WebhookID, stateFinished, seq, d.ID)}
	}
	keys := []string{kernel.IndexKey(IndexDeliveryWebhook, d.WebhookID, stateQueued, seq, d.ID)}
	if d.Status == StatusPending {
		keys = append(keys, kernel.IndexKey(IndexDeliveryDue, d.Order, d.ID))
	}
	return keys
}
