package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesV2Contacts(r *mux.Router, docs *openapi.Registry) {
	describeV2Contacts(docs)
	web.Route(r, web.Gen2, http.MethodGet, "/v2/contacts", "v2.contact.list", a.listV2Contacts)
}

// describeV2Contacts adds the descriptions of these routes, and the
// components they name, to docs.
func describeV2Contacts(docs *openapi.Registry) {
	docs.Component("V2Contact", v2Contact{})
	docs.Describe(
		"v2.contact.list",
		openapi.Op{Summary: "List contacts (second generation)", Query: []openapi.Param{cursorParam},
			Response: listOf(v2Contact{})},
	)
}

type v2Contact struct {
	ID                 string           `json:"id"`
	Name               string           `json:"name"`
	RecipientType      string           `json:"recipientType"`
	RecipientLegalName string           `json:"recipientLegalName"`
	RecipientEmail     string           `json:"recipientEmail,omitempty"`
	Address            *parties.Address `json:"address,omitempty"`
	CreatedAt          string           `json:"createdAt"`
}

func (a *API) listV2Contacts(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen2})
	if err != nil {
		return nil, err
	}
	after, err := decodeCursor(r, c)
	if err != nil {
		return nil, err
	}
	var page kernel.Page[parties.Contact]
	err = c.view(func(op *kernel.Op) error {
		page, err = ledger.Contacts(op, c.Actor, kernel.PageRequest{After: after})
		return err
	})
	if err != nil {
		return nil, err
	}
	items := make([]v2Contact, len(page.Items))
	for i, ct := range page.Items {
		items[i] = v2Contact{
			ID:                 ct.ID,
			Name:               ct.Name,
			RecipientType:      ct.RecipientType,
			RecipientLegalName: ct.RecipientLegalName,
			RecipientEmail:     ct.RecipientEmail,
			Address:            ct.Address,
			CreatedAt:          timestamp(ct.CreatedAt),
		}
	}
	return newList(items, encodeCursor(r, c, page.Next)), nil
}
