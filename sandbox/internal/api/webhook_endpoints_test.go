package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

func TestWebhookEndpointsManagement(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	var pg struct {
		Items []apitest.HookView `json:"items"`
	}
	e.Get("/webhook", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &pg)
	if len(pg.Items) != 2 || pg.Items[0].ID != "webhook_acmelocal" || pg.Items[0].Status != "paused" ||
		pg.Items[0].PausedAt == "" ||
		pg.Items[1].ID != "webhook_acmeerp" ||
		pg.Items[1].Status != "active" ||
		pg.Items[1].URL != "http://127.0.0.1:9/hooks" {
		t.Fatalf("demo webhooks = %+v", pg.Items)
	}
	h := apitest.CreateHook(t, e, "https://hooks.example.test/slash")
	if !strings.HasPrefix(h.ID, "webhook_") || h.Status != "active" || h.Name != "Receiver" || h.CreatedAt == "" ||
		h.PausedAt != "" {
		t.Fatalf("created = %+v", h)
	}
	if got := apitest.GetHook(t, e, h.ID); got != h {
		t.Fatalf("GET = %+v, want %+v", got, h)
	}
	var alice apitest.HookView
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/webhook", Key: "sk_sandbox_alice", LE: "le_globex",
		Body: `{"url":"http://localhost:4000/h","name":"Globex","legalEntityId":"le_globex"}`}).Status(t, 201).Decode(t,
		&alice)
	e.Get("/webhook/"+alice.ID, "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
	e.Get("/webhook/"+h.ID, "sk_sandbox_globex", "").Gen1(t, 404, "not_found")
	e.Get("/webhook?filter:legalEntityId=le_globex", "sk_sandbox_acme", "").Gen1(t, 403, "forbidden")
	e.Get("/webhook?filter:legalEntityId=le_acme", "sk_sandbox_acme", "").Status(t, 200)

	apitest.PatchHook(t, e, h.ID, "paused")
	apitest.PatchHook(t, e, h.ID, "active")
	arch := apitest.PatchHook(t, e, h.ID, "archived")
	if arch.ArchivedAt == "" || arch.Status != "disabled" || arch.DisabledAt == "" {
		t.Fatalf("archived = %+v", arch)
	}
	e.Get("/webhook", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &pg)
	if len(pg.Items) != 2 {
		t.Fatalf("an archived webhook is listed: %+v", pg.Items)
	}
	if got := apitest.GetHook(t, e, h.ID); got.ArchivedAt == "" {
		t.Fatalf("archived GET = %+v", got)
	}
}

func TestWebhookWritesAreValidated(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	post := func(key, le, body string) *apitest.Resp {
		return e.Do(apitest.Req{Method: http.MethodPost, Path: "/webhook", Key: key, LE: le, Body: body})
	}
	for _, c := range []struct {
		name, key, le, body string
		status              int
		code, field         string
	}{
		{"user key without legalEntityId", "sk_sandbox_alice", "le_acme", `{"url":"http://a.test","name":"x"}`, 400,
			"invalid_request", "/legalEntityId"},
		{"legalEntityId of another entity the key may use", "sk_sandbox_alice", "le_acme",
			`{"url":"http://a.test","name":"x","legalEntityId":"le_globex"}`, 400, "invalid_request", "/legalEntityId"},
		{"legalEntityId the key may not use", "sk_sandbox_bob", "le_acme",
			`{"url":"http://a.test","name":"x","legalEntityId":"le_globex"}`, 403, "forbidden", ""},
		{"not http", "sk_sandbox_acme", "", `{"url":"ftp://a.test/x","name":"x"}`, 400, "invalid_request", "/url"},
		{"relative url", "sk_sandbox_acme", "", `{"url":"/hooks","name":"x"}`, 400, "invalid_request", "/url"},
		{"missing name", "sk_sandbox_acme", "", `{"url":"http://a.test"}`, 400, "invalid_request", "/name"},
		{"enabledEvents cannot be set", "sk_sandbox_acme", "", `{"url":"http://a.test","name":"x","enabledEvents":[]}`, 400,
			"invalid_request", "/enabledEvents"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := post(c.key, c.le, c.body).Gen1(t, c.status, c.code)
			details, _ := m["meta"].(map[string]any)["details"].(map[string]any)
			if _, ok := details[c.field]; c.field != "" && !ok {
				t.Fatalf("details = %v, want %s", details, c.field)
			}
		})
	}
	var bob apitest.HookView
	post(
		"sk_sandbox_bob",
		"le_acme",
		`{"url":"http://a.test","name":"Bob's","legalEntityId":"le_acme"}`,
	).Status(t, 201).
		Decode(t, &bob)
	for status, want := range map[string]string{"backing-off": "set by the system", "disabled": "set by the system",
		"gone": "must be"} {
		m := e.Do(apitest.Req{Method: http.MethodPatch, Path: "/webhook/" + bob.ID, Key: "sk_sandbox_acme",
			Body: `{"status":"` + status + `"}`}).Gen1(t, 400, "invalid_request")
		if !strings.Contains(m["message"].(string), want) {
			t.Fatalf("PATCH %s: %v", status, m["message"])
		}
	}
	e.Do(apitest.Req{Method: http.MethodPatch, Path: "/webhook/webhook_nope", Key: "sk_sandbox_acme",
		Body: `{"status":"paused"}`}).
		Gen1(t, 404, "not_found")
	id := apitest.Deferred(t, post("sk_sandbox_acme_readonly", "", `{"url":"http://a.test","name":"Deferred"}`))
	if got := e.Get("/agent-request/"+id, "sk_sandbox_acme_readonly", "").Status(t,
		200).JSON(t); got["status"] != "pending" {
		t.Fatalf("read-only create: %v", got)
	}
}

