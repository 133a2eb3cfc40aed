package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/webhooks"
)

// requestLine is the request log's line of the request with an id.
func requestLine(t *testing.T, e *apitest.Env, r *apitest.Resp) apitest.LogLine {
	t.Helper()
	id := r.Header.Get("X-Request-Id")
	for _, l := range apitest.LogLines(t, e.Log.String()) {
		if l["request_id"] == id {
			return l
		}
	}
	t.Fatalf("no log line for request %s", id)
	return nil
}

func TestRequestLogLevels(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	t.Run("a 4xx is a warning with its error code and message", func(t *testing.T) {
		l := requestLine(t, e, e.Get("/card/card_nope", apitest.AcmeKey, "").Status(t, 404))
		if l["level"] != "warn" || l["error_code"] != "not_found" ||
			!strings.Contains(l["error_message"].(string), "card_nope") ||
			l["status"] != float64(404) {
			t.Fatalf("log line = %v", l)
		}
	})
	t.Run("a 5xx is an error", func(t *testing.T) {
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/faults",
			Body: `{"route":"account.list","status":503,"count":1}`}).
			Status(t, 201)
		l := requestLine(t, e, e.Get("/account", apitest.AcmeKey, "").Status(t, 503))
		if l["level"] != "error" || l["error_code"] != "unavailable" || l["error_message"] == "" {
			t.Fatalf("log line = %v", l)
		}
	})
	t.Run("a success is info", func(t *testing.T) {
		if l := requestLine(t, e, e.Get("/account", apitest.AcmeKey, "").Status(t, 200)); l["level"] != "info" ||
			l["error_code"] != nil {
			t.Fatalf("log line = %v", l)
		}
	})
	t.Run("the dashboard's polling is debug", func(t *testing.T) {
		dash := map[string]string{"X-Sandbox-Dashboard": "1"}
		l := requestLine(t, e, e.Do(apitest.Req{Path: "/_sandbox/requests?limit=100", Header: dash}).Status(t, 200))
		if l["level"] != "debug" || l["route"] != "sandbox.requests" {
			t.Fatalf("log line = %v", l)
		}
		if l := requestLine(t, e, e.Do(apitest.Req{Path: "/_sandbox/webhook-deliveries", Header: dash}).Status(t,
			200)); l["level"] != "debug" {
			t.Fatalf("log line = %v", l)
		}
		if l := requestLine(t, e, e.Do(apitest.Req{Path: "/_sandbox/ui/app.js"}).Status(t,
			200)); l["level"] != "debug" {
			t.Fatalf("dashboard file log line = %v", l)
		}
	})
	t.Run("the dashboard's actions stay info", func(t *testing.T) {
		r := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: `{"by":"1m"}`,
			Header: map[string]string{"X-Sandbox-Dashboard": "1"}}).Status(t, 200)
		if l := requestLine(t, e, r); l["level"] != "info" {
			t.Fatalf("log line = %v", l)
		}
	})
}

func TestWebhookAttemptsAreLogged(t *testing.T) {
	t.Parallel()
	e := apitest.NewHookEnv(t, webhooks.Options{})
	rc := apitest.NewHookReceiver(t, e, 500)
	hook := apitest.CreateHook(t, e, rc.URL+"/hooks")
	d := apitest.Trigger(t, e, hook.ID, "card.update", "card_acmeaws")
	apitest.SettleHooks(t, e)
	apitest.Advance(t, e, `{"by":"1m"}`)
	lines := apitest.Where(apitest.LogLines(t, e.Log.String()), "webhook delivery")
	if len(lines) != 2 {
		t.Fatalf("%d delivery lines, want 2: %v", len(lines), lines)
	}
	for i, want := range []struct {
		level  string
		status float64
	}{{"warn", 500}, {"info", 204}} {
		l := lines[i]
		if l["level"] != want.level || l["status"] != want.status || l["url"] != rc.URL+"/hooks" ||
			l["webhook_id"] != hook.ID ||
			l["delivery_id"] != d.ID || l["event"] != "card.update" || l["attempt"] != float64(i+1) ||
			l["latency"] == nil ||
			l["world"] != "default" {
			t.Fatalf("line %d = %v", i, l)
		}
	}
	t.Run("a refused connection is a warning with the error", func(t *testing.T) {
		dead := deadURL(t)
		hook := apitest.CreateHook(t, e, dead)
		d := apitest.Trigger(t, e, hook.ID, "card.update", "card_acmeaws")
		apitest.SettleHooks(t, e)
		var got apitest.LogLine
		for _, l := range apitest.Where(apitest.LogLines(t, e.Log.String()), "webhook delivery") {
			if l["delivery_id"] == d.ID {
				got = l
			}
		}
		if got == nil || got["level"] != "warn" || got["status"] != nil ||
			!strings.Contains(got["error"].(string), "refused") ||
			got["url"] != dead {
			t.Fatalf("line = %v", got)
		}
	})
}

