package mcp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// sessionHeader is the header a Streamable HTTP session travels in.
const sessionHeader = "Mcp-Session-Id"

// sessions stands in front of the SDK's transport: it binds every session
// to the API key that opened it, so that another key gets the answer an
// unknown session gets (404, as the spec says), and holds at most max
// sessions at once, closing the least recently used idle one when a new
// one is opened. The SDK closes a session idle for its SessionTimeout.
type sessions struct {
	server *mcp.Server
	next   http.Handler
	max    int

	mu      sync.Mutex
	owners  map[string]*sessionOwner
	opening int    // sessions being opened, not yet recorded
	clock   uint64 // orders the uses of sessions
}

// sessionOwner is who opened a session and how it is used.
type sessionOwner struct {
	key  string
	used uint64 // the clock at its last request
	busy int    // requests being served
}

func newSessions(server *mcp.Server, next http.Handler, max int) *sessions {
	return &sessions{server: server, next: next, max: max, owners: map[string]*sessionOwner{}}
}

// serve serves a request made with key.
func (s *sessions) serve(w http.ResponseWriter, r *http.Request, key string) {
	id := r.Header.Get(sessionHeader)
	if id != "" {
		s.serveSession(w, r, id, key)
		return
	}
	if r.Method != http.MethodPost {
		s.next.ServeHTTP(w, r)
		return
	}
	if !s.reserve() {
		writeRPCError(w, http.StatusServiceUnavailable, fmt.Sprintf(
			"the MCP server holds %d sessions, each serving a request: close one (DELETE /mcp) or try again", s.max))
		return
	}
	rec := &sessionRecorder{ResponseWriter: w, record: func(id string) { s.record(id, key) }}
	defer s.release()
	s.next.ServeHTTP(rec, r)
}

// serveSession serves a request in a session the same key opened; any
// other gets the SDK's own answer for an unknown session.
func (s *sessions) serveSession(w http.ResponseWriter, r *http.Request, id, key string) {
	s.mu.Lock()
	o := s.owners[id]
	if o == nil || o.key != key {
		s.mu.Unlock()
		http.Error(w, "session not found", http.StatusNotFound)
		return
	}
	s.clock++
	o.used = s.clock
	// A request is work under way; an open event stream (GET) is not,
	// as the SDK's idle timeout counts it.
	working := r.Method != http.MethodGet
	if working {
		o.busy++
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if working {
			o.busy--
		}
		if r.Method == http.MethodDelete {
			delete(s.owners, id)
		}
		s.mu.Unlock()
	}()
	s.next.ServeHTTP(w, r)
}

// reserve makes room for one more session: it forgets the sessions the SDK
// has closed (idle too long, deleted) and, when still full, closes the
// least recently used idle one. It reports false when every session is
// busy.
func (s *sessions) reserve() bool {
	s.mu.Lock()
	if len(s.owners)+s.opening >= s.max {
		live := map[string]bool{}
		for ss := range s.server.Sessions() {
			live[ss.ID()] = true
		}
		for id := range s.owners {
			if !live[id] {
				delete(s.owners, id)
			}
		}
	}
	var victim string
	if len(s.owners)+s.opening >= s.max {
		var oldest *sessionOwner
		for id, o := range s.owners {
			if o.busy == 0 && (oldest == nil || o.used < oldest.used) {
				victim, oldest = id, o
			}
		}
		if oldest == nil {
			s.mu.Unlock()
			return false
		}
		delete(s.owners, victim)
	}
	s.opening++
	s.mu.Unlock()
	if victim != "" {
		for ss := range s.server.Sessions() {
			if ss.ID() == victim {
				ss.Close()
			}
		}
	}
	return true
}

// record binds a session the SDK has just opened to its key, before the
// client can learn its id.
func (s *sessions) record(id, key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clock++
	s.owners[id] = &sessionOwner{key: key, used: s.clock}
}

func (s *sessions) release() {
	s.mu.Lock()
	s.opening--
	s.mu.Unlock()
}

// sessionRecorder records the session id the SDK answers an opening
// request with, as the answer's header is written.
type sessionRecorder struct {
	http.ResponseWriter
	record func(id string)
	done   bool
}

func (w *sessionRecorder) capture() {
	if w.done {
		return
	}
	w.done = true
	if id := w.Header().Get(sessionHeader); id != "" {
		w.record(id)
	}
}

func (w *sessionRecorder) WriteHeader(status int) {
	w.capture()
	w.ResponseWriter.WriteHeader(status)
}

func (w *sessionRecorder) Write(b []byte) (int, error) {
	w.capture()
	return w.ResponseWriter.Write(b)
}

// Flush lets an event stream through.
func (w *sessionRecorder) Flush() {
	w.capture()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the writer underneath.
func (w *sessionRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// writeRPCError answers with a JSON-RPC error object that answers no
// request in particular: its id is null, as JSON-RPC 2.0 writes it when the
// request's id cannot be given.
func writeRPCError(w http.ResponseWriter, status int, message string) {
	type rpcError struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
	raw, _ := json.Marshal(struct {
		JSONRPC string   `json:"jsonrpc"`
		ID      *int     `json:"id"`
		Error   rpcError `json:"error"`
	}{"2.0", nil, rpcError{jsonrpc.CodeInvalidRequest, message}})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(raw)
}
