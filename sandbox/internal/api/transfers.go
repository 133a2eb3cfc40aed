package api

import (
	"encoding/json"
	"net/http"
	"unicode/utf8"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/inforequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// Both spellings of the virtual-account transfer are one operation: they
// share their idempotency keys.
const virtualAccountTransferOp = "virtual_account.transfer"

func (a *API) routesTransfers(r *mux.Router, docs *openapi.Registry) {
	describeTransfers(docs)
	web.Route(r, web.Gen1, http.MethodPost, "/transfer/virtual-account", "transfer.virtual_account.create",
		a.transferVirtualAccount)
	web.Route(r, web.Gen1, http.MethodPost, "/virtual-account/transfer", "virtual_account.transfer.create",
		a.transferVirtualAccount)
	web.Route(r, web.Gen1, http.MethodPost, "/transfers/book-transfer", "book_transfer.create", a.bookTransfer)
	web.Route(r, web.Gen1, http.MethodPost, "/transfers/ach", "ach_transfer.create", a.achTransfer)
	web.Route(r, web.Gen1, http.MethodPost, "/transfers/wire", "wire_transfer.create", a.wireTransfer)
}

// Schemas of the transfer bodies.
var (
	idempotencyKey = openapi.Param{Name: "X-Idempotency-Key", Required: true,
		Description: "The same key with the same body replays the first response; with another body it is 409.",
		Schema:      openapi.Schema{"type": "string", "minLength": 1, "maxLength": 255}}
	transferAmount = openapi.Schema{"type": "number", "exclusiveMinimum": 0, "maximum": ledger.MaxAmountCents,
		"description": "A whole number of cents."}
	transferMemo     = openapi.Schema{"type": "string", "maxLength": 255}
	requiredIDSchema = openapi.Schema{"type": "string", "minLength": 1}
)

// describeTransfers adds the descriptions of these routes to docs.
func describeTransfers(docs *openapi.Registry) {
	vaTransfer := openapi.Op{Summary: "Move money between virtual accounts", Headers: []openapi.Param{idempotencyKey},
		Description: "source may be the virtual account standing for the primary account.",
		Body: object(
			openapi.Schema{"source": requiredIDSchema, "destination": requiredIDSchema, "amountCents": transferAmount,
				"memo": transferMemo},
			"source",
			"destination",
			"amountCents",
		),
		Response: transferResult{}}
	docs.Describe("transfer.virtual_account.create", vaTransfer)
	vaTransfer.Description += " The same operation as POST /transfer/virtual-account: they share idempotency keys."
	docs.Describe("virtual_account.transfer.create", vaTransfer)
	docs.Describe("book_transfer.create", openapi.Op{Summary: "Book transfer between accounts the caller can reach",
		Description: "Settles at once on the ledger. from and to are accounts (sa_group_…) or virtual accounts.",
		Headers:     []openapi.Param{idempotencyKey},
		Body: object(
			openapi.Schema{
				"from":        requiredIDSchema,
				"to":          requiredIDSchema,
				"amountCents": transferAmount,
				"memo":        transferMemo,
			},
			"from",
			"to",
			"amountCents",
		),
		Response: transferResult{}})
	rail := openapi.Schema{"accountId": described(requiredIDSchema, "The paying account; give this or virtualAccountId."),
		"virtualAccountId": described(requiredIDSchema, "The paying virtual account; give this or accountId."),
		"destinationId":    described(requiredIDSchema, "A contact destination (GET /contact/destination)."),
		"amountCents":      transferAmount, "memo": transferMemo}
	source := openapi.Schema{
		"oneOf": []any{
			openapi.Schema{"required": []string{"accountId"}},
			openapi.Schema{"required": []string{"virtualAccountId"}},
		},
	}
	wire := object(rail, "destinationId", "amountCents")
	wire["allOf"] = []any{source}
	docs.Describe("wire_transfer.create", openapi.Op{Summary: "Send a wire to a contact destination", Extension: true,
		Headers: []openapi.Param{idempotencyKey}, Body: wire, Response: railTransferResult{}})
	ach := openapi.Schema{"informationRequestId": described(requiredIDSchema,
		"Queue the ACH on an information request still collecting the contact's bank account, instead of destinationId.")}
	for k, v := range rail {
		ach[k] = v
	}
	achBody := object(ach, "amountCents")
	achBody["allOf"] = []any{source, openapi.Schema{"oneOf": []any{openapi.Schema{"required": []string{"destinationId"}},
		openapi.Schema{"required": []string{"informationRequestId"}}}}}
	docs.Describe("ach_transfer.create", openapi.Op{Summary: "Send an ACH to a contact destination", Extension: true,
		Description: "Give destinationId, or informationRequestId to queue the ACH until the contact submits bank details.",
		Headers:     []openapi.Param{idempotencyKey}, Body: achBody, Response: railTransferResult{}})
}

// memo checks an optional memo of at most 255 characters.
func memo(m *string, d map[string]string) string {
	if m == nil {
		return ""
	}
	if utf8.RuneCountInString(*m) > 255 {
		d["/memo"] = "must be at most 255 characters"
	}
	return *m
}

// requiredID checks a required identifier.
func requiredID(v *string, pointer string, d map[string]string) string {
	if v == nil || *v == "" {
		d[pointer] = "required"
		return ""
	}
	return *v
}

type transferResult struct {
	TransferID string `json:"transferId"`
}

type vaTransferBody struct {
	Source      *string         `json:"source,omitempty"`
	Destination *string         `json:"destination,omitempty"`
	AmountCents json.RawMessage `json:"amountCents"`
	Memo        *string         `json:"memo,omitempty"`
}

// transferVirtualAccount serves both spellings of the virtual-account
// transfer.
func (a *API) transferVirtualAccount(r *http.Request) (any, error) {
	var req ledger.TransferRequest
	return a.doWrite(r, write{
		gen:       web.Gen1,
		idem:      idemReplay,
		operation: virtualAccountTransferOp,
		input: func(c *call, raw []byte) error {
			var body vaTransferBody
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			d := map[string]string{}
			req = ledger.TransferRequest{
				From:        requiredID(body.Source, "/source", d),
				To:          requiredID(body.Destination, "/destination", d),
				AmountCents: ledger.AmountCents(body.AmountCents, "/amountCents", d),
				Memo:        memo(body.Memo, d),
			}
			return invalidIf(d)
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			id, err := ledger.TransferBetweenVirtualAccounts(op, c.Actor, req)
			return transferResult{TransferID: id}, err
		},
	})
}

func invalidIf(d map[string]string) error {
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

type bookTransferBody struct {
	From        *string         `json:"from,omitempty"`
	To          *string         `json:"to,omitempty"`
	AmountCents json.RawMessage `json:"amountCents"`
	Memo        *string         `json:"memo,omitempty"`
}

func (a *API) bookTransfer(r *http.Request) (any, error) {
	var req ledger.TransferRequest
	return a.doWrite(r, write{
		gen:  web.Gen1,
		idem: idemReplay,
		input: func(c *call, raw []byte) error {
			var body bookTransferBody
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			d := map[string]string{}
			req = ledger.TransferRequest{From: requiredID(body.From, "/from", d), To: requiredID(body.To, "/to", d),
				AmountCents: ledger.AmountCents(body.AmountCents, "/amountCents", d), Memo: memo(body.Memo, d)}
			return invalidIf(d)
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			id, err := ledger.BookTransfer(op, c.Actor, req)
			return transferResult{TransferID: id}, err
		},
	})
}

type railTransferBody struct {
	AccountID        *string `json:"accountId,omitempty"`
	VirtualAccountID *string `json:"virtualAccountId,omitempty"`
	DestinationID    *string `json:"destinationId,omitempty"`
	// InformationRequestID queues an ACH to the contact of an information
	// request still collecting bank details (ACH only).
	InformationRequestID *string         `json:"informationRequestId,omitempty"`
	AmountCents          json.RawMessage `json:"amountCents"`
	Memo                 *string         `json:"memo,omitempty"`
}

type railTransferResult struct {
	TransferID    string `json:"transferId"`
	TransactionID string `json:"transactionId"`
	// SettlesAt is absent while a queued ACH waits for bank details.
	SettlesAt            string `json:"settlesAt,omitempty" format:"date-time"`
	Queued               bool   `json:"queued,omitempty"`
	InformationRequestID string `json:"informationRequestId,omitempty"`
}

// railRequest decodes the body of an ACH or wire transfer: exactly one of
// accountId and virtualAccountId names the source.
func railRequest(raw []byte) (ledger.RailTransferRequest, error) {
	var body railTransferBody
	if err := web.DecodeBytes(raw, &body, true); err != nil {
		return ledger.RailTransferRequest{}, err
	}
	d := map[string]string{}
	req := ledger.RailTransferRequest{
		AmountCents: ledger.AmountCents(body.AmountCents, "/amountCents", d),
		Memo:        memo(body.Memo, d),
	}
	switch {
	case body.InformationRequestID != nil && body.DestinationID != nil:
		d["/informationRequestId"] = "give destinationId or informationRequestId, not both"
	case body.InformationRequestID != nil:
		req.InformationRequestID = requiredID(body.InformationRequestID, "/informationRequestId", d)
	default:
		req.DestinationID = requiredID(body.DestinationID, "/destinationId", d)
	}
	switch {
	case body.AccountID != nil && body.VirtualAccountID != nil:
		d["/virtualAccountId"] = "give accountId or virtualAccountId, not both"
	case body.VirtualAccountID != nil:
		req.SourceID, req.Field = requiredID(body.VirtualAccountID, "/virtualAccountId", d), "virtualAccountId"
	default:
		req.SourceID, req.Field = requiredID(body.AccountID, "/accountId", d), "accountId"
	}
	return req, invalidIf(d)
}

// railTransfer is the write of an ACH or wire transfer (sandbox
// extensions: the real service names rail-specific endpoints without
// describing them).
func (a *API) railTransfer(
	r *http.Request,
	send func(*kernel.Op, *kernel.Actor, ledger.RailTransferRequest) (*ledger.RailTransfer, error),
) (any, error) {
	var req ledger.RailTransferRequest
	return a.doWrite(r, write{
		gen:  web.Gen1,
		idem: idemReplay,
		input: func(c *call, raw []byte) error {
			var err error
			req, err = railRequest(raw)
			return err
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			t, err := send(op, c.Actor, req)
			if err != nil {
				return nil, err
			}
			out := railTransferResult{
				TransferID:           t.TransferID,
				TransactionID:        t.TransactionID,
				InformationRequestID: req.InformationRequestID,
			}
			if t.SettlesAt.IsZero() {
				out.Queued = true
			} else {
				out.SettlesAt = timestamp(t.SettlesAt)
			}
			return out, nil
		},
	})
}

// achTransfer sends an ACH to a destination, or queues one on an
// information request still collecting the contact's bank account.
func (a *API) achTransfer(r *http.Request) (any, error) {
	return a.railTransfer(
		r,
		func(op *kernel.Op, act *kernel.Actor, req ledger.RailTransferRequest) (*ledger.RailTransfer, error) {
			if req.InformationRequestID != "" {
				return inforequests.SendQueuedACH(op, act, req, req.InformationRequestID)
			}
			return ledger.SendACH(op, act, req)
		},
	)
}

func (a *API) wireTransfer(r *http.Request) (any, error) {
	return a.railTransfer(
		r,
		func(op *kernel.Op, act *kernel.Actor, req ledger.RailTransferRequest) (*ledger.RailTransfer, error) {
			if req.InformationRequestID != "" {
				return nil, kernel.InvalidField("/informationRequestId", "only an ACH can wait for an information request")
			}
			return ledger.SendWire(op, act, req)
		},
	)
}
