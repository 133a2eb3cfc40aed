package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

type run struct {
	code           int
	stdout, stderr string
}

// runProgram runs the program to its end. A serve that starts is stopped
// at once, so a start that should be refused fails the test instead of
// serving on.
func runProgram(t *testing.T, env map[string]string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p := &Program{
		Stdout: &out,
		Stderr: &errb,
		Getenv: func(k string) string { return env[k] },
		Ready:  func(string) { cancel() },
	}
	code := p.Run(ctx, args)
	return run{code, out.String(), errb.String()}
}

func TestScenariosLists(t *testing.T) {
	r := runProgram(t, nil, "scenarios")
	if r.code != 0 || r.stdout != "demo\nempty\n" {
		t.Fatalf("scenarios = %d %q", r.code, r.stdout)
	}
}

// badScenario has two problems, badProblems prints them.
const badScenario = "legalEntities:\n  - {id: le_x, name: X}\naccounts:\n  - legalEntityId: le_y\n    name: A\n   " +
	" colour: red\n"

func badProblems(file string) string {
	return file + `:4:20: accounts[0].legalEntityId: no legal entity "le_y"; did you mean "le_x"?` + "\n" +
		file + ":6:5: accounts[0].colour: unknown key; the keys here are id, legalEntityId, name, type, status, commercial," +
		" balanceCents, createdAt, virtualAccounts, accountNumber, routingNumber, primaryVirtualAccount," +
		" creditLimitCents, breaks\n"
}

func TestValidate(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.yaml")
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(good, []byte("legalEntities:\n  - {id: le_x, name: X}\n"), 0o644)
	os.WriteFile(bad, []byte(badScenario), 0o644)
	r := runProgram(t, nil, "validate", good, bad)
	if r.code != 1 {
		t.Fatalf("exit = %d, want 1", r.code)
	}
	if !strings.Contains(r.stdout, good+": ok") {
		t.Fatalf("stdout = %q", r.stdout)
	}
	want := badProblems(bad)
	if r.stderr != want {
		t.Fatalf("stderr = %q, want every problem of %s:\n%s", r.stderr, bad, want)
	}
	bad2 := filepath.Join(dir, "bad2.yaml")
	os.WriteFile(bad2,
		[]byte("legalEntities:\n  - {id: le_x, name: X}\naccounts:\n  - legalEntityId: le_y\n    name: A\n"), 0o644)
	if r := runProgram(t, nil, "validate", bad2); r.code != 1 ||
		!strings.Contains(r.stderr, bad2+`:4:20: accounts[0].legalEntityId: no legal entity "le_y"`) {
		t.Fatalf("dangling reference: %d %q", r.code, r.stderr)
	}
	if r := runProgram(t, nil, "validate"); r.code != 2 {
		t.Fatalf("validate without files exit = %d", r.code)
	}
	if r := runProgram(t, nil, "validate", filepath.Join(dir, "missing.yaml")); r.code != 1 ||
		!strings.Contains(r.stderr, "missing.yaml:1:") {
		t.Fatalf("missing file: %d %q", r.code, r.stderr)
	}
}

func TestServeReportsEveryScenarioProblem(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte(badScenario), 0o644)
	r := runProgram(t, nil, "--scenario", bad, "--addr", "127.0.0.1:0")
	want := badProblems(bad)
	if r.code != 1 || r.stderr != want {
		t.Fatalf("serve with a bad scenario = %d %q, want 1 and\n%s", r.code, r.stderr, want)
	}
}

// aliasBomb is a scenario whose card's userData repeats one 40 KB value
// 3,000 times through aliases: 120 KB of YAML, 120 MB once expanded.
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("legalEntities: [{id: le_x, name: X}]\naccounts: [{id: sa_x, legalEntityId: le_x, name: A}]\n")
	b.WriteString("cards:\n  - accountId: sa_x\n    name: C\n    userData:\n")
	b.WriteString("      a0: &big \"" + strings.Repeat("x", 40_000) + "\"\n")
	for i := 1; i <= 3000; i++ {
		b.WriteString("      a" + strconv.Itoa(i) + ": *big\n")
	}
	return b.String()
}