func TestWebhookListPagesWithCursors(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for range 55 {
		apitest.CreateHook(t, e, "http://localhost:4000/h")
	}
	ids := apitest.Walk(t, e, "/webhook", nil)
	if len(ids) != 57 || ids[0] != "webhook_acmelocal" || ids[1] != "webhook_acmeerp" {
		t.Fatalf("walked %d webhooks, first %v", len(ids), ids[:1])
	}
}

func TestDeliveryControlValidation(t *testing.T) {
	t.Parallel()
	e := apitest.NewHookEnv(t, webhooks.Options{})
	for _, c := range []struct {
		method, path, body string
		status             int
		code               string
	}{
		{"GET", "/_sandbox/webhook-deliveries?status=lost", "", 400, "invalid_request"},
		{"GET", "/_sandbox/webhook-deliveries?event=card.created", "", 400, "invalid_request"},
		{"GET", "/_sandbox/webhook-deliveries?limit=0", "", 400, "invalid_request"},
		{"GET", "/_sandbox/webhook-deliveries/whdel_nope", "", 404, "not_found"},
		{"POST", "/_sandbox/webhook-deliveries/whdel_nope/redeliver", "", 404, "not_found"},
		{"POST", "/_sandbox/webhooks/webhook_nope/trigger", `{"event":"card.update","entityId":"c"}`, 404, "not_found"},
		{"POST", "/_sandbox/webhooks/webhook_acmelocal/trigger", `{"event":"card.created","entityId":"c"}`, 400,
			"invalid_request"},
		{"POST", "/_sandbox/webhooks/webhook_acmelocal/trigger", `{"event":"card.update"}`, 400, "invalid_request"},
		{"POST", "/_sandbox/webhook-deliveries/settle", `{"timeout":"2h"}`, 400, "invalid_request"},
		{"GET", "/_sandbox/webhooks/public-key?format=der", "", 400, "invalid_request"},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			var body any
			if c.body != "" {
				body = c.body
			}
			e.Do(apitest.Req{Method: c.method, Path: c.path, Body: body}).Gen2(t, c.status, c.code)
		})
	}
	// The demo's paused endpoint keeps a triggered event queued.
	d := apitest.Trigger(t, e, "webhook_acmelocal", "expense_report.create", "expense_report_1")
	if s := apitest.SettleHooks(t, e); d.Status != "queued" || len(s.Delivered) != 0 {
		t.Fatalf("paused trigger = %+v, settle = %+v", d, s)
	}
	var s apitest.SettledJSON
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/webhook-deliveries/settle", Body: `{"timeout":"5s"}`}).
		Status(t, 200).
		Decode(t, &s)
	if !s.Settled {
		t.Fatalf("settle with a timeout = %+v", s)
	}
}
