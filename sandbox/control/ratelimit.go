package control

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox"
	"github.com/slash-sandbox/slash-sandbox/sandbox/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/web"
)

// RateLimit allows each API key Requests calls per Window of wall time.
type RateLimit struct {
	Requests int    `json:"requests"`
	Window   string `json:"window"`
	window   time.Duration
}

func (c *Control) routesRateLimit(s *mux.Router) {
	route := func(method, path, name string, fn web.Func) { web.Route(s, web.Gen2, method, path, name, fn) }
	route(http.MethodGet, "/rate-limit", "sandbox.rate_limit.get", c.getRateLimit)
	route(http.MethodPut, "/rate-limit", "sandbox.rate_limit.set", c.setRateLimit)
	route(http.MethodDelete, "/rate-limit", "sandbox.rate_limit.clear", c.clearRateLimit)
}

func (c *Control) getRateLimit(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	rt := c.Runtime.of(w)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.limit == nil {
		return map[string]any{"limit": nil}, nil
	}
	return map[string]any{"limit": rt.limit}, nil
}

// SetRateLimit sets a world's rate limit (nil clears it).
func (c *Control) SetRateLimit(w *sandbox.World, l *RateLimit) {
	rt := c.Runtime.of(w)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.limit = l
	rt.windows = map[string]*window{}
}

func (c *Control) setRateLimit(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var l RateLimit
	if err := web.Decode(r, &l, true); err != nil {
		return nil, err
	}
	if l.Requests < 1 {
		return nil, sandbox.InvalidField("/requests", "must be at least 1")
	}
	if l.window, err = scenario.ParseDuration(l.Window); err != nil || l.window < time.Second {
		return nil, sandbox.InvalidField("/window", "must be a duration of at least 1s, such as 1m")
	}
	c.SetRateLimit(w, &l)
	return map[string]any{"limit": l}, nil
}

func (c *Control) clearRateLimit(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	c.SetRateLimit(w, nil)
	return map[string]any{"limit": nil}, nil
}

// limited counts a call against its key's window and answers 429 (plain
// text, with Retry-After) when the key is over its limit.
func (c *Control) limited(w *recorder, r *http.Request, rt *worldRuntime, world *sandbox.World) bool {
	key := r.Header.Get("X-API-Key")
	now := time.Now()
	rt.mu.Lock()
	l := rt.limit
	if l == nil || key == "" {
		rt.mu.Unlock()
		return false
	}
	win, ok := rt.windows[key]
	if !ok || now.Sub(win.start) >= l.window {
		win = &window{start: now}
		rt.windows[key] = win
	}
	win.count++
	over := win.count > l.Requests
	retry := l.window - now.Sub(win.start)
	rt.mu.Unlock()
	if !over {
		return false
	}
	w.Header().Set("Retry-After", strconv.Itoa(max(1, int(retry.Seconds()+0.5))))
	info := web.InfoOf(r)
	info.Reference = world.ReferenceID
	web.WriteError(w, r, web.GenOf(r.URL.Path), sandbox.Errorf(sandbox.CodeRateLimited, "rate limit exceeded"))
	return true
}
