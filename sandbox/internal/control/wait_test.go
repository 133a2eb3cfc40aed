package control_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

// answer is a response read off the test's goroutine.
type answer struct {
	status int
	body   []byte
	err    error
}

// waitAsync runs a GET in the background and hands its answer back on the
// returned channel; cancel stops it as a client going away would.
func waitAsync(e *apitest.Env, path string) (<-chan answer, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	out := make(chan answer, 1)
	go func() {
		hr, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.Server.URL+path, nil)
		res, err := http.DefaultClient.Do(hr)
		if err != nil {
			out <- answer{err: err}
			return
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		out <- answer{status: res.StatusCode, body: b, err: err}
	}()
	return out, cancel
}

type waitedMessage struct {
	ID        string   `json:"id"`
	Kind      string   `json:"kind"`
	To        []string `json:"to"`
	Subject   string   `json:"subject"`
	RelatedID string   `json:"relatedId"`
}

func TestOutboxWaitAnswersTheEmailOnceItIsSent(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	waiting, cancel := waitAsync(e, "/_sandbox/outbox/wait?to=HELLO@pixelforge.test&subject=acme&timeout=60s")
	defer cancel()
	ir := apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", "wait-1", apitest.ValidIR).Status(t, 200).JSON(t)
	got := <-waiting
	if got.err != nil || got.status != http.StatusOK {
		t.Fatalf("wait = %d %s, %v", got.status, got.body, got.err)
	}
	var m waitedMessage
	if err := json.Unmarshal(got.body, &m); err != nil {
		t.Fatal(err)
	}
	if m.RelatedID != ir["id"] || len(m.To) != 1 || m.To[0] != "hello@pixelforge.test" || m.Kind != "information_request" {
		t.Fatalf("waited message = %+v, want the information request's email", m)
	}

	// The same wait, now that the email exists, answers at once with it;
	// after it, only a newer email matches.
	var again waitedMessage
	e.Get("/_sandbox/outbox/wait?to=hello@pixelforge.test&timeout=1s", "", "").Status(t, 200).Decode(t, &again)
	if again.ID != m.ID {
		t.Fatalf("second wait = %s, want %s", again.ID, m.ID)
	}
	d := e.Get("/_sandbox/outbox/wait?to=hello@pixelforge.test&timeout=20ms&after="+m.ID, "", "").
		Gen2(t, http.StatusRequestTimeout, "timeout")
	if d["timeout"] != "20ms" {
		t.Fatalf("timeout details = %v", d)
	}
	waiting, cancel2 := waitAsync(e, "/_sandbox/outbox/wait?kind=information_request&timeout=60s&after="+m.ID)
	defer cancel2()
	second := apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", "wait-2",
		strings.Replace(apitest.ValidIR, "le_c_pixelforge", "le_c_danaconsulting", 1)).Status(t, 200).JSON(t)
	got = <-waiting
	var next waitedMessage
	if err := json.Unmarshal(got.body, &next); err != nil || got.status != http.StatusOK ||
		next.RelatedID != second["id"] {
		t.Fatalf("wait after %s = %d %s, want the second request's email", m.ID, got.status, got.body)
	}
	// A filter nothing matches runs out of time.
	e.Get("/_sandbox/outbox/wait?subject=no+such+subject&timeout=10ms", "", "").
		Gen2(t, http.StatusRequestTimeout, "timeout")
	e.Get("/_sandbox/outbox/wait?since=2200-01-01T00:00:00Z&timeout=10ms", "", "").
		Gen2(t, http.StatusRequestTimeout, "timeout")
	// The list takes the subject filter too: a part of the subject, in
	// any case.
	var want []string
	for _, m := range apitest.Outbox(t, e, url.Values{}) {
		if strings.Contains(strings.ToLower(m.Subject), "acme-100") {
			want = append(want, m.ID)
		}
	}
	var filtered []string
	for _, m := range apitest.Outbox(t, e, url.Values{"subject": {"ACME-100"}}) {
		filtered = append(filtered, m.ID)
	}
	if len(want) == 0 || !slices.Equal(filtered, want) {
		t.Fatalf("outbox?subject=ACME-100 = %v, want %v", filtered, want)
	}
}

