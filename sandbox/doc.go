// Package sandbox assembles the engine: NewEngine wires every domain of
// sandbox/internal into the kernel (scheduled events, derived indexes,
// reactions to emitted events, scenario seeding) in one place. The engine
// knows nothing of HTTP; the web, api and control packages translate
// requests into the domains' operations.
package sandbox
