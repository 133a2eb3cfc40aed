// Package apitest is the HTTP harness of the behaviour tests: a sandbox
// served on loopback for one test (New), requests and answers (Req, Resp)
// checked against the sandbox's OpenAPI document, the official SDKs' types
// and the upstream document, golden response bodies (Golden), and the
// TestMain of each package that serves routes (Main), which fails a full
// run for a route of the package no test reaches.
//
// The tests live beside the code they exercise: the public API's in
// sandbox/internal/api, the control API's in sandbox/internal/control, the
// MCP server's in sandbox/internal/mcp, the assembly's own in
// sandbox/internal/server. The helpers several of them share (the demo's
// keys, a webhook receiver, an MCP client, card purchases, worlds and the
// clock) are here, one file per subject.
package apitest
