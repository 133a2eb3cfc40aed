package apitest

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

// Keys of the demo scenario used by the receivables and spend tests.
const (
	AcmeKey     = "sk_sandbox_acme"
	AcmeRO      = "sk_sandbox_acme_readonly"
	GlobexKey   = "sk_sandbox_globex"
	AliceKey    = "sk_sandbox_alice"
	BobKey      = "sk_sandbox_bob"
	AcmeAccount = "sa_group_acmeoperating"
)

// Balance is an account's available and posted cash, in cents, as the
// control API shows it.
func Balance(t *testing.T, e *Env, account string) (available, posted float64) {
	t.Helper()
	var body struct {
		Balances []struct {
			Available struct{ AmountCents float64 } `json:"available"`
			Posted    struct{ AmountCents float64 } `json:"posted"`
		} `json:"balances"`
	}
	e.Get("/account/"+account+"/balance", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &body)
	return body.Balances[0].Available.AmountCents, body.Balances[0].Posted.AmountCents
}

// Advance advances the world's clock with body ({"by":…} or {"to":…}).
func Advance(t *testing.T, e *Env, body string) map[string]any {
	t.Helper()
	return e.Do(Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: body}).Status(t, 200).JSON(t)
}

// WorldBody is a world as the control API answers it.
type WorldBody struct {
	ID       string `json:"id"`
	Scenario string `json:"scenario"`
	Seed     int64  `json:"seed"`
	Clock    struct {
		Now string `json:"now"`
	} `json:"clock"`
	Keys []struct {
		Key string `json:"key"`
	} `json:"keys"`
	ExpiresAt *string `json:"expiresAt"`
}

// CreateWorld creates a world from body and returns it.
func CreateWorld(t *testing.T, e *Env, body string) WorldBody {
	t.Helper()
	var w WorldBody
	e.Do(Req{Method: http.MethodPost, Path: "/_sandbox/worlds", Body: body}).Status(t, http.StatusCreated).Decode(t, &w)
	return w
}

// Quote is s as a JSON string, for a YAML scenario inside a JSON body.
func Quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// MustTime parses an RFC 3339 time, failing the test when it cannot.
func MustTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatalf("%q is not a time: %v", s, err)
	}
	return at
}

// WorldCount is how many worlds the sandbox holds.
func WorldCount(t *testing.T, e *Env) int {
	t.Helper()
	var list struct {
		Items []WorldBody `json:"items"`
	}
	e.Get("/_sandbox/worlds", "", "").Status(t, 200).Decode(t, &list)
	return len(list.Items)
}
