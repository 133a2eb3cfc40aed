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
	describeAnalytics(docs, a.Analytics != nil)
	web.Route(r, web.Gen1, http.MethodPost, "/analytics", "analytics.query", a.analyticsQuery)
}

type analyticsBody struct {
	Query *string `json:"query"`
}

// describeAnalytics adds the descriptions of these routes to docs; a
// sandbox without an SQL engine says what it answers instead.
func describeAnalytics(docs *openapi.Registry, engine bool) {
	op := openapi.Op{Summary: "Query transaction analytics with SQL",
		Description: "Runs one read-only SQL statement (SQLite dialect) over the acting legal entity's own data. SHOW" +
			" TABLES lists the tables; DESCRIBE <table> lists a table's columns. A query that fails answers 200 with error" +
			" set. A read: a read-only key is served, not deferred.",
		Read: true,
		Body: openapi.Schema{"type": "object", "required": []string{"query"}, "additionalProperties": false,
			"properties": openapi.Schema{"query": openapi.Schema{"type": "string"}}},
		Response: analytics.Result{}}
	if !engine {
		op.Description += " This sandbox runs without an SQL engine: other statements answer 501 with the package that adds" +
			" it."
		op.Extra = map[int]any{http.StatusNotImplemented: openapi.Ref("Error")}
	}
	docs.Describe("analytics.query", op)
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
	return analytics.Run(r.Context(), a.Analytics, data, *body.Query, analytics.DefaultLimits)
}
