package api

import (
	"encoding/json"
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox"
	"github.com/slash-sandbox/slash-sandbox/sandbox/web"
)

func (a *API) routesCardGroups(r *mux.Router) {
	web.Route(r, web.Gen1, http.MethodGet, "/card-group", "card_group.list", a.listCardGroups)
	web.Route(r, web.Gen1, http.MethodPost, "/card-group", "card_group.create", a.createCardGroup)
	web.Route(r, web.Gen1, http.MethodGet, "/card-group/{cardGroupId}", "card_group.get", a.getCardGroup)
	web.Route(r, web.Gen1, http.MethodPatch, "/card-group/{cardGroupId}", "card_group.update", a.updateCardGroup)
	web.Route(r, web.Gen1, http.MethodGet, "/card-group/{cardGroupId}/utilization", "card_group.utilization", a.cardGroupUtilization)
	web.Route(r, web.Gen1, http.MethodPut, "/card-group/{cardGroupId}/spending-constraint", "card_group.spending_constraint.replace", a.replaceConstraint("cardGroupId", (*sandbox.Op).ReplaceGroupConstraint))
	web.Route(r, web.Gen1, http.MethodPatch, "/card-group/{cardGroupId}/spending-constraint", "card_group.spending_constraint.update", a.patchConstraint("cardGroupId", (*sandbox.Op).PatchGroupConstraint))
}

// cardGroup is the API's CardGroup. virtualAccountId is deprecated: it
// carries the legacy association, or null when the group has none.
type cardGroup struct {
	ID                 string                      `json:"id"`
	Name               string                      `json:"name"`
	VirtualAccountID   *string                     `json:"virtualAccountId"`
	SpendingConstraint *sandbox.SpendingConstraint `json:"spendingConstraint,omitempty"`
}

func cardGroupView(g *sandbox.CardGroup) cardGroup {
	v := cardGroup{ID: g.ID, Name: g.Name, SpendingConstraint: g.SpendingConstraint}
	if g.VirtualAccountID != "" {
		va := g.VirtualAccountID
		v.VirtualAccountID = &va
	}
	return v
}

func (a *API) listCardGroups(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	f := sandbox.GroupFilter{Name: q.Get("filter:name"), VirtualAccountID: q.Get("filter:virtualAccountId"), Status: q.Get("filter:status")}
	after, err := decodeCursor(r, c)
	if err != nil {
		return nil, err
	}
	var page sandbox.Page[sandbox.CardGroup]
	err = c.W.View(func(op *sandbox.Op) error {
		page, err = op.CardGroups(c.Actor, f, sandbox.PageRequest{After: after})
		return err
	})
	if err != nil {
		return nil, err
	}
	items := make([]cardGroup, len(page.Items))
	for i := range page.Items {
		items[i] = cardGroupView(&page.Items[i])
	}
	return newList(items, encodeCursor(r, c, page.Next)), nil
}

func (a *API) getCardGroup(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var g *sandbox.CardGroup
	err = c.W.View(func(op *sandbox.Op) error {
		g, err = op.CardGroupOf(c.Actor, mux.Vars(r)["cardGroupId"], "")
		return err
	})
	if err != nil {
		return nil, err
	}
	return cardGroupView(g), nil
}

type createCardGroupBody struct {
	Name               *string         `json:"name"`
	VirtualAccountID   *string         `json:"virtualAccountId"`
	SpendingConstraint json.RawMessage `json:"spendingConstraint"`
}

func newCardGroup(c *call, raw []byte) (sandbox.NewCardGroup, error) {
	var b createCardGroupBody
	if err := web.DecodeBytes(raw, &b, true); err != nil {
		return sandbox.NewCardGroup{}, err
	}
	if b.Name == nil {
		return sandbox.NewCardGroup{}, sandbox.InvalidField("/name", "required")
	}
	n := sandbox.NewCardGroup{Name: *b.Name, VirtualAccountID: optString(b.VirtualAccountID)}
	if err := sandbox.CheckName("/name", n.Name); err != nil {
		return n, err
	}
	var err error
	if givenJSON(b.SpendingConstraint) {
		n.Constraint, err = sandbox.ParseConstraint(b.SpendingConstraint, "/spendingConstraint", c.W.Now(), c.W.Catalog)
	}
	return n, err
}

func (a *API) createCardGroup(r *http.Request) (any, error) {
	var n sandbox.NewCardGroup
	return a.doWrite(r, write{
		gen: web.Gen1,
		input: func(c *call, raw []byte) (err error) {
			n, err = newCardGroup(c, raw)
			return err
		},
		run: func(op *sandbox.Op, c *call) (any, error) {
			g, err := op.CreateCardGroup(c.Actor, n)
			if err != nil {
				return nil, err
			}
			return cardGroupView(g), nil
		},
	})
}

// cardGroupUpdate checks a PATCH body: name, and a whole spending
// constraint that replaces the old one (null removes it).
func cardGroupUpdate(c *call, raw []byte) (sandbox.GroupUpdate, error) {
	var u sandbox.GroupUpdate
	var body map[string]json.RawMessage
	if err := web.DecodeBytes(raw, &body, true); err != nil {
		return u, err
	}
	if body == nil {
		return u, sandbox.InvalidField("body", "must be a JSON object")
	}
	for k := range body {
		if k != "name" && k != "spendingConstraint" {
			return u, sandbox.InvalidField("/"+k, "is not a known property")
		}
	}
	var err error
	if u.Name, err = stringPatch(body, "name", false); err != nil {
		return u, err
	}
	if u.Name.Set {
		if err := sandbox.CheckName("/name", u.Name.Value); err != nil {
			return u, err
		}
	}
	u.Constraint, err = constraintPatch(c, body, "spendingConstraint")
	return u, err
}

func (a *API) updateCardGroup(r *http.Request) (any, error) {
	var u sandbox.GroupUpdate
	return a.doWrite(r, write{
		gen: web.Gen1,
		input: func(c *call, raw []byte) (err error) {
			u, err = cardGroupUpdate(c, raw)
			return err
		},
		run: func(op *sandbox.Op, c *call) (any, error) {
			g, err := op.UpdateCardGroup(c.Actor, mux.Vars(r)["cardGroupId"], u)
			if err != nil {
				return nil, err
			}
			return cardGroupView(g), nil
		},
	})
}

func (a *API) cardGroupUtilization(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var u sandbox.Utilization
	err = c.W.View(func(op *sandbox.Op) error {
		u, err = op.GroupUtilization(c.Actor, mux.Vars(r)["cardGroupId"])
		return err
	})
	if err != nil {
		return nil, err
	}
	return utilizationView(u), nil
}
