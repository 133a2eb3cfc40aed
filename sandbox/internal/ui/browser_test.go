package ui_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ui"
	"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest"
	sandboxmcp "github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest/mcp"
)

// The browser tests drive the Debian chromium in headless mode over the
// DevTools protocol. SANDBOX_CHROMIUM names another binary; without one
// the tests skip, so a machine with only Go still passes go test ./....
const defaultChromium = "/usr/bin/chromium"

// adminToken protects the control API of every sandbox these tests start:
// the dashboard must work with one.
const adminToken = "dashboard-test-token"

// waitFor bounds every wait on the page's DOM.
const waitFor = 15 * time.Second

// chromiumPath finds the browser, or says why there is none.
func chromiumPath() (string, error) {
	if p, ok := os.LookupEnv("SANDBOX_CHROMIUM"); ok {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("SANDBOX_CHROMIUM=%q: %v", p, err)
		}
		return p, nil
	}
	if _, err := os.Stat(defaultChromium); err == nil {
		return defaultChromium, nil
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("no chromium at %s or on PATH", defaultChromium)
}

// shared is the one browser process the tests open their tabs in.
var shared struct {
	once   sync.Once
	ctx    context.Context
	cancel context.CancelFunc
	err    error
	skip   string
}

func TestMain(m *testing.M) {
	code := apitest.Run(m, apitest.Suite{Routes: ui.Register})
	if shared.cancel != nil {
		shared.cancel()
	}
	for _, fn := range sandbox.cleanups {
		fn()
	}
	os.Exit(code)
}

// browser starts chromium once, or skips the test when it is absent.
func browser(t *testing.T) context.Context {
	t.Helper()
	shared.once.Do(func() {
		path, err := chromiumPath()
		if err != nil {
			shared.skip = fmt.Sprintf(
				"skipping the dashboard's browser tests: %v (install it with apt-get install chromium, or set SANDBOX_CHROMIUM to"+
					" a Chromium binary)",
				err,
			)
			return
		}
		dir, err := os.MkdirTemp("", "dashboard-chromium-")
		if err != nil {
			shared.err = err
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
			chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
			chromedp.UserDataDir(dir), chromedp.WindowSize(1360, 900))
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelBrowser := chromedp.NewContext(alloc)
		shared.ctx = ctx
		shared.cancel = func() { cancelBrowser(); cancelAlloc(); os.RemoveAll(dir) }
		shared.err = chromedp.Do(ctx)
	})
	if shared.skip != "" {
		t.Skip(shared.skip)
	}
	if shared.err != nil {
		t.Fatalf("starting chromium: %v", shared.err)
	}
	return shared.ctx
}

// sandbox is one in-process sandbox with an admin token, shared by the
// tests of this package; each test works in a world of its own.
var sandbox struct {
	once     sync.Once
	sb       *sandboxtest.Sandbox
	cleanups []func()
}

// world is a fresh demo world: its id, its keys and a control client.
type world struct {
	id   string
	url  string
	ctl  *client.Client
	keys map[string]string
}

// started returns the shared sandbox, starting it for the first test that
// needs it.
func started(t *testing.T) *sandboxtest.Sandbox {
	t.Helper()
	sandbox.once.Do(func() {
		// The sandbox outlives this test: the other tests share it.
		sandbox.sb = sandboxtest.Start(&keepAlive{TB: t}, sandboxtest.Options{AdminToken: adminToken, MCP: sandboxmcp.Server})
	})
	return sandbox.sb
}

// newWorld makes a demo world for one test (skipping first when there is
// no browser).
func newWorld(t *testing.T) *world {
	t.Helper()
	browser(t)
	sb := started(t)
	ctx := context.Background()
	w, err := sb.Control.CreateWorld(ctx, client.NewWorld{Scenario: "demo"})
	if err != nil {
		t.Fatalf("create a world: %v", err)
	}
	ctl := *sb.Control
	ctl.World = w.ID
	keys := map[string]string{}
	for _, k := range w.Keys {
		keys[strings.TrimSuffix(k.Key, "_"+w.ID)] = k.Key
	}
	t.Cleanup(func() { sb.Control.DeleteWorld(context.Background(), w.ID) })
	return &world{id: w.ID, url: sb.URL, ctl: &ctl, keys: keys}
}

// keepAlive lets the shared sandbox outlive the test that started it:
// TestMain stops it.
type keepAlive struct{ testing.TB }

func (k *keepAlive) Cleanup(fn func()) { sandbox.cleanups = append(sandbox.cleanups, fn) }

// api calls the public API with one of the world's demo keys (named as in
// the demo scenario, without the world's suffix) and decodes the answer.
func (w *world) api(t *testing.T, method, path, key string, header map[string]string, body any) (int, map[string]any) {
	t.Helper()
	res, out := w.send(t, method, path, key, header, body)
	return res.StatusCode, out
}

// mcpCall has an AI agent read a path through the MCP server's
// call_api_endpoint tool, with the official MCP client, as one of the
// world's demo keys.
func (w *world) mcpCall(t *testing.T, key, path string) {
	t.Helper()
	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "dashboard-test", Version: "1"}, nil)
	s, err := c.Connect(ctx,
		&mcp.StreamableClientTransport{Endpoint: w.url + "/mcp?apiKey=" + url.QueryEscape(w.keys[key])}, nil)
	if err != nil {
		t.Fatalf("MCP connect: %v", err)
	}
	defer s.Close()
	res, err := s.CallTool(ctx,
		&mcp.CallToolParams{Name: "call_api_endpoint", Arguments: map[string]any{"method": "GET", "path": path}})
	if err != nil || res.IsError {
		t.Fatalf("MCP call_api_endpoint GET %s: %v %v", path, err, res)
	}
}

// deferred has a read-only key ask for a write and returns the agent
// request's id and the approval URL of the answer, checking it is the
// deferral the docs show: 403, x-deferred-action-id, and the URL in error.
func (w *world) deferred(t *testing.T, method, path, key string, body any) (string, string) {
	t.Helper()
	res, out := w.send(t, method, path, key, nil, body)
	id := res.Header.Get("x-deferred-action-id")
	msg, _ := out["error"].(string)
	link, ok := strings.CutPrefix(msg, "Action requires approval: ")
	if res.StatusCode != http.StatusForbidden || !regexp.MustCompile(`^dfa_[A-Za-z0-9]+$`).MatchString(id) || !ok ||
		len(out) != 1 {
		t.Fatalf("%s %s with %s answered %d, x-deferred-action-id %q, body %v; want the 403 deferral", method, path, key,
			res.StatusCode, id, out)
	}
	return id, link
}

// send makes a public API call with one of the world's demo keys.
func (w *world) send(
	t *testing.T,
	method, path, key string,
	header map[string]string,
	body any,
) (*http.Response, map[string]any) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, w.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-Key", w.keys[key])
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	raw, _ := io.ReadAll(res.Body)
	if len(raw) > 0 && json.Unmarshal(raw, &out) != nil {
		t.Fatalf("%s %s: not JSON: %s", method, path, raw)
	}
	return res, out
}

// tab is one browser tab on the dashboard, collecting what the page writes
// to the console.
type tab struct {
	t       *testing.T
	ctx     context.Context
	w       *world
	mu      sync.Mutex
	msgs    []chromedp.ConsoleMessage
	arrived chan struct{}
	marks   int
}

// newTab opens a tab that records what the page writes to its console.
func newTab(t *testing.T, w *world) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser(t))
	t.Cleanup(cancel)
	tb := &tab{t: t, ctx: ctx, w: w, arrived: make(chan struct{}, 1)}
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			tb.mu.Lock()
			tb.msgs = append(tb.msgs, m)
			tb.mu.Unlock()
			select {
			case tb.arrived <- struct{}{}:
			default:
			}
		}
	}()
	return tb
}

// openDashboard opens the dashboard on a world in a new tab, the admin
// token given once in the address as a person would paste it.
func openDashboard(t *testing.T, w *world, hash string) *tab {
	t.Helper()
	tb := newTab(t, w)
	tb.do(chromedp.Navigate(fmt.Sprintf("%s/_sandbox/ui?token=%s&world=%s%s", w.url, adminToken, w.id, hash)))
	return tb
}

