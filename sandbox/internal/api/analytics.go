package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/analytics"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesAnalytics(r *mux.Router, docs *openapi.Registry) {
	describeAnalytics(docs)
	web.Route(r, web.Gen1, http.MethodPost, "/analytics", "analytics.query", a.analyticsQuery)
}

type analyticsBody struct {
	Query *string `json:"query"`
}

// describeAnalytics adds the descriptions of these routes to docs.
func describeAnalytics(docs *openapi.Registry) {
	docs.Describe("analytics.query", openapi.Op{Summary: "Query transaction analytics with SQL",
		Description: "Runs one read-only SQL statement (SQLite dialect) over the acting legal entity's own data. SHOW TABLES lists the tables; DESCRIBE <table> lists a table's columns. A query that fails answers 200 with error set. A read: a read-only key is served, not deferred.",
		Read:        true,
		Body: openapi.Schema{"type": "object", "required": []string{"query"}, "additionalProperties": false,
			"properties": openapi.Schema{"query": openapi.Schema{"type": "string"}}},
		Response: analytics.Result{}})
}

// analyticsQuery runs the caller's SQL over its legal entity's rows.
func (a *API) analyticsQuery(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	raw, err := web.ReadBody(r)
	if err != nil {
		return nil, err
	}
	var body analyticsBody
	if err := web.DecodeBytes(raw, &body, true); err != nil {
		return nil, err
	}
	if body.Query == nil {
		return nil, kernel.InvalidField("/query", "required")
	}
	var data []analytics.AnalyticsData
	err = c.view(func(op *kernel.Op) error {
		data, err = analytics.AnalyticsSnapshot(op, c.Actor)
		return err
	})
	if err != nil {
		return nil, err
	}
	return analytics.Run(r.Context(), data, *body.Query, analytics.DefaultLimits)
}
