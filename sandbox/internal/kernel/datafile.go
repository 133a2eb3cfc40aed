package kernel

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// ErrAnotherWorld is wrapped by the error of a data file that holds a world
// other than the one asked for.
var ErrAnotherWorld = errors.New("the data file holds another world")

// AnotherWorldError says what a data file holds and what was asked for
// instead.
type AnotherWorldError struct {
	Path string
	// Stored is the file's world; Wanted, the world the start asked for.
	Stored, Wanted WorldMeta
	// ClockStartGiven: the start named its clock start, so it counts.
	ClockStartGiven bool
}

// Error names the data file, the world it holds and the world asked for.
func (e *AnotherWorldError) Error() string {
	stored := []string{fmt.Sprintf("scenario %q", e.Stored.Scenario), fmt.Sprintf("seed %d", e.Stored.Seed),
		"clock start " + e.Stored.Start.UTC().Format(time.RFC3339)}
	if !e.Stored.Created.IsZero() {
		stored = append(stored, "created "+e.Stored.Created.UTC().Format(time.RFC3339))
	}
	wanted := []string{fmt.Sprintf("scenario %q", e.Wanted.Scenario), fmt.Sprintf("seed %d", e.Wanted.Seed)}
	if e.ClockStartGiven {
		wanted = append(wanted, "clock start "+e.Wanted.Start.UTC().Format(time.RFC3339))
	}
	return fmt.Sprintf("data file %s holds another world (%s), not the one asked for (%s)",
		e.Path, strings.Join(stored, ", "), strings.Join(wanted, ", "))
}

// Unwrap makes the error match ErrAnotherWorld.
func (e *AnotherWorldError) Unwrap() error { return ErrAnotherWorld }

// adoptFile starts a file-backed world from the file's own state when it
// holds the world spec asks for, refuses a file that holds another, and
// seeds a new file (or, with ResetData, any file) with initial, the
// scenario's loaded state.
func (e *Engine) adoptFile(w *World, spec WorldSpec, initial []store.KV) error {
	stored, found, err := storedMeta(w.Db)
	if err != nil {
		return err
	}
	if found && !spec.ResetData {
		if stored.Scenario != w.Scenario || stored.Seed != w.Seed ||
			(spec.ClockStart != nil && !stored.Start.Equal(w.Start)) {
			return &AnotherWorldError{
				Path:            spec.DataPath,
				Stored:          stored,
				Wanted:          w.meta(),
				ClockStartGiven: spec.ClockStart != nil,
			}
		}
		w.created = stored.Created
		return w.adoptStore()
	}
	w.created = e.wall().UTC().Truncate(time.Second)
	if err := w.Db.ReplaceItems(initial); err != nil {
		return err
	}
	return w.rekey()
}

// storedMeta reads what a store says of its world; found is false for a
// store that holds no world (a new file).
func storedMeta(db *store.DB) (m WorldMeta, found bool, err error) {
	err = db.View(func(tx *store.Tx) error {
		if _, found, err = tx.GetRaw(ClockKey); err != nil || !found {
			return err
		}
		_, err = tx.Get(metaKey, &m)
		return err
	})
	return m, found, err
}
