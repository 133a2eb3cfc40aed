package api

import (
	"net/http"
	"time"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesTokens(r *mux.Router, docs *openapi.Registry) {
	describeTokens(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/tokens/prices", "tokens.prices", a.tokenPrices)
}

// describeTokens adds the descriptions of these routes to docs.
func describeTokens(docs *openapi.Registry) {
	docs.Describe("tokens.prices", openapi.Op{Summary: "Real-time token prices", Security: openapi.Public,
		Response: openapi.Schema{"type": "object", "required": []string{"items"}, "additionalProperties": false,
			"properties": openapi.Schema{
				"items": openapi.Schema{"type": "array", "items": openapi.Schema{"$go": tokenPrice{}}},
			}}})
}

type tokenPrice struct {
	Symbol string `json:"symbol"`
	Price  struct {
		Currency      string `json:"currency"`
		Value         string `json:"value"`
		LastUpdatedAt string `json:"lastUpdatedAt"`
	} `json:"price"`
}

// tokenPrices needs no credentials. It reads the world of the API key when
// one is sent (or of X-Sandbox-World), else the default world.
func (a *API) tokenPrices(r *http.Request) (any, error) {
	w, ok := a.Engine.WorldForKey(r.Header.Get("X-API-Key"))
	if !ok {
		if w, ok = a.Engine.World(r.Header.Get("X-Sandbox-World")); !ok {
			return nil, kernel.NotFound("world", "X-Sandbox-World", r.Header.Get("X-Sandbox-World"))
		}
	}
	web.InfoOf(r).World, web.InfoOf(r).Reference = w.ID, w.ReferenceID
	prices, err := ledger.TokenPrices(w)
	if err != nil {
		return nil, err
	}
	items := make([]tokenPrice, len(prices))
	for i, p := range prices {
		items[i].Symbol = p.Symbol
		items[i].Price.Currency = "usd"
		items[i].Price.Value = p.Value()
		items[i].Price.LastUpdatedAt = p.LastUpdatedAt.Format(time.RFC3339)
	}
	return map[string]any{"items": items}, nil
}

// timestamp formats an instant the way the API does.
func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }
