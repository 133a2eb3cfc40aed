package control

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/agentrequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// Agents approves and rejects agent requests, and completes those a
// scenario declared; the public API implements it.
type Agents interface {
	Approve(w *kernel.World, id string) (*agentrequests.Request, error)
	Reject(w *kernel.World, id string) (*agentrequests.Request, error)
	CompleteDeclared(w *kernel.World) error
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
	ID            string                `json:"id"`
	Status        string                `json:"status"`
	LegalEntityID string                `json:"legalEntityId"`
	APIKey        string                `json:"apiKey"`
	Operation     string                `json:"operation"`
	Method        string                `json:"method"`
	Path          string                `json:"path"`
	Body          json.RawMessage       `json:"body,omitempty"`
	Display       agentrequests.Display `json:"display"`
	Result        json.RawMessage       `json:"result,omitempty"`
	FailureStatus int                   `json:"failureStatus,omitempty"`
	Failure       json.RawMessage       `json:"failure,omitempty"`
	Header        map[string]string     `json:"header"`
	CreatedAt     string                `json:"createdAt"`
	UpdatedAt     string                `json:"updatedAt"`
	ExpiresAt     string                `json:"expiresAt"`
}

func agentView(ar *agentrequests.Request) agentRequestView {
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
	if status != "" && !slices.Contains(agentrequests.Statuses, status) {
		return nil, kernel.InvalidField("status", "must be one of "+strings.Join(agentrequests.Statuses, ", "))
	}
	if err := c.Agents.CompleteDeclared(w); err != nil {
		return nil, err
	}
	var page kernel.Page[agentrequests.Request]
	err = w.View(func(op *kernel.Op) error {
		page, err = agentrequests.List(op, status, kernel.PageRequest{Size: 500})
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
	if err := c.Agents.CompleteDeclared(w); err != nil {
		return nil, err
	}
	var ar *agentrequests.Request
	err = w.View(func(op *kernel.Op) error {
		var ok bool
		ar, ok, err = agentrequests.Find(op, id)
		if err == nil && !ok {
			err = kernel.NotFound("agent request", "id", id)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return agentView(ar), nil
}

func (c *Control) decide(
	r *http.Request,
	fn func(*kernel.World, string) (*agentrequests.Request, error),
) (any, error) {
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
	err = w.View(func(op *kernel.Op) error {
		out.ExpiresAfter = agentrequests.Expiry(op).String()
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
		return nil, kernel.InvalidField("/expiresAfter", "must be a duration of at least 1m, such as 72h or 7d")
	}
	if err := w.Update(func(op *kernel.Op) error { return agentrequests.SetExpiry(op, d) }); err != nil {
		return nil, err
	}
	return agentSettings{ExpiresAfter: d.String()}, nil
}
