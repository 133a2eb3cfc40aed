package cli

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// commandPaths are the paths of every command the program offers, "clock
// advance" for a subcommand.
func commandPaths(t *testing.T) []string {
	t.Helper()
	root, _ := (&Program{Getenv: func(string) string { return "" }}).root()
	var paths []string
	var walk func(c *cobra.Command, prefix string)
	walk = func(c *cobra.Command, prefix string) {
		for _, sub := range c.Commands() {
			paths = append(paths, strings.TrimSpace(prefix+" "+sub.Name()))
			walk(sub, prefix+" "+sub.Name())
		}
	}
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpCmd()
	walk(root, "")
	if len(paths) < 20 {
		t.Fatalf("only %d commands: %v", len(paths), paths)
	}
	return paths
}

func TestHelpListsEveryCommand(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"help"}, {"-h"}} {
		r := runProgram(t, nil, args...)
		if r.code != 0 || r.stderr != "" {
			t.Fatalf("%v = %d %q", args, r.code, r.stderr)
		}
		for _, path := range commandPaths(t) {
			if name, _, sub := strings.Cut(path, " "); !sub && !regexp.MustCompile(`(?m)^  `+name+` +\S`).MatchString(r.stdout) {
				t.Errorf("%v does not list %s:\n%s", args, name, r.stdout)
			}
		}
	}
}

func TestEveryCommandHasHelp(t *testing.T) {
	for _, path := range commandPaths(t) {
		t.Run(path, func(t *testing.T) {
			words := strings.Fields(path)
			byHelp := runProgram(t, nil, append([]string{"help"}, words...)...)
			byFlag := runProgram(t, nil, append(words, "--help")...)
			if byHelp.code != 0 || byFlag.code != 0 || byHelp.stderr != "" || byFlag.stderr != "" {
				t.Fatalf("help %s = %d %q; %s --help = %d %q", path, byHelp.code, byHelp.stderr, path, byFlag.code, byFlag.stderr)
			}
			if !strings.Contains(byHelp.stdout, "Usage:\n  slash-sandbox "+path) {
				t.Errorf("help %s shows no usage of it:\n%s", path, byHelp.stdout)
			}
			if byHelp.stdout != byFlag.stdout {
				t.Errorf("help %s and %s --help differ:\n%s\n---\n%s", path, path, byHelp.stdout, byFlag.stdout)
			}
		})
	}
}

// TestServeFlagsAndTheirTwins checks every serve flag's name, default and
// environment twin, on serve and on the bare command alike.
func TestServeFlagsAndTheirTwins(t *testing.T) {
	flags := []struct{ name, env, def string }{
		{"addr", "SANDBOX_ADDR", "127.0.0.1:8080"},
		{"scenario", "SANDBOX_SCENARIO", "demo"},
		{"seed", "SANDBOX_SEED", ""},
		{"clock-start", "SANDBOX_CLOCK_START", ""},
		{"clock", "SANDBOX_CLOCK", "frozen"},
		{"clock-scale", "SANDBOX_CLOCK_SCALE", "60"},
		{"data", "SANDBOX_DATA", ""},
		{"durability", "SANDBOX_DURABILITY", "always"},
		{"log-level", "SANDBOX_LOG_LEVEL", "info"},
		{"log-format", "SANDBOX_LOG_FORMAT", ""},
		{"admin-token", "SANDBOX_ADMIN_TOKEN", ""},
		{"scenarios-dir", "SANDBOX_SCENARIOS_DIR", ""},
		{"allowed-hosts", "SANDBOX_ALLOWED_HOSTS", ""},
		{"allowed-origins", "SANDBOX_ALLOWED_ORIGINS", ""},
	}
	env := map[string]string{}
	for _, f := range flags {
		env[f.env] = "from-" + f.env
	}
	for _, tc := range []struct {
		name   string
		getenv func(string) string
		want   func(name, env, def string) string
	}{
		{"without the environment", func(string) string { return "" }, func(_, _, def string) string { return def }},
		{"with the environment", func(k string) string { return env[k] },
			func(_, env, _ string) string { return "from-" + env }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, _ := (&Program{Getenv: tc.getenv}).root()
			serve, _, err := root.Find([]string{"serve"})
			if err != nil {
				t.Fatal(err)
			}
			for _, cmd := range []*cobra.Command{root, serve} {
				for _, f := range flags {
					got := cmd.Flags().Lookup(f.name)
					if got == nil {
						got = cmd.InheritedFlags().Lookup(f.name)
					}
					if got == nil {
						got = cmd.PersistentFlags().Lookup(f.name)
					}
					if got == nil {
						t.Errorf("%s has no --%s", cmd.CommandPath(), f.name)
						continue
					}
					if want := tc.want(f.name, f.env, f.def); got.DefValue != want {
						t.Errorf("%s --%s defaults to %q, want %q", cmd.CommandPath(), f.name, got.DefValue, want)
					}
					if !strings.Contains(got.Usage, "("+f.env+")") {
						t.Errorf("%s --%s does not name %s: %q", cmd.CommandPath(), f.name, f.env, got.Usage)
					}
				}
			}
		})
	}
}

