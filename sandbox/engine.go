package sandbox

import (
	"bytes"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox/clock"
	"github.com/slash-sandbox/slash-sandbox/sandbox/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/store"
)

// WorldSpec says how to make a world.
type WorldSpec struct {
	ID         string
	Scenario   *scenario.Scenario
	Seed       *int64
	ClockStart *time.Time
	ClockMode  clock.Mode
	ClockScale float64
	// DataPath backs the world with a file; "" keeps it in memory.
	DataPath   string
	Durability store.Durability
}

// Engine holds every world and finds the world of an API key.
type Engine struct {
	Catalog *fixtures.Catalog
	wall    clock.Wall

	mu        sync.RWMutex
	worlds    map[string]*World
	keys      map[string]string // API key → world id
	defaultID string
}

// NewEngine makes an engine. wall is the wall clock used by real and scaled
// clock modes (nil for the machine's).
func NewEngine(wall clock.Wall) (*Engine, error) {
	cat, err := fixtures.Load()
	if err != nil {
		return nil, err
	}
	if wall == nil {
		wall = time.Now
	}
	return &Engine{Catalog: cat, wall: wall, worlds: map[string]*World{}, keys: map[string]string{}}, nil
}

// defaultClockStart is the wall time truncated to the second: the start of a
// scenario that names none.
func (e *Engine) defaultClockStart() time.Time { return e.wall().UTC().Truncate(time.Second) }

// CreateWorld builds a world from its scenario and registers it. The first
// world becomes the default one.
func (e *Engine) CreateWorld(spec WorldSpec) (*World, error) {
	w, err := e.build(spec)
	if err != nil {
		return nil, err
	}
	keys, err := w.Keys()
	if err != nil {
		w.Close()
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, dup := e.worlds[w.ID]; dup {
		w.Close()
		return nil, Errorf(CodeConflict, "world %q already exists", w.ID)
	}
	for _, k := range keys {
		if other, dup := e.keys[k.Key.Key]; dup {
			w.Close()
			return nil, Errorf(CodeConflict, "API key %q is already used by world %q", k.Key.Key, other)
		}
	}
	for _, k := range keys {
		e.keys[k.Key.Key] = w.ID
	}
	e.worlds[w.ID] = w
	if e.defaultID == "" {
		e.defaultID = w.ID
	}
	return w, nil
}

// build loads the scenario into a fresh in-memory store, keeps that state as
// the world's starting point and, with a data file, opens the file: an
// existing file keeps its state, a new one starts from the scenario.
func (e *Engine) build(spec WorldSpec) (*World, error) {
	if spec.ID == "" {
		spec.ID = "default"
	}
	w, err := e.load(spec)
	if err != nil {
		return nil, err
	}
	var initial bytes.Buffer
	if err := w.db.Save(&initial); err != nil {
		return nil, err
	}
	w.initial = initial.Bytes()
	if spec.DataPath == "" {
		return w, nil
	}
	w.db.Close()
	if w.db, err = store.Open(spec.DataPath, spec.Durability); err != nil {
		return nil, err
	}
	if err := e.adoptFile(w); err != nil {
		w.db.Close()
		return nil, err
	}
	return w, nil
}

// adoptFile starts a file-backed world: from the file's own state when it
// holds one, otherwise from the scenario's.
func (e *Engine) adoptFile(w *World) error {
	var st clock.State
	var found bool
	err := w.db.View(func(tx *store.Tx) error {
		var err error
		found, err = tx.Get(clockKey, &st)
		return err
	})
	if err != nil {
		return err
	}
	if !found {
		return w.db.Replace(bytes.NewReader(w.initial))
	}
	w.clock.Restore(st)
	return nil
}

// load makes an in-memory world holding the scenario's records.
func (e *Engine) load(spec WorldSpec) (*World, error) {
	sc := spec.Scenario
	seed := int64(1)
	if sc.Seed != nil {
		seed = *sc.Seed
	}
	if spec.Seed != nil {
		seed = *spec.Seed
	}
	start := e.defaultClockStart()
	if sc.ClockStart != "" {
		start, _ = scenario.ParseTime(sc.ClockStart, start)
	}
	if spec.ClockStart != nil {
		start = spec.ClockStart.UTC()
	}
	db, err := store.Open("", store.Never)
	if err != nil {
		return nil, err
	}
	w := &World{ID: spec.ID, Scenario: sc.Name, Seed: seed, Start: start, Catalog: e.Catalog, db: db, clock: clock.New(start, e.wall)}
	if err := w.Update(func(op *Op) error { return newLoader(op, sc).run() }); err != nil {
		db.Close()
		return nil, err
	}
	if spec.ClockMode != "" && spec.ClockMode != clock.Frozen {
		if err := w.SetClockMode(spec.ClockMode, spec.ClockScale); err != nil {
			db.Close()
			return nil, err
		}
	}
	return w, nil
}

// WorldForKey finds the world an API key belongs to.
func (e *Engine) WorldForKey(key string) (*World, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	id, ok := e.keys[key]
	if !ok {
		return nil, false
	}
	return e.worlds[id], true
}

// World returns a world by id ("" for the default world).
func (e *Engine) World(id string) (*World, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if id == "" {
		id = e.defaultID
	}
	w, ok := e.worlds[id]
	return w, ok
}

// Default returns the default world.
func (e *Engine) Default() *World {
	w, _ := e.World("")
	return w
}

// Worlds lists every world, by id.
func (e *Engine) Worlds() []*World {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := make([]*World, 0, len(e.worlds))
	for _, w := range e.worlds {
		out = append(out, w)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Close closes every world, flushing file-backed ones.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	var first error
	for _, w := range e.worlds {
		if err := w.Close(); err != nil && first == nil {
			first = fmt.Errorf("close world %s: %w", w.ID, err)
		}
	}
	e.worlds = map[string]*World{}
	return first
}
