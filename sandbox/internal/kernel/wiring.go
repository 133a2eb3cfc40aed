package kernel

import "github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"

// Wiring is what the domains hand the engine when it is made, all in one
// place (see NewEngine): the scheduled events they run, the record kinds
// whose index keys are worked out from the record, what runs for every
// emitted event, and how a scenario is written into a new world.
type Wiring struct {
	// Events runs each kind of scheduled event.
	Events map[string]EventHandler
	// Derived lists the kinds whose index keys are a function of the
	// stored record: they keep no sidecar, which for 100,000 transactions
	// saves 100,000 keys and 35 MB, and spares every card created writes at
	// random places in the store (its sidecar and its deliveries').
	Derived map[string]DeriveIndexes
	// Retired names the indexes no longer kept. Their entries are removed
	// from a store written by an earlier version (a data file, a
	// snapshot) when a world adopts it.
	Retired []string
	// Upgrades bring what an earlier version stored to what this one
	// keeps, when a world adopts a data file or a snapshot; they run in
	// the write that removes the retired indexes, after it has, and do
	// nothing to a store already up to date.
	Upgrades []func(op *Op) error
	// OnEmit runs, inside the emitting operation, for every emitted event.
	OnEmit []func(op *Op, e *Emitted) error
	// Seed writes a scenario into a new world.
	Seed func(op *Op, sc *scenario.Scenario) error
}
