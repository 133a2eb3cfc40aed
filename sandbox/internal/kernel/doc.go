// Package kernel is what every domain of the engine stands on: worlds (one
// legal-entity universe each, with its own store, virtual clock, seeded ids and
// scheduled-event queue) and the engine that holds them; the unit of work (Op:
// one transaction and the virtual time, read once); records and their index
// keys; paging and cursors; ids and counters; idempotency records; domain
// errors; scheduled and emitted events; identity and auth; the outbox and
// snapshots. It is mechanism and names no domain: each domain declares its
// kinds of record and id prefixes (Kind), its event types and its types, and
// hands the engine what it runs through Wiring.
package kernel