// TestValidateAndServeRefuseAliasBomb: validate and serve --scenario tell
// where a file's aliases expand it past its limit, and serve does not start.
func TestValidateAndServeRefuseAliasBomb(t *testing.T) {
	bomb := filepath.Join(t.TempDir(), "bomb.yaml")
	if err := os.WriteFile(bomb, []byte(aliasBomb()), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, args := range map[string][]string{
		"validate": {"validate", bomb},
		"serve":    {"--scenario", bomb, "--addr", "127.0.0.1:0"},
	} {
		t.Run(name, func(t *testing.T) {
			r := runProgram(t, nil, args...)
			want := ": the file expands past 32 MiB of text, its limit (this alias repeats what it names"
			if r.code != 1 || !strings.HasPrefix(r.stderr, bomb+":") || !strings.Contains(r.stderr, want) {
				t.Fatalf("%s = %d %q, want 1 and the problem at an alias of %s", name, r.code, r.stderr, bomb)
			}
			if strings.Count(r.stderr, "\n") != 1 {
				t.Fatalf("stderr = %q, want the one problem", r.stderr)
			}
		})
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"serve", "--seed", "x"}, {"--clock-start", "tomorrow"}, {"--clock", "warp"}, {"--log-level", "loud"},
		{"--log-format", "xml"}, {"--durability", "maybe"}, {"--nope"}, {"frobnicate"},
		{"--webhook-timeout", "soon"}, {"--webhook-advance-wait", "0s"}, {"--webhook-advance-wait", "1h"},
		{"--idle-timeout", "0s"}, {"--body-read-timeout", "forever"},
	} {
		if r := runProgram(t, nil, args...); r.code != 2 || r.stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", args, r.code, r.stderr)
		}
	}
	if r := runProgram(t, nil, "--scenario", "/no/such/file.yaml", "--addr", "127.0.0.1:0"); r.code != 1 ||
		!strings.Contains(r.stderr, "neither embedded") {
		t.Errorf("missing scenario: %d %q", r.code, r.stderr)
	}
}

// serving is a Program running in the background.
type serving struct {
	addr   string
	cancel context.CancelFunc
	done   chan int
	logs   *bytes.Buffer
}

func startProgram(t *testing.T, env map[string]string, args ...string) *serving {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	s := &serving{cancel: cancel, done: make(chan int, 1), logs: &bytes.Buffer{}}
	p := &Program{
		Stdout: io.Discard,
		Stderr: s.logs,
		Getenv: func(k string) string { return env[k] },
		Ready:  func(a string) { ready <- a },
	}
	go func() { s.done <- p.Run(ctx, args) }()
	select {
	case s.addr = <-ready:
	case code := <-s.done:
		t.Fatalf("program exited %d before serving: %s", code, s.logs)
	}
	return s
}

func (s *serving) stop(t *testing.T) {
	t.Helper()
	s.cancel()
	if code := <-s.done; code != 0 {
		t.Fatalf("exit %d: %s", code, s.logs)
	}
}

func getJSON(t *testing.T, method, url, body string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil || res.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %d %v", method, url, res.StatusCode, err)
	}
	return m
}

func TestServeUsesFlagsAndEnvironment(t *testing.T) {
	env := map[string]string{"SANDBOX_ADDR": "127.0.0.1:0", "SANDBOX_SCENARIO": "empty", "SANDBOX_LOG_FORMAT": "json"}
	s := startProgram(t, env, "--seed", "9", "--clock-start", "2030-01-02T03:04:05Z")
	h := getJSON(t, "GET", "http://"+s.addr+"/_sandbox/health", "")
	if h["scenario"] != "empty" || h["seed"] != float64(9) ||
		h["clock"].(map[string]any)["now"] != "2030-01-02T03:04:05Z" {
		t.Fatalf("health = %v", h)
	}
	s.stop(t)
	var line map[string]any
	first, _, _ := strings.Cut(s.logs.String(), "\n")
	if err := json.Unmarshal([]byte(first), &line); err != nil || line["level"] != "info" {
		t.Fatalf("first log line is not JSON: %q", first)
	}
}

