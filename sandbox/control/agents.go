package control

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox"
	"github.com/slash-sandbox/slash-sandbox/sandbox/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/web"
)

// Agents approves and rejects agent requests; the public API implements it.
type Agents interface {
	Approve(w *sandbox.World, id string) (*sandbox.AgentRequest, error)
	Reject(w *sandbox.World, id string) (*sandbox.AgentRequest, error)
}

func (c *Control) routesAgents(s *mux.Router) {
	route := func(method, path, name string, fn web.Func) { web.Route(s, web.Gen2, method, path, name, fn) }
	route(http.MethodGet, "/agent-requests", "sandbox.agent_requests", c.agentRequests)
	route(http.MethodGet, "/agent-requests/settings", "sandbox.agent_requests.settings", c.agentSettings)
	route(http.MethodPut, "/agent-requests/settings", "sandbox.agent_requests.settings.set", c.setAgentSettings)
	route(http.MethodGet, "/agent-requests/{id}", "sandbox.agent_request", c.agentRequest)
	route(http.MethodPost, "/agent-requests/{id}/approve", "sandbox.agent_request.approve", c.approveAgentRequest)
	route(http.MethodPost, "/agent-requests/{id}/reject", "sandbox.agent_request.reject", c.rejectAgentRequest)
}

// agentRequestView is the control API's full view: the public shape plus
// what was asked for and what it met.
type agentRequestView struct {
	ID            string            `json:"id"`
	Status        string            `json:"status"`
	LegalEntityID string            `json:"legalEntityId"`
	APIKey        string            `json:"apiKey"`
	Operation     string            `json:"operation"`
	Method        string            `json:"method"`
	Path          string            `json:"path"`
	Body          json.RawMessage   `json:"body,omitempty"`
	Display       sandbox.Display   `json:"display"`
	Result        json.RawMessage   `json:"result,omitempty"`
	FailureStatus int               `json:"failureStatus,omitempty"`
	Failure       json.RawMessage   `json:"failure,omitempty"`
	Header        map[string]string `json:"header"`
	CreatedAt     string            `json:"createdAt"`
	UpdatedAt     string            `json:"updatedAt"`
	ExpiresAt     string            `json:"expiresAt"`
}

func agentView(ar *sandbox.AgentRequest) agentRequestView {
	v := agentRequestView{ID: ar.ID, Status: ar.Status, LegalEntityID: ar.LegalEntityID, APIKey: ar.APIKey,
		Operation: ar.Route, Method: ar.Method, Path: ar.Path, Display: ar.Display, Result: ar.Result,
		FailureStatus: ar.FailureStatus, Failure: ar.Failure, Header: ar.Header,
		CreatedAt: ts(ar.CreatedAt), UpdatedAt: ts(ar.UpdatedAt), ExpiresAt: ts(ar.ExpiresAt)}
	if json.Valid(ar.Body) {
		v.Body = ar.Body
	}
	return v
}

func (c *Control) agentRequests(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	status := r.URL.Query().Get("status")
	if status != "" && !slices.Contains(sandbox.AgentStatuses, status) {
		return nil, sandbox.InvalidField("status", "must be one of "+strings.Join(sandbox.AgentStatuses, ", "))
	}
	var page sandbox.Page[sandbox.AgentRequest]
	err = w.View(func(op *sandbox.Op) error {
		page, err = op.AgentRequests(status, sandbox.PageRequest{Size: 500})
		return err
	})
	if err != nil {
		return nil, err
	}
	items := make([]agentRequestView, len(page.Items))
	for i := range page.Items {
		items[i] = agentView(&page.Items[i])
	}
	return map[string]any{"items": items}, nil
}

// agentRequest is one agent request of the world, whoever asked for it:
// what the approval page shows.
func (c *Control) agentRequest(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	id := mux.Vars(r)["id"]
	var ar *sandbox.AgentRequest
	err = w.View(func(op *sandbox.Op) error {
		var ok bool
		ar, ok, err = op.AgentRequest(id)
		if err == nil && !ok {
			err = sandbox.NotFound("agent request", "id", id)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return agentView(ar), nil
}

func (c *Control) decide(r *http.Request, fn func(*sandbox.World, string) (*sandbox.AgentRequest, error)) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	ar, err := fn(w, mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	return agentView(ar), nil
}

func (c *Control) approveAgentRequest(r *http.Request) (any, error) {
	return c.decide(r, c.Agents.Approve)
}

func (c *Control) rejectAgentRequest(r *http.Request) (any, error) {
	return c.decide(r, c.Agents.Reject)
}

// agentSettings is how long pending agent requests wait for a person.
type agentSettings struct {
	ExpiresAfter string `json:"expiresAfter"`
}

func (c *Control) agentSettings(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var out agentSettings
	err = w.View(func(op *sandbox.Op) error {
		out.ExpiresAfter = op.AgentExpiry().String()
		return nil
	})
	return out, err
}

// setAgentSettings changes the expiry of agent requests created from now
// on; pending ones keep the expiry they were given.
func (c *Control) setAgentSettings(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var in agentSettings
	if err := web.Decode(r, &in, true); err != nil {
		return nil, err
	}
	d, err := scenario.ParseDuration(in.ExpiresAfter)
	if err != nil || d < time.Minute {
		return nil, sandbox.InvalidField("/expiresAfter", "must be a duration of at least 1m, such as 72h or 7d")
	}
	if err := w.Update(func(op *sandbox.Op) error { return op.SetAgentExpiry(d) }); err != nil {
		return nil, err
	}
	return agentSettings{ExpiresAfter: d.String()}, nil
}
