package agentrequests

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Agent request statuses.
const (
	Pending  = "pending"
	Approved = "approved"
	Rejected = "rejected"
	Expired  = "expired"
	Executed = "executed"
	Failed   = "failed"
	Running  = "running"
)

// Statuses lists every agent request status.
var Statuses = []string{
	Pending,
	Approved,
	Rejected,
	Expired,
	Executed,
	Failed,
	Running,
}

// DefaultExpiry is how long a pending agent request waits for a human.
const DefaultExpiry = 72 * time.Hour

// Request is a write a read-only key asked for, held for a human.
type Request struct {
	ID            string `json:"id"`
	LegalEntityID string `json:"legalEntityId"`
	APIKey        string `json:"apiKey"`
	Status        string `json:"status"`
	Route         string `json:"route"`
	Method        string `json:"method"`
	Path          string `json:"path"`
	// Vars are the route's path variables, for running the write later.
	Vars    map[string]string `json:"vars,omitempty"`
	Query   string            `json:"query,omitempty"`
	Header  map[string]string `json:"header"`
	Body    []byte            `json:"body,omitempty"`
	Display Display           `json:"display"`
	Result  json.RawMessage   `json:"result,omitempty"`
	// Failure is the status and body the write met when it failed.
	FailureStatus int             `json:"failureStatus,omitempty"`
	Failure       json.RawMessage `json:"failure,omitempty"`
	CreatedAt     time.Time       `json:"createdAt"`
	UpdatedAt     time.Time       `json:"updatedAt"`
	ExpiresAt     time.Time       `json:"expiresAt"`
	ExpiryEvent   string          `json:"expiryEvent,omitempty"`
	Seq           int64           `json:"seq"`
}

// Display is what a human sees of an agent request.
type Display struct {
	Title       string    `json:"title"`
	Description string    `json:"description,omitempty"`
	Sections    []Section `json:"sections"`
}

// Section is one labelled value: a plain string, or the change an update
// makes (Change).
type Section struct {
	Label string `json:"label"`
	Value any    `json:"value"`
}

// Change is an updated value.
type Change struct {
	OldValue *string `json:"oldValue,omitempty"`
	NewValue string  `json:"newValue"`
}

const (
	kindAgentRequest = "agent_request"
	indexAgentKey    = "agent.key"
	indexAgentLE     = "agent.le"
	// ExpireKind is the scheduled event that expires a pending agent
	// request (RunExpiry).
	ExpireKind     = "agent_request.expire"
	agentExpiryKey = "agent-expiry"
)

func agentIndexes(ar *Request) []string {
	at, seq := store.Millis(ar.CreatedAt), store.Seq(ar.Seq)
	return []string{
		kernel.IndexKey(indexAgentKey, ar.APIKey, at, seq, ar.ID),
		kernel.IndexKey(indexAgentLE, ar.LegalEntityID, at, seq, ar.ID),
	}
}

// Expiry is how long pending requests of this world wait.
func Expiry(op *kernel.Op) time.Duration {
	raw, ok, _ := op.Tx.GetRaw(store.Key("m", agentExpiryKey))
	if d, err := time.ParseDuration(raw); ok && err == nil && d > 0 {
		return d
	}
	return DefaultExpiry
}

// SetExpiry changes how long new pending requests wait.
func SetExpiry(op *kernel.Op, d time.Duration) error {
	return op.Tx.PutRaw(store.Key("m", agentExpiryKey), d.String())
}

// Create stores a deferred write in pending and schedules its
// expiry.
func Create(op *kernel.Op, ar *Request) error {
	id, err := op.NewID(Prefix)
	if err != nil {
		return err
	}
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	ar.ID, ar.Seq, ar.Status = id, seq, Pending
	ar.CreatedAt, ar.UpdatedAt = op.Now, op.Now
	ar.ExpiresAt = op.Now.Add(Expiry(op))
	ev, err := op.Schedule(ExpireKind, ar.ExpiresAt, map[string]string{"agentRequestId": id})
	if err != nil {
		return err
	}
	ar.ExpiryEvent = ev.ID
	return op.Save(kindAgentRequest, id, ar, agentIndexes(ar)...)
}

