package cli

import (
	"context"
	"os"
)

// Main runs the command on a process's standard streams and environment
// and returns its exit code (see Program.Run).
func Main(ctx context.Context, args []string, stdout, stderr *os.File) int {
	p := &Program{Stdout: stdout, Stderr: stderr, Getenv: os.Getenv, Terminal: isTerminal(stderr)}
	return p.Run(ctx, args)
}

// isTerminal reports whether f is a terminal, where the log is written
// for people rather than as JSON lines.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
