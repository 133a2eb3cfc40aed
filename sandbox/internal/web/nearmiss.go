package web

import (
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/gorilla/mux"
)

// RouteTemplate is one method of a route: what a near miss names.
type RouteTemplate struct {
	Method, Path, Name string
}

// String is the route as a hint names it: "GET /card".
func (t RouteTemplate) String() string { return t.Method + " " + t.Path }

// Templates lists the router's routes, one per method, in registration
// order; catch-all routes (a variable that spans segments) are left out.
func Templates(r *mux.Router) []RouteTemplate {
	var out []RouteTemplate
	r.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		path, err := route.GetPathTemplate()
		methods, merr := route.GetMethods()
		if err != nil || merr != nil || route.GetName() == "" || strings.Contains(path, ":.") {
			return nil
		}
		for _, m := range methods {
			out = append(out, RouteTemplate{Method: m, Path: path, Name: route.GetName()})
		}
		return nil
	})
	return out
}

// MaxNearMissPath is the longest path NearMiss looks for a route near: no
// route is nearly that long, and the edit distance of a longer one would
// cost time in proportion to its length for every template.
const MaxNearMissPath = 256

// NearMiss finds the route a request that matched none most likely meant,
// the way WireMock names a near miss: the template whose segments are
// fewest edits away, another method costing one more edit when both read
// or both write, and two more otherwise. A path longer than
// MaxNearMissPath has none.
func NearMiss(routes []RouteTemplate, method, path string) (RouteTemplate, bool) {
	if len(path) > MaxNearMissPath {
		return RouteTemplate{}, false
	}
	got := segments(path)
	best, bestCost := RouteTemplate{}, -1
	for _, t := range routes {
		cost := pathDistance(got, segments(t.Path)) + methodDistance(method, t.Method)
		if bestCost < 0 || cost < bestCost {
			best, bestCost = t, cost
		}
	}
	// A hint is worth giving only when the request is close: a few edits,
	// more for a longer path.
	if bestCost < 0 || bestCost > max(2, len(path)/5) {
		return RouteTemplate{}, false
	}
	return best, true
}

func methodDistance(a, b string) int {
	read := func(m string) bool { return m == "GET" || m == "HEAD" }
	switch {
	case a == b:
		return 0
	case read(a) == read(b):
		return 1
	}
	return 2
}

func segments(path string) []string { return strings.Split(strings.Trim(path, "/"), "/") }

// pathDistance is the edits between a path's segments and a template's:
// a variable segment takes any non-empty value, a literal one costs its
// edit distance, and a segment too many or too few costs two.
func pathDistance(got, tmpl []string) int {
	cost := 2 * abs(len(got)-len(tmpl))
	for i := range min(len(got), len(tmpl)) {
		g, t := got[i], tmpl[i]
		switch {
		case strings.HasPrefix(t, "{"):
			if g == "" {
				cost++
			}
		default:
			cost += levenshtein.ComputeDistance(g, t)
		}
	}
	return cost
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// Nearest is the name among names fewest edits away from name, when one
// is close enough to suggest. A name whose length differs from name's by
// more than the edits allowed is never measured: the distance is at least
// that difference, so a long name costs no more than reading it.
func Nearest(names []string, name string) (string, bool) {
	allowed := max(2, len(name)/3)
	best, bestCost := "", -1
	for _, n := range names {
		if abs(len(n)-len(name)) > allowed {
			continue
		}
		if c := levenshtein.ComputeDistance(n, name); bestCost < 0 || c < bestCost {
			best, bestCost = n, c
		}
	}
	return best, bestCost >= 0 && bestCost <= allowed
}
