// Package sandbox is the slash-sandbox command as a library call: Main is
// the whole command line, which cmd/slash-sandbox runs.
//
// Everything else a Go user imports lives in two packages below this one:
// sandbox/client, a typed client of the control API, and
// sandbox/sandboxtest, an in-process sandbox for a Go test (with the opt-in
// parts sandboxtest/sqlite and sandboxtest/mcp). The engine, the HTTP
// layer and the command line are under sandbox/internal.
package sandbox

import (
	"context"
	"os"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cli"
)

// Main runs the slash-sandbox command with args (the arguments after the
// program's name) on the given standard output and error, reading its
// settings from the environment, until it is done or ctx ends. It returns
// the exit code: 0 when the command did its work, 1 when it failed, 2 for
// a command line it cannot take.
func Main(ctx context.Context, args []string, stdout, stderr *os.File) int {
	return cli.Main(ctx, args, stdout, stderr)
}
