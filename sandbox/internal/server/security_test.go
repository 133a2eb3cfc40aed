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
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

func TestScenarioNamesNeverReadFiles(t *testing.T) {
	t.Parallel()
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
	e := apitest.New(t, apitest.Options{ScenariosDir: dir})
	before := apitest.WorldCount(t, e)
	for _, name := range []string{"/etc/passwd", "../../../../etc/passwd", "/proc/self/status", "/dev/zero", secret,
		"../" + filepath.Base(outside) + "/secret", "mine/../../etc/passwd", "no-such-scenario"} {
		t.Run(name, func(t *testing.T) {
			d := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds",
				Body: map[string]string{"scenario": name}}).
				Gen2(t, http.StatusBadRequest, "invalid_request")
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
	if got := apitest.WorldCount(t, e); got != before {
		t.Fatalf("refused requests left %d worlds, want %d", got, before)
	}
	t.Run("a file of the scenarios directory, by name", func(t *testing.T) {
		w := apitest.CreateWorld(t, e, `{"scenario":"mine"}`)
		if len(w.Keys) != 1 || w.Keys[0].Key != "sk_mine_"+w.ID {
			t.Fatalf("world = %+v", w)
		}
	})
	t.Run("inline YAML", func(t *testing.T) {
		body := map[string]string{"yaml": mine}
		var w apitest.WorldBody
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds", Body: body}).
			Status(t, http.StatusCreated).
			Decode(t, &w)
		if w.Scenario != "mine" {
			t.Fatalf("world = %+v", w)
		}
	})
	t.Run("without a directory, only embedded names", func(t *testing.T) {
		plain := apitest.New(t, apitest.Options{})
		d := plain.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds", Body: `{"scenario":"mine"}`}).
			Gen2(t, 400, "invalid_request")
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
	t.Parallel()
	e := apitest.New(
		t,
		apitest.Options{AllowedOrigins: []string{"http://localhost:5173"}, AllowedHosts: []string{"sandbox.internal"}},
	)
	evil := map[string]string{"Origin": "https://evil.example"}
	noCORS := func(t *testing.T, r *apitest.Resp) {
		t.Helper()
		for _, h := range []string{"Access-Control-Allow-Origin", "Access-Control-Allow-Credentials"} {
			if got := r.Header.Get(h); got != "" {
				t.Fatalf("%s = %q on a refused control answer", h, got)
			}
		}
	}
	t.Run("another origin's read is refused", func(t *testing.T) {
		r := e.Do(apitest.Req{Path: "/_sandbox/keys", Header: evil})
		d := r.Gen2(t, http.StatusForbidden, "forbidden")
		noCORS(t, r)
		if strings.Contains(string(r.Raw), "sk_sandbox") || len(d) != 0 {
			t.Fatalf("refusal leaks: %s", r.Raw)
		}
	})
	t.Run("another origin's preflight is refused", func(t *testing.T) {
		r := e.Do(apitest.Req{Method: http.MethodOptions, Path: "/_sandbox/reset", Header: map[string]string{
			"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}})
		r.Gen2(t, http.StatusForbidden, "forbidden")
		noCORS(t, r)
	})
	t.Run("a cross-site write without Origin is refused and changes nothing", func(t *testing.T) {
		before := e.Get("/_sandbox/clock", "", "").Status(t, 200).JSON(t)["now"]
		r := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: `{"by":"1d"}`,
			Header: map[string]string{"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors"}})
		r.Gen2(t, http.StatusForbidden, "forbidden")
		r = e.Do(
			apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: `{"by":"1d"}`, Header: evil},
		)
		r.Gen2(t, http.StatusForbidden, "forbidden")
		if now := e.Get("/_sandbox/clock", "", "").JSON(t)["now"]; now != before {
			t.Fatalf("a refused advance moved the clock from %v to %v", before, now)
		}
	})
	t.Run("the dashboard's own page may call it", func(t *testing.T) {
		r := e.Do(apitest.Req{Path: "/_sandbox/keys", Header: map[string]string{"Origin": e.Server.URL,
			"Sec-Fetch-Site": "same-origin"}}).
			Status(t, 200)
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != "" {
			t.Fatalf("same-origin answer carries Allow-Origin %q", got)
		}
	})
	t.Run("a listed origin may call it, without credentials", func(t *testing.T) {
		r := e.Do(apitest.Req{Path: "/_sandbox/keys", Header: map[string]string{"Origin": "http://localhost:5173"}}).
			Status(t, 200)
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != "http://localhost:5173" {
			t.Fatalf("Allow-Origin = %q", got)
		}
		if got := r.Header.Get("Access-Control-Allow-Credentials"); got != "" {
			t.Fatalf("Allow-Credentials = %q", got)
		}
		pre := e.Do(apitest.Req{Method: http.MethodOptions, Path: "/_sandbox/worlds", Header: map[string]string{
			"Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST"}}).Status(t,
			http.StatusNoContent)
		if !strings.Contains(pre.Header.Get("Access-Control-Allow-Headers"), "X-Admin-Token") {
			t.Fatalf("Allow-Headers = %q", pre.Header.Get("Access-Control-Allow-Headers"))
		}
	})
	t.Run("a link from elsewhere still opens the dashboard", func(t *testing.T) {
		e.Do(apitest.Req{Path: "/_sandbox/ui", Header: map[string]string{"Sec-Fetch-Site": "cross-site",
			"Sec-Fetch-Mode": "navigate",
			"Sec-Fetch-Dest": "document"}}).
			Status(t, 200)
	})
	t.Run("the public API serves any origin without credentials", func(t *testing.T) {
		r := e.Do(apitest.Req{Path: "/account", Key: apitest.AcmeKey, Header: evil}).Status(t, 200)
		if got := r.Header.Get("Access-Control-Allow-Origin"); got != "https://evil.example" && got != "*" {
			t.Fatalf("public Allow-Origin = %q", got)
		}
		if got := r.Header.Get("Access-Control-Allow-Credentials"); got != "" {
			t.Fatalf("public Allow-Credentials = %q", got)
		}
	})
	t.Run("DNS rebinding: a foreign Host is refused on the control API and the dashboard", func(t *testing.T) {
		for _, path := range []string{"/_sandbox/health", "/_sandbox/keys", "/_sandbox/ui"} {
			r := e.Do(apitest.Req{Path: path, Host: "rebind.evil.example"})
			d := r.Gen2(t, http.StatusForbidden, "forbidden")
			if strings.Contains(string(r.Raw), "sk_sandbox") || len(d) != 0 {
				t.Fatalf("%s: refusal leaks: %s", path, r.Raw)
			}
		}
		e.Do(apitest.Req{Path: "/tokens/prices", Host: "rebind.evil.example"}).Status(t, 200)
	})
	t.Run("loopback names, IP addresses and listed hosts are answered", func(t *testing.T) {
		_, port, _ := strings.Cut(strings.TrimPrefix(e.Server.URL, "http://"), ":")
		for _, host := range []string{"localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port,
			"app.localhost:" + port,
			"sandbox.internal:" + port, "192.168.1.20:" + port} {
			e.Do(apitest.Req{Path: "/_sandbox/health", Host: host}).Status(t, 200)
		}
	})
}

func TestClockAdvanceIsBounded(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	start := e.Get("/_sandbox/clock", "", "").Status(t, 200).JSON(t)["now"]
	for _, c := range []struct{ body, field string }{
		{`{"to":"9999-12-31T23:59:59Z"}`, "/to"},
		{`{"to":"2200-01-01T00:00:00Z"}`, "/to"},
		{`{"by":"367d"}`, "/by"},
		{`{"by":"999999w"}`, "/by"},
		{`{"by":"300000d"}`, "/by"},
	} {
		t.Run(c.body, func(t *testing.T) {
			d := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: c.body}).
				Gen2(t, 400, "invalid_request")
			if d[c.field] == "" {
				t.Fatalf("details = %v, want %s named", d, c.field)
			}
		})
	}
	if now := e.Get("/_sandbox/clock", "", "").JSON(t)["now"]; now != start {
		t.Fatalf("refused advances moved the clock from %v to %v", start, now)
	}
	t.Run("a year is allowed", func(t *testing.T) {
		r := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance",
			Body: `{"by":"366d","settleWebhooks":false}`}).
			Status(t, 200).
			JSON(t)
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
	h := server.Handler(eng, apitest.WithAll(server.Config{Log: zerolog.Nop()}))
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
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	e.Get("/_sandbox/worlds/default/health", "", "").Status(t, 200)
	d := e.Get("/_sandbox/worlds/default/worlds/default/health", "", "").Gen2(t, 400, "invalid_request")
	if !strings.Contains(d["path"], "do not nest") {
		t.Fatalf("details = %v", d)
	}
	// 8,000 levels, sent past the harness (whose response checks match
	// paths against the documents): answered at the first level.
	deep := strings.Repeat("/worlds/default", 8000)
	res, err := http.Get(e.Server.URL + "/_sandbox" + deep + "/health")
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
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	before := apitest.WorldCount(t, e)
	for _, c := range []struct{ body, field, says string }{
		{`{"scenario":"demo","clockStart":"0000-01-01T00:00:00Z"}`, "/clockStart", "1970"},
		{`{"scenario":"demo","clockStart":"9999-01-01T00:00:00Z"}`, "/clockStart", "2200"},
		{`{"scenario":"empty","clock":"scaled","clockScale":1e12}`, "/scale", "at most"},
		{`{"clockStart":"2025-01-01T00:00:00Z","yaml":"legalEntities:\n  - {id: le_a, name: A}\naccounts:\n  - {id:` +
			` sa_group_a, legalEntityId: le_a, name: Operating}\ncardGroups:\n  - {id: card_group_a, legalEntityId: le_a,` +
			` name: G, spendingConstraint: {spendingRule: {utilizationLimit: {limitAmount: {amountCents: 100}, preset:` +
			` monthly, startDate: \"2026-01-01\"}}}}\n"}`,
			"/scenario", "startDate"},
		{`{"yaml":"clockStart: 0001-01-01T00:00:00Z\nlegalEntities:\n  - {id: le_a, name: A}\n"}`, "/clockStart",
			"1970"},
	} {
		t.Run(c.body, func(t *testing.T) {
			d := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds", Body: c.body}).
				Gen2(t, 400, "invalid_request")
			if !strings.Contains(d[c.field], c.says) {
				t.Fatalf("details = %v, want %s to say %q", d, c.field, c.says)
			}
		})
	}
	d := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/mode",
		Body: `{"mode":"scaled","scale":1e9}`}).
		Gen2(t, 400, "invalid_request")
	if d["/scale"] == "" {
		t.Fatalf("details = %v", d)
	}
	if got := apitest.WorldCount(t, e); got != before {
		t.Fatalf("refused creations left %d worlds, want %d", got, before)
	}
	t.Run("the demo loads before the dates it used to name", func(t *testing.T) {
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds",
			Body: `{"scenario":"demo","clockStart":"2025-01-01T00:00:00Z"}`}).
			Status(t, http.StatusCreated)
	})
}

