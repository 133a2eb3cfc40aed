package webhooks_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

type authHookJSON struct {
	WebhookURL        string         `json:"webhookUrl"`
	SigningSecret     string         `json:"signingSecret"`
	Status            string         `json:"status"`
	TimeoutDurationMs int            `json:"timeoutDurationMs"`
	Config            map[string]any `json:"config"`
	CreatedAt         string         `json:"createdAt"`
	UpdatedAt         string         `json:"updatedAt"`
}

func TestAuthorizationWebhookEndpoints(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	e.Get(apitest.AuthPath, "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
	put := `{"webhookUrl":"http://127.0.0.1:1/authorize","status":"inactive","config":{"fallbackBehavior":"default",
		"when":{"operator":"and","left":{"operator":"lte","field":"amountCents","value":50000},
		"right":{"operator":"in","field":"merchantCountry","values":["US","CA"]}}}}`
	var h authHookJSON
	e.Do(apitest.Req{Method: http.MethodPut, Path: apitest.AuthPath, Key: "sk_sandbox_acme", Body: put}).
		Status(t, 200).
		Decode(t, &h)
	when, _ := h.Config["when"].(map[string]any)
	if !strings.HasPrefix(h.SigningSecret, "whsec_") || h.Status != "inactive" || h.TimeoutDurationMs != 1500 ||
		h.CreatedAt == "" || h.UpdatedAt == "" || when["operator"] != "and" || h.Config["fallbackBehavior"] != "default" {
		t.Fatalf("PUT = %+v", h)
	}
	var patched authHookJSON
	e.Do(apitest.Req{Method: http.MethodPatch, Path: apitest.AuthPath, Key: "sk_sandbox_acme",
		Body: `{"status":"active"}`}).
		Status(t, 200).
		Decode(t, &patched)
	if patched.Status != "active" || patched.SigningSecret != h.SigningSecret || patched.Config["when"] == nil {
		t.Fatalf("PATCH = %+v", patched)
	}
	var got authHookJSON
	e.Get(apitest.AuthPath, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &got)
	if got.Status != "active" || got.WebhookURL != "http://127.0.0.1:1/authorize" ||
		got.SigningSecret != h.SigningSecret {
		t.Fatalf("GET = %+v", got)
	}
	for _, c := range []struct {
		name, method, body, field string
	}{
		{"PUT needs every field", http.MethodPut, `{"status":"active"}`, "/webhookUrl"},
		{"bad status", http.MethodPatch, `{"status":"on"}`, "/status"},
		{"when needs default", http.MethodPatch,
			`{"config":{"fallbackBehavior":"reject","when":{"operator":"eq","field":"amountCents","value":1}}}`,
			"/config/when"},
		{"in needs values", http.MethodPatch,
			`{"config":{"fallbackBehavior":"default","when":{"operator":"in","field":"merchantCategoryCode","values":[]}}}`,
			"/config/when/values"},
		{"value must be an integer", http.MethodPatch,
			`{"config":{"fallbackBehavior":"default","when":{"operator":"gt","field":"amountCents","value":"10"}}}`,
			"/config/when/value"},
		{"the secret is read-only", http.MethodPatch, `{"signingSecret":"whsec_mine"}`, "/signingSecret"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := e.Do(apitest.Req{Method: c.method, Path: apitest.AuthPath, Key: "sk_sandbox_acme", Body: c.body}).
				Gen1(t, 400, "invalid_request")
			details, _ := m["meta"].(map[string]any)["details"].(map[string]any)
			if _, ok := details[c.field]; !ok {
				t.Fatalf("details = %v, want %s", details, c.field)
			}
		})
	}
	m := e.Do(apitest.Req{Method: http.MethodPut, Path: "/account/sa_group_globexmain/authorization-webhook",
		Key:  "sk_sandbox_globex",
		Body: put}).
		Gen1(t, 403, "forbidden")
	if !strings.Contains(m["message"].(string), "enterprise feature") {
		t.Fatalf("non-enterprise refusal = %v", m["message"])
	}
	e.Get("/account/sa_group_globexmain/authorization-webhook", "sk_sandbox_globex", "").Gen1(t, 403, "forbidden")
	e.Get("/account/sa_group_globexmain/authorization-webhook", "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
	e.Do(apitest.Req{Method: http.MethodPatch, Path: "/account/sa_group_acmecharge/authorization-webhook",
		Key:  "sk_sandbox_acme",
		Body: `{"status":"active"}`}).
		Gen1(t, 404, "not_found")
	apitest.Deferred(
		t,
		e.Do(
			apitest.Req{
				Method: http.MethodPatch,
				Path:   apitest.AuthPath,
				Key:    "sk_sandbox_acme_readonly",
				Body:   `{"status":"inactive"}`,
			},
		),
	)
}

// TestAuthorizationWebhookIsCalledThroughTheServer configures the webhook
// through the API and decides through the engine's integration point, as the
// card simulation does: the caller the server registered signs with the
// secret the API showed.
func TestAuthorizationWebhookIsCalledThroughTheServer(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	var secret atomic.Pointer[string]
	var calls, verified atomic.Int32
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		body, _ := io.ReadAll(r.Body)
		if docsVerify(*secret.Load(), r.Header, body, time.Now()) == nil {
			verified.Add(1)
		}
		var ev struct {
			Data struct {
				Amount struct{ AmountCents int64 } `json:"amount"`
			} `json:"data"`
		}
		json.Unmarshal(body, &ev)
		approved := ev.Data.Amount.AmountCents < 10_000
		json.NewEncoder(w).Encode(map[string]any{"approved": approved, "reason": "limit 100 USD"})
	}))
	defer rc.Close()
	var h authHookJSON
	e.Do(apitest.Req{Method: http.MethodPut, Path: apitest.AuthPath, Key: "sk_sandbox_acme",
		Body: `{"webhookUrl":"` + rc.URL + `","status":"active","config":{"fallbackBehavior":"reject"}}`}).Status(t,
		200).Decode(t, &h)
	secret.Store(&h.SigningSecret)
	decide := func(cents int64) (bool, string, bool) {
		t.Helper()
		var approved, fallback bool
		var reason string
		err := e.Engine.Default().View(func(op *kernel.Op) error {
			var err error
			approved, reason, fallback, err = cards.DecideAuthorization(
				op,
				"sa_group_acmeoperating",
				cards.AuthorizationEvent{
					TransactionID: "auth_" + string(rune('a'+cents%26)), CardID: "card_acmeaws", MerchantName: "AWS",
					MerchantCategoryCode: "7372", MerchantCountry: "US", AmountCents: cents},
			)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return approved, reason, fallback
	}
	if ok, reason, fb := decide(2_500); !ok || fb || reason != "limit 100 USD" {
		t.Fatalf("small purchase = %v %q %v", ok, reason, fb)
	}
	if ok, _, fb := decide(25_000); ok || fb {
		t.Fatalf("large purchase = %v %v", ok, fb)
	}
	if calls.Load() != 2 || verified.Load() != 2 {
		t.Fatalf("calls %d, verified %d", calls.Load(), verified.Load())
	}
}

// TestCardAuthorizationAsksTheAuthorizationWebhook drives the real card
// decision: the receiver approves and declines with its reasons, and a
// receiver that does not answer in 1.5 s meets each fallback.
func TestCardAuthorizationAsksTheAuthorizationWebhook(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	var hang atomic.Bool
	release := make(chan struct{})
	defer close(release)
	var lastEvent atomic.Pointer[map[string]any]
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev map[string]any
		json.NewDecoder(r.Body).Decode(&ev)
		lastEvent.Store(&ev)
		if hang.Load() {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		amount := ev["data"].(map[string]any)["amount"].(map[string]any)["amountCents"].(float64)
		json.NewEncoder(w).Encode(map[string]any{"approved": amount < 50_000, "reason": "treasury policy"})
	}))
	defer rc.Close()
	configure := func(fallback string) {
		e.Do(apitest.Req{Method: http.MethodPut, Path: apitest.AuthPath, Key: "sk_sandbox_acme",
			Body: `{"webhookUrl":"` + rc.URL + `","status":"active",` +
				`"config":{"fallbackBehavior":"` + fallback + `"}}`}).Status(t, 200)
	}
	configure("reject")
	t.Run("the receiver approves", func(t *testing.T) {
		s := apitest.Authorize(t, e, "card_acmegithub", 2_100, "merchant_v2_github")
		apitest.WantDecision(t, s, true, "authorizationWebhook", "treasury policy")
		ev := *lastEvent.Load()
		data := ev["data"].(map[string]any)
		if data["transaction"].(map[string]any)["id"] != s.Transaction.ProviderAuthorizationID ||
			data["card"].(map[string]any)["id"] != "card_acmegithub" {
			t.Fatalf("authorization event = %v", ev)
		}
		calls := apitest.Where(apitest.LogLines(t, e.Log.String()), "authorization webhook call")
		if l := calls[len(calls)-1]; l["level"] != "info" || l["url"] != rc.URL || l["status"] != float64(200) ||
			l["event"] != "authorization.request" || l["delivery_id"] != ev["event"].(map[string]any)["id"] ||
			l["webhook_id"] != data["account"].(map[string]any)["id"] || l["attempt"] != float64(1) || l["latency"] == nil {
			t.Fatalf("log line = %v", l)
		}
	})
	t.Run("the receiver declines", func(t *testing.T) {
		apitest.WantDecision(
			t,
			apitest.Authorize(t, e, "card_acmegithub", 60_000, "merchant_v2_github"),
			false,
			"authorizationWebhook",
			"treasury policy",
		)
	})
	t.Run("the card's own rules decide first", func(t *testing.T) {
		s := apitest.Authorize(t, e, "card_acmegithub", 2_000, "merchant_v2_united")
		if s.Decision.Rule == "authorizationWebhook" || s.Approved {
			t.Fatalf("a purchase the group blocks reached the webhook: %+v", s.Decision)
		}
	})
	hang.Store(true)
	t.Run("timeout with reject declines", func(t *testing.T) {
		s := apitest.Authorize(t, e, "card_acmegithub", 2_100, "merchant_v2_github")
		if s.Approved || s.Decision.Rule != "authorizationWebhook" ||
			!strings.Contains(s.Transaction.DeclineReason, "fallback (reject)") {
			t.Fatalf("timeout with reject = %+v / %+v", s.Decision, s.Transaction)
		}
		if fb, _ := s.CardEvent.Decision["fallbackApplied"].(bool); !fb {
			t.Fatalf("the card event does not record the fallback: %v", s.CardEvent.Decision)
		}
		calls := apitest.Where(apitest.LogLines(t, e.Log.String()), "authorization webhook call")
		if l := calls[len(calls)-1]; l["level"] != "warn" || l["status"] != nil ||
			!strings.HasPrefix(l["error"].(string), "timeout: no answer within") {
			t.Fatalf("log line = %v", l)
		}
	})
	configure("default")
	t.Run("timeout with default continues", func(t *testing.T) {
		s := apitest.Authorize(t, e, "card_acmegithub", 2_100, "merchant_v2_github")
		if !s.Approved || s.Transaction.DetailedStatus != "pending" ||
			!strings.Contains(s.Transaction.ApprovalReason, "fallback (default)") {
			t.Fatalf("timeout with default = %+v / %+v", s.Decision, s.Transaction)
		}
	})
	hang.Store(false)
	e.Do(apitest.Req{Method: http.MethodPatch, Path: apitest.AuthPath, Key: "sk_sandbox_acme",
		Body: `{"status":"inactive"}`}).
		Status(t, 200)
	t.Run("an inactive webhook is not asked", func(t *testing.T) {
		apitest.WantDecision(
			t,
			apitest.Authorize(t, e, "card_acmegithub", 60_000, "merchant_v2_github"),
			true,
			"standardAuthorization",
			"approved",
		)
	})
}
