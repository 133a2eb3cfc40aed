package kernel

import (
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// A world's start is what reset returns it to: the store as its scenario
// (or snapshot) left it. A copy of it costs 32 bytes a key for the life of
// the world, next to the keys the store holds anyway; it is kept, and
// other worlds of the same scenario start as copies of it, while the store
// holds at most KeepStartKeys keys. A larger start, such as
// bench/big.yaml's 100,000 transactions (about 490,000 keys, 15 MB of
// copy), is loaded again from its scenario when a reset needs it: loading
// is deterministic, so the reload gives the same keys, at the cost of a
// load (about a second and a half for that world) where a copy takes a
// fifth of a second.
// (A test lowers it to reload every start.)
var KeepStartKeys = 1 << 16

// keptStart is a start kept as a copy of its keys.
func keptStart(items []store.KV) func() ([]store.KV, error) {
	return func() ([]store.KV, error) { return items, nil }
}

// reloadStart is a start loaded again whenever it is needed, as spec's
// world first loaded it (its id, which the links it writes name, its
// scenario, seed and clock start).
func (e *Engine) reloadStart(spec WorldSpec, seed int64, start time.Time) func() ([]store.KV, error) {
	spec = WorldSpec{ID: spec.ID, Scenario: spec.Scenario}
	return func() ([]store.KV, error) {
		w, err := e.load(spec, seed, start, nil)
		if err != nil {
			return nil, err
		}
		defer w.Db.Close()
		return w.Db.Items()
	}
}
