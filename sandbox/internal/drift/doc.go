// Package drift probes a live service that speaks the Slash API, read-only,
// and reports where its answers differ from the sandbox's contract: the
// sandbox's own OpenAPI document, read strictly (a property the document
// does not name is unknown, an enum is closed, a required property must be
// there), and the status and error envelope of the requests the sandbox
// refuses. It sends GET requests only.
package drift
