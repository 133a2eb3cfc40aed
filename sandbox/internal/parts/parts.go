// Package parts holds the two parts of the sandbox that are heavy to
// compile: the SQL engine of POST /analytics (SQLite) and the MCP server
// at /mcp (the official Go SDK). The binary always serves both; an
// in-process sandbox of package sandboxtest adds one only when a test asks
// for it (sandboxtest/sqlite, sandboxtest/mcp), so that a test that uses
// neither does not compile them.
package parts

import (
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/analytics/sqlengine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/mcp"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// SQLite runs analytics queries in SQLite: server.Config.Analytics.
var SQLite server.Analytics = sqlengine.Run

// MCP mounts the MCP server on the sandbox's router: server.Config.MCP.
func MCP(h server.MCPHost) {
	agents := &mcp.Server{Engine: h.Engine, Version: h.Version, Document: h.Document, API: h.API}
	agents.Register(h.Router, h.Docs)
}

// All gives a configuration both parts, as the binary serves it.
func All(cfg server.Config) server.Config {
	cfg.Analytics, cfg.MCP = SQLite, MCP
	return cfg
}
