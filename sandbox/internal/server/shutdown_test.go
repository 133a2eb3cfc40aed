package server_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

func TestGracefulShutdownFinishesInFlightRequests(t *testing.T) {
	srv, err := server.New(server.Config{Scenario: "empty", Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	entered, release := make(chan struct{}), make(chan struct{})
	inner := srv.Handler
	srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		inner.ServeHTTP(w, r)
	})
	cancel, served := serveInBackground(t, srv)

	type result struct {
		status int
		body   string
		err    error
	}
	got := make(chan result, 1)
	go func() {
		res, err := http.Get("http://" + srv.Addr() + "/_sandbox/health")
		if err != nil {
			got <- result{err: err}
			return
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		got <- result{status: res.StatusCode, body: string(b)}
	}()
	<-entered
	cancel()
	close(release)
	r := <-got
	if r.err != nil || r.status != 200 {
		t.Fatalf("in-flight request during shutdown: %d %v %s", r.status, r.err, r.body)
	}
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := http.Get("http://" + srv.Addr() + "/_sandbox/health"); err == nil {
		t.Fatal("the server still accepts connections after shutdown")
	}
}

// A long control call (a clock advance) looks at its request's context
// between two steps: shutdown ends that context, so such a call stops and
// answers instead of holding the shutdown until it gives up.
func TestShutdownEndsLongRequests(t *testing.T) {
	srv, err := server.New(server.Config{Scenario: "empty", Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	entered := make(chan struct{})
	inner := srv.Handler
	srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-r.Context().Done()
		inner.ServeHTTP(w, r)
	})
	cancel, served := serveInBackground(t, srv)
	got := make(chan int, 1)
	go func() {
		res, err := http.Post(
			"http://"+srv.Addr()+"/_sandbox/clock/advance",
			"application/json",
			strings.NewReader(`{"by":"30d"}`),
		)
		if err != nil {
			got <- 0
			return
		}
		res.Body.Close()
		got <- res.StatusCode
	}()
	<-entered
	cancel()
	if err := <-served; err != nil {
		t.Fatalf("Serve = %v, want a clean shutdown", err)
	}
	if status := <-got; status != http.StatusServiceUnavailable {
		t.Fatalf("the advance in flight at shutdown answered %d, want 503", status)
	}
}

// serveInBackground listens on a free loopback port and serves until
// cancel; served receives what Serve returned.
func serveInBackground(t *testing.T, srv *server.Server) (cancel context.CancelFunc, served <-chan error) {
	t.Helper()
	if err := srv.Listen("127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	return cancel, done
}