// Save stores a changed agent request.
func Save(op *kernel.Op, ar *Request) error {
	ar.UpdatedAt = op.Now
	return op.Save(kindAgentRequest, ar.ID, ar, agentIndexes(ar)...)
}

// Find loads an agent request by id.
func Find(op *kernel.Op, id string) (*Request, bool, error) {
	var ar Request
	ok, err := op.Get(kindAgentRequest, id, &ar)
	return &ar, ok, err
}

// ListOfKey lists the requests a key created, newest first.
func ListOfKey(op *kernel.Op, key, status string, req kernel.PageRequest) (kernel.Page[Request], error) {
	req.Desc = true
	return kernel.List(op, kindAgentRequest, kernel.IndexPrefix(indexAgentKey, key), req, func(ar *Request) bool {
		return status == "" || ar.Status == status
	})
}

// List lists every agent request of the world, newest first.
func List(op *kernel.Op, status string, req kernel.PageRequest) (kernel.Page[Request], error) {
	req.Desc = true
	return kernel.List(op, kindAgentRequest, kernel.IndexPrefix(indexAgentLE), req, func(ar *Request) bool {
		return status == "" || ar.Status == status
	})
}

// RunExpiry expires the agent request the event names when it is
// still pending; one already decided is left as it is.
func RunExpiry(op *kernel.Op, ev *kernel.Event) (string, error) {
	var p struct {
		AgentRequestID string `json:"agentRequestId"`
	}
	if err := json.Unmarshal(ev.Payload, &p); err != nil {
		return "", err
	}
	ar, ok, err := Find(op, p.AgentRequestID)
	if err != nil {
		return "", fmt.Errorf("agent request %s: not found (%w)", p.AgentRequestID, err)
	}
	if !ok {
		return "", fmt.Errorf("agent request %s: not found", p.AgentRequestID)
	}
	if ar.Status != Pending {
		return fmt.Sprintf("agent request %s already %s", ar.ID, ar.Status), nil
	}
	ar.Status = Expired
	return fmt.Sprintf("agent request %s expired", ar.ID), Save(op, ar)
}

// RateLimitKey stores the scenario's rate limit for the control API.
var RateLimitKey = store.Key("m", "rate-limit")

// ScenarioRateLimit is the rate limit the world's scenario set, if any.
type ScenarioRateLimit struct {
	Requests int           `json:"requests"`
	Window   time.Duration `json:"window"`
}

// RateLimit returns the scenario's rate limit.
func RateLimit(w *kernel.World) (ScenarioRateLimit, bool) {
	var l ScenarioRateLimit
	var ok bool
	w.View(func(op *kernel.Op) error {
		var err error
		ok, err = op.Tx.Get(RateLimitKey, &l)
		return err
	})
	return l, ok && l.Requests > 0
}

// Restore writes an agent request as a world it was exported from holds
// it: its id, status, times and the expiry event it waits for are kept,
// nothing is scheduled. It is numbered after the records written before
// it.
func Restore(op *kernel.Op, ar *Request) error {
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	ar.Seq = seq
	return op.Save(kindAgentRequest, ar.ID, ar, agentIndexes(ar)...)
}

// All lists every agent request of the world in the order they were made.
func All(op *kernel.Op) ([]Request, error) {
	all, err := kernel.All[Request](op, kindAgentRequest, kernel.IndexPrefix(indexAgentLE))
	slices.SortFunc(all, func(a, b Request) int { return cmp.Compare(a.Seq, b.Seq) })
	return all, err
}

// Complete stores what the first read of a request a scenario declared
// with what it showed (an exported world's) found: the key and route it
// is run with. Filling them in changes nothing a person sees, so when it
// last changed stays as it was.
func Complete(op *kernel.Op, ar *Request) error {
	return op.Save(kindAgentRequest, ar.ID, ar, agentIndexes(ar)...)
}
