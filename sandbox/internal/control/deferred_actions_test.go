package control_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// approvalLink reads the approval URL out of a deferred write's body.
func approvalLink(t *testing.T, r *apitest.Resp) *url.URL {
	t.Helper()
	raw := strings.TrimPrefix(r.JSON(t)["error"].(string), "Action requires approval: ")
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatalf("approval URL %q: %v", raw, err)
	}
	return u
}

// marketingCard is the docs' example of a deferred write.
var marketingCard = map[string]any{"name": "Marketing Card", "type": "virtual"}

// cardsNamed counts acme's cards with this name.
func cardsNamed(t *testing.T, e *apitest.Env, key, name string) int {
	t.Helper()
	n := 0
	for _, c := range apitest.WalkItems(t, e, key, "", "/card") {
		if c["name"] == name {
			n++
		}
	}
	return n
}

// TestDeferredWriteAnswersAsTheDocsShow follows the published example: a
// read-only key's POST /card answers 403 with x-deferred-action-id and
// {"error": "Action requires approval: <URL>"}, nothing is created, and
// the key reads the request back as pending.
func TestDeferredWriteAnswersAsTheDocsShow(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	ro := "sk_sandbox_acme_readonly"
	before := cardsNamed(t, e, "sk_sandbox_acme", "Marketing Card")
	r := e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: ro, Body: marketingCard,
		Host: "sandbox.example.test:4010", Header: map[string]string{"Origin": "http://app.test"}})
	id := apitest.Deferred(t, r)
	if got, want := r.Request.Host, "sandbox.example.test:4010"; got != want {
		t.Fatalf("the request went with Host %q, want %q", got, want)
	}
	if u := approvalLink(t, r); u.Scheme != "http" || u.Host != "sandbox.example.test:4010" {
		t.Errorf("approval URL %s: want http on the request's host", u)
	}
	if got := r.Header.Get("Access-Control-Expose-Headers"); !strings.Contains(got, "x-deferred-action-id") {
		t.Errorf("Access-Control-Expose-Headers = %q: a browser cannot read x-deferred-action-id", got)
	}
	if n := cardsNamed(t, e, "sk_sandbox_acme", "Marketing Card"); n != before {
		t.Fatalf("%d cards named Marketing Card after the deferral, %d before", n, before)
	}
	var ar apitest.AgentView
	e.Get("/agent-request/"+id, ro, "").Status(t, 200).Decode(t, &ar)
	if ar.ID != id || ar.Status != "pending" || ar.Result != nil {
		t.Fatalf("agent request = %+v, want %s pending with no result", ar, id)
	}
	// The docs' example display of exactly this request.
	if got, want := ar.Display.Title, "Create Virtual Card"; got != want {
		t.Errorf("title = %q, want %q", got, want)
	}
	if got, want := fmt.Sprint(ar.Display.Sections), "[{Card Name Marketing Card} {Type Virtual}]"; got != want {
		t.Errorf("sections = %s, want %s", got, want)
	}

	t.Run("behind a TLS proxy the URL is https", func(t *testing.T) {
		r := e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: ro, Body: marketingCard,
			Host: "sandbox.example.test", Header: map[string]string{"X-Forwarded-Proto": "https"}})
		apitest.Deferred(t, r)
		if u := approvalLink(t, r); u.Scheme != "https" || u.Host != "sandbox.example.test" {
			t.Errorf("approval URL %s, want https://sandbox.example.test/…", u)
		}
	})
	t.Run("the same seed gives the same ids", func(t *testing.T) {
		other := apitest.New(t, apitest.Options{})
		again := apitest.Deferred(
			t,
			other.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: ro, Body: marketingCard}),
		)
		if again != id {
			t.Errorf("a second sandbox with the same seed named its first agent request %s, the first %s", again, id)
		}
	})
}