// deadURL is a loopback address nothing listens on: connections to it are
// refused.
func deadURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/hooks"
}

// ticking is a wall clock that moves a second each time it is read.
type ticking struct {
	mu sync.Mutex
	t  time.Time
}

func (c *ticking) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

func TestLongAdvanceLogsProgressAndASummary(t *testing.T) {
	t.Parallel()
	wall := &ticking{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	e := apitest.NewConfiguredEnv(t, apitest.WithAll(server.Config{Wall: wall.now}), nil)
	rec := e.Log
	adv := apitest.Advance(t, e, `{"by":"30d"}`)
	ran := len(adv["events"].([]any))
	lines := apitest.LogLines(t, rec.String())
	perEvent := apitest.Where(lines, "event ")
	if len(perEvent) != ran || ran < 700 {
		t.Fatalf("%d per-event lines for %d events", len(perEvent), ran)
	}
	for _, l := range perEvent {
		if l["level"] != "debug" || l["kind"] == nil || l["event_id"] == nil {
			t.Fatalf("per-event line = %v", l)
		}
	}
	// The wall clock moves a second per read, two reads per event: a
	// progress line every event.
	progress := apitest.Where(lines, "advancing the clock")
	if len(progress) < ran/2 {
		t.Fatalf("%d progress lines for %d events", len(progress), ran)
	}
	if p := progress[0]; p["level"] != "info" || p["events_done"] == nil || p["virtual_time"] == nil {
		t.Fatalf("progress line = %v", p)
	}
	sum := apitest.Where(lines, "clock advanced")
	if len(sum) != 1 {
		t.Fatalf("%d summary lines", len(sum))
	}
	s := sum[0]
	byKind := s["events_by_kind"].(map[string]any)
	total := 0.0
	for _, n := range byKind {
		total += n.(float64)
	}
	if s["level"] != "info" || s["events"] != float64(ran) || total != float64(ran) ||
		byKind["token_prices.tick"] != float64(720) ||
		s["from"] != "2026-06-15T14:00:00Z" ||
		s["to"] != "2026-07-15T14:00:00Z" ||
		s["deliveries_queued"] == nil {
		t.Fatalf("summary = %v", s)
	}
	if want := fmt.Sprintf("clock advanced 2026-06-15T14:00:00Z → 2026-07-15T14:00:00Z: %s events, %s deliveries queued",
		humanize.Comma(int64(ran)), humanize.Comma(int64(s["deliveries_queued"].(float64)))); s["message"] != want {
		t.Errorf("the summary says %q, want %q", s["message"], want)
	}
	t.Run("at info level the advance is a few lines", func(t *testing.T) {
		// Besides them, each attempt to the demo's ERP endpoint, which
		// refuses every connection, is a warning of its own.
		info, refused := 0, 0
		for _, l := range lines {
			switch {
			case l["level"] == "debug":
			case strings.HasPrefix(fmt.Sprint(l["message"]), "webhook delivery "):
				if l["level"] != "warn" || l["webhook_id"] != "webhook_acmeerp" {
					t.Errorf("delivery line = %v", l)
				}
				refused++
			default:
				info++
			}
		}
		if info > len(progress)+2 {
			t.Fatalf("%d lines above debug", info)
		}
		if retries := byKind["webhook.retry"]; retries == nil || float64(refused) != retries.(float64) {
			t.Errorf("%d refused deliveries logged for %v retries", refused, retries)
		}
	})
}

func TestLoadingLogsProgressAndASummary(t *testing.T) {
	rec := &apitest.RouteRecorder{}
	wall := &ticking{t: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	srv, err := server.New(apitest.WithAll(server.Config{Scenario: "demo", Log: zerolog.New(rec), Wall: wall.now}))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Engine.Close()
	lines := apitest.LogLines(t, rec.String())
	progress := apitest.Where(lines, "loading scenario demo")
	if len(progress) == 0 || progress[0]["level"] != "info" || progress[0]["records"] == nil {
		t.Fatalf("progress lines = %v", progress)
	}
	sum := apitest.Where(lines, "loaded scenario demo")
	if len(sum) != 1 {
		t.Fatalf("summary lines = %v", sum)
	}
	byKind, _ := sum[0]["records_by_kind"].(map[string]any)
	total := 0.0
	for _, n := range byKind {
		total += n.(float64)
	}
	if total == 0 || total != sum[0]["records"] || byKind["card"] == nil || byKind["transaction"] == nil ||
		sum[0]["took"] == nil {
		t.Fatalf("summary = %v", sum[0])
	}
}

// advanceCtx posts an advance with a deadline: a test that would hang
// fails instead.
func advanceCtx(t *testing.T, e *apitest.Env, body string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hr, _ := http.NewRequestWithContext(
		ctx,
		http.MethodPost,
		e.Server.URL+"/_sandbox/clock/advance",
		strings.NewReader(body),
	)
	hr.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(hr)
	if err != nil {
		t.Fatalf("advance: %v", err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var out map[string]any
	if res.StatusCode != 200 || json.Unmarshal(raw, &out) != nil {
		t.Fatalf("advance = %d %s", res.StatusCode, raw)
	}
	return out
}

func TestAdvanceNeverWaitsLongForSlowOrDeadReceivers(t *testing.T) {
	t.Parallel()
	// Deliveries time out after 1 s; an advance waits 100 ms at most.
	e := apitest.NewHookEnv(t, webhooks.Options{Timeout: time.Second, AdvanceWait: 100 * time.Millisecond})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(4 * time.Second):
		case <-r.Context().Done():
		}
	}))
	defer slow.Close()
	dead := deadURL(t)
	slowHook, deadHook := apitest.CreateHook(t, e, slow.URL), apitest.CreateHook(t, e, dead)
	// Both endpoints listen to every event; the dead one's first attempt
	// fails at once and is retried half a second later.
	deadD := apitest.Trigger(t, e, deadHook.ID, "card.update", "card_acmeaws")
	slowD := apitest.Trigger(t, e, slowHook.ID, "card.update", "card_acmeaws")
	t0 := apitest.ClockNow(t, e)

	adv := advanceCtx(t, e, `{"by":"1m"}`)
	if now := apitest.ClockNow(t, e); !now.Equal(t0.Add(time.Minute)) {
		t.Fatalf("clock = %s, want %s", now, t0.Add(time.Minute))
	}
	hooks := adv["webhooks"].(map[string]any)
	if hooks["settled"] != false {
		t.Fatalf("webhooks = %v, want settled false", hooks)
	}
	pending := map[string]bool{}
	for _, p := range hooks["pending"].([]any) {
		pending[p.(map[string]any)["deliveryId"].(string)] = true
	}
	if !pending[slowD.ID] {
		t.Fatalf("pending = %v, want the slow receiver's %s", hooks["pending"], slowD.ID)
	}
	refused := false
	for _, s := range hooks["delivered"].([]any) {
		s := s.(map[string]any)
		if s["deliveryId"] == deadD.ID && strings.Contains(s["error"].(string), "refused") && s["url"] == dead {
			refused = true
		}
	}
	if !refused && !pending[deadD.ID] {
		t.Fatalf("the dead receiver's delivery is neither attempted nor pending: %v", hooks)
	}

	// Once the slow attempt times out, both failures are in the list.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		got := apitest.GetDelivery(t, e, slowD.ID)
		if len(got.Attempts) > 0 {
			if a := got.Attempts[0]; a.Succeeded || a.Error != "timeout: no answer within 1s" {
				t.Fatalf("slow attempt = %+v", a)
			}
			break
		}
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/webhook-deliveries/settle",
			Body: `{"timeout":"2s"}`}).
			Status(t, 200)
	}
	got := apitest.GetDelivery(t, e, deadD.ID)
	if len(got.Attempts) == 0 || got.Attempts[0].Succeeded || !strings.Contains(got.Attempts[0].Error, "refused") {
		t.Fatalf("dead receiver's delivery = %+v", got)
	}
}
