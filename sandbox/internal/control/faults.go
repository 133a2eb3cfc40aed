package control

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/traffic"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (c *Control) routesFaults(s *mux.Router) {
	route := func(method, path, name string, fn web.Func) { web.Route(s, web.Gen2, method, path, name, fn) }
	route(http.MethodGet, "/faults", "sandbox.faults.list", c.listFaults)
	route(http.MethodPost, "/faults", "sandbox.faults.create", c.createFault)
	route(http.MethodDelete, "/faults", "sandbox.faults.clear", c.clearFaults)
	route(http.MethodDelete, "/faults/{id}", "sandbox.faults.delete", c.deleteFault)
}

func (c *Control) createFault(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var f traffic.Fault
	if err := web.Decode(r, &f, true); err != nil {
		return nil, err
	}
	if f, err = c.Traffic.AddFault(w, f); err != nil {
		return nil, err
	}
	return web.Status(http.StatusCreated, f), nil
}

func (c *Control) listFaults(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	return map[string]any{"items": c.Traffic.Faults(w)}, nil
}

func (c *Control) clearFaults(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	return map[string]any{"cleared": c.Traffic.ClearFaults(w)}, nil
}

func (c *Control) deleteFault(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	id := mux.Vars(r)["id"]
	if err := c.Traffic.DeleteFault(w, id); err != nil {
		return nil, err
	}
	return map[string]any{"id": id, "deleted": true}, nil
}
