package api

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"

	"github.com/slash-sandbox/slash-sandbox/sandbox"
)

// Approve runs a pending agent request's write as its key's owner would:
// approved, then running, then executed with the response as its result,
// or failed with the error the write met (the world may have changed since
// it was asked for). The write's own idempotency key still applies.
func (a *API) Approve(w *sandbox.World, id string) (*sandbox.AgentRequest, error) {
	if _, err := a.transition(w, id, sandbox.AgentApproved); err != nil {
		return nil, err
	}
	ar, err := a.transition(w, id, sandbox.AgentRunning)
	if err != nil {
		return nil, err
	}
	req := httptest.NewRequest(ar.Method, "/", bytes.NewReader(ar.Body))
	req.URL.Path, req.URL.RawPath, req.URL.RawQuery = ar.Path, "", ar.Query
	for k, v := range ar.Header {
		req.Header.Set(k, v)
	}
	req.Header.Set("X-API-Key", ar.APIKey)
	req = req.WithContext(withApproval(req.Context()))
	rec := httptest.NewRecorder()
	a.Root.ServeHTTP(rec, req)
	err = w.Update(func(op *sandbox.Op) error {
		cur, _, err := op.AgentRequest(id)
		if err != nil {
			return err
		}
		if rec.Code >= 200 && rec.Code < 300 {
			cur.Status, cur.Result = sandbox.AgentExecuted, resultOf(rec.Body.Bytes())
		} else {
			cur.Status, cur.FailureStatus, cur.Failure = sandbox.AgentFailed, rec.Code, resultOf(rec.Body.Bytes())
		}
		ar = cur
		return op.SaveAgentRequest(cur)
	})
	return ar, err
}

func resultOf(body []byte) json.RawMessage {
	if json.Valid(body) {
		return append(json.RawMessage(nil), body...)
	}
	raw, _ := json.Marshal(map[string]string{"text": string(body)})
	return raw
}

// Reject refuses a pending agent request; nothing is written.
func (a *API) Reject(w *sandbox.World, id string) (*sandbox.AgentRequest, error) {
	return a.transition(w, id, sandbox.AgentRejected)
}

// transition moves an agent request on: only a pending one may be approved
// or rejected, and only an approved one may start running.
func (a *API) transition(w *sandbox.World, id, to string) (*sandbox.AgentRequest, error) {
	var ar *sandbox.AgentRequest
	err := w.Update(func(op *sandbox.Op) error {
		var ok bool
		var err error
		if ar, ok, err = op.AgentRequest(id); err != nil {
			return err
		}
		if !ok {
			return sandbox.NotFound("agent request", "id", id)
		}
		from := sandbox.AgentPending
		if to == sandbox.AgentRunning {
			from = sandbox.AgentApproved
		}
		if ar.Status != from {
			return sandbox.Errorf(sandbox.CodeConflict, "agent request %s is %s, not %s", id, ar.Status, from).With("status", ar.Status)
		}
		if from == sandbox.AgentPending {
			if err := op.CancelEvent(ar.ExpiryEvent); err != nil {
				return err
			}
		}
		ar.Status = to
		return op.SaveAgentRequest(ar)
	})
	return ar, err
}
