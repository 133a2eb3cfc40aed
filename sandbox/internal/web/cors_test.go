package web_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// sdkHeaders is what a browser asks leave to send before the official
// TypeScript SDK's POST: every header the SDK sets that is not
// CORS-safelisted, lowercased and sorted, as Chromium writes it.
const sdkHeaders = "content-type,idempotency-key,x-api-key,x-stainless-arch,x-stainless-lang,x-stainless-os," +
	"x-stainless-package-version,x-stainless-retry-count,x-stainless-runtime,x-stainless-runtime-version," +
	"x-stainless-timeout"

// corsServer is the middleware in front of a handler that records whether
// it ran, with http://localhost:5173 listed for the control API.
func corsServer(reached *bool) http.Handler {
	m := &web.Middleware{Log: zerolog.Nop(), Reference: func() string { return "ref_test" },
		Origins: &web.Origins{Origins: []string{"http://localhost:5173"}}}
	return m.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*reached = true
		w.WriteHeader(http.StatusOK)
	}))
}

// preflight sends the OPTIONS request a browser sends before a POST to
// path from origin asking for headers ("": none asked).
func preflight(h http.Handler, path, origin, headers string) *http.Response {
	r := httptest.NewRequest(http.MethodOptions, "http://127.0.0.1:4010"+path, nil)
	r.Header.Set("Origin", origin)
	r.Header.Set("Access-Control-Request-Method", http.MethodPost)
	if headers != "" {
		r.Header.Set("Access-Control-Request-Headers", headers)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return rec.Result()
}

func TestCORSPublicPreflightAllowsEveryHeaderItAsksFor(t *testing.T) {
	for _, c := range []struct{ name, path, origin, headers string }{
		{"the TypeScript SDK's headers", "/card", "http://localhost:5173", sdkHeaders},
		{"a header the sandbox has never heard of", "/account", "https://app.example", "x-trace-parent"},
		{"names in any case, spaced", "/v2/contacts", "http://127.0.0.1:3000", "X-API-Key, x-legal-entity, Traceparent"},
		{"a route that does not exist", "/no-such-route", "https://app.example", sdkHeaders},
	} {
		t.Run(c.name, func(t *testing.T) {
			reached := false
			res := preflight(corsServer(&reached), c.path, c.origin, c.headers)
			if res.StatusCode != http.StatusNoContent || reached {
				t.Fatalf("preflight answered %d (handler ran: %v), want 204 from the middleware", res.StatusCode, reached)
			}
			for name, want := range map[string]string{
				"Access-Control-Allow-Origin":      c.origin,
				"Access-Control-Allow-Headers":     c.headers,
				"Access-Control-Allow-Credentials": "",
				"Vary":                             "Origin, Access-Control-Request-Headers",
			} {
				if got := res.Header.Get(name); got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
			if got := res.Header.Get("Access-Control-Allow-Methods"); !strings.Contains(got, "POST") {
				t.Errorf("Access-Control-Allow-Methods = %q, want POST in it", got)
			}
		})
	}
	t.Run("a preflight that asks for no header is allowed none", func(t *testing.T) {
		reached := false
		res := preflight(corsServer(&reached), "/card", "https://app.example", "")
		if res.StatusCode != http.StatusNoContent || res.Header.Get("Access-Control-Allow-Origin") != "https://app.example" {
			t.Fatalf("preflight = %d, Allow-Origin %q", res.StatusCode, res.Header.Get("Access-Control-Allow-Origin"))
		}
		if got := res.Header.Values("Access-Control-Allow-Headers"); len(got) != 0 {
			t.Errorf("Access-Control-Allow-Headers = %q, want none", got)
		}
	})
}

func TestCORSPublicAnswerExposesWhatClientsRead(t *testing.T) {
	reached := false
	r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:4010/account", nil)
	r.Header.Set("Origin", "https://app.example")
	rec := httptest.NewRecorder()
	corsServer(&reached).ServeHTTP(rec, r)
	res := rec.Result()
	if !reached || res.Header.Get("Access-Control-Allow-Origin") != "https://app.example" ||
		res.Header.Get("Vary") != "Origin" || res.Header.Get("Access-Control-Allow-Credentials") != "" {
		t.Fatalf("answer reached the handler: %v; headers %v", reached, res.Header)
	}
	exposed := map[string]bool{}
	for _, name := range strings.Split(res.Header.Get("Access-Control-Expose-Headers"), ",") {
		exposed[http.CanonicalHeaderKey(strings.TrimSpace(name))] = true
	}
	for _, name := range []string{"X-Request-Id", "X-Deferred-Action-Id", "Retry-After", "Location", "Allow",
		"Content-Disposition", "Content-Length"} {
		if !exposed[name] {
			t.Errorf("Access-Control-Expose-Headers %q lacks %s", res.Header.Get("Access-Control-Expose-Headers"), name)
		}
	}
}

func TestCORSControlPreflightKeepsItsOrigins(t *testing.T) {
	t.Run("another origin is refused, headers or not", func(t *testing.T) {
		for _, headers := range []string{"", "content-type", sdkHeaders + ",x-admin-token"} {
			reached := false
			res := preflight(corsServer(&reached), "/_sandbox/clock/advance", "https://evil.example", headers)
			if res.StatusCode != http.StatusForbidden || reached {
				t.Fatalf("asking for %q: %d (handler ran: %v), want 403", headers, res.StatusCode, reached)
			}
			for name := range res.Header {
				if strings.HasPrefix(name, "Access-Control-") {
					t.Errorf("asking for %q: the refusal carries %s: %q", headers, name, res.Header.Get(name))
				}
			}
		}
	})
	t.Run("a listed origin is allowed the control API's own headers, not what it asks", func(t *testing.T) {
		reached := false
		res := preflight(corsServer(&reached), "/_sandbox/worlds", "http://localhost:5173", sdkHeaders)
		if origin := res.Header.Get("Access-Control-Allow-Origin"); res.StatusCode != http.StatusNoContent ||
			origin != "http://localhost:5173" {
			t.Fatalf("preflight = %d, Allow-Origin %q", res.StatusCode, res.Header.Get("Access-Control-Allow-Origin"))
		}
		allowed := res.Header.Get("Access-Control-Allow-Headers")
		if !strings.Contains(allowed, "X-Admin-Token") || strings.Contains(strings.ToLower(allowed), "stainless") {
			t.Errorf("Access-Control-Allow-Headers = %q, want the control API's list", allowed)
		}
		if got := res.Header.Get("Access-Control-Allow-Credentials"); got != "" {
			t.Errorf("Access-Control-Allow-Credentials = %q", got)
		}
	})
}
