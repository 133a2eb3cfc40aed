package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesPayments(r *mux.Router, docs *openapi.Registry) {
	describePayments(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/handle", "handle.list", a.listHandles)
	web.Route(r, web.Gen1, http.MethodGet, "/slash-handle", "slash_handle.list", a.listHandles)
	web.Route(r, web.Gen1, http.MethodGet, "/pay", "pay.get", a.getPayHandle)
	web.Route(r, web.Gen1, http.MethodPost, "/pay", "payment.create", a.pay)
}

// describePayments adds the descriptions of these routes, and the components
// they name, to docs.
func describePayments(docs *openapi.Registry) {
	docs.Component("Handle", handle{})
	docs.Describe("handle.list",
		openapi.Op{Summary: "List the legal entity's payment handles (usually one)", Response: listOf(handle{})})
	docs.Describe("slash_handle.list",
		openapi.Op{Summary: "List payment handles (the older path of GET /handle)", Response: listOf(handle{})})
	docs.Describe("pay.get",
		openapi.Op{Summary: "The legal entity's payment handle (superseded by GET /handle)", Response: handle{}})
	docs.Describe("payment.create", openapi.Op{Summary: "Pay a Slash handle",
		Description: "A user-scoped key names the paying side with sourceHandleId or legalEntityId; a legal-entity key pays" +
			" from its own handle. A request that is well-formed and authorized answers 200: {success: true} when the money" +
			" moved, {success: false, error} when the payment itself was refused (unknown handle, the payer's own handle, an" +
			" amount that is not a positive whole number of cents within the limit, insufficient funds, a closed account). The" +
			" debit is listed by GET /transaction with the description \"Payment to @<handle>\" and the memo.",
		Headers: []openapi.Param{
			{
				Name: "X-Idempotency-Key",
				Description: "Optional: the same key with the same body replays the first successful answer; with another body it" +
					" is 409. A refused payment does not use the key.",
				Schema: openapi.Schema{"type": "string", "minLength": 1, "maxLength": 255},
			},
		},
		Body: object(
			openapi.Schema{
				"slashHandle": described(requiredIDSchema, "The handle paid."),
				"amountCents": described(openapi.Schema{"type": "number"},
					"Cents; a value that is not a positive whole number within the limit is a refused payment, not a 400."),
				"sourceHandleId":      stringType,
				"sourceSlashHandleId": described(stringType, "Another name for sourceHandleId."),
				"legalEntityId":       described(stringType, "The paying legal entity: the one the request acts for."),
				"memo":                transferMemo,
			},
			"slashHandle",
			"amountCents",
		),
		Response: openapi.Schema{"oneOf": []any{
			object(openapi.Schema{"success": openapi.Schema{"type": "boolean", "enum": []any{true}}, "redirect": stringType},
				"success"),
			object(openapi.Schema{"success": openapi.Schema{"type": "boolean", "enum": []any{false}}, "error": stringType},
				"success", "error"),
		}}})
}

// handle is the API's Handle, shaped as the official SDKs' SlashHandle.
type handle struct {
	ID          string `json:"id"`
	AccountID   string `json:"accountId" doc:"The account that sends and receives this legal entity's payments."`
	Name        string `json:"name" doc:"The display name of the legal entity."`
	SlashHandle string `json:"slashHandle" doc:"The name other Slash users pay this legal entity by."`
}

func handleView(h *ledger.Handle, leName string) handle {
	return handle{ID: h.ID, AccountID: h.AccountID, Name: leName, SlashHandle: h.Handle}
}

func (a *API) handles(r *http.Request) ([]handle, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var hs []ledger.Handle
	err = c.view(func(op *kernel.Op) error {
		hs, err = ledger.Handles(op, c.Actor)
		return err
	})
	items := make([]handle, len(hs))
	for i := range hs {
		items[i] = handleView(&hs[i], c.Actor.LegalEntity.Name)
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
		return nil, kernel.Errorf(kernel.CodeNotFound, "this legal entity has no Slash handle")
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

// paid and refused are the two answers of POST /pay the official SDKs
// declare: the money moved, or the payment itself was refused.
type paid struct {
	Success bool `json:"success"`
}

type refused struct {
	Success bool   `json:"success"`
	Error   string `json:"error"`
}

// payRefusal marks an error of the payment itself (who is paid, how much,
// from what): POST /pay answers it as {success: false, error} rather than
// an error envelope. It still fails the write, so nothing is stored.
type payRefusal struct{ err *kernel.Error }

func (r payRefusal) Error() string { return r.err.Error() }

// refusalOf wraps the errors a payment can be refused with; anything else
// (an internal failure, a shutdown) is left as it is.
func refusalOf(err error) error {
	e, ok := kernel.AsError(err)
	if !ok {
		return err
	}
	switch e.Code {
	case kernel.CodeInvalidRequest, kernel.CodeNotFound, kernel.CodeConflict, kernel.CodeInsufficientFunds:
		return payRefusal{e}
	}
	return err
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// payInput is a decoded POST /pay: the payment, or the refusal it will
// answer with.
type payInput struct {
	req     ledger.PayRequest
	refusal error
}

// payRequest decodes POST /pay. sourceSlashHandleId is the official SDK's
// name for sourceHandleId. A user key must name the paying side with one
// of sourceHandleId and legalEntityId; a legal-entity key pays from its own.
// An amountCents that is a number but not a payable amount is returned as
// the refusal the payment will answer with, not as a 400.
func payRequest(c *call, raw []byte) (payInput, error) {
	var body payBody
	if err := web.DecodeBytes(raw, &body, true); err != nil {
		return payInput{}, err
	}
	d := map[string]string{}
	req := ledger.PayRequest{SlashHandle: requiredID(body.SlashHandle, "/slashHandle", d), Memo: memo(body.Memo, d)}
	var refusal error
	if f, err := strconv.ParseFloat(string(bytes.TrimSpace(body.AmountCents)), 64); err != nil {
		ledger.AmountCents(body.AmountCents, "/amountCents", d) // absent, null or not a number
	} else if problem := map[string]string{}; ledger.CheckAmount(problem, "/amountCents", f, 1) {
		req.AmountCents = int64(f)
	} else {
		refusal = kernel.Invalid(problem)
	}
	req.SourceHandleID = str(body.SourceHandleID)
	if alt := str(body.SourceSlashHandleID); alt != "" {
		if req.SourceHandleID != "" && req.SourceHandleID != alt {
			d["/sourceSlashHandleId"] = "names another handle than sourceHandleId; give one of them"
		}
		req.SourceHandleID = alt
	}
	le := str(body.LegalEntityID)
	if c.P.Key.Kind == kernel.KeyUser && req.SourceHandleID == "" && le == "" {
		msg := "a user-scoped key must give sourceHandleId or legalEntityId"
		d["/sourceHandleId"], d["/legalEntityId"] = msg, msg
	}
	if err := invalidIf(d); err != nil {
		return payInput{}, err
	}
	return payInput{req, refusal}, c.Actor.CheckLegalEntityFilter("/legalEntityId", le)
}

// pay sends money to a Slash handle and answers as the official SDKs
// declare: {success: true} once the money moved, {success: false, error}
// when the payment itself is refused. Who calls, for which legal entity and
// whether the body is well-formed JSON of the declared types are checked
// first and answer the ordinary error envelope. X-Idempotency-Key is
// optional: when sent, a repeat with the same body replays the first
// success and one with another body is 409; a refusal does not use it.
func (a *API) pay(r *http.Request) (any, error) {
	var in payInput
	out, err := a.doWrite(r, write{
		gen:  web.Gen1,
		idem: idemOptional,
		input: func(c *call, raw []byte) error {
			var err error
			in, err = payRequest(c, raw)
			return err
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			if in.refusal != nil {
				return nil, refusalOf(in.refusal)
			}
			if _, err := ledger.Pay(op, c.Actor, in.req); err != nil {
				return nil, refusalOf(err)
			}
			return paid{Success: true}, nil
		},
	})
	var no payRefusal
	if errors.As(err, &no) {
		return refused{Success: false, Error: no.err.Message}, nil
	}
	return out, err
}
