package cli

import (
	"bytes"
	"context"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts of testdata/script run the real command:
// "exec slash-sandbox …" runs this test binary as the program.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"slash-sandbox": func() {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}})
}

// TestScripts runs the command-line walkthroughs of testdata/script. Each
// script may start its own sandbox with start-sandbox [serve flags], which
// serves on a free loopback port until the script ends and points
// SANDBOX_SERVER at it.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:  "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){"start-sandbox": startSandbox},
	})
}

func startSandbox(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! start-sandbox")
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready, done := make(chan string, 1), make(chan int, 1)
	var logs bytes.Buffer
	p := &Program{Stdout: &logs, Stderr: &logs, Getenv: ts.Getenv, Ready: func(addr string) { ready <- addr }}
	go func() {
		done <- p.Run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--log-level", "warn"}, args...))
	}()
	select {
	case addr := <-ready:
		ts.Setenv("SANDBOX_SERVER", "http://"+addr)
	case code := <-done:
		cancel()
		ts.Fatalf("the sandbox exited %d before serving: %s", code, logs.String())
	}
	ts.Defer(func() {
		cancel()
		if code := <-done; code != 0 {
			ts.Logf("the sandbox exited %d: %s", code, logs.String())
		}
	})
}
