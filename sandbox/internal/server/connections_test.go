package server_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// failSafe bounds a test's reads so that a connection the server wrongly
// keeps open fails the test instead of hanging it; it is no measure of
// how fast the server is.
const failSafe = 30 * time.Second

// serveLimited serves a sandbox of the scenario with cfg on loopback and
// returns its address; it stops with the test.
func serveLimited(t *testing.T, scenario string, cfg server.Config) string {
	t.Helper()
	cfg.Scenario, cfg.Log = scenario, zerolog.Nop()
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cancel, served := serveInBackground(t, srv)
	t.Cleanup(func() {
		cancel()
		<-served
	})
	return srv.Addr()
}

// readUntilClosed reads what the server sends until it closes the
// connection, failing when it does not within failSafe.
func readUntilClosed(t *testing.T, conn net.Conn) string {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(failSafe))
	got, err := io.ReadAll(conn)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("the server kept the connection open; it sent %q", got)
	}
	return string(got)
}

// TestSlowRequestBodyIsCutOff: a client that sends its headers and the
// start of a body, then stalls, is answered 408 and disconnected once the
// body read limit runs out, on a control route and on a public one.
func TestSlowRequestBodyIsCutOff(t *testing.T) {
	addr := serveLimited(t, "demo", server.Config{BodyReadTimeout: 100 * time.Millisecond})
	for _, c := range []struct{ path, key, want string }{
		{"/_sandbox/clock/advance", "", `"code":"timeout"`},
		{"/card", "sk_sandbox_acme", `"identifier":"timeout"`},
	} {
		t.Run(c.path, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			io.WriteString(conn, "POST "+c.path+" HTTP/1.1\r\nHost: "+addr+"\r\nX-API-Key: "+c.key+
				"\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"by\":")
			got := readUntilClosed(t, conn)
			if !strings.HasPrefix(got, "HTTP/1.1 408 ") || !strings.Contains(got, c.want) ||
				!strings.Contains(got, "did not arrive in time") {
				t.Fatalf("a stalled body was answered %q", got)
			}
		})
	}
}

// TestIdleKeepAliveConnectionIsClosed: a connection kept alive after its
// request and then left idle is closed once the idle limit runs out.
func TestIdleKeepAliveConnectionIsClosed(t *testing.T) {
	addr := serveLimited(t, "empty", server.Config{IdleTimeout: 100 * time.Millisecond})
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /_sandbox/health HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
	br := bufio.NewReader(conn)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || res.Close {
		t.Fatalf("health = %d, close %v: the connection should be kept alive", res.StatusCode, res.Close)
	}
	conn.SetReadDeadline(time.Now().Add(failSafe))
	if rest, err := io.ReadAll(br); errors.Is(err, os.ErrDeadlineExceeded) || len(rest) != 0 {
		t.Fatalf("the idle connection: read %q, %v; want it closed", rest, err)
	}
}

// TestLongPollsOutliveTheConnectionLimits: a request that sent its body
// and then waits (settling webhook deliveries) and a long poll without a
// body both answer as usual, however short the body and idle limits.
func TestLongPollsOutliveTheConnectionLimits(t *testing.T) {
	const limit = 20 * time.Millisecond
	addr := serveLimited(t, "demo", server.Config{BodyReadTimeout: limit, IdleTimeout: limit})
	base := "http://" + addr
	arrived, release := make(chan struct{}, 1), make(chan struct{})
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-release
		w.WriteHeader(http.StatusNoContent)
	}))
	defer rc.Close()
	hook := postJSON(t, base+"/webhook", "sk_sandbox_acme", `{"url":"`+rc.URL+`","name":"slow"}`, 201)
	postJSON(
		t,
		base+"/_sandbox/webhooks/"+hook["id"].(string)+"/trigger",
		"",
		`{"event":"card.update","entityId":"card_acmeaws"}`,
		201,
	)
	<-arrived
	settled := make(chan map[string]any, 1)
	go func() {
		settled <- postJSON(t, base+"/_sandbox/webhook-deliveries/settle", "", `{"timeout":"30s"}`, 200)
	}()
	// Nothing signals that a limit did not run out: give it ten times
	// its length before the receiver answers.
	time.Sleep(10 * limit)
	close(release)
	s := <-settled
	if s["settled"] != true || len(s["delivered"].([]any)) != 1 {
		t.Fatalf("settle = %v, want the delivery it waited for", s)
	}
	res, err := http.Get(base + "/_sandbox/changes?since=0&wait=1")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("long poll = %d", res.StatusCode)
	}
}

// postJSON posts a JSON body and decodes the answer, failing on another
// status than want.
func postJSON(t *testing.T, url, key, body string, want int) map[string]any {
	t.Helper()
	r, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Error(err)
		return nil
	}
	r.Header.Set("Content-Type", "application/json")
	if key != "" {
		r.Header.Set("X-API-Key", key)
	}
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Error(err)
		return nil
	}
	defer res.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != want || json.Unmarshal(raw, &out) != nil {
		t.Errorf("POST %s = %d %s, want %d", url, res.StatusCode, raw, want)
	}
	return out
}
