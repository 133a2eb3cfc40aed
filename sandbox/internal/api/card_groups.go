package api

import (
	"encoding/json"
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesCardGroups(r *mux.Router, docs *openapi.Registry) {
	describeCardGroups(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/card-group", "card_group.list", a.listCardGroups)
	web.Route(r, web.Gen1, http.MethodPost, "/card-group", "card_group.create", a.createCardGroup)
	web.Route(r, web.Gen1, http.MethodGet, "/card-group/{cardGroupId}", "card_group.get", a.getCardGroup)
	web.Route(r, web.Gen1, http.MethodPatch, "/card-group/{cardGroupId}", "card_group.update", a.updateCardGroup)
	web.Route(r, web.Gen1, http.MethodGet, "/card-group/{cardGroupId}/utilization", "card_group.utilization",
		a.cardGroupUtilization)
	web.Route(r, web.Gen1, http.MethodPut, "/card-group/{cardGroupId}/spending-constraint",
		"card_group.spending_constraint.replace", a.replaceConstraint("cardGroupId", cards.ReplaceGroupConstraint))
	web.Route(r, web.Gen1, http.MethodPatch, "/card-group/{cardGroupId}/spending-constraint",
		"card_group.spending_constraint.update", a.patchConstraint("cardGroupId", cards.PatchGroupConstraint))
	a.shows("card_group.update", listed(currentCardGroup))
	a.shows("card_group.spending_constraint.replace", currentGroupConstraint)
	a.shows("card_group.spending_constraint.update", currentGroupConstraint)
}

// describeCardGroups adds the descriptions of these routes, and the components
// they name, to docs.
func describeCardGroups(docs *openapi.Registry) {
	docs.Component("CardGroup", cardGroup{})
	docs.Component("SpendingConstraint", cards.SpendingConstraint{})
	docs.Describe("card_group.list", openapi.Op{Summary: "List card groups", Response: listOf(cardGroup{}),
		Query: []openapi.Param{
			cursorParam,
			{Name: "filter:name", Description: "The exact name."},
			{Name: "filter:virtualAccountId"},
			{
				Name:        "filter:status",
				Description: "active by default.",
				Schema:      oneOfStrings(cards.GroupActive, cards.GroupArchived),
			},
		}})
	docs.Describe("card_group.create", keyed(openapi.Op{Summary: "Create a card group", Response: cardGroup{},
		Body: object(openapi.Schema{"name": cardName, "spendingConstraint": constraintInput(false),
			"virtualAccountId": described(stringType,
				"Deprecated: the legacy association, by default the primary virtual account.")}, "name")}))
	docs.Describe("card_group.get", openapi.Op{Summary: "Get a card group", Response: cardGroup{}})
	docs.Describe("card_group.update", openapi.Op{Summary: "Rename a card group or replace its spending constraint",
		Description: "Absent properties stay as they are; spendingConstraint null removes the constraint.",
		Response:    cardGroup{},
		Body: object(openapi.Schema{
			"name": cardName, "spendingConstraint": openapi.Nullable(constraintInput(false)),
		})})
	docs.Describe("card_group.utilization",
		openapi.Op{Summary: "A card group's spend against its limit", Response: utilization{}})
	docs.Describe(
		"card_group.spending_constraint.replace",
		openapi.Op{Summary: "Replace a card group's spending constraint",
			Body: constraintInput(false), Response: cards.SpendingConstraint{}},
	)
	docs.Describe(
		"card_group.spending_constraint.update",
		openapi.Op{Summary: "Merge into a card group's spending constraint",
			Description: "A JSON merge patch: what the body names changes, null removes, the rest is kept.",
			Body:        constraintInput(true), Response: cards.SpendingConstraint{}},
	)
}

// constraintInput is a spending constraint in a request. A whole one
// (partial false) needs each rule's list, and each limit's amount and
// preset; a null property is absent and a rule without restriction is an
// allowlist. A partial one (a merge patch) needs nothing, and null removes;
// the items of utilizationLimitV2 are whole limits even then.
func constraintInput(partial bool) openapi.Schema {
	b := constraintSchemas{partial: partial}
	limit := b.limit()
	if partial {
		limit = constraintSchemas{}.limit()
	}
	return b.obj(openapi.Schema{
		"merchantCategoryRule": b.list("merchantCategories", described(stringType, "A merchant category id.")),
		"merchantRule":         b.list("merchants", described(stringType, "A merchant id.")),
		"countryRule":          b.list("countries", openapi.Schema{"type": "string", "pattern": "^[A-Z]{2}$"}),
		"merchantCategoryCodeRule": b.list("merchantCategoryCodes",
			openapi.Schema{"type": "string", "pattern": "^[0-9]{4}$"}),
		"spendingRule": b.opt(
			b.obj(openapi.Schema{"utilizationLimit": b.opt(b.limit()), "utilizationLimitV2": b.opt(arrayOf(limit)),
				"transactionSizeLimit": b.opt(b.obj(openapi.Schema{"minimum": b.opt(b.amount()), "maximum": b.opt(b.amount())}))}),
		),
	})
}

// constraintSchemas builds the parts of constraintInput.
type constraintSchemas struct{ partial bool }

// opt is an optional property: null means absent (or, in a patch, remove).
func (constraintSchemas) opt(s openapi.Schema) openapi.Schema { return openapi.Nullable(s) }

// req is a required property, optional and nullable in a patch.
func (b constraintSchemas) req(s openapi.Schema) openapi.Schema {
	if b.partial {
		return b.opt(s)
	}
	return s
}

func (b constraintSchemas) obj(props openapi.Schema, required ...string) openapi.Schema {
	if b.partial {
		required = nil
	}
	return object(props, required...)
}

func (b constraintSchemas) amount() openapi.Schema {
	return b.obj(openapi.Schema{"amountCents": b.req(openapi.Schema{"type": "integer", "minimum": 0})}, "amountCents")
}

func (b constraintSchemas) limit() openapi.Schema {
	return b.obj(openapi.Schema{"limitAmount": b.req(b.amount()), "preset": b.req(oneOfStrings(cards.Presets...)),
		"timezone": b.opt(described(stringType, "A canonical IANA zone (Area/Location); UTC when absent.")),
		"startDate": b.opt(
			described(openapi.Schema{"type": "string", "format": "date"}, "Today or a past day; ignored by daily limits."),
		)},
		"limitAmount", "preset")
}

func (b constraintSchemas) list(name string, item openapi.Schema) openapi.Schema {
	return b.opt(b.obj(openapi.Schema{name: b.req(arrayOf(item)),
		"restriction": b.opt(described(oneOfStrings(cards.Restrictions...), "allowlist when absent."))}, name))
}

// cardGroup is the API's CardGroup. virtualAccountId is deprecated: it
// carries the legacy association, or null when the group has none.
type cardGroup struct {
	ID                 string                    `json:"id"`
	Name               string                    `json:"name"`
	VirtualAccountID   *string                   `json:"virtualAccountId"`
	SpendingConstraint *cards.SpendingConstraint `json:"spendingConstraint,omitempty"`
}

func cardGroupView(g *cards.Group) cardGroup {
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
	f := cards.GroupFilter{
		Name:             q.Get("filter:name"),
		VirtualAccountID: q.Get("filter:virtualAccountId"),
		Status:           q.Get("filter:status"),
	}
	after, err := decodeCursor(r, c)
	if err != nil {
		return nil, err
	}
	var page kernel.Page[cards.Group]
	err = c.view(func(op *kernel.Op) error {
		page, err = cards.Groups(op, c.Actor, f, kernel.PageRequest{After: after})
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
	var g *cards.Group
	err = c.view(func(op *kernel.Op) error {
		g, err = cards.GroupOf(op, c.Actor, mux.Vars(r)["cardGroupId"], "")
		return err
	})
	if err != nil {
		return nil, err
	}
	return cardGroupView(g), nil
}

type createCardGroupBody struct {
	Name               *string         `json:"name,omitempty"`
	VirtualAccountID   *string         `json:"virtualAccountId,omitempty"`
	SpendingConstraint json.RawMessage `json:"spendingConstraint"`
}

func newCardGroup(c *call, raw []byte) (cards.NewGroup, error) {
	var b createCardGroupBody
	if err := web.DecodeBytes(raw, &b, true); err != nil {
		return cards.NewGroup{}, err
	}
	if b.Name == nil {
		return cards.NewGroup{}, kernel.InvalidField("/name", "required")
	}
	n := cards.NewGroup{Name: *b.Name, VirtualAccountID: jsonshape.Value(b.VirtualAccountID)}
	if err := cards.CheckName("/name", n.Name); err != nil {
		return n, err
	}
	var err error
	if b.SpendingConstraint != nil {
		n.Constraint, err = cards.ParseConstraint(b.SpendingConstraint, "/spendingConstraint", c.W.Now(), c.W.Catalog)
	}
	return n, err
}

func (a *API) createCardGroup(r *http.Request) (any, error) {
	var n cards.NewGroup
	return a.doWrite(r, write{
		gen:  web.Gen1,
		idem: idemOptional,
		input: func(c *call, raw []byte) (err error) {
			n, err = newCardGroup(c, raw)
			return err
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			g, err := cards.CreateGroup(op, c.Actor, n)
			if err != nil {
				return nil, err
			}
			return cardGroupView(g), nil
		},
	})
}

// cardGroupUpdate checks a PATCH body: name, and a whole spending
// constraint that replaces the old one (null removes it).
func cardGroupUpdate(c *call, raw []byte) (cards.GroupUpdate, error) {
	var u cards.GroupUpdate
	var body map[string]json.RawMessage
	if err := web.DecodeBytes(raw, &body, true); err != nil {
		return u, err
	}
	if body == nil {
		return u, kernel.InvalidField("body", "must be a JSON object")
	}
	for k := range body {
		if k != "name" && k != "spendingConstraint" {
			return u, kernel.InvalidField("/"+k, "is not a known property")
		}
	}
	var err error
	if u.Name, err = stringPatch(body, "name", false); err != nil {
		return u, err
	}
	if u.Name.Set {
		if err := cards.CheckName("/name", u.Name.Value); err != nil {
			return u, err
		}
	}
	u.Constraint, err = constraintPatch(c, body, "spendingConstraint")
	return u, err
}

func (a *API) updateCardGroup(r *http.Request) (any, error) {
	var u cards.GroupUpdate
	return a.doWrite(r, write{
		gen: web.Gen1,
		input: func(c *call, raw []byte) (err error) {
			u, err = cardGroupUpdate(c, raw)
			return err
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			g, err := cards.UpdateGroup(op, c.Actor, mux.Vars(r)["cardGroupId"], u)
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
	var u cards.Utilization
	err = c.view(func(op *kernel.Op) error {
		u, err = cards.GroupUtilization(op, c.Actor, mux.Vars(r)["cardGroupId"])
		return err
	})
	if err != nil {
		return nil, err
	}
	return utilizationView(u), nil
}

// currentCardGroup is a card group as GET shows it.
func currentCardGroup(op *kernel.Op, c *call, vars map[string]string) (any, error) {
	g, err := cards.GroupOf(op, c.Actor, vars["cardGroupId"], "")
	if err != nil {
		return nil, err
	}
	return cardGroupView(g), nil
}

// currentGroupConstraint is a card group's spending constraint, or the
// group itself when it has none.
func currentGroupConstraint(op *kernel.Op, c *call, vars map[string]string) (any, error) {
	g, err := cards.GroupOf(op, c.Actor, vars["cardGroupId"], "")
	if err != nil {
		return nil, err
	}
	v := cardGroupView(g)
	if v.SpendingConstraint == nil {
		return v, nil
	}
	return v.SpendingConstraint, nil
}
