package server_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// worldCount is how many worlds the sandbox holds.
func worldCount(t *testing.T, e *env) int {
	t.Helper()
	var list struct {
		Items []worldBody `json:"items"`
	}
	e.get("/_sandbox/worlds", "", "").status(t, 200).decode(t, &list)
	return len(list.Items)
}

func TestScenarioNamesNeverReadFiles(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.yaml")
	if err := os.WriteFile(secret, []byte("legalEntities: s3cr3t-content\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mine := "name: mine\nlegalEntities:\n  - {id: le_mine, name: Mine Inc.}\nkeys:\n  - {key: sk_mine, kind:" +
		" legal_entity, legalEntityId: le_mine}\n"
	if err := os.WriteFile(filepath.Join(dir, "mine.yaml"), []byte(mine), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, options{scenariosDir: dir})
	before := worldCount(t, e)
	for _, name := range []string{"/etc/passwd", "../../../../etc/passwd", "/proc/self/status", "/dev/zero", secret,
		"../" + filepath.Base(outside) + "/secret", "mine/../../etc/passwd", "no-such-scenario"} {
		t.Run(name, func(t *testing.T) {
			d := e.do(req{method: http.MethodPost, path: "/_sandbox/worlds", body: map[string]string{"scenario": name}}).
				gen2(t, http.StatusBadRequest, "invalid_request")
			if !strings.Contains(d["/scenario"], "demo") || !strings.Contains(d["/scenario"], "mine") {
				t.Fatalf("details = %v, want the known scenarios named", d)
			}
			for _, leak := range []string{"root:", "s3cr3t", "VmRSS", "Name:"} {
				if strings.Contains(strings.Join(mapValues(d), " "), leak) {
					t.Fatalf("the answer echoes a file: %v", d)
				}
			}
		})
	}
	if got := worldCount(t, e); got != before {
		t.Fatalf("refused requests left %d worlds, want %d", got, before)
	}
	t.Run("a file of the scenarios directory, by name", func(t *testing.T) {
		w := createWorld(t, e, `{"scenario":"mine"}`)
		if len(w.Keys) != 1 || w.Keys[0].Key != "sk_mine_"+w.ID {
			t.Fatalf("world = %+v", w)
		}
	})
	t.Run("inline YAML", func(t *testing.T) {
		body := map[string]string{"yaml": mine}
		var w worldBody
		e.do(req{method: http.MethodPost, path: "/_sandbox/worlds", body: body}).status(t, http.StatusCreated).decode(t, &w)
		if w.Scenario != "mine" {
			t.Fatalf("world = %+v", w)
		}
	})
	t.Run("without a directory, only embedded names", func(t *testing.T) {
		plain := newEnv(t, options{})
		d := plain.do(req{method: http.MethodPost, path: "/_sandbox/worlds", body: `{"scenario":"mine"}`}).
			gen2(t, 400, "invalid_request")
		if !strings.Contains(d["/scenario"], "--scenarios-dir") {
			t.Fatalf("details = %v", d)
		}
	})
}

func mapValues(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k, v)
	}
	return out
}

func TestControlAPIAnswersOnlyItsOwnOrigin(t *testing.T) {
	e := newEnv(t, options{allowedOrigins: []string{"http://localhost:5173"}, allowedHosts: []string{"sandbox.internal"}})
	evil := map[string]string{"Origin": "https://evil.example"}
	noCORS := func(t *testing.T, r *resp) {
		t.Helper()
		for _, h := range []string{"Access-Control-Allow-Origin", "Access-Control-Allow-Credentials"} {
			if got := r.Header.Get(h); got != "" {
				t.Fatalf("%s = %q on a refused control answer", h, got)
			}
		}
	}
	t.Run("another origin's read is refused", func(t *testing.T) {
		r := e.do(req{path: "/_sandbox/keys", header: evil})
		d := r.gen2(t, http.StatusForbidden, "forbidden")
		noCORS(t, r)
		if strings.Contains(string(r.body), "sk_sandbox") || len(d) != 0 {
			t.Fatalf("refusal leaks: %s", r.body)
		}
	})
	t.Run("another origin's preflight is refused", func(t *testing.T) {
		r := e.do(req{method: http.MethodOptions, path: "/_sandbox/reset", header: map[string]string{
			"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}})
		r.gen2(t, http.StatusForbidden, "forbidden")
		noCORS(t, r)
	})
	t.Run("a cross-site write without Origin is refused and changes nothing", func(t *testing.T) {
		before := e.get("/_sandbox/clock", "", "").status(t, 200).json(t)["now"]
		r := e.do(req{method: http.MethodPost, path: "/_sandbox/clock/advance", body: `{"by":"1d"}`,
			header: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}})
		r.gen2(t, http.StatusForbidden, "forbidden")
		r = e.do(req{method: http.MethodPost, path: "/_sandbox/clock/advance", body: `{"by":"1d"}`, header: evil})
		r.gen2(t, http.StatusForbidden, "forbidden")
		if now := e.get("/_sandbox/clock", "", "").json(t)["now"]; now != before {
			t.Fatalf("a refused advance moved the clock from %v to %v", before, now)
		}
	})
	t.Run("the dashboard's own page may call it", func(t *testing.T) {
		r := e.do(req{path: "/_sandbox/keys", header: map[string]string{"Origin": e.srv.URL,
			"Sec-Fetch-Site": "same-origin"}}).
			status(t, 200)
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Fatalf("same-origin answer carries Allow-Origin %q", got)
		}
	})
	t.Run("a listed origin may call it, without credentials", func(t *testing.T) {
		r := e.do(req{path: "/_sandbox/keys", header: map[string]string{"Origin": "http://localhost:5173"}}).status(t, 200)
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != "http://localhost:5173" {
			t.Fatalf("Allow-Origin = %q", got)
		}
		if got := r.Header.Get("Access-Control-Allow-Credentials"); got != "" {
			t.Fatalf("Allow-Credentials = %q", got)
		}
		pre := e.do(req{method: http.MethodOptions, path: "/_sandbox/worlds", header: map[string]string{
			"Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST"}}).status(t, http.StatusNoContent)
		if !strings.Contains(pre.Header.Get("Access-Control-Allow-Headers"), "X-Admin-Token") {
			t.Fatalf("Allow-Headers = %q", pre.Header.Get("Access-Control-Allow-Headers"))
		}
	})
	t.Run("a link from elsewhere still opens the dashboard", func(t *testing.T) {
		e.do(req{path: "/_sandbox/ui", header: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate",
			"Sec-Fetch-Dest": "document"}}).status(t, 200)
	})
	t.Run("the public API serves any origin without credentials", func(t *testing.T) {
		r := e.do(req{path: "/account", key: acmeKey, header: evil}).status(t, 200)
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != "https://evil.example" && got != "*" {
			t.Fatalf("public Allow-Origin = %q", got)
		}
		if got := r.Header.Get("Access-Control-Allow-Credentials"); got != "" {
			t.Fatalf("public Allow-Credentials = %q", got)
		}
	})
	t.Run("DNS rebinding: a foreign Host is refused on the control API and the dashboard", func(t *testing.T) {
		for _, path := range []string{"/_sandbox/health", "/_sandbox/keys", "/_sandbox/ui"} {
			r := e.do(req{path: path, host: "rebind.evil.example"})
			d := r.gen2(t, http.StatusForbidden, "forbidden")
			if strings.Contains(string(r.body), "sk_sandbox") || len(d) != 0 {
				t.Fatalf("%s: refusal leaks: %s", path, r.body)
			}
		}
		e.do(req{path: "/tokens/prices", host: "rebind.evil.example"}).status(t, 200)
	})
	t.Run("loopback names, IP addresses and listed hosts are answered", func(t *testing.T) {
		_, port, _ := strings.Cut(strings.TrimPrefix(e.srv.URL, "http://"), ":")
		for _, host := range []string{"localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port, "app.localhost:" + port,
			"sandbox.internal:" + port, "192.168.1.20:" + port} {
			e.do(req{path: "/_sandbox/health", host: host}).status(t, 200)
		}
	})
}

func TestClockAdvanceIsBounded(t *testing.T) {
	e := newEnv(t, options{})
	start := e.get("/_sandbox/clock", "", "").status(t, 200).json(t)["now"]
	for _, c := range []struct{ body, field string }{
		{`{"to":"9999-12-31T23:59:59Z"}`, "/to"},
		{`{"to":"2200-01-01T00:00:00Z"}`, "/to"},
		{`{"by":"367d"}`, "/by"},
		{`{"by":"999999w"}`, "/by"},
		{`{"by":"300000d"}`, "/by"},
	} {
		t.Run(c.body, func(t *testing.T) {
			d := e.do(req{method: http.MethodPost, path: "/_sandbox/clock/advance", body: c.body}).
				gen2(t, 400, "invalid_request")
			if d[c.field] == "" {
				t.Fatalf("details = %v, want %s named", d, c.field)
			}
		})
	}
	if now := e.get("/_sandbox/clock", "", "").json(t)["now"]; now != start {
		t.Fatalf("refused advances moved the clock from %v to %v", start, now)
	}
	t.Run("a year is allowed", func(t *testing.T) {
		r := e.do(req{method: http.MethodPost, path: "/_sandbox/clock/advance",
			body: `{"by":"366d","settleWebhooks":false}`}).
			status(t, 200).
			json(t)
		if n := len(r["events"].([]any)); n < 366*24 {
			t.Fatalf("a year ran %d events, want at least the hourly price ticks", n)
		}
	})
}

func TestClockAdvanceStopsWhenTheClientGoesAway(t *testing.T) {
	sc, err := scenario.Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	w, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc})
	if err != nil {
		t.Fatal(err)
	}
	start := w.Now()
	h := server.Handler(eng, withAll(server.Config{Log: zerolog.Nop()}))
	for _, settle := range []string{"true", "false"} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		r := httptest.NewRequestWithContext(
			ctx,
			http.MethodPost,
			"/_sandbox/clock/advance",
			strings.NewReader(`{"by":"30d","settleWebhooks":`+settle+`}`),
		)
		r.Header.Set("Content-Type", "application/json")
		r.Host = "127.0.0.1"
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != http.StatusServiceUnavailable || !strings.Contains(rec.Body.String(), `"eventsRun":"0"`) {
			t.Fatalf("settle %s: advance for a gone client = %d %s", settle, rec.Code, rec.Body)
		}
	}
	if !w.Now().Equal(start) {
		t.Fatalf("an interrupted advance moved the clock to %v", w.Now())
	}
}

