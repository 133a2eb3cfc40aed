// Command slash-sandbox runs a local, stateful emulator of the Slash
// Payments and Cards Public API. See README.md.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/slash-sandbox/slash-sandbox/sandbox"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := sandbox.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
