package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// journalEntry is one item of GET /_sandbox/requests, as far as these
// tests read it.
type journalEntry struct {
	Method    string `json:"method"`
	Path      string `json:"path"`
	Route     string `json:"route"`
	Status    int    `json:"status"`
	Unmatched bool   `json:"unmatched"`
	Hint      string `json:"hint"`
}

func TestUnmatchedRequestsAreJournaledWithANearMiss(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	cases := []struct {
		name, method, path, hint string
	}{
		{"a plural", http.MethodGet, "/cards", "GET /card"},
		{"an action that does not exist", http.MethodPost, "/card/card_1/freeze", "PATCH /card/{cardId}"},
		{"a second-generation typo", http.MethodGet, "/v2/contact", "GET /v2/contacts"},
		{"a control typo", http.MethodGet, "/_sandbox/clocks", "GET /_sandbox/clock"},
		{"nothing near", http.MethodGet, "/completely/elsewhere/entirely", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.Do(apitest.Req{Method: c.method, Path: c.path, Key: apitest.AcmeKey})
			if r.StatusCode != http.StatusNotFound {
				t.Fatalf("status %d: %s", r.StatusCode, r.Raw)
			}
			msg := r.JSON(t)["message"].(string)
			if c.hint != "" && !strings.Contains(msg, "did you mean "+c.hint+"?") ||
				c.hint == "" && strings.Contains(msg, "did you mean") {
				t.Fatalf("message %q, want hint %q", msg, c.hint)
			}
			var j struct {
				Items []journalEntry `json:"items"`
			}
			e.Get("/_sandbox/requests?limit=1&route=not_found", "", "").Status(t, 200).Decode(t, &j)
			want := journalEntry{
				Method:    c.method,
				Path:      c.path,
				Route:     "not_found",
				Status:    404,
				Unmatched: true,
				Hint:      c.hint,
			}
			if len(j.Items) != 1 || j.Items[0] != want {
				t.Fatalf("journal = %+v, want %+v", j.Items, want)
			}
			if l := requestLine(t, e, r); c.hint != "" && l["hint"] != c.hint {
				t.Fatalf("log line = %v", l)
			}
		})
	}
	t.Run("a wrong method is journaled as unmatched without a hint", func(t *testing.T) {
		e.Do(apitest.Req{Method: http.MethodDelete, Path: "/card-group", Key: apitest.AcmeKey}).Status(t, 405)
		var j struct {
			Items []journalEntry `json:"items"`
		}
		e.Get("/_sandbox/requests?limit=1", "", "").Status(t, 200).Decode(t, &j)
		if len(j.Items) != 1 || !j.Items[0].Unmatched || j.Items[0].Route != "method_not_allowed" ||
			j.Items[0].Hint != "" {
			t.Fatalf("journal = %+v", j.Items)
		}
	})
	t.Run("matched requests are not unmatched", func(t *testing.T) {
		e.Get("/card", apitest.AcmeKey, "").Status(t, 200)
		var j struct {
			Items []journalEntry `json:"items"`
		}
		e.Get("/_sandbox/requests?limit=1", "", "").Status(t, 200).Decode(t, &j)
		if len(j.Items) != 1 || j.Items[0].Unmatched || j.Items[0].Route != "card.list" {
			t.Fatalf("journal = %+v", j.Items)
		}
	})
}

func TestRootsLeadToTheDashboard(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for _, c := range []struct{ path, location string }{
		{"/", "/_sandbox/ui"},
		{"/_sandbox", "/_sandbox/ui"},
		{"/_sandbox/", "/_sandbox/ui"},
		{"/_sandbox/ui/", "/_sandbox/ui"},
		{"/?world=w1", "/_sandbox/ui?world=w1"},
		{"/_sandbox/?world=w1&token=t", "/_sandbox/ui?world=w1&token=t"},
	} {
		t.Run(c.path, func(t *testing.T) {
			r := e.Get(c.path, "", "").Status(t, http.StatusFound)
			if got := r.Header.Get("Location"); got != c.location {
				t.Fatalf("Location = %q, want %q", got, c.location)
			}
		})
	}
	t.Run("the dashboard itself answers", func(t *testing.T) {
		e.Get("/_sandbox/ui?world=default", "", "").Status(t, 200)
	})
	t.Run("other unknown paths keep their generation's 404", func(t *testing.T) {
		e.Get("/nope", apitest.AcmeKey, "").Gen1(t, 404, "not_found")
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/", Key: apitest.AcmeKey}).Gen1(t, 404, "not_found")
		e.Get("/v2/nope", apitest.AcmeKey, "").Gen2(t, 404, "not_found")
		e.Get("/_sandbox/nope", "", "").Gen2(t, 404, "not_found")
	})
}

