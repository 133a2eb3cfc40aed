package cli

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// binary builds the sandbox's command once per benchmark run.
func binary(b *testing.B) string {
	b.Helper()
	binOnce.Do(func() {
		binPath = filepath.Join(os.TempDir(), "slash-sandbox-bench")
		cmd := "github.com/slash-sandbox/slash-sandbox/cmd/slash-sandbox"
		out, err := exec.Command("go", "build", "-o", binPath, cmd).CombinedOutput()
		if err != nil {
			binErr = err
			b.Log(string(out))
		}
	})
	if binErr != nil {
		b.Fatal(binErr)
	}
	return binPath
}

var listening = regexp.MustCompile(`listening on (http://[0-9.:]+)`)

// BenchmarkProcessStartToHealthy starts the real binary with the demo
// scenario and measures until its first successful GET /_sandbox/health.
func BenchmarkProcessStartToHealthy(b *testing.B) {
	bin := binary(b)
	for b.Loop() {
		cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--log-format", "json")
		stderr, _ := cmd.StderrPipe()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		addr := ""
		sc := bufio.NewScanner(stderr)
		for addr == "" && sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addr = m[1]
			}
		}
		res, err := http.Get(addr + "/_sandbox/health")
		if err != nil || res.StatusCode != 200 {
			b.Fatalf("health: %v", err)
		}
		res.Body.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}
}

// BenchmarkWorldCreateOverHTTP creates (and deletes) an isolated demo world
// in a running sandbox through the control API: what a test suite does
// instead of starting a process per test.
func BenchmarkWorldCreateOverHTTP(b *testing.B) {
	bin := binary(b)
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--log-format", "json", "--log-level", "warn")
	stderr, _ := cmd.StderrPipe()
	cmd.Args = append(cmd.Args[:len(cmd.Args)-2], "--log-level", "info")
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	addr := ""
	sc := bufio.NewScanner(stderr)
	for addr == "" && sc.Scan() {
		if m := listening.FindStringSubmatch(sc.Text()); m != nil {
			addr = m[1]
		}
	}
	go func() {
		for sc.Scan() {
		}
	}()
	c := client.New(addr)
	ctx := context.Background()
	for b.Loop() {
		w, err := c.CreateWorld(ctx, client.NewWorld{Scenario: "demo"})
		if err != nil {
			b.Fatal(err)
		}
		if err := c.DeleteWorld(ctx, w.ID); err != nil {
			b.Fatal(err)
		}
	}
}
