package apitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
)

// CardJSON is the API's Card as the tests read it; the golden file
// card.create pins its shape.
type CardJSON struct {
	ID                 string          `json:"id"`
	AccountID          string          `json:"accountId"`
	VirtualAccountID   string          `json:"virtualAccountId"`
	Last4              string          `json:"last4"`
	Name               string          `json:"name"`
	Status             string          `json:"status"`
	IsPhysical         *bool           `json:"isPhysical"`
	IsSingleUse        bool            `json:"isSingleUse"`
	PAN                *string         `json:"pan"`
	CVV                *string         `json:"cvv"`
	CardGroupID        string          `json:"cardGroupId"`
	CardGroupName      string          `json:"cardGroupName"`
	CreatedAt          string          `json:"createdAt"`
	SpendingConstraint json.RawMessage `json:"spendingConstraint"`
	UserData           map[string]any  `json:"userData"`
	CardProductID      string          `json:"cardProductId"`
	Modifiers          []struct {
		Name  string `json:"name"`
		Value bool   `json:"value"`
	} `json:"modifiers"`
}

// newCard creates a card with acme's legal-entity key.
func CreateTestCard(t *testing.T, e *Env, body string) CardJSON {
	t.Helper()
	var c CardJSON
	e.Do(Req{Method: http.MethodPost, Path: "/card", Key: "sk_sandbox_acme", Body: body}).Status(t, 201).Decode(t, &c)
	return c
}

// ReadCard reads a card of le_acme, query appended to its path.
func ReadCard(t *testing.T, e *Env, id, query string) CardJSON {
	t.Helper()
	var c CardJSON
	e.Get("/card/"+id+query, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &c)
	return c
}

// AcmeEventsFor lists the webhook event types le_acme has raised for one
// entity, in order: the demo's paused endpoint of le_acme takes every event
// and keeps each delivery queued.
func AcmeEventsFor(t *testing.T, e *Env, entity string) []string {
	t.Helper()
	var types []string
	for _, d := range Deliveries(t, e, "webhookId=webhook_acmelocal") {
		if d.EntityID == entity {
			types = append(types, d.Event)
		}
	}
	return types
}

// CentsJSON is an amount as the API answers it.
type CentsJSON struct {
	AmountCents int64 `json:"amountCents"`
}

// GroupJSON is a card group as GET /card-group answers it.
type GroupJSON struct {
	ID                 string          `json:"id"`
	Name               string          `json:"name"`
	VirtualAccountID   *string         `json:"virtualAccountId"`
	SpendingConstraint json.RawMessage `json:"spendingConstraint"`
}

// SimJSON is the simulation's answer.
type SimJSON struct {
	Approved bool `json:"approved"`
	Decision struct {
		Rule        string `json:"rule"`
		Reason      string `json:"reason"`
		Detail      string `json:"detail"`
		Scope       string `json:"scope"`
		CardGroupID string `json:"cardGroupId"`
	} `json:"decision"`
	Transaction CardTxnJSON `json:"transaction"`
	CardEvent   struct {
		ID                    string         `json:"processorTransactionId"`
		CardID                string         `json:"cardId"`
		Type                  string         `json:"type"`
		AmountCents           int64          `json:"amountCents"`
		Merchant              map[string]any `json:"merchantData"`
		Approved              bool           `json:"isApprovedBySlash"`
		Decision              map[string]any `json:"decision"`
		DeclineReason         string         `json:"declineReason"`
		TransactionID         string         `json:"transactionId"`
		OriginalTransactionID string         `json:"originalTransactionId"`
	} `json:"cardEvent"`
	Card struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	} `json:"card"`
}

// CardTxnJSON is a card transaction as the simulation answers it.
type CardTxnJSON struct {
	ID                      string         `json:"id"`
	Description             string         `json:"description"`
	MerchantData            map[string]any `json:"merchantData"`
	AmountCents             int64          `json:"amountCents"`
	Status                  string         `json:"status"`
	DetailedStatus          string         `json:"detailedStatus"`
	AccountID               string         `json:"accountId"`
	VirtualAccountID        string         `json:"virtualAccountId"`
	AccountSubtype          string         `json:"accountSubtype"`
	CardID                  string         `json:"cardId"`
	AuthorizedAt            string         `json:"authorizedAt"`
	DeclineReason           string         `json:"declineReason"`
	ApprovalReason          string         `json:"approvalReason"`
	ProviderAuthorizationID string         `json:"providerAuthorizationId"`
}

// Authorize simulates a card purchase of cents at a merchant.
func Authorize(t *testing.T, e *Env, card string, cents int64, merchant string) SimJSON {
	t.Helper()
	return AuthorizeBody(t, e, fmt.Sprintf(`{"cardId":%q,"amountCents":%d,"merchantId":%q}`, card, cents, merchant))
}

// AuthorizeBody simulates a card purchase with a whole request body.
func AuthorizeBody(t *testing.T, e *Env, body string) SimJSON {
	t.Helper()
	var s SimJSON
	e.Do(Req{Method: http.MethodPost, Path: "/_sandbox/simulate/card-authorization", Body: body}).
		Status(t, 200).
		Decode(t, &s)
	return s
}

// WantDecision checks who decided and what the world recorded.
func WantDecision(t *testing.T, s SimJSON, approved bool, rule, reason string) {
	t.Helper()
	if s.Approved != approved || s.Decision.Rule != rule || s.Decision.Reason != reason {
		t.Fatalf("decision = %v %+v, want approved=%v by %s (%s)", s.Approved, s.Decision, approved, rule, reason)
	}
	wantStatus, decline := "pending", ""
	if !approved {
		wantStatus, decline = "declined", reason
	}
	tx := s.Transaction
	if tx.DetailedStatus != wantStatus || tx.DeclineReason != decline || tx.ID == "" || tx.CardID != s.CardEvent.CardID {
		t.Fatalf("transaction = %+v, want %s", tx, wantStatus)
	}
	if s.CardEvent.Type != "authorization" || s.CardEvent.TransactionID != tx.ID || s.CardEvent.Approved != approved ||
		s.CardEvent.DeclineReason != decline || s.CardEvent.AmountCents != -tx.AmountCents {
		t.Fatalf("card event = %+v", s.CardEvent)
	}
}

// NetworkEvent simulates a network event on a card transaction (a
// reversal, clearing, refund or verification).
func NetworkEvent(e *Env, body string) *Resp {
	return e.Do(Req{Method: http.MethodPost, Path: "/_sandbox/simulate/card-event", Body: body})
}

// AuthPath is the authorization webhook of the demo's operating account.
const AuthPath = "/account/sa_group_acmeoperating/authorization-webhook"
