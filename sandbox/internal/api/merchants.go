package api

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesMerchants(r *mux.Router, docs *openapi.Registry) {
	describeMerchants(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/merchant", "merchant.list", a.listMerchants)
	web.Route(r, web.Gen1, http.MethodGet, "/merchant/{merchantId}", "merchant.get", a.getMerchant)
	web.Route(r, web.Gen1, http.MethodGet, "/merchant-category", "merchant_category.list", a.listMerchantCategories)
}

type merchant struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

type merchantCategory struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// describeMerchants adds the descriptions of these routes, and the components
// they name, to docs.
func describeMerchants(docs *openapi.Registry) {
	docs.Component("Merchant", merchant{})
	docs.Component("MerchantCategory", merchantCategory{})
	docs.Describe("merchant.list", openapi.Op{Summary: "List merchants",
		Description: "The merchants of the sandbox's catalogue, the same ones simulated purchases are made at, by name.",
		Query: []openapi.Param{
			cursorParam,
			{Name: "search:merchant_name", Description: "Keeps merchants whose name contains this text, ignoring case."},
		},
		Response: listOf(merchant{})})
	docs.Describe("merchant.get", openapi.Op{Summary: "Get a merchant", Response: merchant{}})
	docs.Describe("merchant_category.list", openapi.Op{Summary: "List merchant categories",
		Query: []openapi.Param{cursorParam}, Response: listOf(merchantCategory{})})
}

// catalogPage pages ids in catalogue order: after is the id the previous
// page ended on.
func catalogPage(ids []string, after string, size int) (page []string, next string, err error) {
	start := 0
	if after != "" {
		start = -1
		for i, id := range ids {
			if id == after {
				start = i + 1
			}
		}
		if start < 0 {
			return nil, "", errCursor
		}
	}
	end := min(start+size, len(ids))
	if end < len(ids) {
		next = ids[end-1]
	}
	return ids[start:end], next, nil
}

func (a *API) listMerchants(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	after, err := decodeCursor(r, c)
	if err != nil {
		return nil, err
	}
	search := strings.ToLower(strings.TrimSpace(r.URL.Query().Get("search:merchant_name")))
	byID := map[string]fixtures.Merchant{}
	var ids []string
	for _, m := range c.W.Catalog.Merchants {
		if strings.Contains(strings.ToLower(m.Name), search) {
			ids = append(ids, m.ID)
			byID[m.ID] = m
		}
	}
	page, next, err := catalogPage(ids, after, kernel.PageSize)
	if err != nil {
		return nil, err
	}
	items := make([]merchant, len(page))
	for i, id := range page {
		m := byID[id]
		items[i] = merchant{ID: m.ID, Name: m.Name, URL: m.URL}
	}
	return newList(items, encodeCursor(r, c, next)), nil
}

func (a *API) getMerchant(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	id := mux.Vars(r)["merchantId"]
	m, ok := c.W.Catalog.Merchant(id)
	if !ok {
		return nil, kernel.NotFound("merchant", "", id)
	}
	return merchant{ID: m.ID, Name: m.Name, URL: m.URL}, nil
}

func (a *API) listMerchantCategories(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	after, err := decodeCursor(r, c)
	if err != nil {
		return nil, err
	}
	var ids []string
	names := map[string]string{}
	for _, cat := range c.W.Catalog.Categories {
		ids = append(ids, cat.ID)
		names[cat.ID] = cat.Name
	}
	page, next, err := catalogPage(ids, after, kernel.PageSize)
	if err != nil {
		return nil, err
	}
	items := make([]merchantCategory, len(page))
	for i, id := range page {
		items[i] = merchantCategory{ID: id, Name: names[id]}
	}
	return newList(items, encodeCursor(r, c, next)), nil
}
