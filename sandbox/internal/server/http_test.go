package server_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func TestUnknownRoutesAndMethods(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	t.Run("unknown first-generation route", func(t *testing.T) {
		e.Get("/no-such-thing", "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
	})
	t.Run("unknown second-generation route", func(t *testing.T) {
		e.Get("/v2/no-such-thing", "sk_sandbox_alice", "le_acme").Gen2(t, 404, "not_found")
	})
	t.Run("wrong method names the allowed ones", func(t *testing.T) {
		r := e.Do(apitest.Req{Method: http.MethodDelete, Path: "/account/sa_group_acmeoperating", Key: "sk_sandbox_acme"})
		r.Gen1(t, 405, "method_not_allowed")
		if got := r.Header.Get("Allow"); got != "GET" {
			t.Fatalf("Allow = %q, want GET", got)
		}
		e.Do(apitest.Req{Method: http.MethodPut, Path: "/v2/contacts", Key: "sk_sandbox_alice", LE: "le_acme"}).
			Gen2(t, 405, "method_not_allowed")
	})
}

func TestReferenceIDsAreUniquePerFailure(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	seen := map[string]bool{}
	for range 5 {
		r := e.Get("/v2/contacts", "sk_sandbox_acme", "le_acme")
		r.Gen2(t, 403, "user_api_key_required")
		var body struct{ ReferenceID string }
		r.Decode(t, &body)
		if seen[body.ReferenceID] {
			t.Fatalf("referenceId %s repeated", body.ReferenceID)
		}
		seen[body.ReferenceID] = true
		if !strings.Contains(e.Log.String(), `"reference_id":"`+body.ReferenceID+`"`) {
			t.Fatalf("referenceId %s is not in the request log", body.ReferenceID)
		}
	}
}

func TestRequestBodyRules(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	advance := func(body any, header map[string]string) *apitest.Resp {
		return e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: body, Header: header})
	}
	t.Run("over 1 MiB is 413", func(t *testing.T) {
		big := `{"by":"1h","pad":"` + strings.Repeat("x", web.MaxBody) + `"}`
		advance(big, nil).Gen2(t, 413, "payload_too_large")
	})
	t.Run("malformed JSON is 400 naming the problem", func(t *testing.T) {
		d := advance(`{"by": "1h"`, nil).Gen2(t, 400, "invalid_request")
		if !strings.Contains(d["body"], "malformed JSON") {
			t.Fatalf("details = %v", d)
		}
	})
	t.Run("wrong type is 400 naming the field", func(t *testing.T) {
		d := advance(`{"by": 36}`, nil).Gen2(t, 400, "invalid_request")
		if d["/by"] == "" {
			t.Fatalf("details = %v, want /by", d)
		}
	})
	t.Run("unknown property is 400 naming it", func(t *testing.T) {
		d := advance(`{"by":"1h","speed":2}`, nil).Gen2(t, 400, "invalid_request")
		if d["/speed"] == "" {
			t.Fatalf("details = %v, want /speed", d)
		}
	})
	t.Run("wrong content type is 415", func(t *testing.T) {
		advance(`{"by":"1h"}`, map[string]string{"Content-Type": "text/plain"}).Gen2(t, 415, "unsupported_media_type")
	})
	t.Run("nothing moved", func(t *testing.T) {
		clock := e.Get("/_sandbox/clock", "", "").Status(t, 200).JSON(t)
		if clock["now"] != clock["start"] {
			t.Fatalf("a refused request moved the clock: %v", clock)
		}
	})
}

func TestCORS(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	r := e.Do(apitest.Req{Method: http.MethodOptions, Path: "/card", Header: map[string]string{
		"Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST",
		"Access-Control-Request-Headers": "x-api-key, x-legal-entity, x-idempotency-key, content-type",
	}})
	r.Status(t, http.StatusNoContent)
	if got := r.Header.Get("Access-Control-Allow-Origin"); got != "http://localhost:5173" {
		t.Fatalf("Allow-Origin = %q", got)
	}
	allowed := strings.ToLower(r.Header.Get("Access-Control-Allow-Headers"))
	for _, h := range []string{"x-api-key", "x-legal-entity", "x-idempotency-key", "content-type"} {
		if !strings.Contains(allowed, h) {
			t.Errorf("Allow-Headers %q lacks %s", allowed, h)
		}
	}
	if !strings.Contains(r.Header.Get("Access-Control-Allow-Methods"), "PATCH") {
		t.Errorf("Allow-Methods = %q", r.Header.Get("Access-Control-Allow-Methods"))
	}
	got := e.Do(apitest.Req{Path: "/tokens/prices", Header: map[string]string{"Origin": "http://app.test"}})
	got.Status(t, 200)
	if !strings.Contains(got.Header.Get("Access-Control-Expose-Headers"), "x-deferred-action-id") {
		t.Fatalf("Expose-Headers = %q", got.Header.Get("Access-Control-Expose-Headers"))
	}
}

func TestRateLimitBodyIsPlainText(t *testing.T) {
	rec := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, "/v2/contacts", nil)
	web.WriteError(rec, r, web.Gen2, kernel.Errorf(kernel.CodeRateLimited, "slow down"))
	if rec.Code != 429 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
		t.Fatalf("429 = %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	if json.Valid(rec.Body.Bytes()) {
		t.Fatalf("429 body is JSON: %s", rec.Body.String())
	}
}

func TestInternalErrorsHideTheirCause(t *testing.T) {
	rec := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, "/v2/contacts", nil)
	web.WriteError(rec, r, web.Gen2, errBoom{})
	if rec.Code != 500 || strings.Contains(rec.Body.String(), "disk on fire") {
		t.Fatalf("500 = %d %s", rec.Code, rec.Body.String())
	}
	var body web.Gen2Error
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Code != "internal" || body.ReferenceID == "" {
		t.Fatalf("body = %s", rec.Body.String())
	}
}

type errBoom struct{}

func (errBoom) Error() string { return "disk on fire" }

func TestRequestLogLine(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	e.Do(apitest.Req{Path: "/account", Key: "sk_sandbox_alice", LE: "le_acme",
		Header: map[string]string{"X-Request-Id": "trace-123"}}).
		Status(t, 200)
	var line map[string]any
	sc := bufio.NewScanner(strings.NewReader(e.Log.String()))
	for sc.Scan() {
		if strings.Contains(sc.Text(), "trace-123") {
			json.Unmarshal(sc.Bytes(), &line)
		}
	}
	want := map[string]any{"method": "GET", "path": "/account", "route": "account.list", "status": float64(200),
		"request_id": "trace-123", "legal_entity": "le_acme", "level": "info"}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("log %s = %v, want %v (line %v)", k, line[k], v, line)
		}
	}
	if _, ok := line["latency"].(float64); !ok {
		t.Errorf("log line has no latency: %v", line)
	}
}
