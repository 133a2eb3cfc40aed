package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/agentrequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// Approve runs a pending agent request's write as its key's owner would:
// approved, then running, then executed with the response as its result,
// or failed with the error the write met (the world may have changed since
// it was asked for). The write's own idempotency key still applies.
func (a *API) Approve(w *kernel.World, id string) (*agentrequests.Request, error) {
	if err := a.CompleteDeclared(w); err != nil {
		return nil, err
	}
	if _, err := a.transition(w, id, agentrequests.Approved); err != nil {
		return nil, err
	}
	ar, err := a.transition(w, id, agentrequests.Running)
	if err != nil {
		return nil, err
	}
	status, body := a.run(w, ar)
	err = w.Update(func(op *kernel.Op) error {
		cur, _, err := agentrequests.Find(op, id)
		if err != nil {
			return err
		}
		if status >= 200 && status < 300 {
			cur.Status, cur.Result = agentrequests.Executed, resultOf(body)
		} else {
			cur.Status, cur.FailureStatus, cur.Failure = agentrequests.Failed, status, resultOf(body)
		}
		ar = cur
		return agentrequests.Save(op, cur)
	})
	return ar, err
}

// run runs an approved agent request's write as a direct call of its route
// would, through the route's own handler: authenticated as the key that
// asked, with the stored path variables, query, headers and body, its input
// checked, its idempotency key honoured and its operation run in one
// transaction. It returns the status and body that call answers with; a
// first-generation failure is referenced by the agent request's id.
func (a *API) run(w *kernel.World, ar *agentrequests.Request) (status int, body []byte) {
	req, err := http.NewRequestWithContext(withApproval(context.Background()), ar.Method, "/", bytes.NewReader(ar.Body))
	if err != nil {
		return http.StatusInternalServerError, nil
	}
	req.URL.Path, req.URL.RawQuery = ar.Path, ar.Query
	for k, v := range ar.Header {
		req.Header.Set(k, v)
	}
	req.Header.Set("X-API-Key", ar.APIKey)
	req = web.WithInfo(mux.SetURLVars(req, ar.Vars),
		&web.Info{RequestID: ar.ID, Route: ar.Route, Reference: w.ReferenceID})
	h, ok := a.handlers[ar.Route]
	if !ok {
		h = web.Handler{Gen: web.GenOf(ar.Path), Fn: func(*http.Request) (any, error) {
			return nil, kernel.Errorf(kernel.CodeNotFound, "no route %s for %s %s", ar.Route, ar.Method, ar.Path)
		}}
	}
	return h.Answer(req)
}

func resultOf(body []byte) json.RawMessage {
	if json.Valid(body) {
		return append(json.RawMessage(nil), body...)
	}
	raw, _ := json.Marshal(map[string]string{"text": string(body)})
	return raw
}

// Reject refuses a pending agent request; nothing is written.
func (a *API) Reject(w *kernel.World, id string) (*agentrequests.Request, error) {
	if err := a.CompleteDeclared(w); err != nil {
		return nil, err
	}
	return a.transition(w, id, agentrequests.Rejected)
}

// transition moves an agent request on: only a pending one may be approved
// or rejected, and only an approved one may start running.
func (a *API) transition(w *kernel.World, id, to string) (*agentrequests.Request, error) {
	var ar *agentrequests.Request
	err := w.Update(func(op *kernel.Op) error {
		var ok bool
		var err error
		if ar, ok, err = agentrequests.Find(op, id); err != nil {
			return err
		}
		if !ok {
			return kernel.NotFound("agent request", "id", id)
		}
		from := agentrequests.Pending
		if to == agentrequests.Running {
			from = agentrequests.Approved
		}
		if ar.Status != from {
			return kernel.Errorf(kernel.CodeConflict, "agent request %s is %s, not %s", id, ar.Status, from).
				With("status", ar.Status)
		}
		if from == agentrequests.Pending {
			if err := op.CancelEvent(ar.ExpiryEvent); err != nil {
				return err
			}
		}
		ar.Status = to
		return agentrequests.Save(op, ar)
	})
	return ar, err
}
