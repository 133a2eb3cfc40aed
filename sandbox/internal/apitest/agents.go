package apitest

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// AgentView is an agent request as the tests read it; the golden files
// agent_request.get (pending), agent_request.executed and
// agent_request.failed pin its shape.
type AgentView struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Display struct {
		Title       string `json:"title"`
		Description string `json:"description"`
		Sections    []struct {
			Label string `json:"label"`
			Value any    `json:"value"`
		} `json:"sections"`
	} `json:"display"`
	Result map[string]any `json:"result"`
}

// FirstTransaction returns the id and note of acme's newest transaction.
func FirstTransaction(t *testing.T, e *Env) (string, string) {
	t.Helper()
	var pg struct {
		Items []struct {
			ID   string `json:"id"`
			Note string `json:"note"`
		} `json:"items"`
	}
	e.Get("/transaction", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &pg)
	return pg.Items[0].ID, pg.Items[0].Note
}

// Note patches a transaction's note with key acting on le.
func Note(e *Env, key, le, txn, body string) *Resp {
	return e.Do(Req{Method: http.MethodPatch, Path: "/transaction/" + txn + "/note", Key: key, LE: le, Body: body})
}

// DeferNote has a read-only key ask for a note and returns the agent request
// as the key reads it.
func DeferNote(t *testing.T, e *Env, key, le, txn, body string) AgentView {
	t.Helper()
	id := Deferred(t, Note(e, key, le, txn, body))
	var ar AgentView
	e.Get("/agent-request/"+id, key, le).Status(t, 200).Decode(t, &ar)
	if ar.ID != id {
		t.Fatalf("GET /agent-request/%s answered the agent request %q", id, ar.ID)
	}
	return ar
}

// Decide approves or rejects an agent request through the control API
// (verb "approve" or "reject").
func Decide(e *Env, id, verb string) *Resp {
	return e.Do(Req{Method: http.MethodPost, Path: "/_sandbox/agent-requests/" + id + "/" + verb})
}

// deferredID is the form of an agent request's id: the docs show dfa_abc123.
var deferredID = regexp.MustCompile(`^dfa_[A-Za-z0-9]+$`)

// Deferred checks the answer to a read-only key's write is the real
// service's deferral: 403, the agent request's id in x-deferred-action-id,
// and a JSON body of exactly {"error": "Action requires approval: <URL>"}
// whose URL opens the request's approval page on the host the request was
// sent to. It returns the id.
func Deferred(t *testing.T, r *Resp) string {
	t.Helper()
	r.Status(t, http.StatusForbidden)
	id := r.Header.Get("x-deferred-action-id")
	if !deferredID.MatchString(id) {
		t.Fatalf("x-deferred-action-id = %q, want the form dfa_abc123; body %s", id, r.Raw)
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Fatalf("Content-Type = %q, want application/json", ct)
	}
	var body map[string]string
	r.Decode(t, &body)
	msg, ok := body["error"]
	if len(body) != 1 || !ok {
		t.Fatalf("body = %s, want exactly one property, error", r.Raw)
	}
	raw, ok := strings.CutPrefix(msg, "Action requires approval: ")
	if !ok {
		t.Fatalf("error = %q, want it to begin with \"Action requires approval: \"", msg)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		t.Fatalf("approval URL %q is not an absolute http URL (%v)", raw, err)
	}
	if u.Host != r.Request.Host {
		t.Fatalf("approval URL host = %q, want the request's host %q", u.Host, r.Request.Host)
	}
	if got, want := u.Query().Get("modal"), "/deferred-action/"+id; u.Path != "/_sandbox/ui" || got != want {
		t.Fatalf("approval URL %q: path %q, modal %q; want /_sandbox/ui and %q", raw, u.Path, got, want)
	}
	return id
}