func TestFaultGatewayStatusesAndUnknownRoutes(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for _, c := range []struct {
		status         int
		identifier, nm string
	}{{502, "bad_gateway", "BadGatewayError"}, {503, "unavailable", "ServiceUnavailableError"},
		{504, "gateway_timeout", "GatewayTimeoutError"}} {
		t.Run(http.StatusText(c.status), func(t *testing.T) {
			e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/faults",
				Body: map[string]any{"route": "account.list", "status": c.status, "count": 1}}).
				Status(t, 201)
			if m := e.Get("/account", apitest.AcmeKey, "").Gen1(t, c.status, c.identifier); m["name"] != c.nm {
				t.Fatalf("first-generation body = %v", m)
			}
			e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/faults",
				Body: map[string]any{"route": "v2.contact.list", "status": c.status, "count": 1}}).
				Status(t, 201)
			e.Get("/v2/contacts", apitest.AliceKey, "le_acme").Gen2(t, c.status, c.identifier)
		})
	}
	t.Run("an unknown route is refused with the nearest name", func(t *testing.T) {
		r := e.Do(
			apitest.Req{Method: http.MethodPost, Path: "/_sandbox/faults", Body: `{"route":"card.creat","status":500}`},
		)
		r.Gen2(t, 400, "invalid_request")
		d := r.JSON(t)["details"].(map[string]any)["/route"].(string)
		if !strings.Contains(d, `"card.creat" is not a public route's name`) ||
			!strings.Contains(d, `did you mean "card.create"?`) {
			t.Fatalf("details /route = %q", d)
		}
	})
	t.Run("a control route is not a public route", func(t *testing.T) {
		r := e.Do(
			apitest.Req{
				Method: http.MethodPost,
				Path:   "/_sandbox/faults",
				Body:   `{"route":"sandbox.clock","status":500}`,
			},
		)
		r.Gen2(t, 400, "invalid_request")
	})
	t.Run("an unsupported status names the allowed ones", func(t *testing.T) {
		r := e.Do(
			apitest.Req{Method: http.MethodPost, Path: "/_sandbox/faults", Body: `{"route":"card.list","status":501}`},
		)
		r.Gen2(t, 400, "invalid_request")
		if d := r.JSON(t)["details"].(map[string]any)["/status"]; d != "must be one of 400, 401, 403, 404, 409, 422, 429,"+
			" 500, 502, 503, 504" {
			t.Fatalf("details /status = %v", d)
		}
	})
}

// TestLongInputsGetNoSuggestion: suggestions cost time in proportion to
// the input's length, so a page looping over a 500 KB path, or a caller
// naming a 900 KB route or event, gets a plain answer without one.
func TestLongInputsGetNoSuggestion(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	t.Run("a path too long to be near a route", func(t *testing.T) {
		path := "/card/" + strings.Repeat("x", 500<<10)
		r := e.Do(apitest.Req{Path: path, Key: apitest.AcmeKey, Header: fromAPage}).Gen1(t, 404, "not_found")
		if msg := r["message"].(string); strings.Contains(msg, "did you mean") {
			t.Fatalf("message suggests a route: %.200s", msg)
		}
		// A short one still has its suggestion.
		if msg := e.Do(apitest.Req{Path: "/cards", Key: apitest.AcmeKey}).Gen1(t, 404,
			"not_found")["message"].(string); !strings.Contains(
			msg,
			"did you mean GET /card?",
		) {
			t.Fatalf("message = %q", msg)
		}
	})
	long := strings.Repeat("card.create", 900<<10/len("card.create"))
	t.Run("a fault's route longer than every route's name", func(t *testing.T) {
		r := e.Do(
			apitest.Req{
				Method: http.MethodPost,
				Path:   "/_sandbox/faults",
				Body:   map[string]any{"route": long, "status": 500},
			},
		)
		d := r.Gen2(t, 400, "invalid_request")["/route"]
		if !strings.Contains(d, "bytes long; no route's name is longer than") || strings.Contains(d, "did you mean") {
			t.Fatalf("details /route = %.300s", d)
		}
		if items := e.Get("/_sandbox/faults", "", "").Status(t, 200).JSON(t)["items"].([]any); len(items) != 0 {
			t.Fatalf("faults after the refusal: %v", items)
		}
	})
	t.Run("an event type far longer than every type", func(t *testing.T) {
		hook := apitest.CreateHook(t, e, "http://127.0.0.1:9/hooks")
		r := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/webhooks/" + hook.ID + "/trigger",
			Body: map[string]any{"event": long}}).Gen2(t, 400, "invalid_request")
		if _, ok := r["/event"]; !ok {
			t.Fatalf("details = %.300v", r)
		}
	})
}
