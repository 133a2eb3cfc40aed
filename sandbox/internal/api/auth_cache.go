package api

import (
	"sync"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// Every request on the public API resolves its API key to a principal and
// the legal entity it acts for, reading the key, the user and the legal
// entity from its world's store: a read-only transaction of its own. A
// world keeps what each credential resolved to, with what resolving it
// read, and serves it again for as long as no write since changed any of
// that (store.DB.ChangedSince): a key deleted or rotated, a role taken
// away or a legal entity changed is read afresh by the next request. Only
// successes are kept.

// authCacheEntries bounds each world's kept resolutions; when full, they
// are all dropped.
const authCacheEntries = 256

// authKey is what a resolution depends on besides the store.
type authKey struct {
	apiKey, header string
	gen            web.Gen
	headerOptional bool
}

// resolved is a kept resolution: the actor (its principal included), what
// resolving it read, and the store Version it is known to hold at.
type resolved struct {
	actor kernel.Actor
	reads *store.Reads
	valid uint64
}

type authCache struct {
	mu sync.Mutex
	m  map[authKey]*resolved
}

// authCacheOf is a world's cache of resolutions.
func authCacheOf(w *kernel.World) *authCache {
	return w.Attached(authCacheKey{}, func() any { return &authCache{} }).(*authCache)
}

type authCacheKey struct{}

// get returns a copy of the actor k resolved to, when what resolving it
// read is unchanged at version, and what it read.
func (c *authCache) get(w *kernel.World, k authKey, version uint64) (*kernel.Actor, *store.Reads, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.m[k]
	if e == nil {
		return nil, nil, false
	}
	if !w.Db.Holds(e.reads, &e.valid, version) {
		if e.valid < version { // a write since changed it
			delete(c.m, k)
		}
		return nil, nil, false
	}
	a := copyActor(&e.actor)
	return &a, e.reads, true
}

// put keeps what k resolved to, read at version or later.
func (c *authCache) put(k authKey, a *kernel.Actor, reads *store.Reads, version uint64) {
	reads.Seal()
	e := &resolved{actor: copyActor(a), reads: reads, valid: version}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) >= authCacheEntries {
		c.m = map[authKey]*resolved{}
	}
	c.m[k] = e
}

// copyActor is a copy of an actor that shares no user with it.
func copyActor(a *kernel.Actor) kernel.Actor {
	c := *a
	if a.User != nil {
		u := *a.User
		c.User = &u
	}
	return c
}
