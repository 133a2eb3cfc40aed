package api

import (
	"encoding/json"
	"net/http"
	"slices"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesCards(r *mux.Router, docs *openapi.Registry) {
	describeCards(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/card", "card.list", a.listCards)
	web.Route(r, web.Gen1, http.MethodPost, "/card", "card.create", a.createCard)
	web.Route(r, web.Gen1, http.MethodGet, "/card/{cardId}", "card.get", a.getCard)
	web.Route(r, web.Gen1, http.MethodGet, web.VaultPath+"/card/{cardId}", "card.vault_get", a.getVaultCard)
	web.Route(r, web.Gen1, http.MethodPatch, "/card/{cardId}", "card.update", a.updateCard)
	web.Route(r, web.Gen1, http.MethodGet, "/card/{cardId}/utilization", "card.utilization", a.cardUtilization)
	web.Route(r, web.Gen1, http.MethodPut, "/card/{cardId}/spending-constraint", "card.spending_constraint.replace",
		a.replaceConstraint("cardId", cards.ReplaceConstraint))
	web.Route(r, web.Gen1, http.MethodPatch, "/card/{cardId}/spending-constraint", "card.spending_constraint.update",
		a.patchConstraint("cardId", cards.PatchConstraint))
	a.shows("card.update", listed(currentCard))
	a.shows("card.spending_constraint.replace", currentCardConstraint)
	a.shows("card.spending_constraint.update", currentCardConstraint)
	a.routesCardModifiers(r, docs)
	a.routesCardEvents(r, docs)
}

// describeCards adds the descriptions of these routes, and the components
// they name, to docs.
func describeCards(docs *openapi.Registry) {
	docs.Component("Card", card{})
	docs.Component("CardStatus", oneOfStrings(cards.Statuses...))
	docs.Component("CardModifier", cards.Modifier{})
	docs.Component("CardGroupUtilization", utilization{})
	docs.Component("UserData", described(openapi.Schema{"type": "object"}, "The caller's own JSON object, at most 4 KB."))
	flag := openapi.Schema{"type": "string", "enum": []string{"true", "false"}}
	docs.Describe("card.list", openapi.Op{Summary: "List cards", Query: []openapi.Param{cursorParam, legalEntityFilter,
		{
			Name: "filter:accountId",
		}, {Name: "filter:virtualAccountId"}, {Name: "filter:status", Schema: openapi.Ref("CardStatus")},
		{
			Name:        "filter:cardGroupId",
			Description: "Not with filter:cardGroupName.",
		}, {Name: "filter:cardGroupName", Description: "Not with filter:cardGroupId."},
		{Name: "filter:modifier", Description: "name:value of a modifier, e.g. only_allow_recurring_payments:true.",
			Schema: openapi.Schema{
				"type": "string",
				"enum": []string{"only_allow_recurring_payments:true", "only_allow_recurring_payments:false"},
			}},
		{Name: "sort", Description: "Creation order by default.", Schema: oneOfStrings("createdAt", "name")},
		{Name: "sortDirection", Description: "ASC by default.", Schema: oneOfStrings("ASC", "DESC")}},
		Response: listOf(card{})})
	docs.Describe(
		"card.create",
		keyed(openapi.Op{Summary: "Create a virtual card", Status: http.StatusCreated, Response: card{},
			Description: "With a legal-entity key accountId defaults to the first commercial account; a user key must give it.",
			Body: object(openapi.Schema{"accountId": stringType, "virtualAccountId": stringType, "type": oneOfStrings("virtual"),
				"name": cardName, "spendingConstraint": constraintInput(false), "isSingleUse": booleanType,
				"userData": openapi.Ref("UserData"), "cardGroupId": stringType, "cardProductId": stringType}, "type", "name")}),
	)
	docs.Describe("card.get", openapi.Op{Summary: "Get a card", Response: card{},
		Description: "include_pan and include_cvv are accepted and ignored here, as on the real service's main host:" +
			" the PAN and CVV are revealed only at the vault address, GET " + web.VaultPath + "/card/{cardId}.",
		Query: []openapi.Param{{Name: "include_pan", Schema: flag}, {Name: "include_cvv", Schema: flag}}})
	docs.Describe("card.vault_get", openapi.Op{Summary: "Get a card, its PAN and CVV revealed (the vault)",
		Response: card{},
		Description: "The vault address, which stands for https://vault.joinslash.com: the card as GET /card/{cardId}" +
			" answers it, with pan when include_pan=true and cvv when include_cvv=true. An SDK reaches it with the" +
			" sandbox's address followed by " + web.VaultPath + " as its base URL.",
		Query: []openapi.Param{{Name: "include_pan", Schema: flag}, {Name: "include_cvv", Schema: flag}}})
	docs.Describe("card.update", openapi.Op{Summary: "Update a card", Response: card{},
		Description: "Absent properties stay as they are; cardGroupId, spendingConstraint and userData set to null are" +
			" removed.",
		Body: object(openapi.Schema{"name": cardName, "status": openapi.Ref("CardStatus"),
			"cardGroupId":        openapi.Nullable(stringType),
			"spendingConstraint": openapi.Nullable(constraintInput(false)),
			"userData":           openapi.Nullable(openapi.Ref("UserData"))})})
	docs.Describe("card.utilization", openapi.Op{Summary: "A card's spend against its limit", Response: utilization{}})
	docs.Describe("card.spending_constraint.replace", openapi.Op{Summary: "Replace a card's spending constraint",
		Body: constraintInput(false), Response: cards.SpendingConstraint{}})
	docs.Describe("card.spending_constraint.update", openapi.Op{Summary: "Merge into a card's spending constraint",
		Description: "A JSON merge patch: what the body names changes, null removes, the rest is kept.",
		Body:        constraintInput(true), Response: cards.SpendingConstraint{}})
}

// cardName is a card's or card group's name.
var cardName = openapi.Schema{"type": "string", "minLength": 1, "maxLength": 255}

type card struct {
	ID                 string                    `json:"id"`
	AccountID          string                    `json:"accountId"`
	VirtualAccountID   string                    `json:"virtualAccountId,omitempty"`
	Last4              string                    `json:"last4"`
	Name               string                    `json:"name"`
	ExpiryMonth        string                    `json:"expiryMonth"`
	ExpiryYear         string                    `json:"expiryYear"`
	Status             string                    `json:"status" ref:"CardStatus"`
	IsPhysical         bool                      `json:"isPhysical"`
	IsSingleUse        bool                      `json:"isSingleUse"`
	PAN                string                    `json:"pan,omitempty"`
	CVV                string                    `json:"cvv,omitempty"`
	CardGroupID        string                    `json:"cardGroupId,omitempty"`
	CardGroupName      string                    `json:"cardGroupName,omitempty"`
	CreatedAt          string                    `json:"createdAt" format:"date-time"`
	SpendingConstraint *cards.SpendingConstraint `json:"spendingConstraint,omitempty"`
	UserData           json.RawMessage           `json:"userData,omitempty" ref:"UserData"`
	CardProductID      string                    `json:"cardProductId,omitempty"`
	Modifiers          []cards.Modifier          `json:"modifiers,omitempty"`
}

// cardSecrets says which secrets a card view shows.
type cardSecrets struct{ pan, cvv bool }

// cardViews renders cards, naming each card's group.
func cardViews(op *kernel.Op, a *kernel.Actor, list []cards.Card, s cardSecrets) ([]card, error) {
	names := map[string]string{}
	out := make([]card, len(list))
	for i := range list {
		c := &list[i]
		if _, ok := names[c.CardGroupID]; c.CardGroupID != "" && !ok {
			g, err := cards.GroupOf(op, a, c.CardGroupID, "")
			if err != nil {
				return nil, err
			}
			names[g.ID] = g.Name
		}
		out[i] = card{ID: c.ID, AccountID: c.AccountID, VirtualAccountID: c.VirtualAccountID, Last4: c.Last4(),
			Name: c.Name, ExpiryMonth: c.ExpiryMonth, ExpiryYear: c.ExpiryYear, Status: c.Status, IsPhysical: c.IsPhysical,
			IsSingleUse: c.IsSingleUse, CardGroupID: c.CardGroupID, CardGroupName: names[c.CardGroupID],
			CreatedAt: timestamp(c.CreatedAt), SpendingConstraint: c.SpendingConstraint, UserData: c.UserData,
			CardProductID: c.CardProductID, Modifiers: c.Modifiers}
		if s.pan {
			out[i].PAN = c.PAN
		}
		if s.cvv {
			out[i].CVV = c.CVV
		}
	}
	return out, nil
}

func cardView(op *kernel.Op, a *kernel.Actor, c *cards.Card, s cardSecrets) (card, error) {
	views, err := cardViews(op, a, []cards.Card{*c}, s)
	if err != nil {
		return card{}, err
	}
	return views[0], nil
}

// cardFilter reads the card list's query.
func cardFilter(r *http.Request) (cards.Filter, error) {
	q := r.URL.Query()
	f := cards.Filter{AccountID: q.Get("filter:accountId"), VirtualAccountID: q.Get("filter:virtualAccountId"),
		CardGroup: q.Get("filter:cardGroupId"), CardGroupName: q.Get("filter:cardGroupName"),
		Status: q.Get("filter:status"), Modifier: q.Get("filter:modifier"), Sort: q.Get("sort")}
	switch q.Get("sortDirection") {
	case "", "ASC":
	case "DESC":
		f.Desc = true
	default:
		return f, kernel.InvalidField("sortDirection", "must be ASC or DESC")
	}
	return f, f.Validate()
}

func (a *API) listCards(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	if err := c.Actor.CheckLegalEntityFilter("filter:legalEntityId",
		r.URL.Query().Get("filter:legalEntityId")); err != nil {
		return nil, err
	}
	f, err := cardFilter(r)
	if err != nil {
		return nil, err
	}
	after, err := decodeCursor(r, c)
	if err != nil {
		return nil, err
	}
	var items []card
	var next string
	err = c.view(func(op *kernel.Op) error {
		page, err := cards.List(op, c.Actor, f, kernel.PageRequest{After: after})
		if err != nil {
			return err
		}
		next = page.Next
		items, err = cardViews(op, c.Actor, page.Items, cardSecrets{})
		return err
	})
	if err != nil {
		return nil, err
	}
	return newList(items, encodeCursor(r, c, next)), nil
}

// flagParam reads a "true"|"false" query parameter.
func flagParam(r *http.Request, name string) (bool, error) {
	switch v := r.URL.Query().Get(name); v {
	case "", "false":
		return false, nil
	case "true":
		return true, nil
	}
	return false, kernel.InvalidField(name, `must be "true" or "false"`)
}

// getCard answers a card at the main address: the flags are checked but
// reveal nothing, as the real service reveals the PAN and CVV only at its
// vault host.
func (a *API) getCard(r *http.Request) (any, error) { return a.readCard(r, false) }

// getVaultCard answers a card at the vault address, where include_pan and
// include_cvv reveal the PAN and CVV.
func (a *API) getVaultCard(r *http.Request) (any, error) { return a.readCard(r, true) }

func (a *API) readCard(r *http.Request, vault bool) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var s cardSecrets
	if s.pan, err = flagParam(r, "include_pan"); err != nil {
		return nil, err
	}
	if s.cvv, err = flagParam(r, "include_cvv"); err != nil {
		return nil, err
	}
	if !vault {
		s = cardSecrets{}
	}
	var out card
	err = c.view(func(op *kernel.Op) error {
		cd, err := cards.CardOf(op, c.Actor, mux.Vars(r)["cardId"], "")
		if err != nil {
			return err
		}
		out, err = cardView(op, c.Actor, cd, s)
		return err
	})
	return out, err
}

type createCardBody struct {
	AccountID          *string         `json:"accountId,omitempty"`
	VirtualAccountID   *string         `json:"virtualAccountId,omitempty"`
	Type               *string         `json:"type,omitempty"`
	Name               *string         `json:"name,omitempty"`
	SpendingConstraint json.RawMessage `json:"spendingConstraint"`
	IsSingleUse        *bool           `json:"isSingleUse,omitempty"`
	UserData           json.RawMessage `json:"userData"`
	CardGroupID        *string         `json:"cardGroupId,omitempty"`
	CardProductID      *string         `json:"cardProductId,omitempty"`
}

// givenJSON reports whether a raw property was given and is not null.
func givenJSON(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// newCard checks a create body and turns it into the engine's request.
func newCard(c *call, raw []byte) (cards.NewCard, error) {
	var b createCardBody
	if err := web.DecodeBytes(raw, &b, true); err != nil {
		return cards.NewCard{}, err
	}
	n := cards.NewCard{AccountID: jsonshape.Value(b.AccountID), VirtualAccountID: jsonshape.Value(b.VirtualAccountID),
		CardGroupID: jsonshape.Value(b.CardGroupID), CardProductID: jsonshape.Value(b.CardProductID),
		Name: jsonshape.Value(b.Name), IsSingleUse: b.IsSingleUse != nil && *b.IsSingleUse}
	switch {
	case b.Type == nil:
		return n, kernel.InvalidField("/type", `required; the only card type is "virtual"`)
	case *b.Type != "virtual":
		return n, kernel.InvalidField("/type", `must be "virtual"`)
	case b.Name == nil:
		return n, kernel.InvalidField("/name", "required")
	}
	if err := cards.CheckAccountGiven(c.P, n.AccountID); err != nil {
		return n, err
	}
	if err := cards.CheckName("/name", n.Name); err != nil {
		return n, err
	}
	var err error
	if b.UserData != nil {
		if n.UserData, err = cards.CheckUserData("/userData", b.UserData); err != nil {
			return n, err
		}
	}
	if b.SpendingConstraint != nil {
		n.Constraint, err = cards.ParseConstraint(b.SpendingConstraint, "/spendingConstraint", c.W.Now(), c.W.Catalog)
	}
	return n, err
}

func (a *API) createCard(r *http.Request) (any, error) {
	var n cards.NewCard
	return a.doWrite(r, write{
		gen:    web.Gen1,
		idem:   idemOptional,
		status: http.StatusCreated,
		input: func(c *call, raw []byte) (err error) {
			n, err = newCard(c, raw)
			return err
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			cd, err := cards.Create(op, c.Actor, n)
			if err != nil {
				return nil, err
			}
			return cardView(op, c.Actor, cd, cardSecrets{})
		},
	})
}

var cardUpdateFields = []string{"name", "status", "cardGroupId", "spendingConstraint", "userData"}

// cardUpdate checks a PATCH body: absent properties stay, null removes the
// group, the userData or the whole spending constraint.
func cardUpdate(c *call, raw []byte) (cards.CardUpdate, error) {
	var u cards.CardUpdate
	var body map[string]json.RawMessage
	if err := web.DecodeBytes(raw, &body, true); err != nil {
		return u, err
	}
	if body == nil {
		return u, kernel.InvalidField("body", "must be a JSON object")
	}
	for k := range body {
		if !slices.Contains(cardUpdateFields, k) {
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
	if u.Status, err = stringPatch(body, "status", false); err != nil {
		return u, err
	}
	if u.Status.Set && !slices.Contains(cards.Statuses, u.Status.Value) {
		return u, kernel.InvalidField("/status", "must be one of active, paused, inactive, closed")
	}
	if u.CardGroupID, err = stringPatch(body, "cardGroupId", true); err != nil {
		return u, err
	}
	if raw, ok := body["userData"]; ok {
		u.UserData = cards.Patch[json.RawMessage]{Set: true, Null: !givenJSON(raw)}
		if givenJSON(raw) {
			if u.UserData.Value, err = cards.CheckUserData("/userData", raw); err != nil {
				return u, err
			}
		}
	}
	u.Constraint, err = constraintPatch(c, body, "spendingConstraint")
	return u, err
}

// stringPatch reads a string property of a PATCH body.
func stringPatch(body map[string]json.RawMessage, name string, nullable bool) (cards.Patch[string], error) {
	raw, ok := body[name]
	if !ok {
		return cards.Patch[string]{}, nil
	}
	if !givenJSON(raw) {
		if !nullable {
			return cards.Patch[string]{}, kernel.InvalidField("/"+name, "must not be null")
		}
		return cards.Patch[string]{Set: true, Null: true}, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return cards.Patch[string]{}, kernel.InvalidField("/"+name, "must be a string")
	}
	return cards.Patch[string]{Set: true, Value: s}, nil
}

// constraintPatch reads a spendingConstraint property of a PATCH body: a
// whole constraint that replaces the old one, or null to remove it.
func constraintPatch(
	c *call,
	body map[string]json.RawMessage,
	name string,
) (cards.Patch[*cards.SpendingConstraint], error) {
	raw, ok := body[name]
	if !ok {
		return cards.Patch[*cards.SpendingConstraint]{}, nil
	}
	p := cards.Patch[*cards.SpendingConstraint]{Set: true, Null: !givenJSON(raw)}
	if p.Null {
		return p, nil
	}
	var err error
	p.Value, err = cards.ParseConstraint(raw, "/"+name, c.W.Now(), c.W.Catalog)
	return p, err
}

func (a *API) updateCard(r *http.Request) (any, error) {
	var u cards.CardUpdate
	return a.doWrite(r, write{
		gen: web.Gen1,
		input: func(c *call, raw []byte) (err error) {
			u, err = cardUpdate(c, raw)
			return err
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			cd, err := cards.Update(op, c.Actor, mux.Vars(r)["cardId"], u)
			if err != nil {
				return nil, err
			}
			return cardView(op, c.Actor, cd, cardSecrets{})
		},
	})
}

// utilization is the API's CardGroupUtilization, for cards and groups.
type utilization struct {
	NextResetDate    string `json:"nextResetDate,omitempty" format:"date-time"`
	Spend            money  `json:"spend"`
	AvailableBalance *money `json:"availableBalance,omitempty"`
}

func utilizationView(u cards.Utilization) utilization {
	v := utilization{Spend: money{u.Spend}}
	if u.Available != nil {
		v.AvailableBalance = &money{*u.Available}
	}
	if u.NextReset != nil {
		v.NextResetDate = timestamp(*u.NextReset)
	}
	return v
}

func (a *API) cardUtilization(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var u cards.Utilization
	err = c.view(func(op *kernel.Op) error {
		u, err = cards.CardUtilization(op, c.Actor, mux.Vars(r)["cardId"])
		return err
	})
	if err != nil {
		return nil, err
	}
	return utilizationView(u), nil
}

// constraintBody checks a PUT spending-constraint body (a whole
// constraint) or a PATCH one (a partial constraint, merged in run).
func constraintBody(c *call, raw []byte, partial bool, whole **cards.SpendingConstraint) error {
	if partial {
		_, err := cards.MergeConstraint(nil, raw, "", c.W.Now(), c.W.Catalog)
		if e, ok := kernel.AsError(err); ok && onlyRequired(e) {
			return nil
		}
		return err
	}
	var err error
	*whole, err = cards.ParseConstraint(raw, "", c.W.Now(), c.W.Catalog)
	return err
}

// onlyRequired reports whether every problem is a property a merge may
// still supply from the stored constraint.
func onlyRequired(e *kernel.Error) bool {
	if len(e.Details) == 0 {
		return false
	}
	for _, v := range e.Details {
		if v != "required" {
			return false
		}
	}
	return true
}

// replaceConstraint is the PUT …/spending-constraint handler of a card or
// card group whose id is the path variable idVar.
func (a *API) replaceConstraint(
	idVar string,
	replace func(*kernel.Op, *kernel.Actor, string, *cards.SpendingConstraint) (*cards.SpendingConstraint, error),
) web.Func {
	return func(r *http.Request) (any, error) {
		var sc *cards.SpendingConstraint
		return a.doWrite(r, write{
			gen:   web.Gen1,
			input: func(c *call, raw []byte) error { return constraintBody(c, raw, false, &sc) },
			run: func(op *kernel.Op, c *call) (any, error) {
				return replace(op, c.Actor, mux.Vars(r)[idVar], sc)
			},
		})
	}
}

// patchConstraint is the PATCH …/spending-constraint handler of a card or
// card group: a merge patch where null removes.
func (a *API) patchConstraint(
	idVar string,
	patch func(*kernel.Op, *kernel.Actor, string, []byte) (*cards.SpendingConstraint, error),
) web.Func {
	return func(r *http.Request) (any, error) {
		var raw []byte
		return a.doWrite(r, write{
			gen: web.Gen1,
			input: func(c *call, body []byte) error {
				raw = body
				return constraintBody(c, body, true, nil)
			},
			run: func(op *kernel.Op, c *call) (any, error) {
				return patch(op, c.Actor, mux.Vars(r)[idVar], raw)
			},
		})
	}
}

// currentCard is a card as GET shows it, without its secrets.
func currentCard(op *kernel.Op, c *call, vars map[string]string) (any, error) {
	cd, err := cards.CardOf(op, c.Actor, vars["cardId"], "")
	if err != nil {
		return nil, err
	}
	return cardView(op, c.Actor, cd, cardSecrets{})
}

// currentCardConstraint is a card's spending constraint, or the card
// itself when it has none.
func currentCardConstraint(op *kernel.Op, c *call, vars map[string]string) (any, error) {
	cd, err := cards.CardOf(op, c.Actor, vars["cardId"], "")
	if err != nil {
		return nil, err
	}
	v, err := cardView(op, c.Actor, cd, cardSecrets{})
	if err != nil || v.SpendingConstraint == nil {
		return v, err
	}
	return v.SpendingConstraint, nil
}
