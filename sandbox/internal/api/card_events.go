package api

import (
	"net/http"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// A card's network events, shaped as the published card event log, with
// the sandbox's own decision details beside its fields.

func (a *API) routesCardEvents(r *mux.Router, docs *openapi.Registry) {
	describeCardEvents(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/card/{cardId}/events", "card.event.list", a.listCardEvents)
}

// messageTypeFilter maps the values filter:messageType takes to message
// types. The published filter spells them authorisations, verifications,
// financials and reversals while items carry verification (and an older
// copy of the schema spelled reversals as reversal): every spelling is taken.
var messageTypeFilter = map[string]string{
	"authorisations": cards.MessageAuthorisations,
	"verifications":  cards.MessageVerification,
	"verification":   cards.MessageVerification,
	"financials":     cards.MessageFinancials,
	"reversals":      cards.MessageReversal,
	"reversal":       cards.MessageReversal,
}

var messageTypeFilterValues = []string{
	"authorisations",
	"verifications",
	"financials",
	"reversals",
	"verification",
	"reversal",
}

// describeCardEvents adds the descriptions of these routes, and the components
// they name, to docs.
func describeCardEvents(docs *openapi.Registry) {
	docs.Component("CardEvent", cardEvent{})
	docs.Describe("card.event.list", openapi.Op{Summary: "A card's network events, newest first",
		Description: "Authorisations, verifications, financials (clearings and refunds) and reversals. An authorisation and" +
			" the reversal, clearing or refunds that follow it share a lifeCycleId: the purchase transaction's id. type," +
			" decision, declineReason, transactionId, originalTransactionId and merchantData are the sandbox's own details.",
		Query: []openapi.Param{cursorParam, {Name: "filter:messageType",
			Description: "Only events of this message type; the singular verification and reversal are taken too.",
			Schema:      oneOfStrings(messageTypeFilterValues...)}},
		Response: listOf(cardEvent{})})
}

// cardEvent is an item of GET /card/{cardId}/events: the published card
// event log's fields, then the sandbox's own.
type cardEvent struct {
	Timestamp              string `json:"timestamp" format:"date-time"`
	MessageType            string `json:"messageType" enum:"verification,authorisations,financials,reversals"`
	ProcessorTransactionID string `json:"processorTransactionId" doc:"The event's own id."`
	LifeCycleID            string `json:"lifeCycleId" doc:"Shared by a purchase's authorisation, reversal, clearing and refunds: the purchase transaction's id."`
	Merchant               string `json:"merchant" doc:"The raw merchant description."`
	AmountCents            int64  `json:"amountCents"`
	Last4                  string `json:"last4"`
	FriendlyName           string `json:"friendlyName" doc:"The card's name when the event was recorded."`
	IsApprovedBySlash      bool   `json:"isApprovedBySlash" doc:"Slash decides authorisations and verifications; other events are false."`
	CardID                 string `json:"cardId"`

	Type                  string         `json:"type" enum:"authorization,reversal,clearing,refund,verification" doc:"The sandbox's finer event type."`
	MerchantData          *eventMerchant `json:"merchantData,omitempty"`
	Decision              *decision      `json:"decision,omitempty"`
	DeclineReason         string         `json:"declineReason,omitempty"`
	TransactionID         string         `json:"transactionId,omitempty"`
	OriginalTransactionID string         `json:"originalTransactionId,omitempty"`
}

// eventMerchant is shaped like the authorization webhook's merchant.
type eventMerchant struct {
	ID           string                  `json:"id,omitempty"`
	Name         string                  `json:"name"`
	CategoryCode string                  `json:"categoryCode"`
	CategoryID   string                  `json:"categoryId,omitempty"`
	Location     ledger.MerchantLocation `json:"location"`
}

// decision says which rule decided an authorization or verification.
type decision struct {
	Rule        string `json:"rule"`
	Reason      string `json:"reason"`
	Detail      string `json:"detail"`
	Scope       string `json:"scope,omitempty" enum:"card,cardGroup"`
	CardGroupID string `json:"cardGroupId,omitempty"`
	// FallbackApplied: the authorization webhook did not answer in time
	// and its fallback decided.
	FallbackApplied bool `json:"fallbackApplied,omitempty"`
}

func cardEventView(e *cards.Event) cardEvent {
	v := cardEvent{Timestamp: timestamp(e.CreatedAt), MessageType: e.MessageType(), ProcessorTransactionID: e.ID,
		LifeCycleID: e.LifeCycleID(), AmountCents: e.AmountCents, Last4: e.Last4, FriendlyName: e.CardName,
		IsApprovedBySlash: e.ApprovedBySlash(), CardID: e.CardID, Type: e.Type, DeclineReason: e.DeclineReason(),
		TransactionID: e.TransactionID, OriginalTransactionID: e.OriginalTransactionID, Decision: DecisionView(e.Decision)}
	if m := e.Merchant; m != nil {
		v.Merchant = m.Name
		v.MerchantData = &eventMerchant{ID: m.ID, Name: m.Name, CategoryCode: m.MCC, CategoryID: m.CategoryID,
			Location: ledger.MerchantLocation{City: m.City, State: m.State, Country: m.Country, Zip: m.Zip}}
	}
	return v
}

// messageTypesOf reads filter:messageType: one value, or none for all.
func messageTypesOf(r *http.Request) ([]string, error) {
	q := r.URL.Query()
	if !q.Has("filter:messageType") {
		return nil, nil
	}
	mt, ok := messageTypeFilter[q.Get("filter:messageType")]
	if !ok || len(q["filter:messageType"]) > 1 {
		return nil, kernel.InvalidField("filter:messageType", "must be one of "+strings.Join(messageTypeFilterValues, ", "))
	}
	return []string{mt}, nil
}

func (a *API) listCardEvents(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	types, err := messageTypesOf(r)
	if err != nil {
		return nil, err
	}
	after, err := decodeCursor(r, c)
	if err != nil {
		return nil, err
	}
	var page kernel.Page[cards.Event]
	err = c.view(func(op *kernel.Op) error {
		page, err = cards.Events(op, c.Actor, mux.Vars(r)["cardId"], types, kernel.PageRequest{After: after})
		return err
	})
	if err != nil {
		return nil, err
	}
	items := make([]cardEvent, len(page.Items))
	for i := range page.Items {
		items[i] = cardEventView(&page.Items[i])
	}
	return newList(items, encodeCursor(r, c, page.Next)), nil
}
