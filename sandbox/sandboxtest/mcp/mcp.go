// Package mcp adds the sandbox's MCP server to an in-process sandbox: the
// official Go SDK's Streamable HTTP transport at /mcp with the tools
// list_endpoints, get_endpoint_schema and call_api_endpoint over the
// sandbox's API.
//
// The slash-sandbox binary always serves it. A sandboxtest sandbox serves
// it when given it, so that a test that never speaks MCP does not compile
// the SDK:
//
//	sb := sandboxtest.Start(t, sandboxtest.Options{MCP: mcp.Server})
//	// connect an MCP client to sb.URL + "/mcp?apiKey=" + sb.Key("sk_sandbox_acme")
//
// Without it, /mcp answers 501 naming this package.
package mcp

import (
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parts"
	"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest"
)

// Server is the MCP server; give it to sandboxtest.Options.MCP.
var Server sandboxtest.MCP = parts.MCP
