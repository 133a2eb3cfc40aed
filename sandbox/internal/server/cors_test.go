package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// The browser test drives the Debian chromium in headless mode, as the
// dashboard's tests do: SANDBOX_CHROMIUM names another binary, and
// without one the test skips.
const defaultChromium = "/usr/bin/chromium"

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

// chromium starts a headless browser for one test, or skips the test when
// there is none.
func chromium(t *testing.T) context.Context {
	t.Helper()
	path, err := chromiumPath()
	if err != nil {
		t.Skipf("skipping the browser test: %v (install it with apt-get install chromium, or set SANDBOX_CHROMIUM to"+
			" a Chromium binary)", err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return ctx
}

// sdkPage is the script of a page that calls the sandbox as the official
// TypeScript SDK does in a browser: fetch, with the SDK's headers on every
// call, and an Idempotency-Key on its write. It reports what it read, and
// the errors its calls to the control API met.
const sdkPage = `(async () => {
  const api = %q, key = %q, readOnly = %q;
  const sdk = {
    'Accept': 'application/json', 'X-Stainless-Lang': 'js', 'X-Stainless-Package-Version': '0.1.1',
    'X-Stainless-OS': 'Unknown', 'X-Stainless-Arch': 'unknown', 'X-Stainless-Runtime': 'browser:chrome',
    'X-Stainless-Runtime-Version': '156.0.8078', 'X-Stainless-Retry-Count': '0', 'X-Stainless-Timeout': '60',
  };
  const call = async (method, path, apiKey, body) => {
    const headers = {...sdk, 'X-API-Key': apiKey};
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      headers['Idempotency-Key'] = 'stainless-node-retry-0f6c3b8e-5d1a-4c2e-9b7f-2a4d6e8c1b3a';
    }
    try {
      const init = {method, headers, body: body === undefined ? undefined : JSON.stringify(body)};
      const res = await fetch(api + path, init);
      return {status: res.status, requestId: res.headers.get('X-Request-Id') || '',
        deferred: res.headers.get('x-deferred-action-id') || '', body: await res.json()};
    } catch (e) {
      return {error: String(e)};
    }
  };
  const attempt = async (path, init) => {
    try {
      const res = await fetch(api + path, init);
      return 'read ' + res.status + ': ' + await res.text();
    } catch (e) {
      return String(e);
    }
  };
  const advance = {method: 'POST', headers: {...sdk, 'Content-Type': 'application/json'}, body: '{"by":"30d"}'};
  return {
    account: await call('GET', '/account', key),
    card: await call('POST', '/card', key, {type: 'virtual', name: 'Made in a browser'}),
    deferred: await call('POST', '/card', readOnly, {type: 'virtual', name: 'Asked for in a browser'}),
    controlRead: await attempt('/_sandbox/keys', {headers: sdk}),
    controlWrite: await attempt('/_sandbox/clock/advance', advance),
    blindWrite: await fetch(api + '/_sandbox/clock/advance', {method: 'POST', mode: 'no-cors', body: '{"by":"30d"}'})
      .then(res => res.type, e => String(e)),
  };
})()`

// pageAnswer is one public API call as the page read it.
type pageAnswer struct {
	Status    int            `json:"status"`
	RequestID string         `json:"requestId"`
	Deferred  string         `json:"deferred"`
	Body      map[string]any `json:"body"`
	Error     string         `json:"error"`
}

// pageReport is everything the page read.
type pageReport struct {
	Account, Card, Deferred   pageAnswer
	ControlRead, ControlWrite string
	BlindWrite                string
}

// TestCORSBrowserPageCallsThePublicAPIWithTheSDKHeaders serves a page
// from a second loopback origin that calls the sandbox with the official
// TypeScript SDK's headers, as the SDK does in a browser, and reads the
// answers; the same page still cannot read or act on the control API.
func TestCORSBrowserPageCallsThePublicAPIWithTheSDKHeaders(t *testing.T) {
	t.Parallel()
	ctx := chromium(t)
	e := apitest.New(t, apitest.Options{})
	app := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>A frontend app</title>")
	}))
	t.Cleanup(app.Close)
	clockBefore := e.Get("/_sandbox/clock", "", "").Status(t, 200).JSON(t)["now"]

	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	script := fmt.Sprintf(sdkPage, e.Server.URL, apitest.AcmeKey, apitest.AcmeRO)
	if _, err := chromedp.Run(ctx, chromedp.Navigate(app.URL)); err != nil {
		t.Fatalf("open the app's page: %v", err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[pageReport](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("the page's script: %v", err)
	}

	t.Run("GET /account", func(t *testing.T) {
		items, _ := got.Account.Body["items"].([]any)
		if got.Account.Status != http.StatusOK || len(items) == 0 {
			t.Fatalf("the page read %+v, want 200 with acme's accounts", got.Account)
		}
	})
	t.Run("POST /card creates the card, and the page reads its request id", func(t *testing.T) {
		id, _ := got.Card.Body["id"].(string)
		if got.Card.Status != http.StatusCreated || id == "" {
			t.Fatalf("the page read %+v, want 201 with the card", got.Card)
		}
		var card apitest.CardJSON
		e.Get("/card/"+id, apitest.AcmeKey, "").Status(t, 200).Decode(t, &card)
		if card.Name != "Made in a browser" {
			t.Fatalf("card %s is named %q", id, card.Name)
		}
		if !regexp.MustCompile(`^req_[0-9]{8,}$`).MatchString(got.Card.RequestID) {
			t.Fatalf("X-Request-Id as the page read it: %q", got.Card.RequestID)
		}
		if !loggedAs(e, got.Card.RequestID, "card.create") {
			t.Fatalf("no card.create in the request log has the id %s the page read", got.Card.RequestID)
		}
	})
	t.Run("a read-only key's write: 403, and its x-deferred-action-id is readable", func(t *testing.T) {
		if got.Deferred.Status != http.StatusForbidden ||
			!regexp.MustCompile(`^dfa_[a-z0-9]+$`).MatchString(got.Deferred.Deferred) {
			t.Fatalf("the page read %+v, want 403 with x-deferred-action-id", got.Deferred)
		}
		var ar apitest.AgentView
		e.Get("/agent-request/"+got.Deferred.Deferred, apitest.AcmeRO, "").Status(t, 200).Decode(t, &ar)
		if ar.Status != "pending" {
			t.Fatalf("agent request %s is %q, want pending", ar.ID, ar.Status)
		}
	})
	t.Run("the control API stays out of the page's reach", func(t *testing.T) {
		for name, msg := range map[string]string{"a read": got.ControlRead, "a write": got.ControlWrite} {
			if !strings.HasPrefix(msg, "TypeError") {
				t.Errorf("%s of /_sandbox/ gave the page %q, want a TypeError (nothing shared)", name, msg)
			}
		}
		if got.BlindWrite != "opaque" {
			t.Errorf("a no-cors write gave the page %q, want an opaque answer", got.BlindWrite)
		}
		if now := e.Get("/_sandbox/clock", "", "").Status(t, 200).JSON(t)["now"]; now != clockBefore {
			t.Fatalf("the page moved the clock from %v to %v", clockBefore, now)
		}
	})
}

// loggedAs reports whether the request log holds a request of the route
// with that id.
func loggedAs(e *apitest.Env, requestID, route string) bool {
	for _, line := range strings.Split(e.Log.String(), "\n") {
		var entry struct {
			RequestID string `json:"request_id"`
			Route     string `json:"route"`
		}
		if json.Unmarshal([]byte(line), &entry) == nil && entry.RequestID == requestID && entry.Route == route {
			return true
		}
	}
	return false
}

// TestCORSExposesEveryHeaderThePublicAPIWrites makes the public API write
// each header it has (a request id, a deferred write's id, a 405's methods,
// a redirect's target, a statement's file name, a rate limit's wait) and
// checks a page of another origin may read every header of each answer.
func TestCORSExposesEveryHeaderThePublicAPIWrites(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	origin := map[string]string{"Origin": "https://app.example"}
	// What a browser shows a page without being told, and CORS's own.
	readable := map[string]bool{"Cache-Control": true, "Content-Language": true, "Content-Type": true,
		"Expires": true, "Last-Modified": true, "Pragma": true, "Date": true, "Vary": true}
	for _, c := range []struct {
		header string
		req    apitest.Req
	}{
		{"X-Request-Id", apitest.Req{Path: "/account", Key: apitest.AcmeKey}},
		{"X-Deferred-Action-Id", apitest.Req{Method: http.MethodPost, Path: "/card", Key: apitest.AcmeRO,
			Body: `{"type":"virtual","name":"Asked for"}`}},
		{"Allow", apitest.Req{Method: http.MethodDelete, Path: "/account/sa_group_acmeoperating", Key: apitest.AcmeKey}},
		{"Location", apitest.Req{Path: "/?world=default"}},
		{"Content-Disposition", apitest.Req{Path: "/fdx/accounts/sa_group_acmeoperating/statements/stmt_202604",
			Key: apitest.AcmeKey}},
		{"Retry-After", apitest.Req{Path: "/account", Key: apitest.GlobexKey}},
	} {
		if c.header == "Retry-After" {
			e.Do(apitest.Req{Method: http.MethodPut, Path: "/_sandbox/rate-limit", Body: `{"requests":1,"window":"1h"}`}).
				Status(t, http.StatusOK)
			e.Do(apitest.Req{Path: "/account", Key: apitest.GlobexKey}).Status(t, http.StatusOK)
		}
		c.req.Header = origin
		r := e.Do(c.req)
		if r.Header.Get(c.header) == "" {
			t.Fatalf("%s %s answered %d without %s", c.req.Method, c.req.Path, r.StatusCode, c.header)
		}
		exposed := map[string]bool{}
		for _, name := range strings.Split(r.Header.Get("Access-Control-Expose-Headers"), ",") {
			exposed[http.CanonicalHeaderKey(strings.TrimSpace(name))] = true
		}
		for name := range r.Header {
			if !readable[name] && !exposed[name] && !strings.HasPrefix(name, "Access-Control-") {
				t.Errorf("%s %s: a page cannot read %s (exposed: %s)", c.req.Method, c.req.Path, name,
					r.Header.Get("Access-Control-Expose-Headers"))
			}
		}
		if r.Header.Get("Access-Control-Allow-Origin") != "https://app.example" ||
			r.Header.Get("Access-Control-Allow-Credentials") != "" {
			t.Errorf("%s %s: Allow-Origin %q, Allow-Credentials %q", c.req.Method, c.req.Path,
				r.Header.Get("Access-Control-Allow-Origin"), r.Header.Get("Access-Control-Allow-Credentials"))
		}
	}
}
