package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// Bounds of a JSON-RPC batch (an array of messages in one POST, which
// clients of protocol versions before 2025-06-18 may send): how many
// messages it holds and how large the answers to it may be together.
const (
	maxBatchMessages = 50
	maxBatchAnswer   = 16 << 20
)

// errAnswerTooLarge stops the transport writing an answer past the limit.
var errAnswerTooLarge = errors.New("the answer is past the batch's limit")

// limitBatch reads a POST's body and refuses a batch of more than
// maxBatchMessages messages with a JSON-RPC error. Otherwise it returns
// the request with its body to read again and the writer to answer with,
// which replaces answers to a batch larger than maxBatchAnswer with a
// JSON-RPC error; the caller calls its sendHeader when the answer is done.
// ok is false when the request has been answered.
func limitBatch(w http.ResponseWriter, r *http.Request) (_ *batchWriter, _ *http.Request, ok bool) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			writeRPCError(w, http.StatusRequestEntityTooLarge,
				fmt.Sprintf("a request to the MCP server holds at most %d bytes", tooLarge.Limit))
		} else {
			writeRPCError(w, http.StatusBadRequest, "the request's body could not be read")
		}
		return nil, r, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	bw := &batchWriter{ResponseWriter: w}
	if trimmed := bytes.TrimLeft(body, " \t\r\n"); len(trimmed) == 0 || trimmed[0] != '[' {
		return bw, r, true
	}
	var batch []json.RawMessage
	if json.Unmarshal(body, &batch) != nil {
		return bw, r, true // the transport names what is malformed
	}
	if len(batch) > maxBatchMessages {
		writeRPCError(w, http.StatusBadRequest, fmt.Sprintf(
			"a batch holds at most %d messages; this one holds %d: send it in several", maxBatchMessages, len(batch)))
		return nil, r, false
	}
	bw.limit = maxBatchAnswer
	return bw, r, true
}

// batchWriter passes an answer on until it grows past its limit (0: none);
// then, if nothing is sent yet, it answers with a JSON-RPC error instead,
// and refuses every later write. The status is held back until the first
// write so that the error can still choose its own.
type batchWriter struct {
	http.ResponseWriter
	limit   int
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
	if w.limit > 0 && w.written+len(b) > w.limit {
		w.refused = true
		if !w.sent {
			w.sent = true
			writeRPCError(w.ResponseWriter, http.StatusBadRequest, fmt.Sprintf(
				"the answers to this batch come to more than %d MiB, the limit: they are not sent "+
					"(the calls in it ran); send fewer calls at once", w.limit>>20))
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
