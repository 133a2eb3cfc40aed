// Command slash-sandbox runs a local, stateful emulator of the Slash
// Payments and Cards Public API. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() { os.Exit(runProcess()) }

// runProcess is the process: the program on the real arguments, environment and
// terminal, stopped by SIGINT or SIGTERM.
func runProcess() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	p := &Program{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Terminal: isTerminal(os.Stderr)}
	return p.Run(ctx, os.Args[1:])
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
