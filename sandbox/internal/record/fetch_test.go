package record

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// fakeSource serves answer for each request, counting them, and fails the
// test for anything but a GET.
func fakeSource(t *testing.T, answer func(w http.ResponseWriter, r *http.Request, n int)) (*reader, *[]time.Duration) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			t.Errorf("%s %s sent", r.Method, r.URL)
		}
		answer(w, r, int(n.Add(1)))
	}))
	t.Cleanup(srv.Close)
	waits := &[]time.Duration{}
	return &reader{base: srv.URL, key: "sk_test", http: srv.Client(),
		sleep: func(_ context.Context, d time.Duration) error { *waits = append(*waits, d); return nil }}, waits
}

func TestReaderWaitsAsRateLimitsAsk(t *testing.T) {
	rd, waits := fakeSource(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.Header.Get("X-API-Key") != "sk_test" || r.Header.Get("x-legal-entity") != "le_a" {
			t.Errorf("headers %v", r.Header)
		}
		if n <= 2 {
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(w, `{"id":"x"}`)
	})
	var v struct{ ID string }
	if err := rd.get(context.Background(), "/thing", nil, "le_a", &v); err != nil || v.ID != "x" {
		t.Fatalf("get = %v %+v", err, v)
	}
	if fmt.Sprint(*waits) != "[3s 3s]" || rd.requests != 3 {
		t.Errorf("waits %v after %d requests; want [3s 3s] after 3", *waits, rd.requests)
	}
}

func TestReaderRetriesNetworkErrorsAFewTimes(t *testing.T) {
	drop := func(w http.ResponseWriter) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}
	rd, _ := fakeSource(t, func(w http.ResponseWriter, _ *http.Request, n int) {
		if n <= 2 {
			drop(w)
			return
		}
		fmt.Fprint(w, `{}`)
	})
	var v map[string]any
	if err := rd.get(context.Background(), "/thing", nil, "", &v); err != nil || rd.requests != 3 {
		t.Fatalf("get = %v after %d requests", err, rd.requests)
	}

	rd, _ = fakeSource(t, func(w http.ResponseWriter, _ *http.Request, _ int) { drop(w) })
	err := rd.get(context.Background(), "/thing", nil, "", &v)
	if err == nil || !strings.Contains(err.Error(), "gave up after 4 attempts") || rd.requests != networkAttempts {
		t.Errorf("always dropped: %v after %d requests", err, rd.requests)
	}

	rd, _ = fakeSource(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		w.WriteHeader(http.StatusTooManyRequests)
	})
	if err := rd.get(context.Background(), "/thing", nil, "", &v); err == nil ||
		!strings.Contains(err.Error(), "still rate limited") || rd.requests != rateLimitAttempts {
		t.Errorf("always limited: %v after %d requests", err, rd.requests)
	}
}

func TestReaderStopsAtAnAnswerItCannotUse(t *testing.T) {
	rd, _ := fakeSource(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		http.Error(w, `{"message":"no"}`, http.StatusUnauthorized)
	})
	var v map[string]any
	err := rd.get(context.Background(), "/account", nil, "", &v)
	if err == nil || err.Error() != `GET /account: 401 {"message":"no"}` || rd.requests != 1 {
		t.Errorf("401: %v after %d requests", err, rd.requests)
	}
}

func TestListFollowsCursorsWithTheSameFilters(t *testing.T) {
	rd, _ := fakeSource(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if r.URL.Query().Get("filter:status") != "active" {
			t.Errorf("page %d lost its filter: %s", n, r.URL)
		}
		if want := map[int]string{1: "", 2: "c1", 3: "c2"}[n]; r.URL.Query().Get("cursor") != want {
			t.Errorf("page %d: cursor %q, want %q", n, r.URL.Query().Get("cursor"), want)
		}
		next := map[int]string{1: `,"metadata":{"nextCursor":"c1"}`, 2: `,"metadata":{"nextCursor":"c2"}`}[n]
		fmt.Fprintf(w, `{"items":[{"n":%d},{"n":%d}]%s}`, 2*n-1, 2*n, next)
	})
	items, err := rd.list(context.Background(), "things", "/thing", url.Values{"filter:status": {"active"}}, "")
	if err != nil || len(items) != 6 || string(items[5]) != `{"n":6}` {
		t.Fatalf("list = %v %s", err, items)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 6, 15, 14, 0, 0, 0, time.UTC)
	for h, want := range map[string]time.Duration{
		"7": 7 * time.Second, "": time.Second, "soon": time.Second, "0": 0, "86400": maxRetryAfter,
		"Mon, 15 Jun 2026 14:00:30 GMT": 30 * time.Second, "Mon, 15 Jun 2026 13:00:00 GMT": 0,
	} {
		if got := parseRetryAfter(h, now); got != want {
			t.Errorf("Retry-After %q = %s, want %s", h, got, want)
		}
	}
}
