package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesLegalEntities(r *mux.Router, docs *openapi.Registry) {
	describeLegalEntities(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/legal-entity", "legal_entity.list", a.listLegalEntities)
}

// describeLegalEntities adds the descriptions of these routes, and the
// components they name, to docs.
func describeLegalEntities(docs *openapi.Registry) {
	docs.Component("LegalEntity", legalEntity{})
	docs.Describe("legal_entity.list",
		openapi.Op{Summary: "List legal entities available to the caller", Response: listOf(legalEntity{})})
}

type legalEntity struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Structure string `json:"structure,omitempty" enum:"person,llc,lp,llp,gp,partnership,cooperative,ccorp,scorp,other"`
}

// listLegalEntities is the one call a user key may make without
// x-legal-entity; with the header it still lists every entity the key
// may act on.
func (a *API) listLegalEntities(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1, headerOptional: true})
	if err != nil {
		return nil, err
	}
	var les []kernel.LegalEntity
	err = c.view(func(op *kernel.Op) error {
		les, err = ledger.LegalEntities(op, c.P)
		return err
	})
	if err != nil {
		return nil, err
	}
	items := make([]legalEntity, len(les))
	for i, le := range les {
		items[i] = legalEntity{ID: le.ID, Name: le.Name, Structure: le.Structure}
	}
	return newList(items, ""), nil
}
