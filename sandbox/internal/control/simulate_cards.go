package control

import (
	"net/http"
	"slices"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/api"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (c *Control) routesSimulateCards(s *mux.Router) {
	route := func(method, path, name string, fn web.Func) { web.Route(s, web.Gen2, method, path, name, fn) }
	route(http.MethodPost, "/simulate/card-authorization", "sandbox.simulate.card_authorization", c.simulateAuthorization)
	route(http.MethodPost, "/simulate/card-event", "sandbox.simulate.card_event", c.simulateCardEvent)
}

// merchantBody is a merchant described in full.
type merchantBody struct {
	Name       string `json:"name"`
	MCC        string `json:"mcc"`
	CategoryID string `json:"categoryId"`
	Country    string `json:"country"`
	City       string `json:"city"`
	State      string `json:"state"`
	Zip        string `json:"zip"`
}

// merchantOf resolves a request's merchant: a fixtures merchant by id or
// one described in full, exactly one of the two.
func merchantOf(w *kernel.World, id string, m *merchantBody) (*cards.Merchant, error) {
	switch {
	case id != "" && m != nil:
		return nil, kernel.InvalidField("/merchant", "give merchantId or merchant, not both")
	case id != "":
		cm, ok := cards.CatalogMerchant(w.Catalog, id)
		if !ok {
			return nil, kernel.InvalidField("/merchantId", "is not a merchant of the fixtures catalogue (merchant_v2_…)")
		}
		return &cm, nil
	case m != nil:
		cm := &cards.Merchant{Name: m.Name, MCC: m.MCC, CategoryID: m.CategoryID, Country: strings.ToUpper(m.Country),
			City: m.City, State: m.State, Zip: m.Zip}
		return cm, cards.CheckMerchant(cm, "/merchant", w.Catalog)
	}
	return nil, kernel.InvalidField("/merchantId",
		"give merchantId (a fixtures merchant) or merchant {name, mcc, country}")
}

// maxSimulatedCents bounds simulated amounts ($10 billion), below the
// bound of every amount a request gives (sandbox.CheckAmount).
const maxSimulatedCents = 1_000_000_000_000

