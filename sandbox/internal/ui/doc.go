// Package ui serves the sandbox's dashboard: a single-page web console at
// /_sandbox/ui for demos and debugging. Its files are embedded in the
// binary and reference nothing outside it; the page reads and acts only
// through the control API and the public API, like any other client.
package ui
