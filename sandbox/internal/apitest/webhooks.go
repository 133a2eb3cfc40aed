package apitest

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

// NewHookEnv is the demo sandbox with a webhook sender tuned for tests.
func NewHookEnv(t *testing.T, o webhooks.Options) *Env {
	t.Helper()
	return NewHookEnvAt(t, o, nil)
}

// NewHookEnvAt is newHookEnv with the world's clock started at a chosen
// instant (nil keeps the scenario's).
func NewHookEnvAt(t *testing.T, o webhooks.Options, clockStart *time.Time) *Env {
	t.Helper()
	return NewConfiguredEnv(t, WithAll(server.Config{Webhooks: o}), clockStart)
}

// NewConfiguredEnv is the demo sandbox served with cfg, its log kept.
func NewConfiguredEnv(t *testing.T, cfg server.Config, clockStart *time.Time) *Env {
	t.Helper()
	return serve(t, "demo", kernel.WorldSpec{ClockStart: clockStart}, 0, cfg)
}

// Delivered is one request a receiver accepted, signature checked.
type Delivered struct {
	Header  http.Header
	Payload struct {
		EntityID string `json:"entityId"`
		Event    string `json:"event"`
		EventID  string `json:"eventId"`
	}
}

// HookReceiver is a loopback receiver that verifies every signature with
// the public key the control API serves, and answers from a plan: a status
// per request (0 never answers), 204 once the plan is spent.
type HookReceiver struct {
	*httptest.Server
	t       *testing.T
	key     *rsa.PublicKey
	mu      sync.Mutex
	plan    []int
	got     []Delivered
	badSigs int
}

// NewHookReceiver starts a webhook receiver on loopback that checks each
// delivery's signature with the sandbox's key and answers with the
// statuses of plan in turn (200 once plan is spent).
func NewHookReceiver(t *testing.T, e *Env, plan ...int) *HookReceiver {
	t.Helper()
	var pk struct {
		PEM string `json:"pem"`
		JWK struct {
			Kty string `json:"kty"`
			Alg string `json:"alg"`
			Kid string `json:"kid"`
		} `json:"jwk"`
		Header string `json:"header"`
	}
	e.Get("/_sandbox/webhooks/public-key", "", "").Status(t, 200).Decode(t, &pk)
	if pk.Header != "slash-webhook-signature" || pk.JWK.Kty != "RSA" || pk.JWK.Alg != "RS256" || pk.JWK.Kid == "" {
		t.Fatalf("public key = %+v", pk)
	}
	if raw := e.Get("/_sandbox/webhooks/public-key?format=pem", "", "").Status(t, 200); string(raw.Raw) != pk.PEM {
		t.Fatalf("?format=pem = %q, want the JSON's pem", raw.Raw)
	}
	block, _ := pem.Decode([]byte(pk.PEM))
	key, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	rc := &HookReceiver{t: t, key: key.(*rsa.PublicKey), plan: plan}
	rc.Server = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *HookReceiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var d Delivered
	d.Header = r.Header.Clone()
	json.Unmarshal(body, &d.Payload)
	rc.mu.Lock()
	if webhooks.Verify(rc.key, body, r.Header.Get("slash-webhook-signature")) != nil ||
		r.Header.Get("content-type") != "application/json" || r.Header.Get("slash-webhook-event-id") != d.Payload.EventID {
		rc.badSigs++
	}
	rc.got = append(rc.got, d)
	status := http.StatusNoContent
	if len(rc.plan) > 0 {
		status, rc.plan = rc.plan[0], rc.plan[1:]
	}
	rc.mu.Unlock()
	if status == 0 {
		<-r.Context().Done()
		return
	}
	w.WriteHeader(status)
	io.WriteString(w, "status "+strconv.Itoa(status))
}

// received returns what the receiver got, failing on a bad signature.
func (rc *HookReceiver) Received() []Delivered {
	rc.t.Helper()
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.badSigs > 0 {
		rc.t.Fatalf("%d deliveries failed signature or header checks", rc.badSigs)
	}
	return append([]Delivered(nil), rc.got...)
}

// HookView is a webhook endpoint as the API answers it.
type HookView struct {
	ID              string `json:"id"`
	URL             string `json:"url"`
	Name            string `json:"name"`
	Status          string `json:"status"`
	CreatedAt       string `json:"createdAt"`
	ArchivedAt      string `json:"archivedAt"`
	PausedAt        string `json:"pausedAt"`
	BackingOffUntil string `json:"backingOffUntil"`
	DisabledAt      string `json:"disabledAt"`
}

// CreateHook registers a webhook endpoint of le_acme at url.
func CreateHook(t *testing.T, e *Env, url string) HookView {
	t.Helper()
	var h HookView
	e.Do(Req{Method: http.MethodPost, Path: "/webhook", Key: "sk_sandbox_acme",
		Body: map[string]string{"url": url, "name": "Receiver"}}).Status(t, 201).Decode(t, &h)
	return h
}

