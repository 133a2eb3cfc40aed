package kernel

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"
)

// Snapshot is a named state of a world: its whole store, clock included.
type Snapshot struct {
	ID        string    `json:"id"`
	WorldID   string    `json:"world"`
	Scenario  string    `json:"scenario"`
	Seed      int64     `json:"seed"`
	Clock     time.Time `json:"clock"`
	Label     string    `json:"label,omitempty"`
	Size      int       `json:"size"`
	Data      []byte    `json:"-"`
	createdAt int64
	// worldCost is the memory a world holding the snapshot takes (see
	// World.MemoryCost).
	worldCost int64
}

// SnapshotFormat names the export file format.
const SnapshotFormat = "slash-sandbox-snapshot/1"

// exportFile is a snapshot as a file a team can share.
type exportFile struct {
	Format   string    `json:"format"`
	Scenario string    `json:"scenario"`
	Seed     int64     `json:"seed"`
	Clock    time.Time `json:"clock"`
	Label    string    `json:"label,omitempty"`
	Data     []byte    `json:"data"`
}

// TakeSnapshot saves a world's current state under a new id, when the
// copy fits in the memory budget.
func (e *Engine) TakeSnapshot(w *World, label string) (*Snapshot, error) {
	items, n := w.Db.Size()
	res, err := e.Reserve(fmt.Sprintf("a snapshot of world %s", w.ID), n+items*snapshotFraming)
	if err != nil {
		return nil, err
	}
	defer res.Release()
	worldCost := w.MemoryCost()
	data, err := w.Snapshot()
	if err != nil {
		return nil, err
	}
	m := w.Meta()
	return e.keepSnapshot(
		&Snapshot{WorldID: w.ID, Scenario: m.Scenario, Seed: m.Seed, Clock: w.Now(), Label: label, Data: data,
			worldCost: worldCost},
	)
}

// MaxSnapshots is the most snapshots the engine keeps at once: each holds
// a whole world in memory.
const MaxSnapshots = 1000

func (e *Engine) keepSnapshot(s *Snapshot) (*Snapshot, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.snapshots) >= MaxSnapshots {
		return nil, Errorf(CodeConflict, "the sandbox already keeps %d snapshots: delete some first", MaxSnapshots)
	}
	e.snapSeq++
	s.ID = fmt.Sprintf("snap_%d", e.snapSeq)
	s.createdAt = e.snapSeq
	s.Size = len(s.Data)
	e.snapshots[s.ID] = s
	return s, nil
}

// SnapshotByID finds a snapshot.
func (e *Engine) SnapshotByID(id string) (*Snapshot, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	s, ok := e.snapshots[id]
	if !ok {
		return nil, NotFound("snapshot", "id", id)
	}
	return s, nil
}

// Snapshots lists the snapshots, oldest first.
func (e *Engine) Snapshots() []*Snapshot {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := make([]*Snapshot, 0, len(e.snapshots))
	for _, s := range e.snapshots {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].createdAt < out[j].createdAt })
	return out
}

// DeleteSnapshot forgets a snapshot.
func (e *Engine) DeleteSnapshot(id string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if _, ok := e.snapshots[id]; !ok {
		return NotFound("snapshot", "id", id)
	}
	delete(e.snapshots, id)
	return nil
}

// RestoreSnapshot puts a world back into a snapshot's state. The world keeps
// its own keys' suffix; it answers to the snapshot's keys from then on. A
// snapshot larger than the world, by more than the memory budget has
// left, is refused.
func (e *Engine) RestoreSnapshot(w *World, id string) error {
	s, err := e.SnapshotByID(id)
	if err != nil {
		return err
	}
	res, err := e.Reserve(fmt.Sprintf("restoring snapshot %s into world %s", s.ID, w.ID), s.worldCost-w.MemoryCost())
	if err != nil {
		return err
	}
	defer res.Release()
	if err := w.Restore(s.Data); err != nil {
		return err
	}
	w.startCost = w.MemoryCost()
	return e.refreshKeys(w)
}

// Reset puts a world back to where its scenario started it (see
// World.Reset). A start larger than the world, by more than the memory
// budget has left, is refused.
func (e *Engine) Reset(w *World) error {
	res, err := e.Reserve(fmt.Sprintf("resetting world %s", w.ID), w.startCost-w.MemoryCost())
	if err != nil {
		return err
	}
	defer res.Release()
	return w.Reset()
}

// ExportSnapshot renders a snapshot as a shareable file.
func (e *Engine) ExportSnapshot(id string) ([]byte, error) {
	s, err := e.SnapshotByID(id)
	if err != nil {
		return nil, err
	}
	return json.Marshal(
		exportFile{Format: SnapshotFormat, Scenario: s.Scenario, Seed: s.Seed, Clock: s.Clock, Label: s.Label, Data: s.Data},
	)
}

// ImportSnapshot reads an exported file back as a new snapshot. The file
// is checked by making a world of it, which is thrown away: the snapshot's
// data and that world must fit in the memory budget.
func (e *Engine) ImportSnapshot(file []byte) (*Snapshot, error) {
	var f exportFile
	if err := json.Unmarshal(file, &f); err != nil || f.Format != SnapshotFormat || len(f.Data) == 0 {
		return nil, InvalidField("body", "is not a snapshot file exported by this sandbox ("+SnapshotFormat+")")
	}
	res, err := e.Reserve(fmt.Sprintf("importing a snapshot of %s", size(int64(len(f.Data)))), 2*int64(len(f.Data)))
	if err != nil {
		return nil, err
	}
	defer res.Release()
	probe, err := e.fromSnapshot("import-check", f.Data)
	if err != nil {
		return nil, InvalidField("body", "the snapshot's data cannot be read: "+err.Error())
	}
	worldCost := probe.MemoryCost()
	probe.Close()
	return e.keepSnapshot(
		&Snapshot{WorldID: "", Scenario: f.Scenario, Seed: f.Seed, Clock: f.Clock, Label: f.Label, Data: f.Data,
			worldCost: worldCost},
	)
}
