package client

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Request is one entry of the world's request journal.
type Request struct {
	// Seq numbers the world's journaled requests, in the order they came.
	Seq       int64     `json:"seq"`
	RequestID string    `json:"requestId"`
	At        time.Time `json:"at"`
	VirtualAt time.Time `json:"virtualAt"`
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	Query     string    `json:"query,omitempty"`
	// Route is the route's name, or not_found or method_not_allowed.
	Route string `json:"route"`
	// Hint, for a request that matched no route, is the one it most likely
	// meant.
	Hint        string  `json:"hint,omitempty"`
	Via         string  `json:"via,omitempty"`
	LegalEntity string  `json:"legalEntity,omitempty"`
	Status      int     `json:"status"`
	LatencyMs   float64 `json:"latencyMs"`
	ReferenceID string  `json:"referenceId,omitempty"`
}

// Requests reads the newest limit entries of the request journal (1 to
// 1000), newest first.
func (c *Client) Requests(ctx context.Context, limit int) ([]Request, error) {
	var v items[Request]
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/requests?limit="+strconv.Itoa(limit), nil, &v)
	return v.Items, err
}

// Changes reads the world's change counter, which every write, reset,
// restore and journaled request moves. With since ≥ 0 it waits, up to wait
// (whole seconds, at most a minute), for the counter to move past since.
func (c *Client) Changes(ctx context.Context, since int64, wait time.Duration) (uint64, error) {
	var v struct {
		Version uint64 `json:"version"`
	}
	path := "/_sandbox/changes"
	if since >= 0 {
		path += "?since=" + strconv.FormatInt(since, 10) + "&wait=" + strconv.Itoa(int(wait/time.Second))
	}
	_, err := c.Do(ctx, http.MethodGet, path, nil, &v)
	return v.Version, err
}

// Fault makes calls of a public route fail (POST /_sandbox/faults).
type Fault struct {
	ID string `json:"id,omitempty"`
	// Route is a public route's name, or * for every public route.
	Route string `json:"route"`
	// Status is the status to answer with; LatencyMs delays the answer;
	// Drop closes the connection without one.
	Status    int  `json:"status,omitempty"`
	LatencyMs int  `json:"latencyMs,omitempty"`
	Drop      bool `json:"drop,omitempty"`
	// Count is how many calls fail, Probability the chance each does;
	// neither: every call.
	Count       int     `json:"count,omitempty"`
	Probability float64 `json:"probability,omitempty"`
	// Remaining is how many calls of Count are still to fail; Hits how
	// many have.
	Remaining int `json:"remaining,omitempty"`
	Hits      int `json:"hits,omitempty"`
}

// Faults lists the world's faults.
func (c *Client) Faults(ctx context.Context) ([]Fault, error) {
	var v items[Fault]
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/faults", nil, &v)
	return v.Items, err
}

// AddFault injects a fault and answers it with its id.
func (c *Client) AddFault(ctx context.Context, f Fault) (Fault, error) {
	var out Fault
	_, err := c.Do(ctx, http.MethodPost, "/_sandbox/faults", f, &out)
	return out, err
}

// ClearFaults removes every fault of the world and answers how many there
// were.
func (c *Client) ClearFaults(ctx context.Context) (int, error) {
	var v struct {
		Cleared int `json:"cleared"`
	}
	_, err := c.Do(ctx, http.MethodDelete, "/_sandbox/faults", nil, &v)
	return v.Cleared, err
}

// DeleteFault removes one fault.
func (c *Client) DeleteFault(ctx context.Context, id string) error {
	_, err := c.Do(ctx, http.MethodDelete, "/_sandbox/faults/"+url.PathEscape(id), nil, nil)
	return err
}

// AgentRequest is a call an agent made that waits for a person's decision.
type AgentRequest struct {
	ID            string `json:"id"`
	Status        string `json:"status"`
	LegalEntityID string `json:"legalEntityId"`
	Operation     string `json:"operation"`
	Method        string `json:"method"`
	Path          string `json:"path"`
	// Display is how the request is shown to the person deciding.
	Display   AgentRequestDisplay `json:"display"`
	CreatedAt time.Time           `json:"createdAt"`
	ExpiresAt time.Time           `json:"expiresAt"`
}

// AgentRequestDisplay is the title and description of an agent request.
type AgentRequestDisplay struct {
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
}

// AgentRequests lists the world's agent requests.
func (c *Client) AgentRequests(ctx context.Context) ([]AgentRequest, error) {
	var v items[AgentRequest]
	_, err := c.Do(ctx, http.MethodGet, "/_sandbox/agent-requests", nil, &v)
	return v.Items, err
}

// DecideAgentRequest approves (approve true) or rejects an agent request.
func (c *Client) DecideAgentRequest(ctx context.Context, id string, approve bool) (AgentRequest, error) {
	var out AgentRequest
	verb := "reject"
	if approve {
		verb = "approve"
	}
	_, err := c.Do(ctx, http.MethodPost, "/_sandbox/agent-requests/"+url.PathEscape(id)+"/"+verb, nil, &out)
	return out, err
}
