package ui_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// The dashboard's page and files are served without the admin token (the
// page asks for it); the control API they call still needs it.
func TestDashboardIsServed(t *testing.T) {
	const token = "s3cret"
	e := apitest.New(t, apitest.Options{AdminToken: token})

	t.Run("the page needs no admin token", func(t *testing.T) {
		r := e.Get("/_sandbox/ui", "", "").Status(t, http.StatusOK)
		if got := r.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
			t.Errorf("Content-Type = %q", got)
		}
		for _, want := range []string{`<script type="module" src="/_sandbox/ui/app.js">`,
			`<label for="world-select">World</label>`} {
			if !strings.Contains(string(r.Raw), want) {
				t.Errorf("the page lacks %s", want)
			}
		}
		csp := r.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("Content-Security-Policy = %q, want everything from the sandbox itself", csp)
		}
	})

	t.Run("the control API still needs it", func(t *testing.T) {
		e.Get("/_sandbox/worlds", "", "").Gen2(t, http.StatusUnauthorized, "unauthorized")
		e.Do(apitest.Req{Path: "/_sandbox/worlds", Header: map[string]string{"X-Admin-Token": token}}).
			Status(t, http.StatusOK)
	})

	t.Run("every file the page and its modules load is served", func(t *testing.T) {
		page := e.Get("/_sandbox/ui", "", "").Status(t, http.StatusOK)
		ref := regexp.MustCompile(`(?:src|href)="/_sandbox/ui/([a-z-]+\.[a-z]+)"|from '\./([a-z-]+\.js)'`)
		types := map[string]string{
			".js":  "text/javascript; charset=utf-8",
			".css": "text/css; charset=utf-8",
			".svg": "image/svg+xml",
		}
		seen := map[string]bool{}
		queue := []string{string(page.Raw)}
		for len(queue) > 0 {
			body := queue[0]
			queue = queue[1:]
			for _, m := range ref.FindAllStringSubmatch(body, -1) {
				name := m[1] + m[2]
				if seen[name] {
					continue
				}
				seen[name] = true
				r := e.Get("/_sandbox/ui/"+name, "", "").Status(t, http.StatusOK)
				if got, want := r.Header.Get("Content-Type"), types[name[strings.LastIndex(name, "."):]]; got != want {
					t.Errorf("%s: Content-Type = %q, want %q", name, got, want)
				}
				queue = append(queue, string(r.Raw))
			}
		}
		for _, want := range []string{"app.js", "app.css", "icon.svg", "api.js", "overview.js", "charts.js"} {
			if !seen[want] {
				t.Errorf("%s is never loaded (loaded: %v)", want, seen)
			}
		}
	})

	t.Run("an unknown file", func(t *testing.T) {
		d := e.Get("/_sandbox/ui/nope.js", "", "").Gen2(t, http.StatusNotFound, "not_found")
		if d["id"] != "nope.js" {
			t.Errorf("details = %v", d)
		}
	})

	t.Run("a file the browser holds is not sent again", func(t *testing.T) {
		first := e.Get("/_sandbox/ui/app.js", "", "").Status(t, http.StatusOK)
		etag := first.Header.Get("ETag")
		if etag == "" || first.Header.Get("Cache-Control") != "no-cache" {
			t.Fatalf("ETag %q, Cache-Control %q", etag, first.Header.Get("Cache-Control"))
		}
		again := e.Do(apitest.Req{Path: "/_sandbox/ui/app.js", Header: map[string]string{"If-None-Match": etag}}).
			Status(t, http.StatusNotModified)
		if len(again.Raw) != 0 {
			t.Errorf("304 with a body of %d bytes", len(again.Raw))
		}
		e.Do(apitest.Req{Path: "/_sandbox/ui", Header: map[string]string{"If-None-Match": etag}}).
			Status(t, http.StatusOK)
	})
}
