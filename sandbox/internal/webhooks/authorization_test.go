package webhooks_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

// authReceiver answers authorization requests with answer (or never, when
// answer is ""), after checking the HMAC signature with secret.
type authReceiver struct {
	*httptest.Server
	secret  atomic.Pointer[string]
	calls   atomic.Int32
	badSigs atomic.Int32
	last    atomic.Pointer[map[string]any]
}

func newAuthReceiver(t *testing.T, status int, answer string) *authReceiver {
	t.Helper()
	rc := &authReceiver{}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc.calls.Add(1)
		body, _ := io.ReadAll(r.Body)
		if secret := rc.secret.Load(); secret == nil || !verifyAuthorizationWebhook(*secret, r, body) {
			rc.badSigs.Add(1)
		}
		var event map[string]any
		json.Unmarshal(body, &event)
		event["timestampHeader"] = r.Header.Get("x-webhook-timestamp")
		event["idHeader"] = r.Header.Get("x-webhook-id")
		event["virtualHeader"] = r.Header.Get("x-sandbox-virtual-time")
		rc.last.Store(&event)
		if answer == "" {
			<-r.Context().Done()
			return
		}
		w.WriteHeader(status)
		io.WriteString(w, answer)
	}))
	t.Cleanup(rc.Close)
	return rc
}

const operating = "sa_group_acmeoperating"

