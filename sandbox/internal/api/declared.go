package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/agentrequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// CompleteDeclared finishes the agent requests a scenario declared
// (deferredWrites) before any agent request is read or decided. The
// scenario names each write by its key, method, path and body only; here
// it gets what asking through the API gives it: the world's own key, the
// route that runs it and its path variables, and what a person is shown,
// old values read now, unless the scenario says what that was (an
// exported world's requests keep theirs).
func (a *API) CompleteDeclared(w *kernel.World) error {
	var todo []agentrequests.Request
	err := w.View(func(op *kernel.Op) error {
		page, err := agentrequests.List(op, "", kernel.PageRequest{Size: 1000})
		for _, ar := range page.Items {
			if ar.Route == "" {
				todo = append(todo, ar)
			}
		}
		return err
	})
	if err != nil || len(todo) == 0 {
		return err
	}
	keys, err := w.Keys()
	if err != nil {
		return err
	}
	for i := range todo {
		a.complete(w, keys, &todo[i])
	}
	return w.Update(func(op *kernel.Op) error {
		for i := range todo {
			cur, ok, err := agentrequests.Find(op, todo[i].ID)
			if err != nil {
				return err
			}
			if !ok || cur.Route != "" {
				continue
			}
			// One declared with what it showed (an exported world's) was
			// complete already: filling it in does not change it.
			save := agentrequests.Save
			if cur.Display.Title != "" {
				save = agentrequests.Complete
			}
			cur.APIKey, cur.Route, cur.Vars, cur.Display = todo[i].APIKey, todo[i].Route, todo[i].Vars, todo[i].Display
			if err := save(op, cur); err != nil {
				return err
			}
		}
		return nil
	})
}

// complete fills in one declared agent request.
func (a *API) complete(w *kernel.World, keys []kernel.KeyInfo, ar *agentrequests.Request) {
	for _, k := range keys {
		if k.Key.BaseKey == ar.APIKey {
			ar.APIKey = k.Key.Key
		}
	}
	ar.Route = ar.Method + " " + ar.Path
	declared := ar.Display.Title != ""
	if !declared {
		ar.Display.Title = "Unknown operation"
	}
	req, err := http.NewRequest(ar.Method, ar.Path, nil)
	if err != nil {
		return
	}
	var m mux.RouteMatch
	if !a.router.Match(req, &m) || m.MatchErr != nil || m.Route == nil || m.Route.GetName() == "" {
		return
	}
	ar.Route, ar.Vars = m.Route.GetName(), m.Vars
	if declared {
		return
	}
	ar.Display.Title = title(ar.Route)
	c := &call{W: w}
	err = w.View(func(op *kernel.Op) error {
		p, err := op.Authenticate(ar.APIKey)
		if err != nil {
			return err
		}
		c.P = p
		c.Actor, err = op.Act(p, ar.Header["x-legal-entity"], false)
		return err
	})
	if err == nil {
		ar.Display = a.display(c, ar)
	}
}