// TestServeMemoryBudgetFlag: --memory-budget and SANDBOX_MEMORY_BUDGET
// take a size, or 0 or off for none, which health reports; a bad value is
// a usage error and a budget the scenario does not fit in stops the start
// saying how to raise it.
func TestServeMemoryBudgetFlag(t *testing.T) {
	budgetOf := func(t *testing.T, env map[string]string, args ...string) any {
		t.Helper()
		s := startProgram(t, env, append([]string{"--addr", "127.0.0.1:0", "--scenario", "empty"}, args...)...)
		defer s.stop(t)
		return getJSON(t, "GET", "http://"+s.addr+"/_sandbox/health", "")["memory"].(map[string]any)["budget"]
	}
	for _, c := range []struct {
		name string
		env  map[string]string
		args []string
		want any
	}{
		{"the default", nil, nil, float64(2 << 30)},
		{"the flag", nil, []string{"--memory-budget", "512MiB"}, float64(512 << 20)},
		{"the environment", map[string]string{"SANDBOX_MEMORY_BUDGET": "4GiB"}, nil, float64(4 << 30)},
		{"the flag over the environment", map[string]string{"SANDBOX_MEMORY_BUDGET": "4GiB"},
			[]string{"--memory-budget", "1GB"}, float64(1e9)},
		{"off", map[string]string{"SANDBOX_MEMORY_BUDGET": "off"}, nil, nil},
		{"0", nil, []string{"--memory-budget", "0"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := budgetOf(t, c.env, c.args...); got != c.want {
				t.Fatalf("budget = %v, want %v", got, c.want)
			}
		})
	}
	for _, bad := range []string{"lots", "-1GiB", "12 parsecs", ""} {
		if r := runProgram(t, nil, "--memory-budget", bad, "--addr", "127.0.0.1:0"); r.code != 2 ||
			!strings.Contains(r.stderr, "--memory-budget") {
			t.Errorf("--memory-budget %q: exit %d, stderr %q", bad, r.code, r.stderr)
		}
	}
	r := runProgram(t, nil, "--memory-budget", "64KiB", "--addr", "127.0.0.1:0")
	if r.code != 1 || !strings.Contains(r.stderr, `a world of scenario "demo" needs about`) ||
		!strings.Contains(r.stderr, "64 KiB memory budget") ||
		!strings.Contains(r.stderr, "--memory-budget (SANDBOX_MEMORY_BUDGET)") {
		t.Fatalf("a budget the demo does not fit in: exit %d, stderr %q", r.code, r.stderr)
	}
}

// apiGet reads the public API with an API key; anything but a 200 fails.
func apiGet(t *testing.T, url, key string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("X-API-Key", key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v %v", url, res.StatusCode, err, m)
	}
	return m
}

