// Package mcp serves the sandbox over the Model Context Protocol at /mcp,
// like the real service's MCP server: three tools list the operations,
// show one operation's schema and call one. A call runs through the public
// API's routes alone, behind the same middleware as an HTTP request
// (authentication, validation, idempotency, traffic shaping, the journal,
// the deferral of read-only keys' writes); the protocol itself is the
// official Go SDK's Streamable HTTP transport, its sessions bound to the
// key that opened them and bounded in number, idle time and batch size.
package mcp