// TestApprovalURLOpensTheDashboard follows the link: it serves the
// dashboard even to a navigation from another site with an admin token
// configured, the control API shows the request the page renders, and
// rejecting it changes nothing.
func TestApprovalURLOpensTheDashboard(t *testing.T) {
	t.Parallel()
	const token = "s3cret"
	e := apitest.New(t, apitest.Options{AdminToken: token})
	admin := map[string]string{"X-Admin-Token": token}
	ro := "sk_sandbox_acme_readonly"
	r := e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: ro, Body: marketingCard})
	id := apitest.Deferred(t, r)
	link := approvalLink(t, r)
	if got := link.Query().Get("world"); got != "default" {
		t.Errorf("approval URL %s names world %q, want default", link, got)
	}

	navigation := map[string]string{
		"Sec-Fetch-Mode": "navigate",
		"Sec-Fetch-Dest": "document",
		"Sec-Fetch-Site": "cross-site",
	}
	page := e.Do(apitest.Req{Path: link.RequestURI(), Header: navigation}).Status(t, http.StatusOK)
	if ct := page.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") ||
		!strings.Contains(string(page.Raw), `src="/_sandbox/ui/app.js"`) {
		t.Fatalf("the approval URL answered %s: %.200s", ct, page.Raw)
	}

	e.Get("/_sandbox/agent-requests/"+id, "", "").Gen2(t, http.StatusUnauthorized, "unauthorized")
	var shown apitest.AgentView
	e.Do(apitest.Req{Path: "/_sandbox/agent-requests/" + id, Header: admin}).Status(t, 200).Decode(t, &shown)
	if shown.ID != id || shown.Status != "pending" || shown.Display.Title == "" || len(shown.Display.Sections) == 0 ||
		shown.Display.Description == "" {
		t.Fatalf("the page's request = %+v, want it pending with title, sections and description", shown)
	}
	e.Do(apitest.Req{Path: "/_sandbox/agent-requests/dfa_nope", Header: admin}).
		Gen2(t, http.StatusNotFound, "not_found")

	got := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/agent-requests/" + id + "/reject", Header: admin}).
		Status(t, 200).
		JSON(t)
	if got["status"] != "rejected" {
		t.Fatalf("reject = %v", got)
	}
	if n := cardsNamed(t, e, "sk_sandbox_acme", "Marketing Card"); n != 0 {
		t.Fatalf("a rejected card create made %d cards", n)
	}
	if got := e.Get("/agent-request/"+id, ro, "").Status(t, 200).JSON(t); got["status"] != "rejected" ||
		got["result"] != nil {
		t.Fatalf("after rejection the key reads %v", got)
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/agent-requests/" + id + "/approve", Header: admin}).
		Gen2(t, http.StatusConflict, "conflict")
}

// TestDeferredWriteInAnotherWorld: the link of a write made in a world
// other than the default one opens that world, whose control API approves
// it; the default world knows nothing of it.
func TestDeferredWriteInAnotherWorld(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	w := apitest.CreateWorld(t, e, `{"scenario":"demo"}`)
	ro, acme := "sk_sandbox_acme_readonly_"+w.ID, "sk_sandbox_acme_"+w.ID
	r := e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: ro, Body: marketingCard})
	id := apitest.Deferred(t, r)
	if got := approvalLink(t, r).Query().Get("world"); got != w.ID {
		t.Fatalf("approval URL names world %q, want %s", got, w.ID)
	}
	e.Get("/_sandbox/agent-requests/"+id, "", "").Gen2(t, http.StatusNotFound, "not_found")
	e.Get("/_sandbox/worlds/"+w.ID+"/agent-requests/"+id, "", "").Status(t, 200)

	done := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/agent-requests/" + id + "/approve",
		Header: map[string]string{"X-Sandbox-World": w.ID}}).Status(t, 200).JSON(t)
	if done["status"] != "executed" {
		t.Fatalf("approve = %v", done)
	}
	var ar apitest.AgentView
	e.Get("/agent-request/"+id, ro, "").Status(t, 200).Decode(t, &ar)
	cardID, _ := ar.Result["id"].(string)
	if ar.Status != "executed" || ar.Result["name"] != "Marketing Card" || cardID == "" {
		t.Fatalf("after approval the key reads %+v", ar)
	}
	card := e.Get("/card/"+cardID, acme, "").Status(t, 200).JSON(t)
	for _, k := range []string{"id", "name", "status", "accountId", "last4"} {
		if card[k] != ar.Result[k] {
			t.Errorf("result %s = %v, the card reads %v", k, ar.Result[k], card[k])
		}
	}
	if n := cardsNamed(t, e, "sk_sandbox_acme", "Marketing Card"); n != 0 {
		t.Errorf("the approval in %s made %d cards in the default world", w.ID, n)
	}
}
