package cli

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// lockedBuffer is a buffer several goroutines write to.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// appRequest is one request the app under development received.
type appRequest struct {
	method string
	header http.Header
	body   []byte
}

// app is the user's application: it records what it receives and answers
// 200 "ok", or 500 while failing.
type app struct {
	*httptest.Server
	mu      sync.Mutex
	got     []appRequest
	failing bool
}

func newApp(t *testing.T) *app {
	a := &app{}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		a.mu.Lock()
		a.got = append(a.got, appRequest{method: r.Method, header: r.Header.Clone(), body: body})
		failing := a.failing
		a.mu.Unlock()
		if failing {
			http.Error(w, "app failing", http.StatusInternalServerError)
			return
		}
		io.WriteString(w, "ok")
	}))
	t.Cleanup(a.Close)
	return a
}

func (a *app) fail(on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.failing = on
}

// requestsFor lists what the app received for one event.
func (a *app) requestsFor(eventID string) []appRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []appRequest
	for _, r := range a.got {
		if r.header.Get("slash-webhook-event-id") == eventID {
			out = append(out, r)
		}
	}
	return out
}

// listenRun is slash-sandbox listen running in-process.
type listenRun struct {
	cancel  context.CancelFunc
	done    chan int
	stdout  *lockedBuffer
	stderr  *lockedBuffer
	webhook string
}

func startListen(t *testing.T, args ...string) *listenRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	l := &listenRun{cancel: cancel, done: make(chan int, 1), stdout: &lockedBuffer{}, stderr: &lockedBuffer{}}
	p := &Program{
		Stdout: l.stdout,
		Stderr: l.stderr,
		Getenv: func(string) string { return "" },
		Ready:  func(id string) { ready <- id },
	}
	go func() { l.done <- p.Run(ctx, append([]string{"listen"}, args...)) }()
	select {
	case l.webhook = <-ready:
	case code := <-l.done:
		t.Fatalf("listen exited %d before registering: %s %s", code, l.stdout, l.stderr)
	}
	return l
}

func (l *listenRun) stop(t *testing.T) {
	t.Helper()
	l.cancel()
	if code := <-l.done; code != 0 {
		t.Fatalf("listen exited %d: %s", code, l.stderr)
	}
}

// verifySlashWebhook is the verification recipe of docs/webhooks.md.
func verifySlashWebhook(publicKeyPEM, body []byte, signature string) error {
	block, _ := pem.Decode(publicKeyPEM)
	if block == nil {
		return errors.New("no PEM block in the public key")
	}
	key, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return err
	}
	rsaKey, ok := key.(*rsa.PublicKey)
	if !ok {
		return errors.New("not an RSA public key")
	}
	sig, err := base64.StdEncoding.DecodeString(signature)
	if err != nil {
		return err
	}
	digest := sha256.Sum256(body)
	return rsa.VerifyPKCS1v15(rsaKey, crypto.SHA256, digest[:], sig)
}

var printedKey = regexp.MustCompile(`(?s)-----BEGIN PUBLIC KEY-----.*?-----END PUBLIC KEY-----`)

