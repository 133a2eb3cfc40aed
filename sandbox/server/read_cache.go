package server

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/slash-sandbox/slash-sandbox/sandbox/clock"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// readCache keeps the 200 answers of the public API's GET routes, per
// world, for as long as the world's state does not change: every answer is
// a function of the world's state (its version), the path and query, and
// the credentials (X-API-Key, x-legal-entity). A write, reset or restore
// changes the version and so drops every kept answer; a world whose clock
// moves on its own (real or scaled) is never cached. Answers are replayed
// inside the request log and journal middleware, so every request is still
// logged and journaled; faults and rate limits apply before it.
//
// An answer is kept only when the world's version was the same before and
// after the handler ran (so a GET that writes is never kept), and a request
// sending Cache-Control: no-cache is always answered afresh.
type readCache struct {
	engine *kernel.Engine
}

// verifyReads makes every cache hit also run the handler and panic when
// the fresh answer differs from the kept one; the package's tests turn it
// on, so the whole behaviour suite checks the cache.
var verifyReads bool

// Bounds of each world's cache; past them the cache starts over.
const (
	readCacheEntries = 1024
	readCacheBytes   = 16 << 20
	readCacheMaxBody = 1 << 20
)

type cachedAnswer struct {
	header http.Header // what the handler set
	body   []byte
	info   web.Info // LegalEntity, World, Key
}

type worldReads struct {
	mu      sync.RWMutex
	version uint64
	answers map[string]*cachedAnswer
	bytes   int
}

type readCacheKey struct{}

func (c *readCache) middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		world, key, ok := c.cacheable(r)
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		reads := world.Attached(readCacheKey{}, func() any { return &worldReads{} }).(*worldReads)
		version := world.Version()
		if !strings.Contains(r.Header.Get("Cache-Control"), "no-cache") {
			if a := reads.get(key, version); a != nil {
				if verifyReads {
					verify(next, r, world, version, a)
				}
				a.replay(w, r)
				return
			}
		}
		capture := &captureWriter{ResponseWriter: w, before: w.Header().Clone()}
		next.ServeHTTP(capture, r)
		info := web.InfoOf(r)
		if capture.status == http.StatusOK && !capture.overflow && info.Err == nil && world.Version() == version {
			reads.put(key, version, &cachedAnswer{header: capture.header, body: capture.body.Bytes(),
				info: web.Info{LegalEntity: info.LegalEntity, World: info.World, Key: info.Key}})
		}
	})
}

// cacheable picks the world of a GET on the public API made with an API key
// and says what identifies its answer.
func (c *readCache) cacheable(r *http.Request) (*kernel.World, string, bool) {
	if r.Method != http.MethodGet || strings.HasPrefix(r.URL.Path, "/_sandbox/") || r.URL.Path == "/mcp" || r.Header.Get("Authorization") != "" ||
		strings.HasPrefix(web.InfoOf(r).Route, "oauth2.") {
		return nil, "", false
	}
	apiKey := strings.TrimSpace(r.Header.Get("X-API-Key"))
	if apiKey == "" {
		return nil, "", false
	}
	world, ok := c.engine.WorldForKey(apiKey)
	if !ok || world.Clock().Mode != clock.Frozen {
		return nil, "", false
	}
	var b strings.Builder
	for _, s := range []string{r.URL.Path, "?", r.URL.RawQuery, "\n", apiKey, "\n", r.Header.Get("x-legal-entity"),
		"\n", r.Header.Get("X-Sandbox-World"), "\n", r.Header.Get("X-Forwarded-Proto")} {
		b.WriteString(s)
	}
	return world, b.String(), true
}

func (wr *worldReads) get(key string, version uint64) *cachedAnswer {
	wr.mu.RLock()
	defer wr.mu.RUnlock()
	if wr.version != version {
		return nil
	}
	return wr.answers[key]
}

func (wr *worldReads) put(key string, version uint64, a *cachedAnswer) {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	if version < wr.version {
		return
	}
	if version > wr.version || wr.answers == nil || len(wr.answers) >= readCacheEntries || wr.bytes+len(a.body) > readCacheBytes {
		wr.version, wr.answers, wr.bytes = version, map[string]*cachedAnswer{}, 0
	}
	if old := wr.answers[key]; old != nil {
		wr.bytes -= len(old.body)
	}
	wr.answers[key] = a
	wr.bytes += len(a.body)
}

// verify runs the handler again and panics when its answer, on an unchanged
// world, differs from the kept one.
func verify(next http.Handler, r *http.Request, world *kernel.World, version uint64, a *cachedAnswer) {
	fresh := &captureWriter{ResponseWriter: discard{http.Header{}}, before: http.Header{}}
	next.ServeHTTP(fresh, r)
	if world.Version() != version {
		return
	}
	info := web.InfoOf(r)
	got := cachedAnswer{header: fresh.header, body: fresh.body.Bytes(), info: web.Info{LegalEntity: info.LegalEntity, World: info.World, Key: info.Key}}
	sameInfo := got.info.LegalEntity == a.info.LegalEntity && got.info.World == a.info.World && got.info.Key == a.info.Key
	if fresh.status != http.StatusOK || !bytes.Equal(got.body, a.body) || !sameInfo || len(got.header) != len(a.header) {
		panic(fmt.Sprintf("read cache: the kept answer to GET %s differs from a fresh one (status %d):\n%s\n%s", r.URL, fresh.status, a.body, got.body))
	}
	for k, vs := range a.header {
		if !equal(vs, got.header[k]) {
			panic(fmt.Sprintf("read cache: header %s of GET %s: kept %q, fresh %q", k, r.URL, vs, got.header[k]))
		}
	}
}

type discard struct{ h http.Header }

func (d discard) Header() http.Header         { return d.h }
func (d discard) Write(p []byte) (int, error) { return len(p), nil }
func (d discard) WriteHeader(int)             {}

// replay writes a kept answer and tells the request log what the handler
// would have told it.
func (a *cachedAnswer) replay(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	for k, vs := range a.header {
		h[k] = vs
	}
	info := web.InfoOf(r)
	info.LegalEntity, info.World, info.Key, info.Status = a.info.LegalEntity, a.info.World, a.info.Key, http.StatusOK
	w.WriteHeader(http.StatusOK)
	if sw, ok := w.(web.SharedWriter); ok {
		sw.WriteShared(a.body) // kept answers never change
		return
	}
	w.Write(a.body)
}

// captureWriter keeps a copy of what a handler answered.
type captureWriter struct {
	http.ResponseWriter
	before   http.Header
	header   http.Header
	status   int
	body     bytes.Buffer
	overflow bool
}

func (c *captureWriter) WriteHeader(code int) {
	if c.status == 0 {
		c.status = code
		c.header = http.Header{}
		for k, vs := range c.ResponseWriter.Header() {
			if old, ok := c.before[k]; !ok || !equal(old, vs) {
				c.header[k] = append([]string(nil), vs...)
			}
		}
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *captureWriter) Write(p []byte) (int, error) {
	if c.status == 0 {
		c.WriteHeader(http.StatusOK)
	}
	if c.body.Len()+len(p) > readCacheMaxBody {
		c.overflow = true
	} else if !c.overflow {
		c.body.Write(p)
	}
	return c.ResponseWriter.Write(p)
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
