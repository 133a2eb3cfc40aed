package kernel

import (
	"sync"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// sharedStarts keeps the loaded states of the last few small scenarios any
// engine of the process loaded, so that an engine made after another (the
// sandbox of each test in a test binary, a scratch world checking a file)
// copies a world the other loaded instead of loading the scenario again. It
// holds at most maxSharedStarts states of at most maxSharedStartKeys keys
// each (the demo's state is a few thousand), the most recently used: a few
// megabytes at most, whatever seeds and clock starts callers ask for.
var sharedStarts = startCache{items: map[string][]store.KV{}}

// startCache is loaded states by cache key, in the order they were last
// used.
type startCache struct {
	sync.Mutex
	order []string // least recently used first
	items map[string][]store.KV
}

const (
	maxSharedStarts    = 4
	maxSharedStartKeys = 1 << 14
)

// sharable reports whether a load for spec may come from, and go to, the
// shared states: not when the caller listens to the records the load
// creates, which a copy does not create.
func sharable(spec WorldSpec) bool { return spec.OnRecord == nil && spec.OnOrigin == nil }

// sharedStart returns the shared state kept under key, or nil.
func sharedStart(key string) []store.KV {
	s := &sharedStarts
	s.Lock()
	defer s.Unlock()
	items, ok := s.items[key]
	if !ok || len(items) > KeepStartKeys {
		return nil
	}
	s.touch(key)
	return items
}

// keepSharedStart keeps a loaded state under key, dropping the least
// recently used one beyond maxSharedStarts.
func keepSharedStart(key string, items []store.KV) {
	if len(items) > maxSharedStartKeys {
		return
	}
	s := &sharedStarts
	s.Lock()
	defer s.Unlock()
	s.items[key] = items
	s.touch(key)
	for len(s.order) > maxSharedStarts {
		delete(s.items, s.order[0])
		s.order = s.order[1:]
	}
}

// touch moves key to the most recently used end. The caller holds the lock.
func (s *startCache) touch(key string) {
	for i, k := range s.order {
		if k == key {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
	s.order = append(s.order, key)
}