// TestDemoServesAtAnyClockStart runs the program on the embedded demo at
// clock starts a year apart (a leap day among them): every date the demo
// declares is relative to its clock start.
func TestDemoServesAtAnyClockStart(t *testing.T) {
	for _, start := range []string{"2024-02-29T15:04:05Z", "2024-03-02T15:04:05Z", "2025-03-02T15:04:05Z",
		"2026-03-02T15:04:05Z", "2027-03-02T15:04:05Z"} {
		t.Run(start, func(t *testing.T) {
			s := startProgram(t, map[string]string{"SANDBOX_ADDR": "127.0.0.1:0"}, "--clock-start", start)
			base := "http://" + s.addr
			if h := getJSON(t, "GET", base+"/_sandbox/health", ""); h["clock"].(map[string]any)["now"] != start {
				t.Fatalf("health = %v", h)
			}
			if items, _ := apiGet(t, base+"/card", "sk_sandbox_acme")["items"].([]any); len(items) == 0 {
				t.Fatal("no cards")
			}
			apiGet(t, base+"/card-group/card_group_acmesaas/utilization", "sk_sandbox_acme")
			if items, _ := apiGet(t, base+"/transaction", "sk_sandbox_acme")["items"].([]any); len(items) == 0 {
				t.Fatal("no transactions")
			}
			s.stop(t)
		})
	}
}

func TestDataFileSurvivesRestart(t *testing.T) {
	data := filepath.Join(t.TempDir(), "sandbox.db")
	args := []string{"--addr", "127.0.0.1:0", "--scenario", "empty", "--data", data, "--log-level", "warn"}
	s := startProgram(t, nil, args...)
	getJSON(t, "POST", "http://"+s.addr+"/_sandbox/clock/advance", `{"by":"36h"}`)
	w := getJSON(t, "POST", "http://"+s.addr+"/_sandbox/worlds", `{"scenario":"empty","id":"side"}`)
	if w["id"] != "side" {
		t.Fatalf("world = %v", w)
	}
	s.stop(t)

	s = startProgram(t, nil, args...)
	h := getJSON(t, "GET", "http://"+s.addr+"/_sandbox/health", "")
	if h["clock"].(map[string]any)["now"] != "2026-01-16T21:00:00Z" || h["persistent"] != true {
		t.Fatalf("after restart health = %v", h)
	}
	if h["worlds"] != float64(1) {
		t.Fatalf("an extra world outlived the restart (worlds live in memory): %v", h)
	}
	r := getJSON(t, "POST", "http://"+s.addr+"/_sandbox/reset", "")
	if r["clock"].(map[string]any)["now"] != "2026-01-15T09:00:00Z" {
		t.Fatalf("reset after restart = %v", r)
	}
	s.stop(t)
}

// A data file seeded from one scenario is not served for another: the
// program refuses to start, says what the file holds and how to start
// over, and --reset-data (or SANDBOX_RESET_DATA) does.
func TestDataFileOfAnotherWorldIsRefused(t *testing.T) {
	data := filepath.Join(t.TempDir(), "sandbox.db")
	empty := []string{"--addr", "127.0.0.1:0", "--scenario", "empty", "--data", data, "--log-level", "warn"}
	s := startProgram(t, nil, empty...)
	getJSON(t, "POST", "http://"+s.addr+"/_sandbox/clock/advance", `{"by":"36h"}`)
	s.stop(t)

	for _, args := range [][]string{{"--data", data}, {"--scenario", "empty", "--seed", "2", "--data", data}} {
		r := runProgram(t, nil, append([]string{"--addr", "127.0.0.1:0"}, args...)...)
		if r.code != 1 {
			t.Fatalf("%v: exit %d, want 1: %s", args, r.code, r.stderr)
		}
		for _, want := range []string{
			"data file " + data + ` holds another world (scenario "empty", seed 1, clock start 2026-01-15T09:00:00Z, created `,
			"To start over, run with --reset-data (SANDBOX_RESET_DATA=true)", "or delete " + data,
		} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("%v: stderr lacks %q:\n%s", args, want, r.stderr)
			}
		}
	}
	if r := runProgram(t, nil, "--reset-data"); r.code != 2 ||
		!strings.Contains(r.stderr, "--reset-data: there is no data file to reset") {
		t.Errorf("--reset-data without --data: %d %q", r.code, r.stderr)
	}
	if r := runProgram(t, map[string]string{"SANDBOX_RESET_DATA": "sure"}, "--data", data); r.code != 2 ||
		!strings.Contains(r.stderr, `SANDBOX_RESET_DATA: "sure" is not true or false`) {
		t.Errorf("SANDBOX_RESET_DATA=sure: %d %q", r.code, r.stderr)
	}

	s = startProgram(t, nil, empty...)
	if h := getJSON(t, "GET", "http://"+s.addr+"/_sandbox/health",
		""); h["clock"].(map[string]any)["now"] != "2026-01-16T21:00:00Z" {
		t.Fatalf("the refusals changed the file: %v", h)
	}
	s.stop(t)

	for _, start := range []struct {
		env  map[string]string
		args []string
	}{
		{nil, []string{"--reset-data"}},
		{map[string]string{"SANDBOX_RESET_DATA": "true"}, nil},
	} {
		s = startProgram(t, start.env, append([]string{"--addr", "127.0.0.1:0", "--data", data}, start.args...)...)
		h := getJSON(t, "GET", "http://"+s.addr+"/_sandbox/health", "")
		if h["scenario"] != "demo" || h["seed"] != float64(42) ||
			h["clock"].(map[string]any)["now"] != "2026-06-15T14:00:00Z" {
			t.Fatalf("%v %v: health = %v", start.env, start.args, h)
		}
		s.stop(t)
		if !strings.Contains(s.logs.String(), "the data file was seeded afresh (--reset-data)") {
			t.Errorf("no warning that the file was seeded afresh: %s", s.logs)
		}
	}
	if r := runProgram(t, nil, empty...); r.code != 1 ||
		!strings.Contains(r.stderr, `holds another world (scenario "demo", seed 42`) {
		t.Fatalf("after --reset-data the file should hold the demo: %d %s", r.code, r.stderr)
	}
}

