package api

import (
	"net/http"
	"slices"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// Card modifiers are an enterprise feature: other legal entities get 403.

func (a *API) routesCardModifiers(r *mux.Router, docs *openapi.Registry) {
	describeCardModifiers(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/card/{cardId}/modifier", "card.modifier.list", a.listCardModifiers)
	web.Route(r, web.Gen1, http.MethodPut, "/card/{cardId}/modifier", "card.modifier.set", a.setCardModifier)
	web.Route(r, web.Gen1, http.MethodPatch, "/card/{cardId}/modifier", "card.modifier.update", a.setCardModifier)
	a.shows("card.modifier.set", currentCardModifiers)
	a.shows("card.modifier.update", currentCardModifiers)
}

// describeCardModifiers adds the descriptions of these routes to docs.
func describeCardModifiers(docs *openapi.Registry) {
	body := object(openapi.Schema{"name": oneOfStrings(cards.ModifierNames...), "value": booleanType}, "name", "value")
	docs.Describe("card.modifier.list", openapi.Op{Summary: "A card's modifiers (enterprise)", Response: cardModifiers{}})
	docs.Describe("card.modifier.set", openapi.Op{Summary: "Set one card modifier (enterprise)",
		Description: "Sets the named modifier and leaves the card's others as they are.", Body: body, Response: success{}})
	docs.Describe("card.modifier.update", openapi.Op{Summary: "Set one card modifier (enterprise)",
		Description: "The same as PUT: sets the named modifier and leaves the card's others as they are.", Body: body,
		Response: success{}})
}

// cardModifiers is the body of GET /card/{cardId}/modifier.
type cardModifiers struct {
	Modifiers []cards.Modifier `json:"modifiers"`
}

func (a *API) listCardModifiers(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var mods []cards.Modifier
	err = c.view(func(op *kernel.Op) error {
		mods, err = cards.Modifiers(op, c.Actor, mux.Vars(r)["cardId"])
		return err
	})
	if err != nil {
		return nil, err
	}
	if mods == nil {
		mods = []cards.Modifier{}
	}
	return cardModifiers{Modifiers: mods}, nil
}

type modifierBody struct {
	Name  *string `json:"name"`
	Value *bool   `json:"value"`
}

// setCardModifier sets one modifier by name (PUT and PATCH alike): an
// upsert that leaves the card's other modifiers as they are.
func (a *API) setCardModifier(r *http.Request) (any, error) {
	var m cards.Modifier
	return a.doWrite(r, write{
		gen: web.Gen1,
		input: func(c *call, raw []byte) error {
			if err := cards.RequireEnterprise(c.Actor, "card modifiers"); err != nil {
				return err
			}
			var b modifierBody
			if err := web.DecodeBytes(raw, &b, true); err != nil {
				return err
			}
			switch {
			case b.Name == nil:
				return kernel.InvalidField("/name", "required")
			case !slices.Contains(cards.ModifierNames, *b.Name):
				return kernel.InvalidField("/name", "must be only_allow_recurring_payments")
			case b.Value == nil:
				return kernel.InvalidField("/value", "required (true or false)")
			}
			m = cards.Modifier{Name: *b.Name, Value: *b.Value}
			return nil
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			if err := cards.SetModifier(op, c.Actor, mux.Vars(r)["cardId"], m); err != nil {
				return nil, err
			}
			return success{Success: true}, nil
		},
	})
}

// currentCardModifiers is a card's modifiers as GET lists them.
func currentCardModifiers(op *kernel.Op, c *call, vars map[string]string) (any, error) {
	mods, err := cards.Modifiers(op, c.Actor, vars["cardId"])
	if mods == nil {
		mods = []cards.Modifier{}
	}
	return cardModifiers{Modifiers: mods}, err
}
