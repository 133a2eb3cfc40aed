package cli

import (
	"io"
	"sync"
	"time"
)

// logBuffer gathers log lines and writes them in batches: at most every
// logFlushEvery, at once when logFlushSize has gathered, and on Flush. One
// write per request (a system call each) cost a large share of a request
// served from the read cache; lines still reach the output within a few
// tens of milliseconds, in order.
type logBuffer struct {
	mu    sync.Mutex
	out   io.Writer
	buf   []byte
	armed bool
}

const (
	logFlushEvery = 25 * time.Millisecond
	logFlushSize  = 64 << 10
)

func newLogBuffer(out io.Writer) *logBuffer { return &logBuffer{out: out} }

// Write keeps a copy of p (zerolog reuses its buffer).
func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	switch {
	case len(b.buf) >= logFlushSize:
		b.flushLocked()
	case !b.armed:
		b.armed = true
		time.AfterFunc(logFlushEvery, b.Flush)
	}
	return len(p), nil
}

// Flush writes what has gathered.
func (b *logBuffer) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.armed = false
	b.flushLocked()
}

func (b *logBuffer) flushLocked() {
	if len(b.buf) == 0 {
		return
	}
	b.out.Write(b.buf)
	if cap(b.buf) > 4*logFlushSize {
		b.buf = nil
	} else {
		b.buf = b.buf[:0]
	}
}
