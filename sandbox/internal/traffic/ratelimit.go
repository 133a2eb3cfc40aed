package traffic

import (
	"net/http"
	"strconv"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// RateLimit allows each API key Requests calls per Window of wall time.
type RateLimit struct {
	Requests int    `json:"requests"`
	Window   string `json:"window"`
	window   time.Duration
}

// Check checks a rate limit as a request gives it and reads its window.
func (l *RateLimit) Check() error {
	if l.Requests < 1 {
		return kernel.InvalidField("/requests", "must be at least 1")
	}
	var err error
	if l.window, err = scenario.ParseDuration(l.Window); err != nil || l.window < time.Second {
		return kernel.InvalidField("/window", "must be a duration of at least 1s, such as 1m")
	}
	return nil
}

// RateLimit is a world's rate limit (nil: none).
func (t *Traffic) RateLimit(w *kernel.World) *RateLimit {
	rt := t.of(w)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.limit == nil {
		return nil
	}
	l := *rt.limit
	return &l
}

// SetRateLimit sets a world's rate limit (nil clears it), a checked one;
// every key starts a new window.
func (t *Traffic) SetRateLimit(w *kernel.World, l *RateLimit) {
	rt := t.of(w)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.limit = l
	rt.windows = map[string]*window{}
}

// limited counts a call against its key's window and answers 429 (plain
// text, with Retry-After) when the key is over its limit.
func (rt *worldRuntime) limited(w *recorder, r *http.Request, world *kernel.World) bool {
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
	writeError(w, r, world, kernel.Errorf(kernel.CodeRateLimited, "rate limit exceeded"))
	return true
}

// writeError answers a request with an error the traffic rules chose, in
// its path's generation's envelope; a 429 is plain text with Retry-After,
// one second unless the rate limit set it.
func writeError(w http.ResponseWriter, r *http.Request, world *kernel.World, err *kernel.Error) {
	if web.StatusOf(err.Code) == http.StatusTooManyRequests && w.Header().Get("Retry-After") == "" {
		w.Header().Set("Retry-After", "1")
	}
	info := web.InfoOf(r)
	info.Reference = world.ReferenceID
	web.WriteError(w, r, web.GenOf(r.URL.Path), err)
}