func TestWorldPathsDoNotNest(t *testing.T) {
	e := newEnv(t, options{})
	e.get("/_sandbox/worlds/default/health", "", "").status(t, 200)
	d := e.get("/_sandbox/worlds/default/worlds/default/health", "", "").gen2(t, 400, "invalid_request")
	if !strings.Contains(d["path"], "do not nest") {
		t.Fatalf("details = %v", d)
	}
	// 8,000 levels, sent past the harness (whose response checks match
	// paths against the documents): answered at the first level.
	deep := strings.Repeat("/worlds/default", 8000)
	res, err := http.Get(e.srv.URL + "/_sandbox" + deep + "/health")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "do not nest") {
		t.Fatalf("8,000 nested worlds = %d %.200s", res.StatusCode, body)
	}
}

func TestWorldCreationRefusesWhatCannotLoad(t *testing.T) {
	e := newEnv(t, options{})
	before := worldCount(t, e)
	for _, c := range []struct{ body, field, says string }{
		{`{"scenario":"demo","clockStart":"0000-01-01T00:00:00Z"}`, "/clockStart", "1970"},
		{`{"scenario":"demo","clockStart":"9999-01-01T00:00:00Z"}`, "/clockStart", "2200"},
		{`{"scenario":"empty","clock":"scaled","clockScale":1e12}`, "/scale", "at most"},
		{`{"clockStart":"2025-01-01T00:00:00Z","yaml":"legalEntities:\n  - {id: le_a, name: A}\naccounts:\n  - {id:` +
			` sa_group_a, legalEntityId: le_a, name: Operating}\ncardGroups:\n  - {id: card_group_a, legalEntityId: le_a,` +
			` name: G, spendingConstraint: {spendingRule: {utilizationLimit: {limitAmount: {amountCents: 100}, preset:` +
			` monthly, startDate: \"2026-01-01\"}}}}\n"}`,
			"/scenario", "startDate"},
		{`{"yaml":"clockStart: 0001-01-01T00:00:00Z\nlegalEntities:\n  - {id: le_a, name: A}\n"}`, "/clockStart", "1970"},
	} {
		t.Run(c.body, func(t *testing.T) {
			d := e.do(req{method: http.MethodPost, path: "/_sandbox/worlds", body: c.body}).gen2(t, 400, "invalid_request")
			if !strings.Contains(d[c.field], c.says) {
				t.Fatalf("details = %v, want %s to say %q", d, c.field, c.says)
			}
		})
	}
	d := e.do(req{method: http.MethodPost, path: "/_sandbox/clock/mode", body: `{"mode":"scaled","scale":1e9}`}).
		gen2(t, 400, "invalid_request")
	if d["/scale"] == "" {
		t.Fatalf("details = %v", d)
	}
	if got := worldCount(t, e); got != before {
		t.Fatalf("refused creations left %d worlds, want %d", got, before)
	}
	t.Run("the demo loads before the dates it used to name", func(t *testing.T) {
		e.do(req{method: http.MethodPost, path: "/_sandbox/worlds",
			body: `{"scenario":"demo","clockStart":"2025-01-01T00:00:00Z"}`}).
			status(t, http.StatusCreated)
	})
}

