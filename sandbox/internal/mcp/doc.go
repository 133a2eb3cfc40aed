// Package mcp serves the sandbox over the Model Context Protocol at /mcp,
// like the real service's MCP server: three tools list the operations,
// show one operation's schema and call one. A call runs through the same
// handler as an HTTP request (authentication, validation, idempotency,
// traffic shaping, the journal, the deferral of read-only keys' writes);
// the protocol itself is the official Go SDK's Streamable HTTP transport.
package mcp
