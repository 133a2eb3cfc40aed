package server_test

import (
	"net/http"
	"testing"
)

// agentView is an agent request as the tests read it; the golden files
// agent_request.get (pending), agent_request.executed and
// agent_request.failed pin its shape.
type agentView struct {
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

// firstTransaction returns the id and note of acme's newest transaction.
func firstTransaction(t *testing.T, e *env) (string, string) {
	t.Helper()
	var pg struct {
		Items []struct {
			ID   string `json:"id"`
			Note string `json:"note"`
		} `json:"items"`
	}
	e.get("/transaction", "sk_sandbox_acme", "").status(t, 200).decode(t, &pg)
	return pg.Items[0].ID, pg.Items[0].Note
}

func note(e *env, key, le, txn, body string) *resp {
	return e.do(req{method: http.MethodPatch, path: "/transaction/" + txn + "/note", key: key, le: le, body: body})
}

// defer1 has a read-only key ask for a note and returns the agent request
// as the key reads it.
func defer1(t *testing.T, e *env, key, le, txn, body string) agentView {
	t.Helper()
	id := deferred(t, note(e, key, le, txn, body))
	var ar agentView
	e.get("/agent-request/"+id, key, le).status(t, 200).decode(t, &ar)
	if ar.ID != id {
		t.Fatalf("GET /agent-request/%s answered the agent request %q", id, ar.ID)
	}
	return ar
}

func TestReadOnlyWritesAreDeferred(t *testing.T) {
	e := newEnv(t, options{})
	txn, before := firstTransaction(t, e)
	note(e, "sk_sandbox_acme", "", txn, `{"note":"first"}`).status(t, 200)

	ar := defer1(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"needs a receipt"}`)
	if ar.Status != "pending" || ar.Display.Title != "Update Transaction Note" || ar.Result != nil {
		t.Fatalf("agent request = %+v", ar)
	}
	if len(ar.Display.Sections) != 1 || ar.Display.Sections[0].Label != "Note" {
		t.Fatalf("sections = %+v", ar.Display.Sections)
	}
	change, _ := ar.Display.Sections[0].Value.(map[string]any)
	if change["oldValue"] != "first" || change["newValue"] != "needs a receipt" {
		t.Fatalf("change = %v, want first → needs a receipt", ar.Display.Sections[0].Value)
	}
	if _, now := firstTransaction(t, e); now != "first" {
		t.Fatalf("a deferred write changed the note to %q (was %q)", now, before)
	}
	t.Run("bad input is still a 400 right away", func(t *testing.T) {
		note(e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":42}`).gen1(t, 400, "invalid_request")
		note(e, "sk_sandbox_carol_readonly", "le_acme", txn, `{}`).gen1(t, 400, "invalid_request")
		list := e.get("/agent-request", "sk_sandbox_carol_readonly", "le_acme").status(t, 200).json(t)
		if n := len(list["items"].([]any)); n != 1 {
			t.Fatalf("%d agent requests after refused input, want 1", n)
		}
	})
}

func TestAgentRequestsAreScopedToTheirKey(t *testing.T) {
	e := newEnv(t, options{})
	txn, _ := firstTransaction(t, e)
	carol := defer1(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"carol"}`)
	mine := defer1(t, e, "sk_sandbox_acme_readonly", "", txn, `{"note":"assistant"}`)
	var list struct {
		Items []agentView `json:"items"`
	}
	e.get("/agent-request", "sk_sandbox_acme_readonly", "").status(t, 200).decode(t, &list)
	// Newest first: this one, then the card the demo's assistant asked
	// for before the world opened.
	if len(list.Items) != 2 || list.Items[0].ID != mine.ID || list.Items[1].Display.Title != "Create Virtual Card" {
		t.Fatalf("assistant key lists %+v", list.Items)
	}
	e.get("/agent-request/"+carol.ID, "sk_sandbox_acme_readonly", "").gen1(t, 404, "not_found")
	e.get("/agent-request/"+carol.ID, "sk_sandbox_acme", "").gen1(t, 404, "not_found")
	got := e.get("/agent-request/"+carol.ID, "sk_sandbox_carol_readonly", "le_acme").status(t, 200).json(t)
	if got["id"] != carol.ID || got["status"] != "pending" {
		t.Fatalf("get = %v", got)
	}
	e.get("/agent-request?filter:status=executed", "sk_sandbox_carol_readonly", "le_acme").status(t, 200).decode(t, &list)
	if len(list.Items) != 0 {
		t.Fatalf("executed filter lists %+v", list.Items)
	}
	e.get("/agent-request?filter:status=sleeping", "sk_sandbox_carol_readonly", "le_acme").gen1(t, 400, "invalid_request")
	all := e.get("/_sandbox/agent-requests?status=pending", "", "").status(t, 200).json(t)["items"].([]any)
	// Both, and the demo's own.
	if len(all) != 3 {
		t.Fatalf("control API lists %d pending, want 3", len(all))
	}
}

func decide(e *env, id, verb string) *resp {
	return e.do(req{method: http.MethodPost, path: "/_sandbox/agent-requests/" + id + "/" + verb})
}

func TestApproveRunsTheWriteAsADirectCallWould(t *testing.T) {
	e := newEnv(t, options{})
	txn, _ := firstTransaction(t, e)
	ar := defer1(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"approved note"}`)
	got := decide(e, ar.ID, "approve").status(t, 200).json(t)
	if got["status"] != "executed" || got["operation"] != "transaction.note.update" {
		t.Fatalf("approve = %v", got)
	}
	if _, n := firstTransaction(t, e); n != "approved note" {
		t.Fatalf("note after approval = %q", n)
	}
	var view agentView
	executed := e.get("/agent-request/"+ar.ID, "sk_sandbox_carol_readonly", "le_acme").status(t, 200)
	golden(t, "agent_request.executed", executed.body)
	executed.decode(t, &view)
	if view.Status != "executed" || view.Result["success"] != true {
		t.Fatalf("executed request = %+v", view)
	}
	decide(e, ar.ID, "approve").gen2(t, 409, "conflict")
	decide(e, ar.ID, "reject").gen2(t, 409, "conflict")
	decide(e, "dfa_nope", "approve").gen2(t, 404, "not_found")
}

