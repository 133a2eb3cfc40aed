package api

import (
	"encoding/json"
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox"
	"github.com/slash-sandbox/slash-sandbox/sandbox/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/web"
)

func (a *API) routesPayments(r *mux.Router) {
	web.Route(r, web.Gen1, http.MethodGet, "/handle", "handle.list", a.listHandles)
	web.Route(r, web.Gen1, http.MethodGet, "/slash-handle", "slash_handle.list", a.listHandles)
	web.Route(r, web.Gen1, http.MethodGet, "/pay", "pay.get", a.getPayHandle)
	web.Route(r, web.Gen1, http.MethodPost, "/pay", "payment.create", a.pay)
}

func init() {
	openapi.Component("Handle", handle{})
	openapi.Describe("handle.list", openapi.Op{Summary: "List the legal entity's payment handles (usually one)", Response: listOf(handle{})})
	openapi.Describe("slash_handle.list", openapi.Op{Summary: "List payment handles (the older path of GET /handle)", Response: listOf(handle{})})
	openapi.Describe("pay.get", openapi.Op{Summary: "The legal entity's payment handle (superseded by GET /handle)", Response: handle{}})
	openapi.Describe("payment.create", openapi.Op{Summary: "Pay a Slash handle",
		Description: "A user-scoped key names the paying side with sourceHandleId or legalEntityId; a legal-entity key pays from its own handle.",
		Headers: []openapi.Param{{Name: "X-Idempotency-Key", Description: "Optional: the same key with the same body replays the first response; with another body it is 409.",
			Schema: openapi.Schema{"type": "string", "minLength": 1, "maxLength": 255}}},
		Body: object(openapi.Schema{"slashHandle": described(requiredIDSchema, "The handle paid."), "amountCents": transferAmount,
			"sourceHandleId": stringType, "sourceSlashHandleId": described(stringType, "Another name for sourceHandleId."),
			"legalEntityId": described(stringType, "The paying legal entity: the one the request acts for."), "memo": transferMemo},
			"slashHandle", "amountCents"),
		Response: paymentResult{}})
}

// handle is the API's Handle: the payment handle of a legal entity.
type handle struct {
	ID            string `json:"id"`
	Handle        string `json:"handle"`
	AccountID     string `json:"accountId"`
	LegalEntityID string `json:"legalEntityId"`
}

func handleView(h *sandbox.Handle) handle {
	return handle{ID: h.ID, Handle: h.Handle, AccountID: h.AccountID, LegalEntityID: h.LegalEntityID}
}

func (a *API) handles(r *http.Request) ([]handle, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var hs []sandbox.Handle
	err = c.W.View(func(op *sandbox.Op) error {
		hs, err = op.Handles(c.Actor)
		return err
	})
	items := make([]handle, len(hs))
	for i := range hs {
		items[i] = handleView(&hs[i])
	}
	return items, err
}

// listHandles serves GET /handle and its older spelling GET /slash-handle.
func (a *API) listHandles(r *http.Request) (any, error) {
	items, err := a.handles(r)
	if err != nil {
		return nil, err
	}
	return newList(items, ""), nil
}

// getPayHandle serves the superseded GET /pay: the single handle itself.
func (a *API) getPayHandle(r *http.Request) (any, error) {
	items, err := a.handles(r)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		return nil, sandbox.Errorf(sandbox.CodeNotFound, "this legal entity has no Slash handle")
	}
	return items[0], nil
}

type payBody struct {
	SlashHandle         *string         `json:"slashHandle,omitempty"`
	AmountCents         json.RawMessage `json:"amountCents"`
	SourceHandleID      *string         `json:"sourceHandleId,omitempty"`
	SourceSlashHandleID *string         `json:"sourceSlashHandleId,omitempty"`
	LegalEntityID       *string         `json:"legalEntityId,omitempty"`
	Memo                *string         `json:"memo,omitempty"`
}

type paymentResult struct {
	TransferID    string `json:"transferId"`
	TransactionID string `json:"transactionId"`
	SlashHandle   string `json:"slashHandle"`
	AmountCents   int64  `json:"amountCents"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// payRequest decodes POST /pay. sourceSlashHandleId is the official SDK's
// name for sourceHandleId. A user key must name the paying side with one
// of sourceHandleId and legalEntityId; a legal-entity key pays from its own.
func payRequest(c *call, raw []byte) (sandbox.PayRequest, error) {
	var body payBody
	if err := web.DecodeBytes(raw, &body, true); err != nil {
		return sandbox.PayRequest{}, err
	}
	d := map[string]string{}
	req := sandbox.PayRequest{SlashHandle: requiredID(body.SlashHandle, "/slashHandle", d),
		AmountCents: sandbox.AmountCents(body.AmountCents, "/amountCents", d), Memo: memo(body.Memo, d)}
	req.SourceHandleID = str(body.SourceHandleID)
	if alt := str(body.SourceSlashHandleID); alt != "" {
		if req.SourceHandleID != "" && req.SourceHandleID != alt {
			d["/sourceSlashHandleId"] = "names another handle than sourceHandleId; give one of them"
		}
		req.SourceHandleID = alt
	}
	le := str(body.LegalEntityID)
	if c.P.Key.Kind == sandbox.KeyUser && req.SourceHandleID == "" && le == "" {
		msg := "a user-scoped key must give sourceHandleId or legalEntityId"
		d["/sourceHandleId"], d["/legalEntityId"] = msg, msg
	}
	if err := invalidIf(d); err != nil {
		return req, err
	}
	return req, c.Actor.CheckLegalEntityFilter("/legalEntityId", le)
}

// pay sends money to a Slash handle. X-Idempotency-Key is optional: when
// sent, a repeat with the same body replays the first response and one
// with another body is 409.
func (a *API) pay(r *http.Request) (any, error) {
	var req sandbox.PayRequest
	mode := idemNone
	if r.Header.Get("X-Idempotency-Key") != "" {
		mode = idemReplay
	}
	return a.doWrite(r, write{
		gen:  web.Gen1,
		idem: mode,
		input: func(c *call, raw []byte) error {
			var err error
			req, err = payRequest(c, raw)
			return err
		},
		run: func(op *sandbox.Op, c *call) (any, error) {
			p, err := op.Pay(c.Actor, req)
			if err != nil {
				return nil, err
			}
			return paymentResult{TransferID: p.TransferID, TransactionID: p.TransactionID, SlashHandle: p.Recipient.Handle,
				AmountCents: req.AmountCents}, nil
		},
	})
}
