package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
)

// lineWriter hands each write (a command's line) to a channel.
type lineWriter chan string

func (w lineWriter) Write(p []byte) (int, error) {
	w <- string(p)
	return len(p), nil
}

// TestRequestsFollowPrintsNewRequests runs requests --follow: it prints the
// newest request made before it started, then one made after, and ends
// with exit 0 when its context is canceled (Ctrl-C).
func TestRequestsFollowPrintsNewRequests(t *testing.T) {
	s := startProgram(t, nil, "--addr", "127.0.0.1:0", "--log-level", "error")
	defer s.stop(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := client.New("http://" + s.addr)
	if _, err := c.Keys(ctx); err != nil {
		t.Fatal(err)
	}
	lines, ready, done := make(lineWriter, 16), make(chan struct{}, 1), make(chan int, 1)
	var stderr bytes.Buffer
	p := &Program{Stdout: lines, Stderr: &stderr, Getenv: func(string) string { return "" },
		Ready: func(string) { ready <- struct{}{} }}
	go func() {
		done <- p.Run(ctx, []string{"requests", "--follow", "--limit", "1", "--server", "http://" + s.addr})
	}()
	select {
	case <-ready:
	case code := <-done:
		t.Fatalf("requests --follow exited %d before following: %s", code, stderr.String())
	}
	if got := <-lines; !strings.Contains(got, " GET    /_sandbox/keys ") {
		t.Fatalf("first line = %q, want the request made before", got)
	}
	if _, err := c.Clock(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-lines:
		if !strings.Contains(got, " GET    /_sandbox/clock ") || !strings.Contains(got, " sandbox.clock ") {
			t.Fatalf("next line = %q, want the request made after it started", got)
		}
	case code := <-done:
		t.Fatalf("requests --follow exited %d: %s", code, stderr.String())
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("requests --follow ended with %d on cancel: %s", code, stderr.String())
	}
	if len(lines) != 0 {
		t.Errorf("printed more: %q", <-lines)
	}
}
