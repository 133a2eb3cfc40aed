package traffic

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// Fault is an injected failure: for a route name (or "*", every public
// route), the next Count calls, or each call with a seeded Probability.
type Fault struct {
	ID          string  `json:"id"`
	Route       string  `json:"route" doc:"A public route's name (docs/coverage.md lists them), or * for every public route; an unknown name is refused with the nearest known one."`
	Status      int     `json:"status,omitempty" doc:"The status to answer with, in the route's generation's error envelope: 400, 401, 403, 404, 409, 422, 429, 500, 502, 503 or 504."`
	LatencyMs   int     `json:"latencyMs,omitempty"`
	Drop        bool    `json:"drop,omitempty"`
	Count       int     `json:"count,omitempty"`
	Probability float64 `json:"probability,omitempty"`
	Remaining   int     `json:"remaining,omitempty"`
	Hits        int     `json:"hits"`
}

// errorCodes are the statuses a fault or a request's Prefer: code= may
// answer with, each in its proper envelope.
var errorCodes = map[int]kernel.Code{
	400: kernel.CodeInvalidRequest, 401: kernel.CodeUnauthorized, 403: kernel.CodeForbidden,
	404: kernel.CodeNotFound, 409: kernel.CodeConflict, 422: kernel.CodeUnprocessable, 429: kernel.CodeRateLimited,
	500: kernel.CodeInternal, 502: kernel.CodeBadGateway, 503: kernel.CodeUnavailable, 504: kernel.CodeGatewayTimeout,
}

// errorStatuses lists errorCodes' statuses for messages.
const errorStatuses = "400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504"

// checkFault checks a fault; routes are the public route names it may
// name (nil: any).
func checkFault(f *Fault, routes []string) error {
	d := map[string]string{}
	switch {
	case f.Route == "":
		d["/route"] = `required: a route name such as "card.create", or "*" for every public route`
	case f.Route != "*" && routes != nil && len(f.Route) > longest(routes):
		d["/route"] = fmt.Sprintf("is %d bytes long; no route's name is longer than %d (docs/coverage.md lists every route)",
			len(f.Route), longest(routes))
	case f.Route != "*" && routes != nil && !slices.Contains(routes, f.Route):
		msg := fmt.Sprintf("%q is not a public route's name", f.Route)
		if near, ok := web.Nearest(routes, f.Route); ok {
			msg += fmt.Sprintf("; did you mean %q?", near)
		}
		d["/route"] = msg + " (docs/coverage.md lists every route)"
	}
	if _, ok := errorCodes[f.Status]; f.Status != 0 && !ok {
		d["/status"] = "must be one of " + errorStatuses
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
		return kernel.Invalid(d)
	}
	return nil
}

// longest is the length of the longest of names: a longer one is refused
// before any is suggested.
func longest(names []string) int {
	n := 0
	for _, name := range names {
		n = max(n, len(name))
	}
	return n
}

// AddFault checks a fault and injects it into a world's public routes: it
// meets the next Count calls, else each call with its Probability (1 when
// neither is given).
func (t *Traffic) AddFault(w *kernel.World, f Fault) (Fault, error) {
	f.Hits, f.Remaining = 0, f.Count
	if f.Count == 0 && f.Probability == 0 {
		f.Probability = 1
	}
	if err := checkFault(&f, t.Routes); err != nil {
		return Fault{}, err
	}
	rt := t.of(w)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.faultSeq++
	f.ID = "fault_" + strconv.FormatInt(rt.faultSeq, 10)
	rt.faults = append(rt.faults, &f)
	return f, nil
}

// Faults lists a world's faults, in the order they were added.
func (t *Traffic) Faults(w *kernel.World) []Fault {
	rt := t.of(w)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	items := make([]Fault, len(rt.faults))
	for i, f := range rt.faults {
		items[i] = *f
	}
	return items
}

// ClearFaults removes every fault of a world and says how many there were.
func (t *Traffic) ClearFaults(w *kernel.World) int {
	rt := t.of(w)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	n := len(rt.faults)
	rt.faults = nil
	return n
}

// DeleteFault removes one fault of a world.
func (t *Traffic) DeleteFault(w *kernel.World, id string) error {
	rt := t.of(w)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	for i, f := range rt.faults {
		if f.ID == id {
			rt.faults = append(rt.faults[:i], rt.faults[i+1:]...)
			return nil
		}
	}
	return kernel.NotFound("fault", "id", id)
}

// pickFault decides whether a call to route meets a fault, consuming a
// count or drawing from the world's seeded sequence.
func (rt *worldRuntime) pickFault(w *kernel.World, route string) *Fault {
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
func (rt *worldRuntime) injectFault(w *recorder, r *http.Request, world *kernel.World, route string) bool {
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
		writeError(w, r, world, kernel.Errorf(errorCodes[f.Status], "injected fault %s", f.ID))
		return true
	}
	return false
}