func TestApprovalFailsWhenTheWorldSaysNo(t *testing.T) {
	e := newEnv(t, options{})
	ar := defer1(t, e, "sk_sandbox_carol_readonly", "le_acme", "txn_doesnotexist", `{"note":"x"}`)
	got := decide(e, ar.ID, "approve").status(t, 200).json(t)
	if got["status"] != "failed" || got["failureStatus"] != float64(404) {
		t.Fatalf("approve = %v", got)
	}
	failure := got["failure"].(map[string]any)
	if failure["identifier"] != "not_found" {
		t.Fatalf("failure = %v", failure)
	}
	var view agentView
	failed := e.get("/agent-request/"+ar.ID, "sk_sandbox_carol_readonly", "le_acme").status(t, 200)
	golden(t, "agent_request.failed", failed.body)
	failed.decode(t, &view)
	if view.Status != "failed" || view.Result != nil {
		t.Fatalf("failed request = %+v", view)
	}
}

func TestDeferredWriteToAnEscapedPath(t *testing.T) {
	e := newEnv(t, options{})
	ar := defer1(t, e, "sk_sandbox_carol_readonly", "le_acme", "txn%20with%20spaces", `{"note":"x"}`)
	if ar.Display.Description != "PATCH /transaction/txn with spaces/note" {
		t.Fatalf("description = %q", ar.Display.Description)
	}
	got := decide(e, ar.ID, "approve").status(t, 200).json(t)
	if got["status"] != "failed" || got["failureStatus"] != float64(404) {
		t.Fatalf("approve = %v, want the write run and refused with 404", got)
	}
}

func TestRejectAndExpire(t *testing.T) {
	e := newEnv(t, options{})
	txn, _ := firstTransaction(t, e)
	rejected := defer1(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"no"}`)
	if got := decide(e, rejected.ID, "reject").status(t, 200).json(t); got["status"] != "rejected" {
		t.Fatalf("reject = %v", got)
	}
	if _, n := firstTransaction(t, e); n == "no" {
		t.Fatal("a rejected request was written")
	}
	waiting := defer1(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"later"}`)
	advance(t, e, `{"by":"71h"}`)
	if got := e.get("/agent-request/"+waiting.ID, "sk_sandbox_carol_readonly",
		"le_acme").json(t); got["status"] != "pending" {
		t.Fatalf("after 71h: %v", got)
	}
	res := advance(t, e, `{"by":"2h"}`)
	// The demo's own pending request expires in these hours too; count
	// this test's.
	var expiries int
	for _, ev := range res["events"].([]any) {
		ev := ev.(map[string]any)
		payload, _ := ev["payload"].(map[string]any)
		if ev["kind"] == "agent_request.expire" &&
			(payload["agentRequestId"] == waiting.ID || payload["agentRequestId"] == rejected.ID) {
			expiries++
		}
	}
	if expiries != 1 {
		t.Fatalf("%d expiry events ran, want 1 (the rejected one was canceled)", expiries)
	}
	if got := e.get("/agent-request/"+waiting.ID, "sk_sandbox_carol_readonly",
		"le_acme").json(t); got["status"] != "expired" {
		t.Fatalf("after 73h: %v", got)
	}
	decide(e, waiting.ID, "approve").gen2(t, 409, "conflict")
}

func TestDeferralOfAnOddPathIsNotAnError(t *testing.T) {
	e := newEnv(t, options{})
	id := deferred(
		t,
		e.do(
			req{method: http.MethodPatch, path: "/transaction/%20/note", key: "sk_sandbox_acme_readonly", body: `{"note":"x"}`},
		),
	)
	if got := decide(e, id, "approve").status(t, 200).json(t); got["status"] != "failed" ||
		got["failureStatus"] != float64(404) {
		t.Fatalf("approval = %v", got)
	}
}