// PatchHook sets a webhook endpoint's status.
func PatchHook(t *testing.T, e *Env, id, status string) HookView {
	t.Helper()
	var h HookView
	e.Do(Req{Method: http.MethodPatch, Path: "/webhook/" + id, Key: "sk_sandbox_acme",
		Body: map[string]string{"status": status, "reason": "test"}}).Status(t, 200).Decode(t, &h)
	if h.Status != status && status != "archived" {
		t.Fatalf("PATCH %s: status %s", status, h.Status)
	}
	return h
}

// GetHook reads a webhook endpoint.
func GetHook(t *testing.T, e *Env, id string) HookView {
	t.Helper()
	var h HookView
	e.Get("/webhook/"+id, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &h)
	return h
}

type attemptJSON struct {
	Number  int    `json:"number"`
	At      string `json:"at"`
	URL     string `json:"url"`
	Request struct {
		Headers map[string]string `json:"headers"`
		Body    string            `json:"body"`
	} `json:"request"`
	Response *struct {
		Status int    `json:"status"`
		Body   string `json:"body"`
	} `json:"response"`
	Error     string `json:"error"`
	Succeeded bool   `json:"succeeded"`
}

// DeliveryJSON is a webhook delivery as the control API answers it.
type DeliveryJSON struct {
	ID            string          `json:"id"`
	WebhookID     string          `json:"webhookId"`
	Event         string          `json:"event"`
	EventID       string          `json:"eventId"`
	EntityID      string          `json:"entityId"`
	Payload       json.RawMessage `json:"payload"`
	Status        string          `json:"status"`
	Source        string          `json:"source"`
	RelatedID     string          `json:"relatedId"`
	AttemptCount  int             `json:"attemptCount"`
	Attempts      []attemptJSON   `json:"attempts"`
	NextAttemptAt string          `json:"nextAttemptAt"`
}

// SettledJSON is what settling the webhook deliveries answers.
type SettledJSON struct {
	Settled   bool `json:"settled"`
	Due       int  `json:"due"`
	Delivered []struct {
		DeliveryID     string `json:"deliveryId"`
		EventID        string `json:"eventId"`
		Attempt        int    `json:"attempt"`
		ResponseStatus int    `json:"responseStatus"`
		Error          string `json:"error"`
		Status         string `json:"status"`
	} `json:"delivered"`
}

// SettleHooks makes every due webhook delivery and fails the test unless
// none is left due.
func SettleHooks(t *testing.T, e *Env) SettledJSON {
	t.Helper()
	var s SettledJSON
	e.Do(Req{Method: http.MethodPost, Path: "/_sandbox/webhook-deliveries/settle"}).Status(t, 200).Decode(t, &s)
	if !s.Settled || s.Due != 0 {
		t.Fatalf("settle = %+v", s)
	}
	return s
}

// Trigger sends a webhook event to one endpoint through the control API.
func Trigger(t *testing.T, e *Env, hookID, event, entity string) DeliveryJSON {
	t.Helper()
	var d DeliveryJSON
	e.Do(Req{Method: http.MethodPost, Path: "/_sandbox/webhooks/" + hookID + "/trigger",
		Body: map[string]string{"event": event, "entityId": entity}}).Status(t, 201).Decode(t, &d)
	return d
}

// Deliveries lists the webhook deliveries query selects, every page.
func Deliveries(t *testing.T, e *Env, query string) []DeliveryJSON {
	t.Helper()
	var out []DeliveryJSON
	path := "/_sandbox/webhook-deliveries?limit=500&" + query
	for {
		var pg struct {
			Items    []DeliveryJSON `json:"items"`
			Metadata struct {
				NextCursor string `json:"nextCursor"`
			} `json:"metadata"`
		}
		e.Get(path, "", "").Status(t, 200).Decode(t, &pg)
		out = append(out, pg.Items...)
		if pg.Metadata.NextCursor == "" {
			return out
		}
		path = "/_sandbox/webhook-deliveries?limit=500&" + query + "&cursor=" + pg.Metadata.NextCursor
	}
}

// GetDelivery reads one webhook delivery.
func GetDelivery(t *testing.T, e *Env, id string) DeliveryJSON {
	t.Helper()
	var d DeliveryJSON
	e.Get("/_sandbox/webhook-deliveries/"+id, "", "").Status(t, 200).Decode(t, &d)
	return d
}

// ClockNow is the world's virtual time.
func ClockNow(t *testing.T, e *Env) time.Time {
	t.Helper()
	var c struct {
		Now time.Time `json:"now"`
	}
	e.Get("/_sandbox/clock", "", "").Status(t, 200).Decode(t, &c)
	return c.Now
}