func TestWaitRejectsBadParameters(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	tests := []struct {
		name, path, status, field string
	}{
		{"timeout not a duration", "/_sandbox/outbox/wait?timeout=soon", "400", "timeout"},
		{"timeout over a minute", "/_sandbox/webhook-deliveries/wait?timeout=61s", "400", "timeout"},
		{"timeout zero", "/_sandbox/outbox/wait?timeout=0s", "400", "timeout"},
		{"since not a time", "/_sandbox/outbox/wait?since=yesterday", "400", "since"},
		{"unknown event", "/_sandbox/webhook-deliveries/wait?event=card.eaten&timeout=1s", "400", "event"},
		{"unknown status", "/_sandbox/webhook-deliveries/wait?status=lost&timeout=1s", "400", "status"},
		{"after names no message", "/_sandbox/outbox/wait?after=msg_nope&timeout=1s", "404", "after"},
		{"after names no delivery", "/_sandbox/webhook-deliveries/wait?after=whdel_nope&timeout=1s", "404", "after"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, code := http.StatusBadRequest, "invalid_request"
			if tt.status == "404" {
				status, code = http.StatusNotFound, "not_found"
			}
			d := e.Get(tt.path, "", "").Gen2(t, status, code)
			if _, ok := d[tt.field]; !ok && d["field"] != tt.field {
				t.Fatalf("details %v name no %s", d, tt.field)
			}
		})
	}
}

func TestDeliveryWaitFollowsADeliveryToItsStatus(t *testing.T) {
	t.Parallel()
	e := apitest.NewHookEnv(t, webhooks.Options{})
	rc := apitest.NewHookReceiver(t, e)
	hook := apitest.CreateHook(t, e, rc.URL)
	d := apitest.Trigger(t, e, hook.ID, "card.update", "card_acmeaws")
	var got apitest.DeliveryJSON
	e.Get("/_sandbox/webhook-deliveries/wait?status=succeeded&timeout=60s&webhookId="+hook.ID, "", "").
		Status(t, 200).
		Decode(t, &got)
	if got.ID != d.ID || got.Status != "succeeded" || len(got.Attempts) != 1 || !got.Attempts[0].Succeeded {
		t.Fatalf("waited delivery = %+v, want %s succeeded after one attempt", got, d.ID)
	}
	if n := len(rc.Received()); n != 1 {
		t.Fatalf("receiver got %d requests, want 1", n)
	}
	e.Get("/_sandbox/webhook-deliveries/wait?timeout=10ms&after="+d.ID, "", "").
		Gen2(t, http.StatusRequestTimeout, "timeout")
	waiting, cancel := waitAsync(e, "/_sandbox/webhook-deliveries/wait?event=card.delete&timeout=60s&after="+d.ID)
	defer cancel()
	next := apitest.Trigger(t, e, hook.ID, "card.delete", "card_acmeaws")
	a := <-waiting
	var woke apitest.DeliveryJSON
	if err := json.Unmarshal(a.body, &woke); err != nil || a.status != http.StatusOK || woke.ID != next.ID ||
		woke.Event != "card.delete" {
		t.Fatalf("wait for card.delete = %d %s, want %s", a.status, a.body, next.ID)
	}
}

