// Package control serves the sandbox's own control API under /_sandbox/, the
// developer's and their tests' handle on the emulator: health, reset and keys;
// worlds, their world-scoped paths and snapshots; the virtual clock, its
// scheduled events, triggered events and the changes feed; simulated card,
// money and invoice activity; the outbox with its documents, webhook
// deliveries and the signing key; agent requests, information requests and
// their secure form; faults, rate limits, the request journal, and the waits
// a test blocks on. Errors use the second-generation envelope. When an admin
// token is configured, every control route requires it but the secure form
// and a bare health check.
package control
