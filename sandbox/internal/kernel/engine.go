package kernel

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/clock"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// WorldSpec says how to make a world.
type WorldSpec struct {
	ID         string
	Scenario   *scenario.Scenario
	Seed       *int64
	ClockStart *time.Time
	ClockMode  clock.Mode
	ClockScale float64
	// DataPath backs the world with a file; "" keeps it in memory. A file
	// that holds a world of another scenario, seed or (when ClockStart is
	// given) clock start is refused with an *AnotherWorldError.
	DataPath   string
	Durability store.Durability
	// ResetData, with DataPath, discards what the file holds and seeds it
	// afresh.
	ResetData bool
	// OnDataRepair, when set, is told what opening the data file mended: a
	// write cut short at its end dropped, an older format upgraded.
	OnDataRepair func(store.Repair)
	// KeySuffix is appended to every API key of the scenario, so worlds made
	// from one scenario each answer to their own keys.
	KeySuffix string
	// OnRecord, when set, is called with the kind of every record the
	// scenario's loading creates, so a large load can report progress. A
	// world copied from one loaded before creates none.
	OnRecord func(kind string)
	// OnOrigin, when set, is called with the kind and id of every record
	// the scenario's loading creates while the loader names the scenario
	// path it is writing (Op.SetOrigin), and with that path: how a checker
	// tells which line of the file a record came from. A world copied from
	// one loaded before creates none.
	OnOrigin func(kind, id, path string)
}

// Engine holds every world and finds the world of an API key.
type Engine struct {
	Catalog *fixtures.Catalog
	wall    clock.Wall
	// wiring is what the domains gave the engine; every world shares it.
	wiring *Wiring

	mu        sync.RWMutex
	worlds    map[string]*World
	keys      map[string]string // API key → world id
	defaultID string
	// loaded keeps each scenario's state right after loading, by scenario
	// bytes, seed and clock start: another world from it is a copy.
	loaded map[string][]store.KV
	// snapshots are named states of worlds.
	snapshots map[string]*Snapshot
	snapSeq   int64
	worldSeq  int64
	// expiry is each expiring world's wall-clock end.
	expiry map[string]time.Time
	// onDelete run after a world is deleted.
	onDelete []func(worldID string)
	// hooks connect every world to the webhook sender and the
	// authorization caller the server sets.
	hooks engineHooks
	// memory is the budget of what worlds and snapshots hold.
	memory memory
}

// NewEngine makes an engine whose worlds run what wiring names. wall is the
// wall clock used by real and scaled clock modes (nil for the machine's).
// A wiring that declares a kind of record or an id prefix twice is refused.
func NewEngine(wall clock.Wall, wiring Wiring) (*Engine, error) {
	if err := wiring.check(); err != nil {
		return nil, err
	}
	cat, err := fixtures.Load()
	if err != nil {
		return nil, err
	}
	if wall == nil {
		wall = time.Now
	}
	return &Engine{Catalog: cat, wall: wall, wiring: &wiring, worlds: map[string]*World{}, keys: map[string]string{},
		loaded: map[string][]store.KV{}, snapshots: map[string]*Snapshot{}, memory: memory{limit: DefaultMemoryBudget}}, nil
}

// defaultClockStart is the wall time truncated to the second: the start of a
// scenario that names none.
func (e *Engine) defaultClockStart() time.Time { return e.wall().UTC().Truncate(time.Second) }

// CreateWorld builds a world from its scenario and registers it. The first
// world becomes the default one. A world that does not fit in the memory
// budget is refused, before its scenario is generated when its size can
// be told, else as soon as its load goes past it.
func (e *Engine) CreateWorld(spec WorldSpec) (*World, error) {
	res, err := e.Reserve(fmt.Sprintf("a world of scenario %q", spec.Scenario.Name), 0)
	if err != nil {
		return nil, err
	}
	defer res.Release()
	w, err := e.build(spec, res)
	if err != nil {
		return nil, err
	}
	return w, e.register(w)
}