func TestServeWithOrWithoutTheWordServe(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--addr", "127.0.0.1:0", "--scenario", "empty"},
		{"--addr", "127.0.0.1:0", "--scenario", "empty"},
		{"--scenario", "empty", "serve", "--addr", "127.0.0.1:0"},
	} {
		s := startProgram(t, nil, append(args, "--log-level", "warn")...)
		if h := getJSON(t, "GET", "http://"+s.addr+"/_sandbox/health", ""); h["scenario"] != "empty" {
			t.Errorf("%v serves %v", args, h)
		}
		s.stop(t)
	}
}

func TestVersionIsWhatHealthReports(t *testing.T) {
	r := runProgram(t, nil, "version")
	first, _, _ := strings.Cut(r.stdout, "\n")
	version, ok := strings.CutPrefix(first, "slash-sandbox ")
	if r.code != 0 || !ok || version == "" {
		t.Fatalf("version = %d %q %q", r.code, r.stdout, r.stderr)
	}
	// A test binary carries no module version: go says "(devel)".
	if version != "(devel)" || !strings.Contains(r.stdout, "\nmodule   github.com/slash-sandbox/slash-sandbox\n") {
		t.Errorf("version = %q", r.stdout)
	}
	s := startProgram(t, nil, "--addr", "127.0.0.1:0", "--scenario", "empty", "--log-level", "warn")
	defer s.stop(t)
	if h := getJSON(t, "GET", "http://"+s.addr+"/_sandbox/health", ""); h["version"] != version {
		t.Errorf("health reports version %v, version prints %q", h["version"], version)
	}
	r = runProgram(t, nil, "health", "--server", "http://"+s.addr)
	if r.code != 0 || !strings.Contains(r.stdout, "version   "+version+"\n") {
		t.Errorf("health = %d %q", r.code, r.stdout)
	}
}

func TestCompletionScripts(t *testing.T) {
	for shell, registers := range map[string]string{
		"bash": "complete -o default -F __start_slash-sandbox slash-sandbox",
		"zsh":  "compdef _slash-sandbox slash-sandbox",
		"fish": "complete -c slash-sandbox ",
	} {
		r := runProgram(t, nil, "completion", shell)
		if r.code != 0 || !strings.Contains(r.stdout, registers) || !strings.Contains(r.stdout, " __complete ") {
			t.Errorf("completion %s = %d, %d bytes, %q", shell, r.code, len(r.stdout), r.stderr)
		}
	}
	// The scripts ask the program what to complete: every command.
	r := runProgram(t, nil, "__complete", "")
	for _, path := range commandPaths(t) {
		if name, _, sub := strings.Cut(path, " "); !sub && name != "help" && !strings.Contains(r.stdout, "\n"+name+"\t") &&
			!strings.HasPrefix(r.stdout, name+"\t") {
			t.Errorf("completion offers no %s:\n%s", name, r.stdout)
		}
	}
}

func TestBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	r := runProgram(t, nil, "serve", "--addr", ln.Addr().String(), "--scenario", "empty")
	want := fmt.Sprintf("slash-sandbox serve: %s is already in use: pick another address with --addr (or SANDBOX_ADDR)",
		ln.Addr())
	if r.code != 1 || !strings.Contains(r.stderr, want) {
		t.Fatalf("serve on a busy port = %d %q", r.code, r.stderr)
	}
	r = runProgram(t, map[string]string{"SANDBOX_ADDR": ln.Addr().String(), "SANDBOX_SCENARIO": "empty"})
	if r.code != 1 || !strings.Contains(r.stderr, "already in use") {
		t.Fatalf("SANDBOX_ADDR busy = %d %q", r.code, r.stderr)
	}
}

func TestHealthTarget(t *testing.T) {
	for _, tc := range []struct{ addr, want string }{
		{"0.0.0.0:8080", "http://127.0.0.1:8080"},
		{":8080", "http://127.0.0.1:8080"},
		{"[::]:9000", "http://127.0.0.1:9000"},
		{"127.0.0.1:8081", "http://127.0.0.1:8081"},
		{"localhost:8080", "http://localhost:8080"},
		{"[::1]:8080", "http://[::1]:8080"},
		{"127.0.0.1:0", ""},
		{"8080", ""},
	} {
		got := defaultServer(func(k string) string { return map[string]string{"SANDBOX_ADDR": tc.addr}[k] })
		if got != tc.want {
			t.Errorf("SANDBOX_ADDR %q: server %q, want %q", tc.addr, got, tc.want)
		}
	}
	if got := defaultServer(func(k string) string {
		return map[string]string{"SANDBOX_ADDR": ":8080", "SANDBOX_SERVER": "http://elsewhere:1"}[k]
	}); got != "http://elsewhere:1" {
		t.Errorf("SANDBOX_SERVER does not win: %q", got)
	}
	if got := defaultServer(func(string) string { return "" }); got != "http://127.0.0.1:8080" {
		t.Errorf("default server %q", got)
	}
	if r := runProgram(t, map[string]string{"SANDBOX_ADDR": ":0"}, "health"); r.code != 2 ||
		!strings.Contains(r.stderr, `SANDBOX_ADDR ":0" names no fixed port to reach: give --server URL`) {
		t.Errorf("health with SANDBOX_ADDR :0 = %d %q", r.code, r.stderr)
	}

	s := startProgram(t, nil, "--addr", "127.0.0.1:0", "--scenario", "empty", "--log-level", "warn")
	defer s.stop(t)
	r := runProgram(t, map[string]string{"SANDBOX_ADDR": s.addr}, "health")
	if r.code != 0 || !strings.Contains(r.stdout, "status    ok\n") || !strings.Contains(r.stdout, "scenario  empty\n") {
		t.Errorf("health at SANDBOX_ADDR = %d %q %q", r.code, r.stdout, r.stderr)
	}
	_, port, _ := net.SplitHostPort(s.addr)
	if r := runProgram(t, map[string]string{"SANDBOX_ADDR": ":" + port}, "health"); r.code != 0 {
		t.Errorf("health at SANDBOX_ADDR :%s = %d %q", port, r.code, r.stderr)
	}
}

