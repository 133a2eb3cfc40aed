package kernel

import (
	"fmt"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// Wiring is what the domains hand the engine when it is made, all in one
// place (see NewEngine): the kinds of record they keep and the ids they
// make, the scheduled events they run, what runs for every emitted event,
// and how a scenario is written into a new world.
type Wiring struct {
	// Kinds are the domains' kinds of record and id prefixes. No name and
	// no prefix may be declared twice, the kernel's own (Kinds) included.
	Kinds []Kind
	// Events runs each kind of scheduled event.
	Events map[string]EventHandler
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

	// derived are the kinds whose index keys derive from the record, by
	// name (made by check).
	derived map[string]DeriveIndexes
}

// Kind is a kind of record a domain keeps and the prefix of the ids it
// makes for it, as the domain declares them. Name is the first part of the
// kind's record keys (RecordKey); Prefix starts the ids NewID makes with
// it, and names the counter they are numbered by. Either may be empty: a
// kind keyed by something else than a made id has no prefix, and ids that
// name no record of their own (a transfer's) have no name.
type Kind struct {
	Name   string
	Prefix string
	// Derive, when set, works out the kind's index keys from the stored
	// record, which then keeps no sidecar: for 100,000 transactions that
	// saves 100,000 keys and 35 MB, and spares every card created writes
	// at random places in the store (its sidecar and its deliveries').
	Derive DeriveIndexes
}

// The kernel's own kinds of record, declared as the domains declare theirs:
// identity (legal entities, their users, API keys), scheduled events, the
// outbox's messages, and the reference ids of failures.
var (
	// LegalEntities are the businesses a world holds (LegalEntity).
	LegalEntities = Kind{Name: "legal_entity", Prefix: "le_"}
	// Users are the people with roles on legal entities (User).
	Users = Kind{Name: "user", Prefix: "u_"}
	// APIKeys are the credentials (APIKey), keyed by the key itself.
	APIKeys = Kind{Name: "key"}
	// Events are the scheduled events (Event).
	Events = Kind{Name: "event", Prefix: "evt_", Derive: Derived(eventIndexes)}

	messages   = Kind{Name: "message", Prefix: "msg_"}
	references = Kind{Prefix: "ref_"}
)

// ownKinds are the kinds the kernel declares for itself.
func ownKinds() []Kind { return []Kind{LegalEntities, Users, APIKeys, Events, messages, references} }

// check refuses a wiring that declares a kind's name or an id prefix twice,
// counting the kernel's own, and indexes the derived kinds.
func (w *Wiring) check() error {
	names, prefixes := map[string]bool{}, map[string]bool{}
	w.derived = map[string]DeriveIndexes{}
	for _, k := range append(ownKinds(), w.Kinds...) {
		if k.Name == "" && k.Prefix == "" {
			return fmt.Errorf("wiring: a kind with neither a name nor an id prefix")
		}
		if k.Name != "" {
			if names[k.Name] {
				return fmt.Errorf("wiring: the kind %q is declared twice", k.Name)
			}
			names[k.Name] = true
		}
		if k.Prefix != "" {
			if prefixes[k.Prefix] {
				return fmt.Errorf("wiring: the id prefix %q is declared twice", k.Prefix)
			}
			prefixes[k.Prefix] = true
		}
		if k.Derive != nil {
			if k.Name == "" {
				return fmt.Errorf("wiring: the id prefix %q derives index keys but names no kind", k.Prefix)
			}
			w.derived[k.Name] = k.Derive
		}
	}
	return nil
}

// Derived lists the kinds whose index keys are a function of the stored
// record (Kind.Derive), the kernel's own included, by name.
func (w Wiring) Derived() map[string]DeriveIndexes {
	if err := w.check(); err != nil {
		return nil
	}
	return w.derived
}
