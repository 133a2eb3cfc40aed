package web

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// SenderHeader marks every request the sandbox sends itself: webhook
// deliveries ("webhook"), authorization-webhook calls ("authorization")
// and the listen command's forwards ("listen"). The middleware refuses a
// request that carries it, on every route, so that no URL a user
// registers can make the sandbox act on its own state.
const SenderHeader = "Slash-Sandbox-Sender"

// The values of SenderHeader.
const (
	SentByWebhook       = "webhook"
	SentByAuthorization = "authorization"
	SentByListen        = "listen"
)

// DefaultBodyReadTimeout is how long a request body may take to arrive
// unless Middleware.BodyReadTimeout says otherwise; each further MiB is
// given as long again.
const DefaultBodyReadTimeout = 60 * time.Second

// paceBody bounds how long the body of r may take to arrive: the
// connection's read deadline is set for the first MiB, moved on as each
// further MiB arrives, and cleared once the body has been read, so that a
// request waiting for something else (a long poll) is not cut. The server
// sets no read timeout of its own: one that ran out while the server
// watched the connection after the body would end the request's context.
// A body that does not arrive in time ends the read with a 408.
func (m *Middleware) paceBody(w http.ResponseWriter, r *http.Request) io.ReadCloser {
	if r.Body == nil || r.Body == http.NoBody || (r.ContentLength == 0 && len(r.TransferEncoding) == 0) {
		return r.Body
	}
	limit := m.BodyReadTimeout
	if limit <= 0 {
		limit = DefaultBodyReadTimeout
	}
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(limit)) != nil {
		return r.Body // not a connection (a tool call served in-process)
	}
	return &pacedBody{ReadCloser: r.Body, rc: rc, limit: limit, next: pacedChunk}
}

// pacedChunk is how much of a body may arrive within one limit.
const pacedChunk = 1 << 20

// pacedBody is a request body whose connection's read deadline moves on
// as the body arrives.
type pacedBody struct {
	io.ReadCloser
	rc    *http.ResponseController
	limit time.Duration
	read  int64
	next  int64
	done  bool
}

func (b *pacedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	switch {
	case b.done:
	case err == io.EOF:
		// Read whole: the connection is the server's again.
		b.done = true
		b.rc.SetReadDeadline(time.Time{})
	case err != nil:
		// The deadline stays: it ends the server's reading of the rest.
		b.done = true
		if errors.Is(err, os.ErrDeadlineExceeded) {
			err = kernel.Errorf(kernel.CodeTimeout, "the request body did not arrive in time: each MiB of it must "+
				"arrive within %s (%d bytes came)", b.limit, b.read)
		}
	case b.read >= b.next:
		b.next = b.read + pacedChunk
		b.rc.SetReadDeadline(time.Now().Add(b.limit))
	}
	return n, err
}

// statusWriter notes the status a handler writes in the request's Info,
// for the log, whether the handler writes through Write (which notes it
// too) or directly (the MCP server, files).
type statusWriter struct {
	http.ResponseWriter
	info *Info
}

func (w *statusWriter) WriteHeader(code int) {
	if w.info.Status == 0 || code >= 200 {
		w.info.Status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.info.Status == 0 {
		w.info.Status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

// Flush sends what was written so far (an event stream's events).
func (w *statusWriter) Flush() {
	if w.info.Status == 0 {
		w.info.Status = http.StatusOK
	}
	http.NewResponseController(w.ResponseWriter).Flush()
}

// Hijack hands the connection over (a fault that drops it).
func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

// Unwrap is the writer underneath, for http.ResponseController.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
