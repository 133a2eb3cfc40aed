package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds of a JSON-RPC batch (an array of messages in one POST, which
// clients of protocol versions before 2025-06-18 may send): how many
// messages it holds and how large the answers to it may be together.
const (
	maxBatchMessages = 50
	maxBatchAnswer   = 16 << 20
)

// batchHeader names the batch a message came in, for the tools to charge
// their answers to; the server sets it on every POST, whatever the client
// sent.
const batchHeader = "X-Sandbox-Mcp-Batch"

// errAnswerTooLarge stops the transport writing an answer past the limit.
var errAnswerTooLarge = errors.New("the answer is past the batch's limit")

// batches keeps the answer budget of each batch being served.
type batches struct {
	mu     sync.Mutex
	seq    int
	budget map[string]*batchBudget
}

// batchBudget is what is left of a batch's answer size.
type batchBudget struct {
	left int
	over bool
}

func newBatches() *batches { return &batches{budget: map[string]*batchBudget{}} }

// limit reads a POST's body and refuses a batch of more than
// maxBatchMessages messages with a JSON-RPC error. Otherwise it returns
// the request with its body to read again and the writer to answer with,
// which replaces the answers to a batch past maxBatchAnswer with a
// JSON-RPC error; the caller calls done once the answer is written. ok is
// false when the request has been answered.
func (b *batches) limit(w http.ResponseWriter, r *http.Request) (
	_ *batchWriter, _ *http.Request, done func(), ok bool) {
	r.Header.Del(batchHeader)
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeRPCError(w, http.StatusRequestEntityTooLarge,
				fmt.Sprintf("a request to the MCP server holds at most %d bytes", tooLarge.Limit))
		} else {
			writeRPCError(w, http.StatusBadRequest, "the request's body could not be read")
		}
		return nil, r, nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	bw := &batchWriter{ResponseWriter: w, batches: b}
	nothing := func() { bw.sendHeader() }
	if trimmed := bytes.TrimLeft(body, " \t\r\n"); len(trimmed) == 0 || trimmed[0] != '[' {
		return bw, r, nothing, true
	}
	var batch []json.RawMessage
	if json.Unmarshal(body, &batch) != nil {
		return bw, r, nothing, true // the transport names what is malformed
	}
	if len(batch) > maxBatchMessages {
		writeRPCError(w, http.StatusBadRequest, fmt.Sprintf(
			"a batch holds at most %d messages; this one holds %d: send it in several", maxBatchMessages, len(batch)))
		return nil, r, nil, false
	}
	b.mu.Lock()
	b.seq++
	id := strconv.Itoa(b.seq)
	bw.budget = &batchBudget{left: maxBatchAnswer}
	b.budget[id] = bw.budget
	b.mu.Unlock()
	r.Header.Set(batchHeader, id)
	return bw, r, func() {
		bw.sendHeader()
		b.mu.Lock()
		delete(b.budget, id)
		b.mu.Unlock()
	}, true
}

// middleware charges every tool's answer to its batch: once the batch's
// answers pass maxBatchAnswer, each answer is dropped as it comes and a
// call that starts later does not run, so that the answers held for the
// batch stay near the limit (the calls of a batch run at once: each may
// hold its own answer while it runs).
func (b *batches) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		var budget *batchBudget
		if extra := req.GetExtra(); extra != nil && extra.Header != nil && method == "tools/call" {
			b.mu.Lock()
			budget = b.budget[extra.Header.Get(batchHeader)]
			b.mu.Unlock()
		}
		if budget == nil {
			return next(ctx, method, req)
		}
		if b.spent(budget, 0) {
			return errorResult(errors.New("not run: the answers to this batch passed its limit")), nil
		}
		res, err := next(ctx, method, req)
		size := 0
		if call, ok := res.(*mcp.CallToolResult); ok {
			for _, c := range call.Content {
				if text, ok := c.(*mcp.TextContent); ok {
					size += len(text.Text)
				}
			}
		}
		if b.spent(budget, size) {
			return errorResult(errors.New("left out: the answers to this batch passed its limit")), nil
		}
		return res, err
	}
}

// spent charges n bytes to a budget and reports whether it is spent.
func (b *batches) spent(budget *batchBudget, n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	budget.left -= n
	if budget.left < 0 {
		budget.over = true
	}
	return budget.over
}

// batchWriter passes an answer on until it grows past maxBatchAnswer or
// its batch's budget is spent; then, if nothing is sent yet, it answers
// with a JSON-RPC error instead, and refuses every later write. The status
// is held back until the first write so that the error can still choose
// its own.
type batchWriter struct {
	http.ResponseWriter
	batches *batches
	budget  *batchBudget // nil: not a batch
	status  int
	sent    bool
	written int
	refused bool
}

func (w *batchWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *batchWriter) Write(b []byte) (int, error) {
	if w.refused {
		return 0, errAnswerTooLarge
	}
	if w.budget != nil && (w.written+len(b) > maxBatchAnswer || w.batches.spent(w.budget, 0)) {
		w.refused = true
		if !w.sent {
			w.sent = true
			writeRPCError(w.ResponseWriter, http.StatusBadRequest, fmt.Sprintf(
				"the answers to this batch come to more than %d MiB, the limit: none is sent (its calls "+
					"may have run); send fewer calls at once", maxBatchAnswer>>20))
		}
		return 0, errAnswerTooLarge
	}
	w.sendHeader()
	w.written += len(b)
	return w.ResponseWriter.Write(b)
}

// Flush sends what is written so far (an event stream's events).
func (w *batchWriter) Flush() {
	w.sendHeader()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the writer underneath.
func (w *batchWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// sendHeader sends the status held back, once.
func (w *batchWriter) sendHeader() {
	if w.sent {
		return
	}
	w.sent = true
	if w.status != 0 {
		w.ResponseWriter.WriteHeader(w.status)
	}
}
