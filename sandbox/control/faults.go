package control

import (
	"net/http"
	"strconv"
	"time"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox"
	"github.com/slash-sandbox/slash-sandbox/sandbox/web"
)

// Fault is an injected failure: for a route name (or "*", every public
// route), the next Count calls, or each call with a seeded Probability.
type Fault struct {
	ID          string  `json:"id"`
	Route       string  `json:"route"`
	Status      int     `json:"status,omitempty"`
	LatencyMs   int     `json:"latencyMs,omitempty"`
	Drop        bool    `json:"drop,omitempty"`
	Count       int     `json:"count,omitempty"`
	Probability float64 `json:"probability,omitempty"`
	Remaining   int     `json:"remaining,omitempty"`
	Hits        int     `json:"hits"`
}

// faultCodes are the statuses a fault may answer with, each in its proper
// envelope.
var faultCodes = map[int]sandbox.Code{
	400: sandbox.CodeInvalidRequest, 401: sandbox.CodeUnauthorized, 403: sandbox.CodeForbidden,
	404: sandbox.CodeNotFound, 409: sandbox.CodeConflict, 429: sandbox.CodeRateLimited, 500: sandbox.CodeInternal,
}

func (c *Control) routesFaults(s *mux.Router) {
	route := func(method, path, name string, fn web.Func) { web.Route(s, web.Gen2, method, path, name, fn) }
	route(http.MethodGet, "/faults", "sandbox.faults.list", c.listFaults)
	route(http.MethodPost, "/faults", "sandbox.faults.create", c.createFault)
	route(http.MethodDelete, "/faults", "sandbox.faults.clear", c.clearFaults)
	route(http.MethodDelete, "/faults/{id}", "sandbox.faults.delete", c.deleteFault)
}

func checkFault(f *Fault) error {
	d := map[string]string{}
	if f.Route == "" {
		d["/route"] = `required: a route name such as "card.create", or "*" for every public route`
	}
	if _, ok := faultCodes[f.Status]; f.Status != 0 && !ok {
		d["/status"] = "must be one of 400, 401, 403, 404, 409, 429, 500"
	}
	if f.Status == 0 && f.LatencyMs == 0 && !f.Drop {
		d["/status"] = "give a status, a latencyMs or drop"
	}
	if f.Drop && f.Status != 0 {
		d["/drop"] = "a dropped connection has no status"
	}
	if f.LatencyMs < 0 || f.LatencyMs > 60000 {
		d["/latencyMs"] = "must be between 0 and 60000"
	}
	if f.Count < 0 || f.Probability < 0 || f.Probability > 1 {
		d["/count"] = "count must be positive, probability between 0 and 1"
	}
	if f.Count > 0 && f.Probability > 0 {
		d["/count"] = "give count or probability, not both"
	}
	if len(d) > 0 {
		return sandbox.Invalid(d)
	}
	return nil
}

func (c *Control) createFault(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var f Fault
	if err := web.Decode(r, &f, true); err != nil {
		return nil, err
	}
	f.Hits, f.Remaining = 0, f.Count
	if f.Count == 0 && f.Probability == 0 {
		f.Probability = 1
	}
	if err := checkFault(&f); err != nil {
		return nil, err
	}
	rt := c.Runtime.of(w)
	rt.mu.Lock()
	rt.faultSeq++
	f.ID = "fault_" + strconv.FormatInt(rt.faultSeq, 10)
	rt.faults = append(rt.faults, &f)
	rt.mu.Unlock()
	return web.Status(http.StatusCreated, f), nil
}

func (c *Control) listFaults(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	rt := c.Runtime.of(w)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	items := make([]Fault, len(rt.faults))
	for i, f := range rt.faults {
		items[i] = *f
	}
	return map[string]any{"items": items}, nil
}

func (c *Control) clearFaults(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	rt := c.Runtime.of(w)
	rt.mu.Lock()
	n := len(rt.faults)
	rt.faults = nil
	rt.mu.Unlock()
	return map[string]any{"cleared": n}, nil
}

func (c *Control) deleteFault(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	id := mux.Vars(r)["id"]
	rt := c.Runtime.of(w)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	for i, f := range rt.faults {
		if f.ID == id {
			rt.faults = append(rt.faults[:i], rt.faults[i+1:]...)
			return map[string]any{"id": id, "deleted": true}, nil
		}
	}
	return nil, sandbox.NotFound("fault", "id", id)
}

// pickFault decides whether a call to route meets a fault, consuming a
// count or drawing from the world's seeded sequence.
func (rt *worldRuntime) pickFault(w *sandbox.World, route string) *Fault {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	for i, f := range rt.faults {
		if f.Route != route && f.Route != "*" {
			continue
		}
		if f.Count > 0 {
			f.Remaining--
			f.Hits++
			if f.Remaining == 0 {
				rt.faults = append(rt.faults[:i], rt.faults[i+1:]...)
			}
			cp := *f
			return &cp
		}
		rt.draws++
		if w.Draw("fault", rt.draws) < f.Probability {
			f.Hits++
			cp := *f
			return &cp
		}
	}
	return nil
}

// injectFault applies a fault to a call; it reports whether the call was
// answered (or dropped) by the fault.
func (c *Control) injectFault(w *recorder, r *http.Request, rt *worldRuntime, world *sandbox.World, route string) bool {
	f := rt.pickFault(world, route)
	if f == nil {
		return false
	}
	if f.LatencyMs > 0 {
		select {
		case <-time.After(time.Duration(f.LatencyMs) * time.Millisecond):
		case <-r.Context().Done():
		}
	}
	switch {
	case f.Drop:
		if hj, ok := w.ResponseWriter.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				w.hijacked = true
				conn.Close()
				return true
			}
		}
		panic(http.ErrAbortHandler)
	case f.Status != 0:
		info := web.InfoOf(r)
		info.Reference = world.ReferenceID
		web.WriteError(w, r, web.GenOf(r.URL.Path), sandbox.Errorf(faultCodes[f.Status], "injected fault %s", f.ID))
		return true
	}
	return false
}