// TestHealthExitCodes runs health against answers a sandbox may give: the
// full health, only status and version (what an unauthenticated caller
// may get), errors and nothing at all.
func TestHealthExitCodes(t *testing.T) {
	answer := func(status int, body string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/_sandbox/health" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			fmt.Fprint(w, body)
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	for _, tc := range []struct {
		name, server string
		code         int
		stdout       string
		stderr       *regexp.Regexp
	}{
		{"status and version only", answer(200, `{"status":"ok","version":"v1.2.3"}`), 0, "status   ok\nversion  v1.2.3\n",
			nil},
		{"not ok", answer(200, `{"status":"starting","version":"v1.2.3"}`), 1, "status   starting\nversion  v1.2.3\n",
			regexp.MustCompile(`^slash-sandbox health: http://127\.0\.0\.1:\d+ answers status "starting"\n$`)},
		{"an error answer", answer(503, `{"code":"unavailable","message":"stopping\nnow","details":{"a":"b"}}`), 1, "",
			regexp.MustCompile(`^slash-sandbox health: http://127\.0\.0\.1:\d+ answered 503 unavailable: stopping now\n$`)},
		{"not the sandbox", answer(502, `<html>bad gateway</html>`), 1, "",
			regexp.MustCompile(`^slash-sandbox health: http://127\.0\.0\.1:\d+ answered 502 Bad Gateway: <html>bad` +
				` gateway</html>\n$`)},
		{"nothing listening", closed.URL, 1, "",
			regexp.MustCompile(`^slash-sandbox health: http://127\.0\.0\.1:\d+ \(SANDBOX_SERVER\) is not answering: dial tcp ` +
				`127\.0\.0\.1:\d+: connect: connection refused; start one with 'slash-sandbox serve' .*\n$`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runProgram(t, map[string]string{"SANDBOX_SERVER": tc.server}, "health")
			if r.code != tc.code || r.stdout != tc.stdout {
				t.Errorf("health = %d %q %q, want %d %q", r.code, r.stdout, r.stderr, tc.code, tc.stdout)
			}
			if tc.stderr != nil && !tc.stderr.MatchString(r.stderr) || tc.stderr == nil && r.stderr != "" {
				t.Errorf("stderr = %q", r.stderr)
			}
		})
	}
}

// TestAdvanceCountsWhatRan advances two worlds of one scenario alike, one
// with --json: the table's counts are the JSON's events, kind by kind.
func TestAdvanceCountsWhatRan(t *testing.T) {
	s := startProgram(t, nil, "--addr", "127.0.0.1:0", "--log-level", "warn")
	defer s.stop(t)
	server := "--server=http://" + s.addr
	for _, id := range []string{"a", "b"} {
		if r := runProgram(t, nil, "worlds", "create", "demo", "--id", id, server); r.code != 0 {
			t.Fatalf("worlds create = %d %q", r.code, r.stderr)
		}
	}
	r := runProgram(t, nil, "clock", "advance", "30d", "--world", "a", "--json", server)
	var answer struct {
		Events   []struct{ Kind, Status string }
		Clock    struct{ Now string }
		Webhooks struct{ Delivered []any }
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &answer) != nil {
		t.Fatalf("advance --json = %d %q", r.code, r.stderr)
	}
	want := map[string]int{}
	for _, e := range answer.Events {
		want[e.Kind]++
	}
	if len(answer.Events) < 100 || len(want) < 3 {
		t.Fatalf("a month of the demo ran only %d events of %d kinds", len(answer.Events), len(want))
	}

	r = runProgram(t, nil, "clock", "advance", "30d", "--world", "b", server)
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	// The demo's failing endpoint makes delivery attempts: a webhooks line
	// comes before the events.
	if len(answer.Webhooks.Delivered) == 0 {
		t.Fatal("a month of the demo made no delivery attempt")
	}
	if r.code != 0 || len(lines) != 4+len(want) {
		t.Fatalf("advance = %d, %d lines for %d kinds: %q", r.code, len(lines), len(want), r.stdout)
	}
	if wantLine := "clock       2026-06-15T14:00:00Z → " + answer.Clock.Now; lines[0] != wantLine {
		t.Errorf("first line %q, want %q", lines[0], wantLine)
	}
	if wantPrefix := fmt.Sprintf("webhooks    %d delivery attempts", len(answer.Webhooks.Delivered)); !strings.HasPrefix(
		lines[2],
		wantPrefix,
	) {
		t.Errorf("third line %q, want %q…", lines[2], wantPrefix)
	}
	if wantLine := "ran         " + strconv.Itoa(len(answer.Events)) + " events"; lines[3] != wantLine {
		t.Errorf("fourth line %q, want %q", lines[3], wantLine)
	}
	got := map[string]int{}
	for _, l := range lines[4:] {
		f := strings.Fields(l)
		n, err := strconv.Atoi(f[0])
		if len(f) != 2 || err != nil {
			t.Fatalf("kind line %q", l)
		}
		got[f[1]] = n
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("counts by kind %v, the JSON's %v", got, want)
	}
}
