package traffic

import (
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/agentrequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// Traffic holds how requests are served, per world: injected faults, the
// rate limit and the request journal. It lives in memory; a reset clears
// the journal and a deleted world's share is dropped.
type Traffic struct {
	// Routes are the public route names a fault may name (nil: any name);
	// the server sets them once its routes are registered.
	Routes []string
	engine *kernel.Engine
	mu     sync.Mutex
	worlds map[string]*worldRuntime
}

type worldRuntime struct {
	mu       sync.Mutex
	faults   []*Fault
	faultSeq int64
	draws    int64
	limit    *RateLimit
	windows  map[string]*window
	// journal is a ring of the last journalCap requests; journalHead is
	// where the next one goes once it is full.
	journal     []journalRecord
	journalHead int
	entrySeq    int64
	// bodyBytes are the journal's body bytes; bodiless is the seq of the
	// newest entry whose bodies were dropped to stay within budget.
	bodyBytes int
	bodiless  int64
}

type window struct {
	start time.Time
	count int
}

// New makes an empty Traffic over an engine; it forgets the worlds the
// engine deletes.
func New(eng *kernel.Engine) *Traffic {
	t := &Traffic{engine: eng, worlds: map[string]*worldRuntime{}}
	eng.OnWorldDeleted(t.forget)
	return t
}

// of returns a world's share, made on first use with the rate limit the
// world's scenario sets.
func (t *Traffic) of(world *kernel.World) *worldRuntime {
	t.mu.Lock()
	defer t.mu.Unlock()
	w, ok := t.worlds[world.ID]
	if !ok {
		w = &worldRuntime{windows: map[string]*window{}}
		if l, ok := agentrequests.RateLimit(world); ok {
			w.limit = &RateLimit{Requests: l.Requests, Window: l.Window.String(), window: l.Window}
		}
		t.worlds[world.ID] = w
	}
	return w
}

// forget drops a deleted world's journal, faults and rate-limit windows.
func (t *Traffic) forget(id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.worlds, id)
}

// worldOf finds the world a request acts on: its API key's, else the one
// X-Sandbox-World names, else the default.
func (t *Traffic) worldOf(r *http.Request) (*kernel.World, bool) {
	if w, ok := t.engine.WorldForKey(r.Header.Get("X-API-Key")); ok {
		return w, true
	}
	return t.engine.World(r.Header.Get("X-Sandbox-World"))
}

// Middleware applies the world's traffic rules to every routed request:
// the journal records it, and public API routes meet the rate limit, the
// outcome the request's Prefer header asks for and injected faults, in
// that order.
func (t *Traffic) Middleware(next http.Handler) http.Handler { return t.serve(next, true) }

// JournalOnly records requests in the journal without shaping them: for the
// requests that matched no route.
func (t *Traffic) JournalOnly(next http.Handler) http.Handler { return t.serve(next, false) }

func (t *Traffic) serve(next http.Handler, shape bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		world, ok := t.worldOf(r)
		// The MCP server's own exchanges are not journaled nor shaped:
		// each tool call is, as the API request it makes.
		if !ok || r.URL.Path == "/mcp" {
			next.ServeHTTP(w, r)
			return
		}
		rt := t.of(world)
		info := web.InfoOf(r)
		start := time.Now()
		body, tee := peekBody(r)
		rec := &recorder{ResponseWriter: w, status: http.StatusOK}
		public := !strings.HasPrefix(r.URL.Path, "/_sandbox/")
		if !shape || !public ||
			(!rt.limited(rec, r, world) && !forced(rec, r, world) && !rt.injectFault(rec, r, world, info.Route)) {
			next.ServeHTTP(rec, r)
		}
		if rec.hijacked {
			return
		}
		if tee != nil {
			body = tee.kept
		}
		if rt.record(r, info, body, rec, start, world.Now()) {
			world.Touch()
		}
	})
}

// peekBody reads the request body for the journal and puts it back. A
// body that may be larger than a JSON request (an upload, a snapshot
// file, one of unknown length) is not read ahead of the handler, which
// may refuse it unread: the journal keeps the start of what the handler
// reads (tee).
func peekBody(r *http.Request) (body []byte, tee *teeBody) {
	if r.Body == nil || r.Body == http.NoBody || (r.ContentLength == 0 && len(r.TransferEncoding) == 0) {
		return nil, nil
	}
	if r.ContentLength < 0 || r.ContentLength > web.MaxBody {
		tee = &teeBody{ReadCloser: r.Body}
		r.Body = tee
		return nil, tee
	}
	b, err := web.ReadAll(r.Body, r.ContentLength)
	r.Body = web.ReplayBody(b, err)
	return b, nil
}

// teeBody keeps the start of what is read of a request body, as much as
// the journal keeps.
type teeBody struct {
	io.ReadCloser
	kept []byte
}

func (t *teeBody) Read(p []byte) (int, error) {
	n, err := t.ReadCloser.Read(p)
	if room := journalBodyCap - len(t.kept); room > 0 {
		t.kept = append(t.kept, p[:min(n, room)]...)
	}
	return n, err
}

// recorder keeps the status and the start of the body a handler wrote; the
// journal takes the kept bytes as they are.
type recorder struct {
	http.ResponseWriter
	status   int
	body     []byte
	hijacked bool
	// forced: the answer is the one the request's Prefer header asked
	// for; the handler did not run.
	forced bool
}

const journalBodyCap = 16 << 10

func (r *recorder) WriteHeader(code int) { r.status = code; r.ResponseWriter.WriteHeader(code) }

// WriteShared keeps the start of p for the journal without copying it
// (see web.SharedWriter) when it is the answer's first write.
func (r *recorder) WriteShared(p []byte) (int, error) {
	if r.body != nil {
		return r.Write(p)
	}
	r.body = p[:min(len(p), journalBodyCap):min(len(p), journalBodyCap)]
	return r.ResponseWriter.Write(p)
}

func (r *recorder) Write(p []byte) (int, error) {
	if room := journalBodyCap - len(r.body); room > 0 {
		if r.body == nil {
			// Most answers are written at once: one allocation of the
			// size kept.
			r.body = make([]byte, 0, min(len(p), journalBodyCap))
		}
		r.body = append(r.body, p[:min(len(p), room)]...)
	}
	return r.ResponseWriter.Write(p)
}
