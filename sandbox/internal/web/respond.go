package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// Gen is an API generation; it decides the error envelope.
type Gen int

const (
	// Gen1 is the first generation: unprefixed paths.
	Gen1 Gen = 1
	// Gen2 is the second generation: paths under /v2 (and the control API).
	Gen2 Gen = 2
)

// Response is a handler's result when it needs more than a 200 JSON body.
type Response struct {
	Status      int
	Body        any
	Header      http.Header
	Raw         []byte
	ContentType string
}

// Status wraps a body with a status code.
func Status(code int, body any) *Response { return &Response{Status: code, Body: body} }

// SharedWriter is a ResponseWriter that may keep the bytes given to
// WriteShared instead of copying them: the caller promises never to change
// them (the read cache's kept answers).
type SharedWriter interface {
	WriteShared(p []byte) (int, error)
}

// Func is a handler: it returns a body (written as 200 JSON), a *Response,
// or an error.
type Func func(r *http.Request) (any, error)

// Handler is a Func with the generation whose envelope its errors use.
type Handler struct {
	Gen Gen
	Fn  Func
}

// Handle adapts a Func to http.Handler, writing errors in gen's envelope.
func Handle(gen Gen, fn Func) http.Handler { return Handler{Gen: gen, Fn: fn} }

// ServeHTTP writes the handler's value as JSON, or its error in the
// handler's envelope.
func (h Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	v, err := h.Fn(r)
	if err != nil {
		WriteError(w, r, h.Gen, err)
		return
	}
	Write(w, r, v)
}

// Answer runs the handler on r and returns the status and body it answers
// with, written as ServeHTTP writes them; a panic is answered as an
// internal error.
func (h Handler) Answer(r *http.Request) (status int, body []byte) {
	a := &answer{header: http.Header{}}
	func() {
		defer func() {
			if p := recover(); p != nil {
				a.body.Reset()
				WriteError(a, r, h.Gen, fmt.Errorf("panic: %v", p))
			}
		}()
		h.ServeHTTP(a, r)
	}()
	return a.status, a.body.Bytes()
}

// answer keeps what a handler writes, for Answer.
type answer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (a *answer) Header() http.Header         { return a.header }
func (a *answer) WriteHeader(status int)      { a.status = status }
func (a *answer) Write(p []byte) (int, error) { return a.body.Write(p) }

// Write writes a handler's result.
func Write(w http.ResponseWriter, r *http.Request, v any) {
	resp, ok := v.(*Response)
	if !ok {
		resp = &Response{Status: http.StatusOK, Body: v}
	}
	for k, vs := range resp.Header {
		for _, s := range vs {
			w.Header().Add(k, s)
		}
	}
	status := resp.Status
	if status == 0 {
		status = http.StatusOK
	}
	body, ctype := resp.Raw, resp.ContentType
	encoded := false
	if body == nil && resp.Body != nil {
		var err error
		if body, err = encode(resp.Body); err != nil {
			WriteError(w, r, Gen1, err)
			return
		}
		ctype, encoded = "application/json", true
	}
	if ctype != "" {
		w.Header().Set("Content-Type", ctype)
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	InfoOf(r).Status = status
	w.WriteHeader(status)
	if r.Method == http.MethodHead {
		return
	}
	if sw, ok := w.(SharedWriter); ok && encoded {
		sw.WriteShared(body) // made here, changed by no one
		return
	}
	w.Write(body)
}

// Encode marshals JSON the way every response is written: no HTML
// escaping, no trailing newline.
func Encode(v any) ([]byte, error) { return encode(v) }

// encode marshals JSON without HTML escaping and without a trailing newline.
// The answer is made in a pooled buffer and copied out at its size: one
// allocation, not one each time the buffer grows.
func encode(v any) ([]byte, error) {
	buf := encoders.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 64<<10 {
			buf.Reset()
			encoders.Put(buf)
		}
	}()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.Clone(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// encoders are the buffers answers are made in; one that grew past 64 KiB
// is dropped.
var encoders = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// statusOf is the one table from error codes to HTTP statuses.
var statusOf = map[kernel.Code]int{
	kernel.CodeInvalidRequest:       http.StatusBadRequest,
	kernel.CodeInsufficientFunds:    http.StatusBadRequest,
	kernel.CodeUnauthorized:         http.StatusUnauthorized,
	kernel.CodeForbidden:            http.StatusForbidden,
	kernel.CodeUserAPIKeyRequired:   http.StatusForbidden,
	kernel.CodeNotFound:             http.StatusNotFound,
	kernel.CodeMethodNotAllowed:     http.StatusMethodNotAllowed,
	kernel.CodeConflict:             http.StatusConflict,
	kernel.CodePayloadTooLarge:      http.StatusRequestEntityTooLarge,
	kernel.CodeUnsupportedMediaType: http.StatusUnsupportedMediaType,
	kernel.CodeRateLimited:          http.StatusTooManyRequests,
	kernel.CodeInternal:             http.StatusInternalServerError,
	kernel.CodeUnavailable:          http.StatusServiceUnavailable,
	kernel.CodeBadGateway:           http.StatusBadGateway,
	kernel.CodeGatewayTimeout:       http.StatusGatewayTimeout,
	kernel.CodeUnprocessable:        http.StatusUnprocessableEntity,
	kernel.CodeNotServed:            http.StatusNotImplemented,
	kernel.CodeTimeout:              http.StatusRequestTimeout,
	kernel.CodeInsufficientStorage:  http.StatusInsufficientStorage,
}

// StatusOf returns the HTTP status of an error code.
func StatusOf(c kernel.Code) int {
	if s, ok := statusOf[c]; ok {
		return s
	}
	return http.StatusInternalServerError
}