func TestWaitsAreBoundedPerWorldAndEndWithTheirClientOrWorld(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	apitest.CreateWorld(t, e, `{"id":"waits","scenario":"empty"}`)
	path := "/_sandbox/worlds/waits/outbox/wait?timeout=60s"
	const limit = 32
	answers := make([]<-chan answer, limit)
	cancels := make([]context.CancelFunc, limit)
	for i := range answers {
		answers[i], cancels[i] = waitAsync(e, path)
	}
	defer func() {
		for _, cancel := range cancels {
			cancel()
		}
	}()
	// One more is refused once all of them are open. Until then a short
	// wait is admitted and runs out, and a long one that came in while a
	// short one held the last place was refused: it is sent again. Once a
	// short wait is refused, the 32 places are held by long ones.
	refused := func() map[string]string {
		for {
			r := e.Get("/_sandbox/worlds/waits/outbox/wait?timeout=1ms", "", "")
			if r.StatusCode == http.StatusConflict {
				return r.Gen2(t, http.StatusConflict, "conflict")
			}
			r.Gen2(t, http.StatusRequestTimeout, "timeout")
			for i, ch := range answers {
				select {
				case a := <-ch:
					if a.status != http.StatusConflict {
						t.Fatalf("long wait answered %d %s, %v", a.status, a.body, a.err)
					}
					answers[i], cancels[i] = waitAsync(e, path)
				default:
				}
			}
		}
	}
	if d := refused(); d["limit"] != "32" {
		t.Fatalf("refusal details = %v", d)
	}
	// Another world is not affected.
	e.Get("/_sandbox/outbox/wait?since=2200-01-01T00:00:00Z&timeout=1ms", "", "").
		Gen2(t, http.StatusRequestTimeout, "timeout")
	// A client going away frees its place.
	cancels[0]()
	if a := <-answers[0]; a.err == nil {
		t.Fatalf("canceled wait answered %d %s", a.status, a.body)
	}
	for freed := false; !freed; {
		freed = e.Get("/_sandbox/worlds/waits/outbox/wait?timeout=1ms", "", "").StatusCode == http.StatusRequestTimeout
	}
	// Deleting the world ends every wait on it.
	e.Do(apitest.Req{Method: http.MethodDelete, Path: "/_sandbox/worlds/waits"}).Status(t, 200)
	var wg sync.WaitGroup
	for _, ch := range answers[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if a := <-ch; a.status != http.StatusNotFound {
				t.Errorf("wait on a deleted world = %d %s, %v", a.status, a.body, a.err)
			}
		}()
	}
	wg.Wait()
}

// The demo's seeded emails are written once for every world made from the
// scenario; read in a spawned world, their links (an information request's
// secure form, an invoice's document) lead to that world's pages, not the
// default world's.
func TestSeededEmailLinksLeadToTheirWorld(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds", Body: `{"scenario":"demo","id":"seeded"}`}).
		Status(t, http.StatusCreated)
	for _, c := range []struct{ world, prefix, kind, page, want string }{
		{"default", "/_sandbox/forms/information-requests/", "information_request", "secureForm", "Brightside"},
		{"seeded", "/_sandbox/worlds/seeded/forms/information-requests/", "information_request", "secureForm", "Brightside"},
		{"default", "/_sandbox/documents/", "invoice", "", "ACME-100"},
		{"seeded", "/_sandbox/worlds/seeded/documents/", "invoice", "", "ACME-100"},
	} {
		var page struct {
			Items []client.Message `json:"items"`
		}
		e.Do(apitest.Req{Path: "/_sandbox/outbox?kind=" + c.kind, Header: map[string]string{"X-Sandbox-World": c.world}}).
			Status(t, 200).
			Decode(t, &page)
		if len(page.Items) == 0 {
			t.Fatalf("%s: the demo's outbox holds no %s email", c.world, c.kind)
		}
		m := page.Items[len(page.Items)-1]
		link := m.Links[c.page]
		if c.page == "" {
			for _, l := range m.Links {
				link = l
			}
		}
		u, err := url.Parse(link)
		if err != nil || !strings.HasPrefix(u.Path, c.prefix) || !strings.Contains(m.Text, link) ||
			!strings.Contains(m.HTML, link) {
			t.Fatalf("%s: %s link %q (links %v, text %q)", c.world, c.kind, link, m.Links, m.Text)
		}
		got := e.Do(apitest.Req{Path: u.Path}).Status(t, 200)
		if !strings.Contains(string(got.Raw), c.want) {
			t.Fatalf("%s: the page at %s is not the email's: %.200s", c.world, u.Path, got.Raw)
		}
	}
}
