package web

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// CORS headers: every header the API reads may be sent by a browser, and
// every header it writes may be read.
const (
	allowHeaders = "X-API-Key, x-legal-entity, X-Idempotency-Key, Content-Type, Authorization, X-Sandbox-World," +
		" X-Admin-Token, X-Request-Id, Prefer"
	exposeHeaders = "X-Request-Id, x-deferred-action-id, Retry-After, Location, Content-Length"
	allowMethods  = "GET, POST, PUT, PATCH, DELETE, OPTIONS"
)

var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9._:-]{1,128}$`)

// Middleware wraps the whole server: it attaches Info, assigns the request
// id, refuses the requests the sandbox sent itself (SenderHeader), keeps
// other origins and hosts away from the control API and the dashboard,
// answers CORS preflights, caps the body and how long it may take to
// arrive, and logs one line per request.
type Middleware struct {
	Log       zerolog.Logger
	Reference func() string
	// Origins guards every path under /_sandbox/ (nil: loopback and IP
	// hosts, same-origin pages).
	Origins *Origins
	// BodyReadTimeout is how long a request body may take to arrive, each
	// further MiB of it given as long again (0: DefaultBodyReadTimeout).
	BodyReadTimeout time.Duration
	seq             atomic.Int64
}

// Wrap returns next behind the middleware.
func (m *Middleware) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &Info{RequestID: r.Header.Get("X-Request-Id"), Reference: m.Reference, Via: viaOf(r)}
		if info.RequestID == "" || !requestIDPattern.MatchString(info.RequestID) {
			info.RequestID = requestID(m.seq.Add(1))
		}
		r = WithInfo(r, info)
		raw := w
		w = &statusWriter{ResponseWriter: w, info: info}
		w.Header().Set("X-Request-Id", info.RequestID)
		if refusedOwn(w, r) {
			m.log(r, info, start)
			return
		}
		guarded, shared := guards(r.URL.Path), ""
		if guarded {
			if err := m.Origins.check(r); err != nil {
				info.Route = "sandbox.refused"
				WriteError(w, r, Gen2, err)
				m.log(r, info, start)
				return
			}
			shared = m.Origins.corsOrigin(r)
			controlCORS(w, shared)
		} else {
			publicCORS(w, r)
		}
		r.Body = http.MaxBytesReader(raw, r.Body, BodyLimit(r))
		r.Body = m.paceBody(raw, r)
		defer m.log(r, info, start)
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				WriteError(w, r, GenOf(r.URL.Path), fmt.Errorf("panic: %v", p))
			}
		}()
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			info.Route = "cors.preflight"
			if guarded && shared == "" {
				WriteError(
					w,
					r,
					Gen2,
					kernel.Errorf(kernel.CodeForbidden,
						"the control API shares nothing with other origins unless they are listed with --allowed-origins"),
				)
				return
			}
			w.Header().Set("Access-Control-Max-Age", "600")
			Write(w, r, &Response{Status: http.StatusNoContent})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// refusedOwn answers 403 to a request the sandbox sent itself (a webhook
// delivery or authorization call whose URL names the sandbox, a forward of
// the listen command), whatever its route: no such request may act on the
// sandbox's state.
func refusedOwn(w http.ResponseWriter, r *http.Request) bool {
	sender := r.Header.Get(SenderHeader)
	if sender == "" {
		return false
	}
	InfoOf(r).Route = "sandbox.refused"
	WriteError(w, r, GenOf(r.URL.Path), kernel.Errorf(kernel.CodeForbidden, "the sandbox does not act on requests "+
		"it sent itself (this one carries %s: %s): point webhooks and forwarding at your own receiver", SenderHeader,
		sender))
	return true
}

// requestID is "req_" and n with at least 8 digits, as "req_%08d" prints it.
func requestID(n int64) string {
	b := make([]byte, 0, 24)
	b = append(b, "req_"...)
	digits := strconv.AppendInt(nil, n, 10)
	for i := len(digits); i < 8; i++ {
		b = append(b, '0')
	}
	return string(append(b, digits...))
}

// The CORS header values, made once: the handlers only ever replace a
// header's values, never edit them in place.
var (
	corsAnyOrigin = []string{"*"}
	corsMethods   = []string{allowMethods}
	corsHeaders   = []string{allowHeaders}
	corsExposed   = []string{exposeHeaders}
	varyOrigin    = []string{"Origin"}
)

// publicCORS lets a page of any origin call the public API and read its
// answers. Keys travel in headers, never in cookies, so no credentials
// are shared.
func publicCORS(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	origin := r.Header.Get("Origin")
	if origin == "" {
		shareWith(h, "*")
		return
	}
	h["Vary"] = varyOrigin
	shareWith(h, origin)
}

// controlCORS shares a control answer with origin, a listed one, and with
// no other ("": none).
func controlCORS(w http.ResponseWriter, origin string) {
	h := w.Header()
	h["Vary"] = varyOrigin
	if origin != "" {
		shareWith(h, origin)
	}
}

// shareWith writes the CORS headers that let origin ("*": any) read an
// answer.
func shareWith(h http.Header, origin string) {
	if origin == "*" {
		h["Access-Control-Allow-Origin"] = corsAnyOrigin
	} else {
		h.Set("Access-Control-Allow-Origin", origin)
	}
	h["Access-Control-Allow-Methods"] = corsMethods
	h["Access-Control-Allow-Headers"] = corsHeaders
	h["Access-Control-Expose-Headers"] = corsExposed
}

// DashboardHeader marks the dashboard's own calls (every one it makes
// carries it).
const DashboardHeader = "X-Sandbox-Dashboard"

// logLevel is a request's level in the log: error for a 5xx answer or an
// internal failure, warn for another 4xx, debug for the dashboard's own
// reads (its long poll for changes, and each view reading again when the
// world changed) and its files, info otherwise.
func logLevel(r *http.Request, info *Info) zerolog.Level {
	switch {
	case info.Err != nil || info.Status >= 500:
		return zerolog.ErrorLevel
	case info.Status >= 400:
		return zerolog.WarnLevel
	case r.Method == http.MethodGet && (r.Header.Get(DashboardHeader) != "" ||
		strings.HasPrefix(r.URL.Path, "/_sandbox/ui/")):
		return zerolog.DebugLevel
	}
	return zerolog.InfoLevel
}

func (m *Middleware) log(r *http.Request, info *Info, start time.Time) {
	ev := m.Log.WithLevel(logLevel(r, info))
	if ev == nil {
		return
	}
	ev = ev.
		Str("method", r.Method).Str("path", r.URL.Path).Str("route", info.Route).
		Int("status", info.Status).Dur("latency", time.Since(start)).Str("request_id", info.RequestID)
	if info.LegalEntity != "" {
		ev = ev.Str("legal_entity", info.LegalEntity)
	}
	if info.World != "" {
		ev = ev.Str("world", info.World)
	}
	if info.ReferenceID != "" {
		ev = ev.Str("reference_id", info.ReferenceID)
	}
	if info.ErrCode != "" {
		ev = ev.Str("error_code", info.ErrCode).Str("error_message", info.ErrMessage)
	}
	if info.Hint != "" {
		ev = ev.Str("hint", info.Hint)
	}
	if info.Err != nil {
		ev = ev.Err(info.Err)
	}
	ev.Msg(strings.TrimSpace(r.Method + " " + r.URL.Path))
}

// Body limits: JSON bodies are capped at MaxBody; multipart uploads (logos,
// receipts) may be larger, and so may a snapshot file being imported.
const (
	MaxMultipartBody = 5 << 20
	MaxSnapshotBody  = 512 << 20
)

// BodyLimit is the largest body a request may send.
func BodyLimit(r *http.Request) int64 {
	switch {
	case r.URL.Path == "/_sandbox/snapshots/import":
		return MaxSnapshotBody
	case strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/"):
		return MaxMultipartBody
	}
	return MaxBody
}
