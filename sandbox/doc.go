// Package sandbox is the engine: worlds (one legal-entity universe each, with
// its own store, virtual clock, seeded IDs and scheduled-event queue), the
// domain records and the operations on them. It knows nothing of HTTP; the
// web, api and control packages translate requests into these operations.
package sandbox
