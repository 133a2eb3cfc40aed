package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// keyTransport sends an API key with every request.
type keyTransport string

func (k keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(keyHeader, string(k))
	return http.DefaultTransport.RoundTrip(r)
}

// sessionServer serves a server with a tool "wait", which returns once
// release is closed, through sessions of at most max, idle for at most
// idle; the key is the X-API-Key header.
type sessionServer struct {
	url      string
	server   *mcp.Server
	entered  chan struct{}
	release  chan struct{}
	sessions *sessions
}

func newSessionServer(t *testing.T, max int, idle time.Duration) *sessionServer {
	t.Helper()
	ss := &sessionServer{server: mcp.NewServer(&mcp.Implementation{Name: "test", Version: "1"}, nil),
		entered: make(chan struct{}, 16), release: make(chan struct{})}
	ss.server.AddTool(&mcp.Tool{Name: "wait", InputSchema: map[string]any{"type": "object"}},
		func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ss.entered <- struct{}{}
			<-ss.release
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil
		})
	transport := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ss.server },
		&mcp.StreamableHTTPOptions{JSONResponse: true, SessionTimeout: idle})
	ss.sessions = newSessions(ss.server, transport, max)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ss.sessions.serve(w, r, r.Header.Get(keyHeader))
	}))
	t.Cleanup(srv.Close)
	ss.url = srv.URL
	return ss
}

// connect opens a session with key.
func (ss *sessionServer) connect(t *testing.T, key string) (*mcp.ClientSession, error) {
	t.Helper()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: ss.url, HTTPClient: &http.Client{Transport: keyTransport(key)},
			DisableStandaloneSSE: true}, nil)
	if err == nil {
		t.Cleanup(func() { s.Close() })
	}
	return s, err
}

// post sends one JSON-RPC message in session id with key.
func (ss *sessionServer) post(t *testing.T, method, id, key, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, ss.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(keyHeader, key)
	if id != "" {
		req.Header.Set(sessionHeader, id)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := res.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return res.StatusCode, b.String()
}

const pingMessage = `{"jsonrpc":"2.0","id":7,"method":"ping"}`

func TestSessionsAreBoundToTheirKey(t *testing.T) {
	ss := newSessionServer(t, 10, 0)
	s, err := ss.connect(t, "sk_a")
	if err != nil {
		t.Fatal(err)
	}
	unknownStatus, unknownBody := ss.post(t, http.MethodPost, "nope", "sk_b", pingMessage)
	for _, method := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		status, body := ss.post(t, method, s.ID(), "sk_b", pingMessage)
		if status != http.StatusNotFound || status != unknownStatus || body != unknownBody {
			t.Errorf("%s with another key: %d %q, want what an unknown session gets: %d %q",
				method, status, body, unknownStatus, unknownBody)
		}
	}
	if err := s.Ping(context.Background(), nil); err != nil {
		t.Errorf("the session's own key, after another key's DELETE: %v", err)
	}
	status, body := ss.post(t, http.MethodPost, s.ID(), "sk_a", pingMessage)
	if status != http.StatusOK || !strings.Contains(body, `"id":7`) {
		t.Errorf("the session's own key: %d %s", status, body)
	}
}

func TestSessionsCapClosesTheLeastRecentlyUsed(t *testing.T) {
	ss := newSessionServer(t, 3, 0)
	var open []*mcp.ClientSession
	for range 3 {
		s, err := ss.connect(t, "sk_a")
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, s)
	}
	// The first is used again: the second is now the least recently used.
	if err := open[0].Ping(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	fourth, err := ss.connect(t, "sk_b")
	if err != nil {
		t.Fatalf("a session past the cap: %v", err)
	}
	if status, _ := ss.post(t, http.MethodPost, open[1].ID(), "sk_a", pingMessage); status != http.StatusNotFound {
		t.Errorf("the least recently used session answers %d, want 404", status)
	}
	for _, s := range []*mcp.ClientSession{open[0], open[2], fourth} {
		if err := s.Ping(context.Background(), nil); err != nil {
			t.Errorf("session %s: %v", s.ID(), err)
		}
	}
	live := 0
	for range ss.server.Sessions() {
		live++
	}
	if live != 3 {
		t.Errorf("%d sessions live, want 3", live)
	}
}

func TestSessionsCapRefusesWhenEveryOneIsBusy(t *testing.T) {
	ss := newSessionServer(t, 2, 0)
	var wg sync.WaitGroup
	for range 2 {
		s, err := ss.connect(t, "sk_a")
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { s.CallTool(context.Background(), &mcp.CallToolParams{Name: "wait"}) })
		<-ss.entered
	}
	status, body := ss.post(t, http.MethodPost, "", "sk_a", `{"jsonrpc":"2.0","id":1,"method":"initialize",`+
		`"params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if !isRPCError(body, "holds 2 sessions") || status != http.StatusServiceUnavailable {
		t.Errorf("initialize with every session busy: %d %s", status, body)
	}
	close(ss.release)
	wg.Wait()
	if _, err := ss.connect(t, "sk_a"); err != nil {
		t.Errorf("once the calls are done, a new session: %v", err)
	}
}

func TestSessionsIdleAreClosed(t *testing.T) {
	ss := newSessionServer(t, 1, 200*time.Millisecond)
	s, err := ss.connect(t, "sk_a")
	if err != nil {
		t.Fatal(err)
	}
	var session *mcp.ServerSession
	for live := range ss.server.Sessions() {
		session = live
	}
	closed := make(chan struct{})
	go func() { session.Wait(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("an idle session is still open after a minute")
	}
	if status, _ := ss.post(t, http.MethodPost, s.ID(), "sk_a", pingMessage); status != http.StatusNotFound {
		t.Errorf("an expired session answers %d, want 404", status)
	}
	// Its place is free: the cap of one admits a new session without
	// closing a live one.
	if _, err := ss.connect(t, "sk_a"); err != nil {
		t.Fatal(err)
	}
	ss.sessions.mu.Lock()
	defer ss.sessions.mu.Unlock()
	if _, kept := ss.sessions.owners[s.ID()]; kept || len(ss.sessions.owners) != 1 {
		t.Errorf("the expired session is still recorded: %d sessions", len(ss.sessions.owners))
	}
}

// isRPCError reports whether body is a JSON-RPC error object answering no
// request in particular (id null) whose message says want.
func isRPCError(body, want string) bool {
	var answer map[string]any
	if json.Unmarshal([]byte(body), &answer) != nil {
		return false
	}
	id, hasID := answer["id"]
	e, _ := answer["error"].(map[string]any)
	msg, _ := e["message"].(string)
	return answer["jsonrpc"] == "2.0" && hasID && id == nil && e["code"] == float64(-32600) &&
		strings.Contains(msg, want) && len(answer) == 3
}
