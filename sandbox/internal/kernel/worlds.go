package kernel

import (
	"bytes"
	"fmt"
	"regexp"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/clock"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// WorldMeta is what a world's store says about the world itself; it travels
// with snapshots.
type WorldMeta struct {
	Scenario  string    `json:"scenario"`
	Seed      int64     `json:"seed"`
	Start     time.Time `json:"start"`
	KeySuffix string    `json:"keySuffix,omitempty"`
	// Created is when a data file's world was seeded (wall time); zero
	// for a world in memory, so that those stay byte-identical.
	Created time.Time `json:"created,omitzero"`
}

var metaKey = store.Key("m", "world")

// Meta returns the world's scenario, seed, clock start, key suffix and,
// for a file-backed world, when its file was seeded.
func (w *World) Meta() WorldMeta {
	w.gate.RLock()
	defer w.gate.RUnlock()
	return w.meta()
}

// meta is Meta for a caller that holds the gate.
func (w *World) meta() WorldMeta {
	return WorldMeta{Scenario: w.Scenario, Seed: w.Seed, Start: w.Start, KeySuffix: w.keySuffix, Created: w.created}
}

// adoptStore makes a store's state the world's: it reads the store's
// metadata into the world's fields, then brings what an earlier version
// stored to what this one keeps, in one write that changes nothing in a
// store already up to date: it removes the emitted-event log and the
// entries of the indexes the wiring retired, and runs the wiring's
// upgrades. The caller holds the gate exclusively (or the world is not
// shared yet).
func (w *World) adoptStore() error {
	if err := w.adoptMeta(); err != nil {
		return err
	}
	err := w.Db.Update(func(tx *store.Tx) error {
		op := &Op{W: w, Tx: tx, Now: w.VirtualClock.Now()}
		return op.finishCounters(w.upgrade(op))
	})
	if err != nil {
		return fmt.Errorf("upgrade the stored state: %w", err)
	}
	return nil
}

func (w *World) upgrade(op *Op) error {
	retired := []string{retiredEmittedLog}
	for _, name := range w.wiring.Retired {
		retired = append(retired, IndexPrefix(name))
	}
	for _, prefix := range retired {
		if err := op.Tx.DeletePrefix(prefix); err != nil {
			return err
		}
	}
	for _, upgrade := range w.wiring.Upgrades {
		if err := upgrade(op); err != nil {
			return err
		}
	}
	return nil
}

// adoptMeta reads the store's metadata into the world's fields.
func (w *World) adoptMeta() error {
	return w.Db.View(func(tx *store.Tx) error {
		var m WorldMeta
		ok, err := tx.Get(metaKey, &m)
		if err != nil {
			return err
		}
		if ok {
			w.Scenario, w.Seed, w.Start = m.Scenario, m.Seed, m.Start
		}
		var st clock.State
		if _, err := tx.Get(ClockKey, &st); err != nil {
			return err
		}
		w.VirtualClock.Restore(st)
		return nil
	})
}

// rekey gives every API key of the store the world's suffix and records the
// world's metadata. Keys already carrying it are left alone.
func (w *World) rekey() error {
	return w.Db.Update(func(tx *store.Tx) error {
		op := &Op{W: w, Tx: tx, Now: w.VirtualClock.Now()}
		keys, err := All[APIKey](op, APIKeys.Name, IndexPrefix("key.all"))
		if err != nil {
			return err
		}
		for _, k := range keys {
			want := k.BaseKey + w.keySuffix
			if k.BaseKey == "" || k.Key == want {
				continue
			}
			if err := tx.Delete(recordKey(APIKeys.Name, k.Key)); err != nil {
				return err
			}
			if err := tx.Delete(IndexSidecar(APIKeys.Name, k.Key)); err != nil {
				return err
			}
			if err := tx.Delete(KeyIndex(&k)); err != nil {
				return err
			}
			k.Key = want
			if err := op.Save(APIKeys.Name, k.Key, &k, KeyIndex(&k)); err != nil {
				return err
			}
		}
		if err := op.finishCounters(nil); err != nil {
			return err
		}
		return tx.Put(metaKey, w.meta())
	})
}

// fromSnapshot makes an in-memory world holding a snapshot's state; the
// snapshot is also what the world resets to.
func (e *Engine) fromSnapshot(id string, snapshot []byte) (*World, error) {
	db, err := store.Open("", store.Never)
	if err != nil {
		return nil, err
	}
	if err := db.Load(bytes.NewReader(snapshot)); err != nil {
		db.Close()
		return nil, fmt.Errorf("load snapshot: %w", err)
	}
	items, err := db.Items()
	if err != nil {
		db.Close()
		return nil, err
	}
	w, err := e.adopt(id, db, keptStart(items))
	if w != nil {
		w.startCost = w.MemoryCost()
	}
	return w, err
}

// adopt wraps a store holding a world's state into a world.
func (e *Engine) adopt(id string, db *store.DB, initial func() ([]store.KV, error)) (*World, error) {
	w := &World{
		ID:           id,
		Catalog:      e.Catalog,
		Db:           db,
		VirtualClock: clock.New(time.Time{}, e.wall),
		initial:      initial,
		wiring:       e.wiring,
	}
	if err := w.adoptStore(); err != nil {
		db.Close()
		return nil, err
	}
	return w, nil
}

// cacheKey names a loaded scenario: its bytes, seed and clock start.
func cacheKey(hash string, seed int64, start time.Time) string {
	return fmt.Sprintf("%s|%d|%s", hash, seed, start.UTC().Format(time.RFC3339Nano))
}

// DeleteWorld closes a world and forgets it and its keys. The default world
// stays.
func (e *Engine) DeleteWorld(id string) error {
	e.mu.Lock()
	w, ok := e.worlds[id]
	if !ok {
		e.mu.Unlock()
		return NotFound("world", "id", id)
	}
	if id == e.defaultID {
		e.mu.Unlock()
		return Errorf(CodeConflict, "the default world cannot be deleted; reset it instead")
	}
	delete(e.worlds, id)
	for k, wid := range e.keys {
		if wid == id {
			delete(e.keys, k)
		}
	}
	e.forgetLoaded(w.cacheKey)
	hooks := e.onDelete
	e.mu.Unlock()
	for _, h := range hooks {
		h(id)
	}
	w.forgetWaiters()
	return w.Close()
}

// forgetLoaded drops the loaded state kept under key once no world was
// made from it: it would otherwise stay in memory, outside every world,
// for as long as the process runs. The caller holds e.mu.
func (e *Engine) forgetLoaded(key string) {
	for _, w := range e.worlds {
		if w.cacheKey == key {
			return
		}
	}
	delete(e.loaded, key)
}

// OnWorldDeleted registers what must forget a world once it is deleted
// (explicitly or when its time to live ran out).
func (e *Engine) OnWorldDeleted(h func(worldID string)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.onDelete = append(e.onDelete, h)
}

// refreshKeys re-reads a world's keys into the engine's key map after its
// store changed (a restore may bring other keys).
func (e *Engine) refreshKeys(w *World) error {
	keys, err := w.Keys()
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, k := range keys {
		if other, taken := e.keys[k.Key.Key]; taken && other != w.ID {
			return Errorf(CodeConflict, "API key %q is already used by world %q", k.Key.Key, other)
		}
	}
	for k, wid := range e.keys {
		if wid == w.ID {
			delete(e.keys, k)
		}
	}
	for _, k := range keys {
		e.keys[k.Key.Key] = w.ID
	}
	return nil
}

var worldIDPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,39}$`)

// nextWorldID names an additional world: w1, w2, …
func (e *Engine) nextWorldID() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	for {
		e.worldSeq++
		id := fmt.Sprintf("w%d", e.worldSeq)
		if _, taken := e.worlds[id]; !taken {
			return id
		}
	}
}

// SpawnWorld creates an additional, isolated world: its own id and its own
// keys (the scenario's keys with "_<id>" appended). A scenario another
// world already loaded with the same seed and clock start is copied, not
// loaded again.
func (e *Engine) SpawnWorld(spec WorldSpec) (*World, error) {
	if spec.ID == "" {
		spec.ID = e.nextWorldID()
	} else if !worldIDPattern.MatchString(spec.ID) {
		return nil, InvalidField("/id", "must be 1 to 40 lower-case letters, digits, - or _")
	}
	if spec.KeySuffix == "" {
		spec.KeySuffix = "_" + spec.ID
	}
	return e.CreateWorld(spec)
}

// SpawnFromSnapshot creates an additional world holding a snapshot's state.
func (e *Engine) SpawnFromSnapshot(id, snapshotID string) (*World, error) {
	s, err := e.SnapshotByID(snapshotID)
	if err != nil {
		return nil, err
	}
	if id == "" {
		id = e.nextWorldID()
	} else if !worldIDPattern.MatchString(id) {
		return nil, InvalidField("/id", "must be 1 to 40 lower-case letters, digits, - or _")
	}
	res, err := e.Reserve(fmt.Sprintf("a world of snapshot %s", s.ID), s.worldCost)
	if err != nil {
		return nil, err
	}
	defer res.Release()
	w, err := e.fromSnapshot(id, s.Data)
	if err != nil {
		return nil, err
	}
	w.keySuffix = "_" + id
	if err := w.rekey(); err != nil {
		w.Close()
		return nil, err
	}
	return w, e.register(w)
}

// SetExpiry gives a world a wall-clock time to live; Reap deletes it after.
func (e *Engine) SetExpiry(id string, at time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.expiry == nil {
		e.expiry = map[string]time.Time{}
	}
	e.expiry[id] = at
}

// Expiry says when a world expires, if it does.
func (e *Engine) Expiry(id string) (time.Time, bool) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	at, ok := e.expiry[id]
	return at, ok
}

// Reap deletes the worlds whose time to live has passed at now (wall time,
// given by the caller: the engine never reads it).
func (e *Engine) Reap(now time.Time) []string {
	e.mu.RLock()
	var due []string
	for id, at := range e.expiry {
		if !now.Before(at) {
			due = append(due, id)
		}
	}
	e.mu.RUnlock()
	for _, id := range due {
		e.DeleteWorld(id)
		e.mu.Lock()
		delete(e.expiry, id)
		e.mu.Unlock()
	}
	return due
}
