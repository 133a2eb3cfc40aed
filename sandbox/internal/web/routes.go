package web

import (
	"net/http"

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