func TestControlRoutesAnswerWrongMethodsWith405(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for _, c := range []struct{ method, path, allow string }{
		{http.MethodPut, "/_sandbox/health", "GET"},
		{http.MethodDelete, "/_sandbox/clock", "GET"},
		{http.MethodPatch, "/_sandbox/worlds", "GET, POST"},
		{http.MethodGet, "/_sandbox/reset", "POST"},
		{http.MethodPost, "/_sandbox/ui", "GET"},
		{http.MethodPut, "/_sandbox/worlds/default/clock", "GET"},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			r := e.Do(apitest.Req{Method: c.method, Path: c.path})
			r.Gen2(t, http.StatusMethodNotAllowed, "method_not_allowed")
			if got := r.Header.Get("Allow"); got != c.allow {
				t.Fatalf("Allow = %q, want %q", got, c.allow)
			}
		})
	}
}

func TestDocumentsAndPagesRunNoScript(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>fetch('/_sandbox/keys')</script></svg>`)
	up := apitest.Upload(e, "/invoice/settings/logo", apitest.AcmeKey, "file", "logo.svg", svg).Status(t, 200).JSON(t)
	doc := e.Get("/_sandbox/documents/"+up["documentId"].(string), "", "").Status(t, 200)
	csp := doc.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "sandbox") {
		t.Fatalf("SVG served with Content-Security-Policy %q", csp)
	}
	if doc.Header.Get("X-Content-Type-Options") != "nosniff" || doc.Header.Get("Content-Type") != "image/svg+xml" {
		t.Fatalf(
			"SVG served as %q, nosniff %q",
			doc.Header.Get("Content-Type"),
			doc.Header.Get("X-Content-Type-Options"),
		)
	}
	t.Run("a file that claims to be an image but is HTML is refused", func(t *testing.T) {
		d := apitest.Details(t, apitest.Upload(e, "/invoice/settings/logo", apitest.AcmeKey, "file", "logo.png",
			[]byte("<html><script>alert(1)</script></html>")).Gen1(t, 400, "invalid_request"))
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
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	c, err := apitest.Documents()
	if err != nil {
		t.Fatal(err)
	}
	methodsOf := map[string][]string{}
	for _, op := range apitest.SweepOperations(c.OwnDoc) {
		methodsOf[op.Path] = append(methodsOf[op.Path], op.Method)
	}
	routedElsewhere := func(concrete, method string) bool {
		for path, methods := range methodsOf {
			parts := apitest.PathParam.Split(path, -1)
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
		concrete := apitest.PathParam.ReplaceAllString(path, "default")
		for _, wrong := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch,
			http.MethodDelete} {
			if slices.Contains(methods, wrong) || routedElsewhere(concrete, wrong) {
				continue
			}
			r := e.Do(apitest.Req{Method: wrong, Path: concrete, Key: apitest.AcmeKey})
			checked++
			if r.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: %d, want 405: %.200s", wrong, concrete, r.StatusCode, r.Raw)
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
