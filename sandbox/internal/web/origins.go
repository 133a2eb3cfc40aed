package web

import (
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// Origins is who may reach the control API and the dashboard (every path
// under /_sandbox/) besides programs on the machine itself. A page the
// developer visits can send requests to 127.0.0.1, so:
//
//   - a request whose Host is a name other than a loopback name, the
//     configured address's host or a listed host is refused: a page that
//     rebinds its own domain to 127.0.0.1 (DNS rebinding) still sends its
//     own domain as Host. An IP address as Host is accepted: rebinding
//     needs a name.
//   - a request a browser sends from another origin (its Origin header, or
//     for a write that has none, Sec-Fetch-Site) is refused unless that
//     origin is listed; the answer of a refused request carries no CORS
//     headers, so the page cannot read it either. Links opened from
//     elsewhere (the dashboard, an approval page, a secure form) still
//     open: a top-level navigation is not cross-origin script.
//
// The public API is not behind Origins: browser apps call it from any
// origin, with their keys in headers.
type Origins struct {
	// Addr is the listen address; its host, when it is a name, is allowed.
	Addr string
	// Hosts are further Host names allowed ("*": any, which turns the
	// rebinding check off).
	Hosts []string
	// Origins are further browser origins allowed, such as
	// "http://localhost:5173": they get CORS answers.
	Origins []string
}

// guards reports whether a path is behind Origins: the control API, the
// dashboard, and the MCP server (whose protocol requires servers to check
// Origin, for the same reason).
func guards(path string) bool {
	return strings.HasPrefix(path, "/_sandbox/") || path == "/_sandbox" || path == "/mcp"
}

// check refuses a request the policy does not allow.
func (o *Origins) check(r *http.Request) error {
	if !o.hostAllowed(r.Host) {
		return kernel.Errorf(
			kernel.CodeForbidden,
			"the control API, the dashboard and the MCP server do not answer the host %q: "+
				"use 127.0.0.1 or localhost, or start the sandbox with --allowed-hosts %s",
			hostOnly(r.Host),
			hostOnly(r.Host),
		)
	}
	origin := r.Header.Get("Origin")
	if r.Header.Get("Sec-Fetch-Site") == "same-origin" {
		// Set by the browser alone, and true even where it sends the
		// Origin "null" (a form posted by a page that sends no referrer).
		return nil
	}
	if origin == "" {
		if site := r.Header.Get("Sec-Fetch-Site"); (site == "cross-site" || site == "same-site") && !navigation(r) {
			return kernel.Errorf(kernel.CodeForbidden, "the control API does not answer requests another site's page makes")
		}
		return nil
	}
	if sameOrigin(origin, r.Host) || o.originListed(origin) {
		return nil
	}
	if navigation(r) && origin != "null" {
		return nil
	}
	return kernel.Errorf(kernel.CodeForbidden, "the control API and the MCP server do not answer pages of the origin %q: "+
		"start the sandbox with --allowed-origins %s to allow it", origin, origin)
}

// navigation is a top-level page load (a link followed, a form posted by a
// person), which another site's script cannot read.
func navigation(r *http.Request) bool {
	return r.Header.Get("Sec-Fetch-Mode") == "navigate" && r.Header.Get("Sec-Fetch-Dest") == "document" &&
		(r.Method == http.MethodGet || r.Method == http.MethodHead)
}

// corsOrigin is the origin a guarded answer may be shared with: a listed
// one; "" for any other (same-origin pages need no CORS).
func (o *Origins) corsOrigin(r *http.Request) string {
	origin := r.Header.Get("Origin")
	if origin != "" && o.originListed(origin) {
		return origin
	}
	return ""
}

func (o *Origins) originListed(origin string) bool {
	if o == nil {
		return false
	}
	for _, allowed := range o.Origins {
		if strings.EqualFold(strings.TrimSuffix(allowed, "/"), origin) {
			return true
		}
	}
	return false
}

func (o *Origins) hostAllowed(hostport string) bool {
	host := strings.ToLower(strings.TrimSuffix(hostOnly(hostport), "."))
	if host == "" || host == "localhost" || strings.HasSuffix(host, ".localhost") || net.ParseIP(host) != nil {
		return true
	}
	if o == nil {
		return false
	}
	if addr := strings.ToLower(hostOnly(o.Addr)); addr != "" && addr == host {
		return true
	}
	for _, h := range o.Hosts {
		if h == "*" || strings.EqualFold(h, host) {
			return true
		}
	}
	return false
}

// sameOrigin reports whether an Origin names the host the request was sent
// to (scheme aside: a TLS proxy in front changes it).
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return strings.EqualFold(withPort(u.Host, u.Scheme), withPort(host, "http")) ||
		strings.EqualFold(withPort(u.Host, u.Scheme), withPort(host, "https"))
}

// withPort adds the scheme's default port to a host without one.
func withPort(host, scheme string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	if scheme == "https" {
		return net.JoinHostPort(strings.Trim(host, "[]"), "443")
	}
	return net.JoinHostPort(strings.Trim(host, "[]"), "80")
}

// hostOnly strips the port (and IPv6 brackets) from a host.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}