// register makes a world and its keys known; a clash closes the world.
func (e *Engine) register(w *World) error {
	keys, err := w.Keys()
	if err != nil {
		w.Close()
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, dup := e.worlds[w.ID]; dup {
		w.Close()
		return Errorf(CodeConflict, "world %q already exists", w.ID).With("id", w.ID)
	}
	if len(e.worlds) >= MaxWorlds {
		w.Close()
		return Errorf(CodeConflict, "the sandbox already holds %d worlds: delete some first, or give new ones a ttl",
			MaxWorlds)
	}
	for _, k := range keys {
		if other, dup := e.keys[k.Key.Key]; dup {
			w.Close()
			return Errorf(CodeConflict, "API key %q is already used by world %q", k.Key.Key, other)
		}
	}
	for _, k := range keys {
		e.keys[k.Key.Key] = w.ID
	}
	w.hooks = &e.hooks
	e.worlds[w.ID] = w
	if e.defaultID == "" {
		e.defaultID = w.ID
	}
	return nil
}

// MaxWorlds is the most worlds the engine holds at once.
const MaxWorlds = 1000

// build makes a world: a copy of the scenario's loaded state when another
// world already loaded it, else a fresh load. It keeps that state as the
// world's starting point and, with a data file, opens the file: an existing
// file keeps its state, a new one starts from the scenario.
func (e *Engine) build(spec WorldSpec, res *Reservation) (*World, error) {
	if spec.ID == "" {
		spec.ID = "default"
	}
	seed, start := e.resolve(spec)
	if err := clock.InRange(start); err != nil {
		return nil, InvalidField("/clockStart", err.Error())
	}
	key := cacheKey(spec.Scenario.Hash, seed, start)
	e.mu.RLock()
	cached := e.loaded[key]
	e.mu.RUnlock()
	if cached == nil && sharable(spec) {
		cached = sharedStart(key)
	}
	w, items, err := e.fromCacheOrLoad(spec, seed, start, key, cached, res)
	if err != nil {
		return nil, err
	}
	w.keySuffix, w.source, w.cacheKey = spec.KeySuffix, spec.Scenario, key
	if err := w.rekey(); err != nil {
		w.Db.Close()
		return nil, err
	}
	if spec.DataPath != "" {
		w.Db.Close()
		opts := store.FileOptions{Durability: spec.Durability, Discard: spec.ResetData, OnRepair: spec.OnDataRepair}
		if w.Db, err = store.OpenFile(spec.DataPath, opts); err != nil {
			return nil, err
		}
		if err := e.adoptFile(w, spec, items); err != nil {
			w.Db.Close()
			return nil, err
		}
	}
	if spec.ClockMode != "" && spec.ClockMode != clock.Frozen {
		if err := w.SetClockMode(spec.ClockMode, spec.ClockScale); err != nil {
			w.Db.Close()
			return nil, err
		}
	}
	return w, nil
}

// fromCacheOrLoad makes the world and returns its loaded state: a copy of
// the cached state when there is one, else a fresh load, whose state is
// cached when it is small enough to keep (see KeepStartKeys).
func (e *Engine) fromCacheOrLoad(spec WorldSpec, seed int64, start time.Time, key string, cached []store.KV,
	res *Reservation) (*World, []store.KV, error) {
	if cached != nil {
		c := itemsCost(cached)
		if err := res.Grow(c); err != nil {
			return nil, nil, err
		}
		db, err := store.OpenWith(cached)
		if err != nil {
			return nil, nil, err
		}
		w, err := e.adopt(spec.ID, db, keptStart(cached))
		if w != nil {
			w.startCost = c
		}
		return w, cached, err
	}
	if err := res.Grow(scenarioCost(spec.Scenario)); err != nil {
		return nil, nil, err
	}
	w, err := e.load(spec, seed, start, res)
	if err != nil {
		return nil, nil, err
	}
	if err := res.Grow(w.MemoryCost()); err != nil {
		w.Db.Close()
		return nil, nil, err
	}
	items, err := w.Db.Items()
	if err != nil {
		w.Db.Close()
		return nil, nil, err
	}
	w.startCost = w.MemoryCost()
	if len(items) > KeepStartKeys {
		w.initial = e.reloadStart(spec, seed, start)
		return w, items, nil
	}
	w.initial = keptStart(items)
	e.mu.Lock()
	e.loaded[key] = items
	e.mu.Unlock()
	if sharable(spec) {
		keepSharedStart(key, items)
	}
	return w, items, nil
}

// resolve picks a world's seed and clock start: the spec's, else the
// scenario's, else 1 and now truncated to the second.
func (e *Engine) resolve(spec WorldSpec) (int64, time.Time) {
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
	return seed, start
}

// load makes an in-memory world holding the scenario's records. With a
// reservation, the load stops once its writes go past what the budget
// lets it grow the reservation to.
func (e *Engine) load(spec WorldSpec, seed int64, start time.Time, res *Reservation) (*World, error) {
	sc := spec.Scenario
	db, err := store.Open("", store.Never)
	if err != nil {
		return nil, err
	}
	w := &World{
		ID:           spec.ID,
		Scenario:     sc.Name,
		Seed:         seed,
		Start:        start,
		Catalog:      e.Catalog,
		Db:           db,
		VirtualClock: clock.New(start, e.wall),
		wiring:       e.wiring,
	}
	err = w.fill(func(op *Op) error {
		op.onRecord, op.onOrigin = spec.OnRecord, spec.OnOrigin
		if res != nil {
			op.budget = &loadBudget{r: res}
		}
		if err := e.wiring.Seed(op, sc); err != nil {
			return scenarioError(err)
		}
		return op.Tx.Put(metaKey, WorldMeta{Scenario: w.Scenario, Seed: seed, Start: start})
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	return w, nil
}

// scenarioError is a loading failure as the caller's problem: the scenario
// does not fit the seed and clock start it was loaded with (an absolute
// date after the clock start, more to generate than a load takes).
func scenarioError(err error) error {
	if _, ok := AsError(err); ok {
		return err
	}
	return InvalidField("/scenario", err.Error())
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
