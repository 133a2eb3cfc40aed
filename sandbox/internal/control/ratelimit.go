package control

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/traffic"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

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
	if l := c.Traffic.RateLimit(w); l != nil {
		return map[string]any{"limit": l}, nil
	}
	return map[string]any{"limit": nil}, nil
}

func (c *Control) setRateLimit(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var l traffic.RateLimit
	if err := web.Decode(r, &l, true); err != nil {
		return nil, err
	}
	if err := l.Check(); err != nil {
		return nil, err
	}
	c.Traffic.SetRateLimit(w, &l)
	return map[string]any{"limit": l}, nil
}

func (c *Control) clearRateLimit(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	c.Traffic.SetRateLimit(w, nil)
	return map[string]any{"limit": nil}, nil
}