func putAuthorizationWebhook(t *testing.T, w *kernel.World, url, status string,
	cfg cards.AuthorizationConfig) *cards.AuthorizationWebhook {
	t.Helper()
	var h *cards.AuthorizationWebhook
	err := w.Update(func(op *kernel.Op) error {
		var err error
		h, err = cards.PutAuthorizationWebhook(op, enginetest.ActorInOp(t, op, "sk_sandbox_acme"), operating,
			cards.AuthorizationWebhookInput{WebhookURL: &url, Status: &status, Config: &cfg})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

var purchase = cards.AuthorizationEvent{TransactionID: "auth_1", CardID: "card_acmeaws",
	VirtualAccountID: "subaccount_acmeengineering", MerchantName: "Amazon Web Services", MerchantCategoryCode: "7372",
	MerchantCountry: "US", MerchantCity: "Seattle", MerchantState: "WA", MerchantZip: "98109", AmountCents: 12_500}

// wall is the wall-clock time the tests' callers read.
var wall = time.Date(2031, 3, 4, 5, 6, 7, 0, time.UTC)

type decision struct {
	approved bool
	reason   string
	fallback bool
}

func TestAuthorizationCallerDecidesOrFallsBack(t *testing.T) {
	v := int64(10_000)
	small := &cards.AuthorizationCondition{Operator: "lte", Field: "amountCents", Value: &v}
	for _, c := range []struct {
		name   string
		status int
		answer string // "" never answers
		cfg    cards.AuthorizationConfig
		want   decision
	}{
		{"receiver approves", 200, `{"approved":true}`, cards.AuthorizationConfig{FallbackBehavior: "reject"},
			decision{approved: true}},
		{"receiver declines with a reason", 200, `{"approved":false,"reason":"over budget"}`,
			cards.AuthorizationConfig{FallbackBehavior: "default"}, decision{reason: "over budget"}},
		{"timeout falls back to reject", 200, "", cards.AuthorizationConfig{FallbackBehavior: "reject"},
			decision{fallback: true}},
		{"timeout falls back to default", 200, "", cards.AuthorizationConfig{FallbackBehavior: "default"},
			decision{approved: true, fallback: true}},
		{"default fallback declines what when does not match", 200, "",
			cards.AuthorizationConfig{FallbackBehavior: "default", When: small}, decision{fallback: true}},
		{"malformed answer falls back", 200, `{"ok":true}`, cards.AuthorizationConfig{FallbackBehavior: "default"},
			decision{approved: true, fallback: true}},
		{"error status falls back", 503, `{"approved":true}`, cards.AuthorizationConfig{FallbackBehavior: "reject"},
			decision{fallback: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			eng, w := demoWorld(t)
			webhooks.Attach(eng, webhooks.Options{AuthorizationTimeout: 200 * time.Millisecond,
				WallClock: func() time.Time { return wall }})
			rc := newAuthReceiver(t, c.status, c.answer)
			h := putAuthorizationWebhook(t, w, rc.URL+"/authorize", "active", c.cfg)
			rc.secret.Store(&h.SigningSecret)
			var got decision
			err := w.View(func(op *kernel.Op) error {
				var err error
				got.approved, got.reason, got.fallback, err = cards.DecideAuthorization(op, operating, purchase)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if got.approved != c.want.approved || got.fallback != c.want.fallback {
				t.Fatalf("decision = %+v, want %+v", got, c.want)
			}
			if c.want.fallback && !strings.HasPrefix(got.reason, "authorization webhook fallback ("+c.cfg.FallbackBehavior+")") {
				t.Fatalf("fallback reason = %q", got.reason)
			}
			if !c.want.fallback && got.reason != c.want.reason {
				t.Fatalf("reason = %q, want %q", got.reason, c.want.reason)
			}
			if rc.calls.Load() != 1 || rc.badSigs.Load() != 0 {
				t.Fatalf("calls = %d, bad signatures = %d", rc.calls.Load(), rc.badSigs.Load())
			}
			checkAuthorizationEvent(t, *rc.last.Load(), w.Now())
		})
	}
}

// checkAuthorizationEvent checks the AuthorizationRequestEvent shape and the
// names filled from the world.
func checkAuthorizationEvent(t *testing.T, ev map[string]any, now time.Time) {
	t.Helper()
	event, _ := ev["event"].(map[string]any)
	data, _ := ev["data"].(map[string]any)
	account, _ := data["account"].(map[string]any)
	va, _ := data["virtualAccount"].(map[string]any)
	merchant, _ := data["merchant"].(map[string]any)
	loc, _ := merchant["location"].(map[string]any)
	amount, _ := data["amount"].(map[string]any)
	switch {
	case event["type"] != "authorization.request" || event["id"] != ev["idHeader"]:
		t.Fatalf("event = %v (x-webhook-id %v)", event, ev["idHeader"])
	case ev["timestampHeader"] != strconv.FormatInt(wall.Unix(), 10):
		t.Fatalf("x-webhook-timestamp = %v, want the wall-clock time %d", ev["timestampHeader"], wall.Unix())
	case ev["virtualHeader"] != now.UTC().Format("2006-01-02T15:04:05.000Z"):
		t.Fatalf("x-sandbox-virtual-time = %v, want the virtual time %s", ev["virtualHeader"], now)
	case account["id"] != operating || account["name"] == "" || va["name"] == nil:
		t.Fatalf("account = %v, virtual account = %v", account, va)
	case merchant["categoryCode"] != "7372" || loc["country"] != "US" || amount["amountCents"] != float64(12_500):
		t.Fatalf("merchant = %v, amount = %v", merchant, amount)
	}
}

func TestInactiveAuthorizationWebhookIsNotCalled(t *testing.T) {
	eng, w := demoWorld(t)
	webhooks.Attach(eng, webhooks.Options{})
	rc := newAuthReceiver(t, 200, `{"approved":false}`)
	putAuthorizationWebhook(t, w, rc.URL, "inactive", cards.AuthorizationConfig{FallbackBehavior: "reject"})
	var approved, fallback bool
	var reason string
	err := w.View(func(op *kernel.Op) error {
		var err error
		approved, reason, fallback, err = cards.DecideAuthorization(op, operating, purchase)
		return err
	})
	if err != nil || !approved || fallback || reason != "" {
		t.Fatalf("decision = %v %q %v %v, want an approval without a call", approved, reason, fallback, err)
	}
	if rc.calls.Load() != 0 {
		t.Fatalf("an inactive webhook was called %d times", rc.calls.Load())
	}
}

func TestSigningSecretNeverChanges(t *testing.T) {
	_, w := demoWorld(t)
	first := putAuthorizationWebhook(t, w, "http://127.0.0.1:1/a", "inactive",
		cards.AuthorizationConfig{FallbackBehavior: "reject"})
	second := putAuthorizationWebhook(t, w, "http://127.0.0.1:1/b", "active",
		cards.AuthorizationConfig{FallbackBehavior: "default"})
	if !strings.HasPrefix(first.SigningSecret, "whsec_") || first.SigningSecret != second.SigningSecret {
		t.Fatalf("secrets %q then %q", first.SigningSecret, second.SigningSecret)
	}
	if second.WebhookURL != "http://127.0.0.1:1/b" || !second.CreatedAt.Equal(first.CreatedAt) ||
		second.TimeoutDurationMs != 1500 {
		t.Fatalf("after the second PUT: %+v", second)
	}
}