// TestAcknowledgedWritesSurviveRestart writes through the public API with a
// data file, stops, starts again and finds every acknowledged write.
func TestAcknowledgedWritesSurviveRestart(t *testing.T) {
	data := filepath.Join(t.TempDir(), "demo.db")
	args := []string{"--addr", "127.0.0.1:0", "--data", data, "--log-level", "warn"}
	s := startProgram(t, nil, args...)
	base := "http://" + s.addr
	ids := transactionIDs(t, base, 5)
	for i, id := range ids {
		patch(t, base+"/transaction/"+id+"/note", `{"note":"kept `+strconv.Itoa(i)+`"}`)
	}
	s.stop(t)
	s = startProgram(t, nil, args...)
	defer s.stop(t)
	for i, id := range ids {
		got := getKeyed(t, "http://"+s.addr+"/transaction/"+id)
		if got["note"] != "kept "+strconv.Itoa(i) {
			t.Fatalf("after restart %s note = %v", id, got["note"])
		}
	}
}

func transactionIDs(t *testing.T, base string, n int) []string {
	t.Helper()
	page := getKeyed(t, base+"/transaction")
	var ids []string
	for _, it := range page["items"].([]any)[:n] {
		ids = append(ids, it.(map[string]any)["id"].(string))
	}
	return ids
}

func getKeyed(t *testing.T, url string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("X-API-Key", "sk_sandbox_acme")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(res.Body).Decode(&m); err != nil || res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", url, res.StatusCode, err)
	}
	return m
}

func patch(t *testing.T, url, body string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPatch, url, strings.NewReader(body))
	req.Header.Set("X-API-Key", "sk_sandbox_acme")
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("PATCH %s: %d", url, res.StatusCode)
	}
}