// do runs browser actions, failing the test on an error. Each call has
// its own time limit, so a missing element fails fast. The dashboard
// re-renders a view when its world changes, so an element found by a
// query can be replaced before the action reaches it; the browser then
// answers that it cannot find the node, before any input is sent, and
// that step is run again on the new element.
func (tb *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, waitFor)
	defer cancel()
	for _, step := range steps {
		err := chromedp.Do(ctx, step)
		for try := 0; try < 3 && err != nil && strings.Contains(err.Error(), "Could not find node with given id"); try++ {
			err = chromedp.Do(ctx, step)
		}
		if err != nil {
			tb.t.Fatalf("browser: %v", err)
		}
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, waitFor)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		tb.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// text is the text of the first element sel matches ("" when none).
func (tb *tab) text(sel string) string {
	tb.t.Helper()
	return eval[string](tb, fmt.Sprintf(`(document.querySelector(%q)||{}).textContent||""`, sel))
}

// waitText waits until the element sel matches contains want.
func (tb *tab) waitText(sel, want string) {
	tb.t.Helper()
	expr := fmt.Sprintf(
		`(() => { const el = document.querySelector(%q); return !!el && el.textContent.includes(%q); })()`,
		sel,
		want,
	)
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(waitFor))); err != nil {
		tb.t.Fatalf("waiting for %q in %s: %v; it reads %q", want, sel, err, clip(tb.text(sel)))
	}
}

// waitGone waits until the page has no element sel matches.
func (tb *tab) waitGone(sel string) {
	tb.t.Helper()
	if _, err := chromedp.Run(tb.ctx, chromedp.Poll[bool](fmt.Sprintf(`!document.querySelector(%q)`, sel),
		chromedp.WithPollingTimeout(waitFor))); err != nil {
		tb.t.Fatalf("waiting for %s to go: %v", sel, err)
	}
}

// visit moves the dashboard to a hash route and waits for its page.
func (tb *tab) visit(hash, pageID, want string) {
	tb.t.Helper()
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`location.hash = %q`, hash)))
	tb.waitText("#"+pageID, want)
	tb.waitGone("#" + pageID + " > .loading")
}

func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 400 {
		return s[:400] + "…"
	}
	return s
}

// consoleErrors returns the errors and exceptions the page reported so far
// and forgets them. A marker written last makes sure every message sent
// before it has arrived.
func (tb *tab) consoleErrors() []string {
	tb.t.Helper()
	tb.marks++
	mark := fmt.Sprintf("dashboard-test-mark-%d", tb.marks)
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`console.debug(%q)`, mark)))
	timeout := time.After(waitFor)
	for {
		tb.mu.Lock()
		var errs []string
		seen := false
		for _, m := range tb.msgs {
			seen = seen || strings.Contains(m.Text, mark)
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException || m.Type == "assert" {
				errs = append(errs, fmt.Sprintf("%s %s:%d %s", m.Type, m.URL, m.Line+1, m.Text))
			}
		}
		if seen {
			tb.msgs = nil
		}
		tb.mu.Unlock()
		if seen {
			return errs
		}
		select {
		case <-tb.arrived:
		case <-timeout:
			tb.t.Errorf("the browser console did not deliver the marker %s", mark)
			return errs
		}
	}
}

// noConsoleErrors fails the test for any error the page reported, but
// for ones the test expects (matched by allowed).
func (tb *tab) noConsoleErrors(allowed ...*regexp.Regexp) {
	tb.t.Helper()
next:
	for _, e := range tb.consoleErrors() {
		for _, re := range allowed {
			if re.MatchString(e) {
				continue next
			}
		}
		tb.t.Errorf("browser console: %s", e)
	}
}

// artifactsDir is where screenshots of failing pages go.
func artifactsDir() string {
	if d := os.Getenv("SANDBOX_ARTIFACTS"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "artifacts")
}

// screenshotOnFailure saves the tab as a PNG when the test has failed by
// the time it ends, and logs where.
func (tb *tab) screenshotOnFailure(t *testing.T, name string) {
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		png, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Logf("no screenshot of %s: %v", name, err)
			return
		}
		dir := artifactsDir()
		path := filepath.Join(dir, "dashboard-"+strings.NewReplacer("/", "-", " ", "-").Replace(name)+".png")
		if err = os.MkdirAll(dir, 0o755); err == nil {
			err = os.WriteFile(path, png, 0o644)
		}
		if err != nil {
			t.Logf("saving the screenshot of %s: %v", name, err)
			return
		}
		t.Logf("screenshot of the page: %s", path)
	})
}
