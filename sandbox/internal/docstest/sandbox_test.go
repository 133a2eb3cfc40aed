package docstest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sandbox is the real binary serving the demo scenario on a loopback port.
type sandbox struct {
	addr string
	// receiver answers 200 to every request: the app the docs have
	// listening on localhost:4000.
	receiver string
}

// startSandbox starts bin on 127.0.0.1:0 and waits for the line that says
// where it listens; the test's end stops it.
func startSandbox(t *testing.T, bin string) *sandbox {
	t.Helper()
	cmd := exec.Command(bin, "--addr", "127.0.0.1:0", "--log-format", "json")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		var entry struct{ Addr, Message string }
		if json.Unmarshal(lines.Bytes(), &entry) == nil && entry.Addr != "" &&
			strings.Contains(entry.Message, "listening") {
			go func() {
				for lines.Scan() {
				}
			}()
			app := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
			t.Cleanup(app.Close)
			return &sandbox{addr: entry.Addr, receiver: strings.TrimPrefix(app.URL, "http://")}
		}
	}
	t.Fatalf("the sandbox stopped before it listened")
	return nil
}

// shell runs a shell block's commands one by one against sb, in dir, with
// the binary on PATH: each must exit 0 and print what the docs show.
func shell(t *testing.T, b block, sb *sandbox, binDir, dir string, seen *ids) {
	t.Helper()
	var background []*exec.Cmd
	defer func() {
		for _, cmd := range background {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
		}
	}()
	for _, c := range commands(b) {
		text := seen.fill(rewrite(c.text, sb))
		if serves(text) {
			cmd, err := startBackground(strings.TrimSuffix(strings.TrimSpace(text), "&"), dir,
				"PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"), "SANDBOX_ADDR="+sb.addr)
			if err != nil {
				t.Errorf("%s:%d: %v", b.file, c.line, err)
				return
			}
			background = append(background, cmd)
			continue
		}
		out, err := runCommand(text, dir, "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"),
			"SANDBOX_ADDR="+sb.addr)
		if err != nil {
			t.Errorf("%s:%d: %v\n%s\n%s", b.file, c.line, err, text, out)
			return
		}
		for _, want := range c.want {
			if !outputShows(string(out), rewrite(want, sb)) {
				t.Errorf("%s:%d: the docs show\n  %s\nthe sandbox printed\n  %s", b.file, c.line, want, out)
			}
		}
		seen.note(string(out))
	}
}

// rewrite points a command at the test's sandbox: the address the docs
// use becomes its address, the app on localhost:4000 its receiver, and
// `go run ./cmd/slash-sandbox` the binary built for the test.
func rewrite(s string, sb *sandbox) string {
	s = strings.NewReplacer("localhost:8080", sb.addr, "127.0.0.1:8080", sb.addr, "localhost:4000", sb.receiver,
		"localhost:3000", sb.receiver).Replace(s)
	return strings.ReplaceAll(s, "go run ./cmd/slash-sandbox", "slash-sandbox")
}

// buildBinary builds the command into dir.
func buildBinary(t *testing.T, root, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "slash-sandbox")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/slash-sandbox")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// validateScenario writes a scenario to dir and runs `slash-sandbox
// validate --deep` on it, which loads it in a scratch world and checks its
// records against the world's rules.
func validateScenario(t *testing.T, b block, bin, dir, text string) {
	t.Helper()
	file := filepath.Join(dir, fmt.Sprintf("%s-%d.yaml", filepath.Base(b.file), b.line))
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(bin, "validate", "--deep", file).CombinedOutput(); err != nil {
		t.Errorf("%s:%d: the scenario does not validate, load and obey the world's rules: %v\n%s", b.file, b.line, err,
			out)
	}
}

// runCommand runs a command with bash in its own process group, its output
// to a file, and ends the group when the command has ended, so a process
// it left in the background (listen &) goes with it. A command gets a
// minute.
func runCommand(text, dir string, env ...string) ([]byte, error) {
	out, err := os.CreateTemp(dir, "output")
	if err != nil {
		return nil, err
	}
	defer os.Remove(out.Name())
	defer out.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", text)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	err = cmd.Run()
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if err != nil && ctx.Err() != nil {
		err = fmt.Errorf("still running after a minute: %w", err)
	}
	text2, rerr := os.ReadFile(out.Name())
	if rerr != nil {
		return nil, rerr
	}
	return text2, err
}

// serves says whether a command serves until stopped: one the docs put in
// the background (&), slash-sandbox listen, which the docs run in a
// terminal of its own, or slash-sandbox requests --follow, which tails the
// journal until interrupted. It runs beside the rest of its block.
func serves(text string) bool {
	text = strings.TrimSpace(text)
	if command, _, ok := strings.Cut(text, " #"); ok {
		text = strings.TrimSpace(command)
	}
	fields := strings.Fields(text)
	follows := strings.HasPrefix(text, "slash-sandbox requests ") &&
		(slices.Contains(fields, "--follow") || slices.Contains(fields, "-f"))
	return strings.HasSuffix(text, "&") || strings.HasPrefix(text, "slash-sandbox listen ") || follows
}

// startBackground starts a command in its own process group, its output
// dropped; the caller ends the group.
func startBackground(text, dir string, env ...string) (*exec.Cmd, error) {
	cmd := exec.Command("bash", "-c", text)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, cmd.Start()
}

// TestServes: the commands that run until stopped are told from the ones
// that end.
func TestServes(t *testing.T) {
	for text, want := range map[string]bool{
		"slash-sandbox listen http://localhost:4000/hooks":               true,
		"slash-sandbox requests --follow          # the request journal": true,
		"slash-sandbox requests -f":                                      true,
		"slash-sandbox requests --limit 100 --json":                      false,
		"slash-sandbox serve &":                                          true,
		"curl -s localhost:8080/_sandbox/health # not --follow":          false,
	} {
		if got := serves(text); got != want {
			t.Errorf("serves(%q) = %v, want %v", text, got, want)
		}
	}
}
