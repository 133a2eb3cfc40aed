package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesCardProducts(r *mux.Router, docs *openapi.Registry) {
	describeCardProducts(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/card-product", "card_product.list", a.listCardProducts)
}

type cardProduct struct {
	ID     string `json:"id"`
	Prefix string `json:"prefix"`
	Status string `json:"status" enum:"active,inactive"`
}

// describeCardProducts adds the descriptions of these routes, and
// the components they name, to docs.
func describeCardProducts(docs *openapi.Registry) {
	docs.Component("CardProduct", cardProduct{})
	docs.Describe(
		"card_product.list",
		openapi.Op{Summary: "List card products", Security: openapi.APIKeyOnly, Query: []openapi.Param{cursorParam},
			Response: listOf(cardProduct{})},
	)
}

// listCardProducts lists the card products of the fixtures catalogue. Like
// upstream, it takes API keys only.
func (a *API) listCardProducts(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1, apiKeyOnly: true})
	if err != nil {
		return nil, err
	}
	after, err := decodeCursor(r, c)
	if err != nil {
		return nil, err
	}
	var page kernel.Page[fixtures.CardProduct]
	err = c.view(func(op *kernel.Op) error {
		page, err = cards.CardProducts(op, kernel.PageRequest{After: after})
		return err
	})
	if err != nil {
		return nil, err
	}
	items := make([]cardProduct, len(page.Items))
	for i, p := range page.Items {
		items[i] = cardProduct{ID: p.ID, Prefix: p.Prefix, Status: p.Status}
	}
	return newList(items, encodeCursor(r, c, page.Next)), nil
}
