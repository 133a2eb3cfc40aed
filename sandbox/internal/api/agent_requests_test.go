package api_test

import (
	"net/http"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func TestReadOnlyWritesAreDeferred(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	txn, before := apitest.FirstTransaction(t, e)
	apitest.Note(e, "sk_sandbox_acme", "", txn, `{"note":"first"}`).Status(t, 200)

	ar := apitest.DeferNote(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"needs a receipt"}`)
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
	if _, now := apitest.FirstTransaction(t, e); now != "first" {
		t.Fatalf("a deferred write changed the note to %q (was %q)", now, before)
	}
	t.Run("bad input is still a 400 right away", func(t *testing.T) {
		apitest.Note(e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":42}`).Gen1(t, 400, "invalid_request")
		apitest.Note(e, "sk_sandbox_carol_readonly", "le_acme", txn, `{}`).Gen1(t, 400, "invalid_request")
		list := e.Get("/agent-request", "sk_sandbox_carol_readonly", "le_acme").Status(t, 200).JSON(t)
		if n := len(list["items"].([]any)); n != 1 {
			t.Fatalf("%d agent requests after refused input, want 1", n)
		}
	})
}

func TestAgentRequestsAreScopedToTheirKey(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	txn, _ := apitest.FirstTransaction(t, e)
	carol := apitest.DeferNote(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"carol"}`)
	mine := apitest.DeferNote(t, e, "sk_sandbox_acme_readonly", "", txn, `{"note":"assistant"}`)
	var list struct {
		Items []apitest.AgentView `json:"items"`
	}
	e.Get("/agent-request", "sk_sandbox_acme_readonly", "").Status(t, 200).Decode(t, &list)
	// Newest first: this one, then the card the demo's assistant asked
	// for before the world opened.
	if len(list.Items) != 2 || list.Items[0].ID != mine.ID || list.Items[1].Display.Title != "Create Virtual Card" {
		t.Fatalf("assistant key lists %+v", list.Items)
	}
	e.Get("/agent-request/"+carol.ID, "sk_sandbox_acme_readonly", "").Gen1(t, 404, "not_found")
	e.Get("/agent-request/"+carol.ID, "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
	got := e.Get("/agent-request/"+carol.ID, "sk_sandbox_carol_readonly", "le_acme").Status(t, 200).JSON(t)
	if got["id"] != carol.ID || got["status"] != "pending" {
		t.Fatalf("get = %v", got)
	}
	e.Get("/agent-request?filter:status=executed", "sk_sandbox_carol_readonly", "le_acme").
		Status(t, 200).
		Decode(t, &list)
	if len(list.Items) != 0 {
		t.Fatalf("executed filter lists %+v", list.Items)
	}
	e.Get("/agent-request?filter:status=sleeping", "sk_sandbox_carol_readonly", "le_acme").
		Gen1(t, 400, "invalid_request")
	all := e.Get("/_sandbox/agent-requests?status=pending", "", "").Status(t, 200).JSON(t)["items"].([]any)
	// Both, and the demo's own.
	if len(all) != 3 {
		t.Fatalf("control API lists %d pending, want 3", len(all))
	}
}

func TestApproveRunsTheWriteAsADirectCallWould(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	txn, _ := apitest.FirstTransaction(t, e)
	ar := apitest.DeferNote(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"approved note"}`)
	got := apitest.Decide(e, ar.ID, "approve").Status(t, 200).JSON(t)
	if got["status"] != "executed" || got["operation"] != "transaction.note.update" {
		t.Fatalf("approve = %v", got)
	}
	if _, n := apitest.FirstTransaction(t, e); n != "approved note" {
		t.Fatalf("note after approval = %q", n)
	}
	var view apitest.AgentView
	executed := e.Get("/agent-request/"+ar.ID, "sk_sandbox_carol_readonly", "le_acme").Status(t, 200)
	apitest.Golden(t, "agent_request.executed", executed.Raw)
	executed.Decode(t, &view)
	if view.Status != "executed" || view.Result["success"] != true {
		t.Fatalf("executed request = %+v", view)
	}
	apitest.Decide(e, ar.ID, "approve").Gen2(t, 409, "conflict")
	apitest.Decide(e, ar.ID, "reject").Gen2(t, 409, "conflict")
	apitest.Decide(e, "dfa_nope", "approve").Gen2(t, 404, "not_found")
}

func TestApprovalFailsWhenTheWorldSaysNo(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	ar := apitest.DeferNote(t, e, "sk_sandbox_carol_readonly", "le_acme", "txn_doesnotexist", `{"note":"x"}`)
	got := apitest.Decide(e, ar.ID, "approve").Status(t, 200).JSON(t)
	if got["status"] != "failed" || got["failureStatus"] != float64(404) {
		t.Fatalf("approve = %v", got)
	}
	failure := got["failure"].(map[string]any)
	if failure["identifier"] != "not_found" {
		t.Fatalf("failure = %v", failure)
	}
	var view apitest.AgentView
	failed := e.Get("/agent-request/"+ar.ID, "sk_sandbox_carol_readonly", "le_acme").Status(t, 200)
	apitest.Golden(t, "agent_request.failed", failed.Raw)
	failed.Decode(t, &view)
	if view.Status != "failed" || view.Result != nil {
		t.Fatalf("failed request = %+v", view)
	}
}

func TestDeferredWriteToAnEscapedPath(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	ar := apitest.DeferNote(t, e, "sk_sandbox_carol_readonly", "le_acme", "txn%20with%20spaces", `{"note":"x"}`)
	if ar.Display.Description != "PATCH /transaction/txn with spaces/note" {
		t.Fatalf("description = %q", ar.Display.Description)
	}
	got := apitest.Decide(e, ar.ID, "approve").Status(t, 200).JSON(t)
	if got["status"] != "failed" || got["failureStatus"] != float64(404) {
		t.Fatalf("approve = %v, want the write run and refused with 404", got)
	}
}

func TestRejectAndExpire(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	txn, _ := apitest.FirstTransaction(t, e)
	rejected := apitest.DeferNote(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"no"}`)
	if got := apitest.Decide(e, rejected.ID, "reject").Status(t, 200).JSON(t); got["status"] != "rejected" {
		t.Fatalf("reject = %v", got)
	}
	if _, n := apitest.FirstTransaction(t, e); n == "no" {
		t.Fatal("a rejected request was written")
	}
	waiting := apitest.DeferNote(t, e, "sk_sandbox_carol_readonly", "le_acme", txn, `{"note":"later"}`)
	apitest.Advance(t, e, `{"by":"71h"}`)
	if got := e.Get("/agent-request/"+waiting.ID, "sk_sandbox_carol_readonly",
		"le_acme").JSON(t); got["status"] != "pending" {
		t.Fatalf("after 71h: %v", got)
	}
	res := apitest.Advance(t, e, `{"by":"2h"}`)
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
	if got := e.Get("/agent-request/"+waiting.ID, "sk_sandbox_carol_readonly",
		"le_acme").JSON(t); got["status"] != "expired" {
		t.Fatalf("after 73h: %v", got)
	}
	apitest.Decide(e, waiting.ID, "approve").Gen2(t, 409, "conflict")
}

func TestDeferralOfAnOddPathIsNotAnError(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	id := apitest.Deferred(
		t,
		e.Do(
			apitest.Req{
				Method: http.MethodPatch,
				Path:   "/transaction/%20/note",
				Key:    "sk_sandbox_acme_readonly",
				Body:   `{"note":"x"}`,
			},
		),
	)
	if got := apitest.Decide(e, id, "approve").Status(t, 200).JSON(t); got["status"] != "failed" ||
		got["failureStatus"] != float64(404) {
		t.Fatalf("approval = %v", got)
	}
}
