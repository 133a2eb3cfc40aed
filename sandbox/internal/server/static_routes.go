package server

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// staticRoutes dispatches requests for routes without path variables
// (GET /card, GET /transaction, POST /card, GET /_sandbox/health, …)
// through a table made once from the router, instead of trying the
// router's routes one regular expression at a time. Every entry is the
// router's own answer for that method and path, middleware included, so a
// request is handled exactly as the router would handle it; any other
// request goes to the router.
type staticRoutes struct {
	router *mux.Router
	table  map[string]map[string]staticRoute // method → path → route
}

type staticRoute struct {
	name    string
	handler http.Handler
}

// newStaticRoutes asks the router, once per method and variable-free path
// template, which route and handler chain it would use.
func newStaticRoutes(r *mux.Router) *staticRoutes {
	s := &staticRoutes{router: r, table: map[string]map[string]staticRoute{}}
	r.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		path, err := route.GetPathTemplate()
		if err != nil || route.GetHandler() == nil || strings.ContainsAny(path, "{}") {
			return nil
		}
		methods, err := route.GetMethods()
		if err != nil {
			return nil
		}
		for _, m := range methods {
			req, err := http.NewRequest(m, path, nil)
			if err != nil || req.URL.Path != path {
				continue
			}
			var match mux.RouteMatch
			if !r.Match(req, &match) || match.MatchErr != nil || match.Route == nil || match.Handler == nil {
				continue
			}
			if _, done := s.table[m][path]; done {
				continue
			}
			if s.table[m] == nil {
				s.table[m] = map[string]staticRoute{}
			}
			s.table[m][path] = staticRoute{name: match.Route.GetName(), handler: match.Handler}
		}
		return nil
	})
	return s
}

func (s *staticRoutes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if route, ok := s.table[r.Method][r.URL.Path]; ok {
		// What the router's route-naming middleware does: that middleware
		// finds no current route here, so it leaves the name alone.
		web.InfoOf(r).Route = route.name
		route.handler.ServeHTTP(w, r)
		return
	}
	s.router.ServeHTTP(w, r)
}

// dashboardPath is the dashboard's canonical address.
const dashboardPath = "/_sandbox/ui"

// dashboardRedirects sends a browser that opens the server's root, the
// control API's root or the dashboard with a trailing slash to the
// dashboard, keeping the query (?world=, ?token=).
func dashboardRedirects(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/", "/_sandbox", "/_sandbox/", dashboardPath + "/":
			if r.Method == http.MethodGet || r.Method == http.MethodHead {
				web.InfoOf(r).Route = "sandbox.ui.redirect"
				to := dashboardPath
				if r.URL.RawQuery != "" {
					to += "?" + r.URL.RawQuery
				}
				web.Write(w, r, &web.Response{Status: http.StatusFound, Header: http.Header{"Location": {to}}, Raw: []byte{}})
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
