package webhooks_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

// docsVerify validates an authorization webhook request the way the
// published authorization-webhook overview tells receivers to, step by
// step and without the sandbox's code: the timestamp must be within 2
// minutes of receipt; the key is the signing secret with "whsec_" removed,
// base64-decoded; the payload is "{webhookId}.{webhookTimestamp}.{requestBody}";
// the expected header is "v1=" and the base64 HMAC-SHA256 of the payload.
func docsVerify(signingSecret string, header http.Header, body []byte, receivedAt time.Time) error {
	webhookID := header.Get("x-webhook-id")
	webhookTimestamp := header.Get("x-webhook-timestamp")
	signature := header.Get("x-webhook-signature")
	sent, err := strconv.ParseInt(webhookTimestamp, 10, 64)
	if err != nil {
		return fmt.Errorf("x-webhook-timestamp %q is not a Unix timestamp", webhookTimestamp)
	}
	if skew := receivedAt.Sub(time.Unix(sent, 0)).Abs(); skew > 2*time.Minute {
		return fmt.Errorf("x-webhook-timestamp is %s from receipt", skew)
	}
	secretBase64 := strings.Replace(signingSecret, "whsec_", "", 1)
	decodedSecret, err := base64.StdEncoding.DecodeString(secretBase64)
	if err != nil {
		return fmt.Errorf("signing secret: %v", err)
	}
	payload := webhookID + "." + webhookTimestamp + "." + string(body)
	mac := hmac.New(sha256.New, decodedSecret)
	mac.Write([]byte(payload))
	expected := "v1=" + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	if !hmac.Equal([]byte(expected), []byte(signature)) {
		return errors.New("signature mismatch")
	}
	return nil
}

// capturedCall is one request a loopback receiver got.
type capturedCall struct {
	header     http.Header
	body       []byte
	receivedAt time.Time
}

// capture is a loopback receiver that keeps every request and answers
// with a fixed body.
type capture struct {
	*httptest.Server
	mu    sync.Mutex
	calls []capturedCall
}

func newCapture(t *testing.T, answer string) *capture {
	t.Helper()
	c := &capture{}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		c.mu.Lock()
		c.calls = append(c.calls, capturedCall{header: r.Header.Clone(), body: body, receivedAt: time.Now()})
		c.mu.Unlock()
		w.Header().Set("content-type", "application/json")
		io.WriteString(w, answer)
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *capture) got(t *testing.T, n int) []capturedCall {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.calls) != n {
		t.Fatalf("receiver got %d requests, want %d", len(c.calls), n)
	}
	return append([]capturedCall(nil), c.calls...)
}

// TestAuthorizationWebhookVerifiesAsTheDocsSay sends a real card
// authorization to a receiver on loopback while the world's clock is a
// year ahead of the wall clock: the docs' verifier, 2-minute rule
// included, accepts it; a tampered body or another secret does not; the
// virtual time travels in its own header.
func TestAuthorizationWebhookVerifiesAsTheDocsSay(t *testing.T) {
	t.Parallel()
	ahead := time.Now().AddDate(1, 0, 0).UTC().Truncate(time.Second)
	e := apitest.NewHookEnvAt(t, webhooks.Options{}, &ahead)
	rc := newCapture(t, `{"approved":true,"reason":"verified"}`)
	var h authHookJSON
	e.Do(apitest.Req{Method: http.MethodPut, Path: apitest.AuthPath, Key: "sk_sandbox_acme",
		Body: `{"webhookUrl":"` + rc.URL + `","status":"active","config":{"fallbackBehavior":"reject"}}`}).Status(t,
		200).Decode(t, &h)
	virtual := apitest.ClockNow(t, e)
	s := apitest.Authorize(t, e, "card_acmegithub", 2_100, "merchant_v2_github")
	apitest.WantDecision(t, s, true, "authorizationWebhook", "verified")
	call := rc.got(t, 1)[0]

	t.Run("the docs' verifier accepts it", func(t *testing.T) {
		if err := docsVerify(h.SigningSecret, call.header, call.body, call.receivedAt); err != nil {
			t.Fatalf("docs verification failed: %v (headers %v)", err, call.header)
		}
	})
	t.Run("a tampered body fails", func(t *testing.T) {
		tampered := strings.Replace(string(call.body), `"amountCents":2100`, `"amountCents":1`, 1)
		if tampered == string(call.body) {
			t.Fatalf("the body has no amountCents 2100 to tamper with: %s", call.body)
		}
		if err := docsVerify(h.SigningSecret, call.header, []byte(tampered), call.receivedAt); err == nil {
			t.Fatal("a tampered body verifies")
		}
	})
	t.Run("another secret fails", func(t *testing.T) {
		other := "whsec_" + base64.StdEncoding.EncodeToString([]byte("not the account's signing key"))
		if err := docsVerify(other, call.header, call.body, call.receivedAt); err == nil {
			t.Fatal("another secret verifies")
		}
	})
	t.Run("a stale timestamp fails the 2-minute rule", func(t *testing.T) {
		if err := docsVerify(h.SigningSecret, call.header, call.body, call.receivedAt.Add(3*time.Minute)); err == nil {
			t.Fatal("a timestamp 3 minutes old passes")
		}
	})
	t.Run("the virtual time has its own header", func(t *testing.T) {
		if got, want := call.header.Get("x-sandbox-virtual-time"),
			virtual.UTC().Format("2006-01-02T15:04:05.000Z"); got != want {
			t.Fatalf("x-sandbox-virtual-time = %q, want the world's clock %q", got, want)
		}
		if !strings.Contains(string(call.body), `"timestamp":"`+virtual.UTC().Format("2006-01-02T15:04:05.000Z")+`"`) {
			t.Fatalf("the event's transaction timestamp is not the virtual time: %s", call.body)
		}
	})
}

// TestWebhookDeliveryCarriesTheVirtualTime: a regular delivery made while
// the world is a year ahead names the virtual instant in
// x-sandbox-virtual-time.
func TestWebhookDeliveryCarriesTheVirtualTime(t *testing.T) {
	t.Parallel()
	ahead := time.Now().AddDate(1, 0, 0).UTC().Truncate(time.Second)
	e := apitest.NewHookEnvAt(t, webhooks.Options{}, &ahead)
	rc := apitest.NewHookReceiver(t, e)
	hook := apitest.CreateHook(t, e, rc.URL)
	virtual := apitest.ClockNow(t, e)
	apitest.Trigger(t, e, hook.ID, "card.update", "card_acmeaws")
	apitest.SettleHooks(t, e)
	got := rc.Received()
	if len(got) != 1 {
		t.Fatalf("receiver got %d deliveries, want 1", len(got))
	}
	if v, want := got[0].Header.Get("x-sandbox-virtual-time"),
		virtual.UTC().Format("2006-01-02T15:04:05.000Z"); v != want {
		t.Fatalf("x-sandbox-virtual-time = %q, want %q", v, want)
	}
}
