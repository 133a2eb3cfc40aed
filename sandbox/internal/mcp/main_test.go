package mcp_test

import (
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/mcp"
)

// TestMain fails a full run when no test of this package reaches /mcp.
func TestMain(m *testing.M) { apitest.Main(m, apitest.Suite{Routes: (&mcp.Server{}).Register}) }