func TestListenForwardsDeliveries(t *testing.T) {
	s := startProgram(t, nil, "--addr", "127.0.0.1:0", "--log-level", "error")
	defer s.stop(t)
	ctx := context.Background()
	c := client.New("http://" + s.addr)
	a := newApp(t)
	l := startListen(t, "--forward-to", a.URL+"/hooks", "--server", "http://"+s.addr)
	key := printedKey.FindString(l.stdout.String())
	if key == "" || !strings.Contains(l.stdout.String(), "Endpoint "+l.webhook+" of le_acme") {
		t.Fatalf("listen printed %q", l.stdout)
	}
	settle := func() {
		t.Helper()
		if _, err := c.Do(ctx, http.MethodPost, "/_sandbox/webhook-deliveries/settle", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	delivery := func(t *testing.T, webhookID, eventID string) client.Delivery {
		t.Helper()
		ds, err := c.Deliveries(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if d.EventID == eventID && d.WebhookID == webhookID {
				return d
			}
		}
		t.Fatalf("no delivery of %s to %s among %d", eventID, webhookID, len(ds))
		return client.Delivery{}
	}

	t.Run("a delivery reaches the app unchanged and the app's answer reaches the sandbox", func(t *testing.T) {
		tr, err := c.TriggerEvent(ctx, client.EventTrigger{Event: "card.update"})
		if err != nil {
			t.Fatal(err)
		}
		settle()
		got := a.requestsFor(tr.EventID)
		if len(got) != 1 {
			t.Fatalf("the app got %d requests for %s", len(got), tr.EventID)
		}
		r, d := got[0], delivery(t, l.webhook, tr.EventID)
		var sent struct {
			Headers map[string]string `json:"headers"`
			Body    string            `json:"body"`
		}
		if err := json.Unmarshal(d.Attempts[0].Request, &sent); err != nil {
			t.Fatal(err)
		}
		if r.method != http.MethodPost || string(r.body) != sent.Body ||
			!strings.Contains(sent.Body, `"entityId":"`+tr.EntityID+`"`) {
			t.Fatalf("app got %s %q, the sandbox sent %q", r.method, r.body, sent.Body)
		}
		if got := r.header.Get(server.SenderHeader); sent.Headers["slash-sandbox-sender"] != "webhook" || got != "listen" {
			t.Errorf("sender header: the sandbox sent %q, the app got %q", sent.Headers["slash-sandbox-sender"], got)
		}
		for name, value := range sent.Headers {
			if name == "content-length" || name == "slash-sandbox-sender" {
				continue
			}
			if got := r.header.Get(name); got != value {
				t.Errorf("header %s: app got %q, the sandbox sent %q", name, got, value)
			}
		}
		if r.header.Get("slash-webhook-event") != "card.update" || r.header.Get("slash-webhook-signature") == "" {
			t.Fatalf("app headers = %v", r.header)
		}
		if err := verifySlashWebhook([]byte(key), r.body, r.header.Get("slash-webhook-signature")); err != nil {
			t.Fatalf("signature does not verify with the printed key: %v", err)
		}
		var answer struct {
			Status int    `json:"status"`
			Body   string `json:"body"`
		}
		if err := json.Unmarshal(d.Attempts[0].Response, &answer); err != nil || answer.Status != 200 ||
			answer.Body != "ok" ||
			d.Status != "succeeded" {
			t.Fatalf("the sandbox recorded %s (%v), status %s", d.Attempts[0].Response, err, d.Status)
		}
		if line := lineWith(l.stdout.String(), tr.EventID); !strings.Contains(line, "card.update") ||
			!strings.Contains(line, "attempt 1  -> 200") {
			t.Fatalf("printed line = %q in %q", line, l.stdout)
		}
	})
	t.Run("a failing app makes the sandbox retry", func(t *testing.T) {
		a.fail(true)
		tr, err := c.TriggerEvent(ctx, client.EventTrigger{Event: "card_creation.event"})
		if err != nil {
			t.Fatal(err)
		}
		settle()
		if d := delivery(t, l.webhook, tr.EventID); d.Status != "retrying" || len(d.Attempts) != 1 ||
			!strings.Contains(string(d.Attempts[0].Response), `"app failing\n"`) {
			t.Fatalf("delivery after a 500 = %s %s", d.Status, d.Attempts[0].Response)
		}
		if line := lineWith(l.stdout.String(), tr.EventID); !strings.Contains(line, "card_creation.event") ||
			!strings.Contains(line, "-> 500") {
			t.Fatalf("printed line = %q", line)
		}
		a.fail(false)
		if _, err := c.Advance(ctx, "1s"); err != nil {
			t.Fatal(err)
		}
		got := a.requestsFor(tr.EventID)
		if len(got) != 2 || got[1].header.Get("slash-webhook-attempt") != "2" || !bytes.Equal(got[0].body, got[1].body) {
			t.Fatalf("the app got %d requests for %s", len(got), tr.EventID)
		}
		if d := delivery(t, l.webhook, tr.EventID); d.Status != "succeeded" || len(d.Attempts) != 2 {
			t.Fatalf("delivery after the retry = %s with %d attempts", d.Status, len(d.Attempts))
		}
		if !strings.Contains(l.stdout.String(), tr.EventID+"  attempt 2  -> 200") {
			t.Fatalf("no line for the retry in %q", l.stdout)
		}
	})
	t.Run("the endpoint is archived when listen stops", func(t *testing.T) {
		l.stop(t)
		if !strings.Contains(l.stdout.String(), "Archived endpoint "+l.webhook) {
			t.Fatalf("listen printed %q", l.stdout)
		}
		var hook struct {
			Status     string `json:"status"`
			ArchivedAt string `json:"archivedAt"`
		}
		if err := (publicAPI{c: c, key: "sk_sandbox_acme", le: "le_acme"}).call(ctx, http.MethodGet, "/webhook/"+l.webhook,
			nil, &hook); err != nil {
			t.Fatal(err)
		}
		if hook.ArchivedAt == "" {
			t.Fatalf("endpoint %s after listen = %+v", l.webhook, hook)
		}
	})
	t.Run("an unreachable app is answered 502", func(t *testing.T) {
		gone := httptest.NewServer(http.NotFoundHandler())
		gone.Close()
		l := startListen(t, "--forward-to", gone.URL, "--server", "http://"+s.addr, "--events", "card.update,card.delete")
		defer l.stop(t)
		// card.delete raises card_creation.event, card.update and
		// card.delete: the first is not selected, so it is answered
		// without being forwarded or printed; the second fails and holds
		// the third back.
		tr, err := c.TriggerEvent(ctx, client.EventTrigger{Event: "card.delete"})
		if err != nil {
			t.Fatal(err)
		}
		settle()
		created, updated := tr.Events[0], tr.Events[1]
		if created.Event != "card_creation.event" || updated.Event != "card.update" {
			t.Fatalf("raised %+v", tr.Events)
		}
		if strings.Contains(l.stdout.String(), created.EventID) ||
			delivery(t, l.webhook, created.EventID).Status != "succeeded" {
			t.Fatalf("the event not selected was forwarded; printed %q", l.stdout)
		}
		var answer struct {
			Status int `json:"status"`
		}
		d := delivery(t, l.webhook, updated.EventID)
		if err := json.Unmarshal(d.Attempts[0].Response, &answer); err != nil || answer.Status != http.StatusBadGateway ||
			d.Status != "retrying" {
			t.Fatalf("the sandbox recorded %s, status %s", d.Attempts[0].Response, d.Status)
		}
		if line := lineWith(l.stdout.String(), updated.EventID); !strings.Contains(line, "card.update") ||
			!strings.Contains(line, "error:") ||
			!strings.Contains(line, "answered 502") {
			t.Fatalf("printed line = %q", line)
		}
	})
}

// TestListenForwardingToTheSandboxChangesNothing: listen told to forward
// to the sandbox's own reset forwards with the sender header, and the
// sandbox refuses it: the card made before is still there, and the
// delivery records the sandbox's 403.
func TestListenForwardingToTheSandboxChangesNothing(t *testing.T) {
	s := startProgram(t, nil, "--addr", "127.0.0.1:0", "--log-level", "error")
	defer s.stop(t)
	ctx := context.Background()
	c := client.New("http://" + s.addr)
	acme := publicAPI{c: c, key: "sk_sandbox_acme", le: "le_acme"}
	var card struct {
		ID string `json:"id"`
	}
	if err := acme.call(ctx, http.MethodPost, "/card", map[string]string{"type": "virtual", "name": "Before"},
		&card); err != nil {
		t.Fatal(err)
	}
	l := startListen(t, "--forward-to", "http://"+s.addr+"/_sandbox/reset", "--server", "http://"+s.addr)
	defer l.stop(t)
	tr, err := c.TriggerEvent(ctx, client.EventTrigger{Event: "card.update"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Do(ctx, http.MethodPost, "/_sandbox/webhook-deliveries/settle", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := acme.call(ctx, http.MethodGet, "/card/"+card.ID, nil, nil); err != nil {
		t.Fatalf("the card made before the forward: %v", err)
	}
	ds, err := c.Deliveries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var answer struct {
		Status int    `json:"status"`
		Body   string `json:"body"`
	}
	// The first event the trigger raised is tried, and holds the others
	// back while it is retried.
	for _, d := range ds {
		if d.WebhookID == l.webhook && d.EventID == tr.Events[0].EventID && len(d.Attempts) > 0 {
			if err := json.Unmarshal(d.Attempts[0].Response, &answer); err != nil {
				t.Fatal(err)
			}
		}
	}
	if answer.Status != http.StatusForbidden || !strings.Contains(answer.Body, "does not act on requests it sent itself") {
		t.Fatalf("the delivery through listen recorded %+v", answer)
	}
}

// lineWith is the printed line that names an event id.
func lineWith(out, eventID string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, eventID) {
			return line
		}
	}
	return ""
}

func TestListenAndTriggerErrors(t *testing.T) {
	s := startProgram(t, nil, "--addr", "127.0.0.1:0", "--log-level", "error")
	defer s.stop(t)
	server := "--server=http://" + s.addr
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"listen without --forward-to", []string{"listen", server}, 2, "--forward-to"},
		{"listen to a bad URL", []string{"listen", "--forward-to", "localhost:3000/hooks", server}, 2,
			"not an absolute http or https URL"},
		{"listen to an unknown event", []string{"listen", "--forward-to", "http://localhost:3000", "--events",
			"card.updated", server}, 2, "not a webhook event type"},
		{"listen on every interface without a public URL", []string{"listen", "--forward-to", "http://localhost:3000",
			"--listen-addr", "0.0.0.0:0", server}, 2, "--public-url"},
		{"listen for a legal entity no key writes for", []string{"listen", "--forward-to", "http://localhost:3000",
			"--legal-entity", "le_nope", server}, 1, "no key of the world may write for legal entity le_nope"},
		{"trigger without an event", []string{"trigger", server}, 2, "usage: slash-sandbox trigger EVENT"},
		{"trigger a near miss", []string{"trigger", "card.updat", server}, 1, `did you mean "card.update"?`},
		{"trigger on an unknown entity", []string{"trigger", "card.delete", "--entity", "card_nope", server}, 1,
			"card card_nope not found"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := runProgram(t, nil, c.args...)
			if r.code != c.code || !strings.Contains(r.stderr, c.want) {
				t.Fatalf("%v = %d %q, want %d and %q", c.args, r.code, r.stderr, c.code, c.want)
			}
		})
	}
	t.Run("trigger prints what it did", func(t *testing.T) {
		r := runProgram(t, nil, "trigger", "card.update", "--entity", "card_acmeaws", server)
		if r.code != 0 || !strings.Contains(r.stdout, "entity        card_acmeaws") ||
			!regexp.MustCompile(`raised +card\.update +evt_\w+ +card_acmeaws`).MatchString(r.stdout) ||
			!strings.Contains(r.stdout, "card.update to webhook_acmelocal") {
			t.Fatalf("trigger = %d %q %q", r.code, r.stdout, r.stderr)
		}
		r = runProgram(t, nil, "trigger", "expense_report.create", server, "--json")
		var tr client.Triggered
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &tr) != nil || tr.Event != "expense_report.create" ||
			tr.EventID == "" {
			t.Fatalf("trigger --json = %d %q %q", r.code, r.stdout, r.stderr)
		}
	})
}
