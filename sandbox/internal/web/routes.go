package web

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"
)

// Route registers a named route: the name appears in the request log and
// lets tests enumerate every operation.
func Route(r *mux.Router, gen Gen, method, path, name string, fn Func) {
	r.Handle(path, Handle(gen, fn)).Methods(method).Name(name)
}

// NameRoutes is router middleware that copies the matched route's name
// into the request's Info.
func NameRoutes(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if route := mux.CurrentRoute(r); route != nil {
			InfoOf(r).Route = route.GetName()
		}
		next.ServeHTTP(w, r)
	})
}

// LiteralsWin keeps a route's variable from standing for a path another
// route spells out: DELETE /snapshots/{id} does not take
// /snapshots/import, which POST /snapshots/import names, so DELETE there
// answers 405 with the methods the literal route allows instead of
// whatever the variable's route makes of the word. Call it once every
// route is registered.
func LiteralsWin(r *mux.Router) {
	literal := map[string]bool{}
	var variable []*mux.Route
	r.Walk(func(route *mux.Route, _ *mux.Router, _ []*mux.Route) error {
		path, err := route.GetPathTemplate()
		switch {
		case err != nil || route.GetName() == "":
		case strings.Contains(path, "{"):
			variable = append(variable, route)
		default:
			literal[path] = true
		}
		return nil
	})
	notLiteral := func(req *http.Request, _ *mux.RouteMatch) bool { return !literal[req.URL.Path] }
	for _, route := range variable {
		route.MatcherFunc(notLiteral)
	}
}
