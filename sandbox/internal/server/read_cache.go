package server

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/clock"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// readCache keeps the 200 answers of the public API's GET routes, per
// world, for as long as what they were made from does not change: every
// answer is a function of the path and query, the credentials (X-API-Key,
// x-legal-entity) and the world's stored state. The handler records the
// keys it read and the key ranges it walked (store.Reads, through
// web.Info); the answer holds until a write changes one of those keys or
// adds or removes one in those ranges, which the store's log of written
// keys tells (store.DB.ChangedSince): creating a card keeps the first page
// of GET /transaction, and the first page of GET /card once it is full.
// The clock is a read of every operation, so moving it drops every answer;
// a reset, a restore or a write the log no longer remembers drops them all
// too. An answer whose handler recorded nothing holds only while the
// world's version stays the one it was made at. A world whose clock moves
// on its own (real or scaled) is never cached. Answers are replayed inside
// the request log and journal middleware, so every request is still logged
// and journaled; faults and rate limits apply before it.
//
// A request sending Cache-Control: no-cache is always answered afresh.
type readCache struct {
	engine *kernel.Engine
	// verify makes every cache hit also run the handler and panic when
	// the fresh answer differs from the kept one (Config.VerifyReads).
	verify bool
}

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
	// reads is what the handler read (nil: unknown); valid, a version of
	// the world the answer is known to hold at.
	reads *store.Reads
	valid uint64
}

type worldReads struct {
	mu      sync.Mutex
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
			if a, at := reads.get(world, key, version); a != nil {
				if c.verify {
					verify(next, r, world, at, a)
				}
				a.replay(w, r)
				return
			}
		}
		capture := &captureWriter{ResponseWriter: w, before: w.Header().Clone()}
		info := web.InfoOf(r)
		read := &store.Reads{}
		info.Reads = read
		next.ServeHTTP(capture, r)
		info.Reads = nil
		if capture.status != http.StatusOK || capture.overflow || info.Err != nil {
			return
		}
		a := &cachedAnswer{header: capture.header, body: capture.body.Bytes(),
			info: web.Info{LegalEntity: info.LegalEntity, World: info.World, Key: info.Key}, valid: version}
		if read.Empty() {
			if world.Version() != version {
				return // it may have read a state since changed
			}
		} else {
			read.Seal()
			a.reads = read
		}
		reads.put(key, a)
	})
}

// cacheable picks the world of a GET on the public API made with an API key
// and says what identifies its answer.
func (c *readCache) cacheable(r *http.Request) (*kernel.World, string, bool) {
	if r.Method != http.MethodGet || strings.HasPrefix(r.URL.Path, "/_sandbox/") || r.URL.Path == "/mcp" ||
		r.Header.Get("Authorization") != "" ||
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

// get returns the kept answer to key when it still holds at version, and
// the version it is known to hold at; it forgets the answer when a write
// since changed what it was made from.
func (wr *worldReads) get(world *kernel.World, key string, version uint64) (*cachedAnswer, uint64) {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	a := wr.answers[key]
	if a == nil {
		return nil, 0
	}
	if !world.Db.Holds(a.reads, &a.valid, version) {
		if a.reads != nil && a.valid < version { // a write since changed it
			delete(wr.answers, key)
			wr.bytes -= len(a.body)
		}
		return nil, 0
	}
	// Writes past a.valid are still running: the answer holds as of
	// before them, which is what a read made now may see.
	return a, a.valid
}

func (wr *worldReads) put(key string, a *cachedAnswer) {
	wr.mu.Lock()
	defer wr.mu.Unlock()
	if wr.answers == nil || len(wr.answers) >= readCacheEntries || wr.bytes+len(a.body) > readCacheBytes {
		wr.answers, wr.bytes = map[string]*cachedAnswer{}, 0
	}
	if old := wr.answers[key]; old != nil {
		wr.bytes -= len(old.body)
	}
	wr.answers[key] = a
	wr.bytes += len(a.body)
}

// verify runs the handler again and panics when its answer differs from
// the kept one, which held at version, while what the kept one was made
// from is still unchanged.
func verify(next http.Handler, r *http.Request, world *kernel.World, version uint64, a *cachedAnswer) {
	fresh := &captureWriter{ResponseWriter: discard{http.Header{}}, before: http.Header{}}
	next.ServeHTTP(fresh, r)
	if now := world.Version(); now != version {
		if a.reads == nil {
			return
		}
		if changed, checked := world.Db.ChangedSince(version, now, a.reads); changed || checked != now {
			return
		}
	}
	info := web.InfoOf(r)
	got := cachedAnswer{
		header: fresh.header,
		body:   fresh.body.Bytes(),
		info:   web.Info{LegalEntity: info.LegalEntity, World: info.World, Key: info.Key},
	}
	sameInfo := got.info.LegalEntity == a.info.LegalEntity && got.info.World == a.info.World && got.info.Key == a.info.Key
	if fresh.status != http.StatusOK || !bytes.Equal(got.body, a.body) || !sameInfo || len(got.header) != len(a.header) {
		panic(
			fmt.Sprintf("read cache: the kept answer to GET %s differs from a fresh one (status %d):\n%s\n%s", r.URL,
				fresh.status, a.body, got.body),
		)
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
