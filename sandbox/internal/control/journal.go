package control

import (
	"net/http"
	"strconv"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/traffic"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (c *Control) routesJournal(s *mux.Router) {
	web.Route(s, web.Gen2, http.MethodGet, "/requests", "sandbox.requests", c.requests)
}

// requests lists the journal, newest first, filtered by route, status,
// legal entity, method or path prefix.
func (c *Control) requests(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	f := traffic.JournalFilter{Route: q.Get("route"), LegalEntity: q.Get("legalEntity"), Method: q.Get("method"),
		PathPrefix: q.Get("path"), Limit: 100}
	if s := q.Get("limit"); s != "" {
		if f.Limit, err = strconv.Atoi(s); err != nil || f.Limit < 1 || f.Limit > traffic.JournalCap {
			return nil, kernel.InvalidField("limit", "must be between 1 and 1000")
		}
	}
	f.Status, _ = strconv.Atoi(q.Get("status"))
	return map[string]any{"items": c.Traffic.Journal(w, f)}, nil
}