func checkAmount(p *int64, required bool) error {
	d := map[string]string{}
	switch {
	case p == nil && required:
		d["/amountCents"] = "required"
	case p != nil && *p > maxSimulatedCents:
		d["/amountCents"] = "must be at most " + ledger.FormatCents(maxSimulatedCents) + " in a simulation"
	default:
		ledger.CheckAmountOf(d, "/amountCents", p, 1)
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

// authorizationBody is a simulated purchase; absent properties are nil,
// none may be null.
type authorizationBody struct {
	CardID      string        `json:"cardId"`
	AmountCents *int64        `json:"amountCents,omitempty"`
	MerchantID  string        `json:"merchantId"`
	Merchant    *merchantBody `json:"merchant,omitempty"`
	Recurring   bool          `json:"recurring"`
}

// simulateAuthorization runs a card purchase through the real decision and
// says which rule decided it.
func (c *Control) simulateAuthorization(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var b authorizationBody
	if err := web.Decode(r, &b, true); err != nil {
		return nil, err
	}
	if b.CardID == "" {
		return nil, kernel.InvalidField("/cardId", "required")
	}
	if err := checkAmount(b.AmountCents, true); err != nil {
		return nil, err
	}
	m, err := merchantOf(w, b.MerchantID, b.Merchant)
	if err != nil {
		return nil, err
	}
	var out authorizationResult
	err = w.Update(func(op *kernel.Op) error {
		res, err := cards.SimulateAuthorization(op, cards.AuthorizationRequest{CardID: b.CardID, AmountCents: *b.AmountCents,
			Merchant: *m, Recurring: b.Recurring})
		if err != nil {
			return err
		}
		out = authorizationResult{Approved: res.Decision.Approved, Decision: api.DecisionView(&res.Decision),
			Transaction: api.TransactionView(res.Transaction), CardEvent: api.CardEventView(res.Event),
			Card: cardState{ID: res.Card.ID, Status: res.Card.Status}}
		return nil
	})
	return out, err
}

// authorizationResult answers a simulated authorization: the decision and
// what it recorded.
type authorizationResult struct {
	Approved    bool            `json:"approved"`
	Decision    *api.Decision   `json:"decision"`
	Transaction api.Transaction `json:"transaction"`
	CardEvent   api.CardEvent   `json:"cardEvent"`
	// Card is the card's status after the attempt (a single-use card
	// closes).
	Card cardState `json:"card"`
}

type cardState struct {
	ID     string `json:"id"`
	Status string `json:"status" enum:"active,paused,inactive,closed"`
}

// cardEventResult answers a simulated card event: the event, the
// transaction it changed, and for a verification the decision.
type cardEventResult struct {
	CardEvent   api.CardEvent    `json:"cardEvent"`
	Transaction *api.Transaction `json:"transaction,omitempty"`
	Approved    *bool            `json:"approved,omitempty"`
	Decision    *api.Decision    `json:"decision,omitempty"`
}

// cardEventBody is a simulated network event. Absent properties are nil,
// none may be null, and each type takes only its own (cardEventFields).
type cardEventBody struct {
	Type          string        `json:"type"`
	TransactionID *string       `json:"transactionId,omitempty"`
	AmountCents   *int64        `json:"amountCents,omitempty"`
	CardID        *string       `json:"cardId,omitempty"`
	MerchantID    *string       `json:"merchantId,omitempty"`
	Merchant      *merchantBody `json:"merchant,omitempty"`
}

// cardEventFields are the properties each card event type takes besides
// type.
var cardEventFields = map[string][]string{
	cards.EventVerification: {"cardId", "merchantId", "merchant"},
	cards.EventReversal:     {"transactionId"},
	cards.EventClearing:     {"transactionId", "amountCents"},
	cards.EventRefund:       {"transactionId", "amountCents"},
}

// foreignField names the first property the body gives that its type does
// not take ("" when none).
func (b cardEventBody) foreignField() string {
	given := []struct {
		name string
		set  bool
	}{{"transactionId", b.TransactionID != nil}, {"amountCents", b.AmountCents != nil}, {"cardId", b.CardID != nil},
		{"merchantId", b.MerchantID != nil}, {"merchant", b.Merchant != nil}}
	for _, g := range given {
		if g.set && !slices.Contains(cardEventFields[b.Type], g.name) {
			return g.name
		}
	}
	return ""
}

// networkEvent checks a card-event body against its type.
func networkEvent(w *kernel.World, b cardEventBody) (cards.NetworkEvent, error) {
	n := cards.NetworkEvent{
		Type:          b.Type,
		TransactionID: jsonshape.Value(b.TransactionID),
		AmountCents:   b.AmountCents,
		CardID:        jsonshape.Value(b.CardID),
	}
	if _, known := cardEventFields[b.Type]; !known {
		return n, kernel.InvalidField("/type", "must be one of "+strings.Join(cards.EventTypes, ", "))
	}
	if f := b.foreignField(); f != "" {
		return n, kernel.InvalidField("/"+f,
			"does not apply to a "+b.Type+"; it takes "+strings.Join(cardEventFields[b.Type], ", "))
	}
	if b.Type == cards.EventVerification {
		if n.CardID == "" {
			return n, kernel.InvalidField("/cardId", "required for a verification")
		}
		m, err := merchantOf(w, jsonshape.Value(b.MerchantID), b.Merchant)
		n.Merchant = m
		return n, err
	}
	if n.TransactionID == "" {
		return n, kernel.InvalidField("/transactionId", "required for a "+b.Type)
	}
	return n, checkAmount(b.AmountCents, false)
}

// simulateCardEvent applies a reversal, clearing, refund or verification.
func (c *Control) simulateCardEvent(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var b cardEventBody
	if err := web.Decode(r, &b, true); err != nil {
		return nil, err
	}
	n, err := networkEvent(w, b)
	if err != nil {
		return nil, err
	}
	var out cardEventResult
	err = w.Update(func(op *kernel.Op) error {
		res, err := cards.SimulateEvent(op, n)
		if err != nil {
			return err
		}
		out = cardEventResult{CardEvent: api.CardEventView(res.Event)}
		if res.Transaction != nil {
			t := api.TransactionView(res.Transaction)
			out.Transaction = &t
		}
		if res.Decision != nil {
			approved := res.Decision.Approved
			out.Approved, out.Decision = &approved, api.DecisionView(res.Decision)
		}
		return nil
	})
	return out, err
}