// A write in flight when the server is told to stop is finished, answered
// and stored before the process exits: POST /card is held by a latency
// fault, the stop comes while it waits, and after a restart on the same
// data file the card is there.
func TestShutdownFinishesAnInFlightWrite(t *testing.T) {
	data := filepath.Join(t.TempDir(), "demo.db")
	args := []string{"--addr", "127.0.0.1:0", "--data", data, "--log-level", "warn"}
	s := startProgram(t, nil, args...)
	base := "http://" + s.addr
	// count 2 keeps the fault listed after the first hit, which shows the
	// request is waiting inside the server.
	getJSON(t, http.MethodPost, base+"/_sandbox/faults", `{"route":"card.create","latencyMs":700,"count":2}`)

	type answer struct {
		status int
		card   map[string]any
		err    error
	}
	answered := make(chan answer, 1)
	go func() {
		req, _ := http.NewRequest(
			http.MethodPost,
			base+"/card",
			strings.NewReader(`{"accountId":"sa_group_acmeoperating","type":"virtual","name":"In flight"}`),
		)
		req.Header.Set("X-API-Key", "sk_sandbox_acme")
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			answered <- answer{err: err}
			return
		}
		defer res.Body.Close()
		var card map[string]any
		err = json.NewDecoder(res.Body).Decode(&card)
		answered <- answer{res.StatusCode, card, err}
	}()
	for waited := 0; ; waited++ {
		faults := getJSON(t, http.MethodGet, base+"/_sandbox/faults", "")
		items, _ := faults["items"].([]any)
		if len(items) == 1 && items[0].(map[string]any)["hits"] == float64(1) {
			break
		}
		if waited == 500 {
			t.Fatalf("the write never reached the fault: %v", faults)
		}
		time.Sleep(2 * time.Millisecond)
	}
	s.cancel()
	if code := <-s.done; code != 0 {
		t.Fatalf("exit %d: %s", code, s.logs)
	}
	a := <-answered
	if a.err != nil || a.status != http.StatusCreated {
		t.Fatalf("the in-flight POST /card got %d, %v", a.status, a.err)
	}
	id, _ := a.card["id"].(string)
	if !strings.HasPrefix(id, "card_") {
		t.Fatalf("answer without a card id: %v", a.card)
	}
	s = startProgram(t, nil, args...)
	defer s.stop(t)
	if got := getKeyed(t, "http://"+s.addr+"/card/"+id); got["name"] != "In flight" {
		t.Fatalf("after restart GET /card/%s = %v", id, got)
	}
}

// TestHelpIsTheDocumented tests that docs/cli.md shows exactly what
// `slash-sandbox help` prints, so the page cannot drift from the program.
func TestHelpIsTheDocumented(t *testing.T) {
	r := runProgram(t, nil, "help")
	if r.code != 0 {
		t.Fatalf("help exited %d: %s", r.code, r.stderr)
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(raw), "`slash-sandbox help` prints:\n\n")
	after = strings.TrimPrefix(after, "<!-- run by sandbox/internal/cli/program_test.go -->\n")
	after, ok1 := strings.CutPrefix(after, "```text\n")
	shown, _, ok2 := strings.Cut(after, "```")
	if !ok || !ok1 || !ok2 {
		t.Fatal("docs/cli.md shows no `slash-sandbox help` output block")
	}
	if shown != r.stdout {
		t.Errorf("docs/cli.md shows another help than the program prints:\n--- docs\n%s--- program\n%s", shown, r.stdout)
	}
}

// TestSchemaCommand tests that "schema" prints the scenario format's JSON
// Schema, the very file the embedded scenarios name on their first line.
func TestSchemaCommand(t *testing.T) {
	r := runProgram(t, nil, "schema")
	want, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "scenario.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.code != 0 || r.stdout != string(want) {
		t.Fatalf("schema = %d, %d bytes (stderr %q); want docs/scenario.schema.json, %d bytes", r.code, len(r.stdout),
			r.stderr, len(want))
	}
	var schema struct {
		Schema     string         `json:"$schema"`
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &schema); err != nil ||
		schema.Schema != "https://json-schema.org/draft/2020-12/schema" ||
		schema.Properties["accounts"] == nil {
		t.Errorf("schema is not a draft 2020-12 schema of scenarios: %v %+v", err, schema.Schema)
	}
}
