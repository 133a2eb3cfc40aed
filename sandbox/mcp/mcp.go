// Package mcp is the sandbox's MCP server at /mcp: the official Go SDK's
// Streamable HTTP transport with the tools list_endpoints,
// get_endpoint_schema and call_api_endpoint over the sandbox's API.
//
// The slash-sandbox binary always serves it. An in-process sandbox serves
// it when given it, so that a test that never speaks MCP does not compile
// the SDK:
//
//	sb := sandboxtest.Start(t, sandboxtest.Options{MCP: mcp.Server})
//	// connect an MCP client to sb.URL + "/mcp?apiKey=" + sb.Key("sk_sandbox_acme")
//
// Without it, /mcp answers 501 naming this package.
package mcp

import (
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/mcp"
	"github.com/slash-sandbox/slash-sandbox/sandbox/server"
)

// Server mounts the MCP server; give it to sandboxtest.Options.MCP or
// server.Config.MCP.
func Server(h server.MCPHost) {
	agents := &mcp.Server{Engine: h.Engine, Version: h.Version, Document: h.Document, API: h.API}
	agents.Register(h.Router, h.Docs)
}