func TestControlRoutesAnswerWrongMethodsWith405(t *testing.T) {
	e := newEnv(t, options{})
	for _, c := range []struct{ method, path, allow string }{
		{http.MethodPut, "/_sandbox/health", "GET"},
		{http.MethodDelete, "/_sandbox/clock", "GET"},
		{http.MethodPatch, "/_sandbox/worlds", "GET, POST"},
		{http.MethodGet, "/_sandbox/reset", "POST"},
		{http.MethodPost, "/_sandbox/ui", "GET"},
		{http.MethodPut, "/_sandbox/worlds/default/clock", "GET"},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			r := e.do(req{method: c.method, path: c.path})
			r.gen2(t, http.StatusMethodNotAllowed, "method_not_allowed")
			if got := r.Header.Get("Allow"); got != c.allow {
				t.Fatalf("Allow = %q, want %q", got, c.allow)
			}
		})
	}
}

func TestDocumentsAndPagesRunNoScript(t *testing.T) {
	e := newEnv(t, options{})
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>fetch('/_sandbox/keys')</script></svg>`)
	up := arUpload(e, "/invoice/settings/logo", acmeKey, "file", "logo.svg", svg).status(t, 200).json(t)
	doc := e.get("/_sandbox/documents/"+up["documentId"].(string), "", "").status(t, 200)
	csp := doc.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "sandbox") {
		t.Fatalf("SVG served with Content-Security-Policy %q", csp)
	}
	if doc.Header.Get("X-Content-Type-Options") != "nosniff" || doc.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf("SVG served as %q, nosniff %q", doc.Header.Get("Content-Type"), doc.Header.Get("X-Content-Type-Options"))
	}
	t.Run("a file that claims to be an image but is HTML is refused", func(t *testing.T) {
		d := arDetails(t, arUpload(e, "/invoice/settings/logo", acmeKey, "file", "logo.png",
			[]byte("<html><script>alert(1)</script></html>")).gen1(t, 400, "invalid_request"))
		if !strings.Contains(d["file"].(string), "checked by content") {
			t.Fatalf("details = %v", d)
		}
	})
}

// TestEveryRouteAnswersWrongMethodsWith405 sends every path of the
// sandbox's own document every method none of its operations takes: the
// answer is 405 in the path's envelope, with an Allow that lists every
// method the path does take. A method another documented path routes
// there (PATCH /invoice/settings is PATCH /invoice/{invoiceId}) is left
// out.
func TestEveryRouteAnswersWrongMethodsWith405(t *testing.T) {
	e := newEnv(t, options{})
	c, err := documents()
	if err != nil {
		t.Fatal(err)
	}
	methodsOf := map[string][]string{}
	for _, op := range sweepOperations(c.ownDoc) {
		methodsOf[op.path] = append(methodsOf[op.path], op.method)
	}
	routedElsewhere := func(concrete, method string) bool {
		for path, methods := range methodsOf {
			parts := pathParam.Split(path, -1)
			for i := range parts {
				parts[i] = regexp.QuoteMeta(parts[i])
			}
			re := regexp.MustCompile("^" + strings.Join(parts, `[^/]+`) + "$")
			if slices.Contains(methods, method) && re.MatchString(concrete) {
				return true
			}
		}
		return false
	}
	checked := 0
	for path, methods := range methodsOf {
		concrete := pathParam.ReplaceAllString(path, "default")
		for _, wrong := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			if slices.Contains(methods, wrong) || routedElsewhere(concrete, wrong) {
				continue
			}
			r := e.do(req{method: wrong, path: concrete, key: acmeKey})
			checked++
			if r.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: %d, want 405: %.200s", wrong, concrete, r.StatusCode, r.body)
				continue
			}
			checkEnvelope(t, wrong+" "+concrete, concrete, r)
			allow := strings.Split(r.Header.Get("Allow"), ", ")
			for _, m := range methods {
				if !slices.Contains(allow, m) {
					t.Errorf("%s %s: Allow %q lacks %s", wrong, concrete, r.Header.Get("Allow"), m)
				}
			}
		}
	}
	t.Logf("checked %d wrong methods over %d paths", checked, len(methodsOf))
	if checked < 300 {
		t.Errorf("checked only %d wrong methods", checked)
	}
}
