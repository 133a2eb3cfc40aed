package server_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// The dashboard's page and files are served without the admin token (the
// page asks for it); the control API they call still needs it.
func TestDashboardIsServed(t *testing.T) {
	const token = "s3cret"
	e := newEnv(t, options{adminToken: token})

	t.Run("the page needs no admin token", func(t *testing.T) {
		r := e.get("/_sandbox/ui", "", "").status(t, http.StatusOK)
		if got := r.Header.Get("Content-Type"); got != "text/html; charset=utf-8" {
			t.Errorf("Content-Type = %q", got)
		}
		for _, want := range []string{`<script type="module" src="/_sandbox/ui/app.js">`,
			`<label for="world-select">World</label>`} {
			if !strings.Contains(string(r.body), want) {
				t.Errorf("the page lacks %s", want)
			}
		}
		csp := r.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "script-src 'self'") {
			t.Errorf("Content-Security-Policy = %q, want everything from the sandbox itself", csp)
		}
	})

	t.Run("the control API still needs it", func(t *testing.T) {
		e.get("/_sandbox/worlds", "", "").gen2(t, http.StatusUnauthorized, "unauthorized")
		e.do(req{path: "/_sandbox/worlds", header: map[string]string{"X-Admin-Token": token}}).status(t, http.StatusOK)
	})

	t.Run("every file the page and its modules load is served", func(t *testing.T) {
		page := e.get("/_sandbox/ui", "", "").status(t, http.StatusOK)
		ref := regexp.MustCompile(`(?:src|href)="/_sandbox/ui/([a-z-]+\.[a-z]+)"|from '\./([a-z-]+\.js)'`)
		types := map[string]string{
			".js":  "text/javascript; charset=utf-8",
			".css": "text/css; charset=utf-8",
			".svg": "image/svg+xml",
		}
		seen := map[string]bool{}
		queue := []string{string(page.body)}
		for len(queue) > 0 {
			body := queue[0]
			queue = queue[1:]
			for _, m := range ref.FindAllStringSubmatch(body, -1) {
				name := m[1] + m[2]
				if seen[name] {
					continue
				}
				seen[name] = true
				r := e.get("/_sandbox/ui/"+name, "", "").status(t, http.StatusOK)
				if got, want := r.Header.Get("Content-Type"), types[name[strings.LastIndex(name, "."):]]; got != want {
					t.Errorf("%s: Content-Type = %q, want %q", name, got, want)
				}
				queue = append(queue, string(r.body))
			}
		}
		for _, want := range []string{"app.js", "app.css", "icon.svg", "api.js", "overview.js", "charts.js"} {
			if !seen[want] {
				t.Errorf("%s is never loaded (loaded: %v)", want, seen)
			}
		}
	})

	t.Run("an unknown file", func(t *testing.T) {
		d := e.get("/_sandbox/ui/nope.js", "", "").gen2(t, http.StatusNotFound, "not_found")
		if d["id"] != "nope.js" {
			t.Errorf("details = %v", d)
		}
	})

	t.Run("a file the browser holds is not sent again", func(t *testing.T) {
		first := e.get("/_sandbox/ui/app.js", "", "").status(t, http.StatusOK)
		etag := first.Header.Get("ETag")
		if etag == "" || first.Header.Get("Cache-Control") != "no-cache" {
			t.Fatalf("ETag %q, Cache-Control %q", etag, first.Header.Get("Cache-Control"))
		}
		again := e.do(req{path: "/_sandbox/ui/app.js", header: map[string]string{"If-None-Match": etag}}).
			status(t, http.StatusNotModified)
		if len(again.body) != 0 {
			t.Errorf("304 with a body of %d bytes", len(again.body))
		}
		e.do(req{path: "/_sandbox/ui", header: map[string]string{"If-None-Match": etag}}).status(t, http.StatusOK)
	})
}
