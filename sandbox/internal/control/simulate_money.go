package control

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (c *Control) routesSimulateMoney(s *mux.Router) {
	web.Route(s, web.Gen2, http.MethodPost, "/simulate/incoming-transfer", "sandbox.simulate.incoming_transfer",
		c.incomingTransfer)
}

type incomingBody struct {
	AccountID        *string         `json:"accountId,omitempty"`
	VirtualAccountID *string         `json:"virtualAccountId,omitempty"`
	Rail             string          `json:"rail"`
	AmountCents      json.RawMessage `json:"amountCents"`
	SenderName       string          `json:"senderName"`
	Reference        string          `json:"reference"`
}

// incomingRequest checks the body of a simulated incoming transfer.
func incomingRequest(b incomingBody) (ledger.IncomingTransfer, error) {
	d := map[string]string{}
	in := ledger.IncomingTransfer{Rail: b.Rail, SenderName: strings.TrimSpace(b.SenderName), Reference: b.Reference}
	switch {
	case b.AccountID != nil && b.VirtualAccountID != nil:
		d["/virtualAccountId"] = "give accountId or virtualAccountId, not both"
	case b.VirtualAccountID != nil && *b.VirtualAccountID != "":
		in.TargetID, in.Field = *b.VirtualAccountID, "virtualAccountId"
	case b.AccountID != nil && *b.AccountID != "":
		in.TargetID, in.Field = *b.AccountID, "accountId"
	default:
		d["/accountId"] = "give the account or virtual account credited (accountId or virtualAccountId)"
	}
	if !slices.Contains(ledger.IncomingRails, b.Rail) {
		d["/rail"] = "must be one of " + strings.Join(ledger.IncomingRails, ", ")
	}
	in.AmountCents = ledger.AmountCents(b.AmountCents, "/amountCents", d)
	if len(in.SenderName) > 140 || len(in.Reference) > 140 {
		d["/senderName"] = "senderName and reference are at most 140 characters"
	}
	if len(d) > 0 {
		return in, kernel.Invalid(d)
	}
	return in, nil
}

// incomingTransfer credits an account or virtual account of any legal
// entity with money arriving by a rail, and returns the transaction.
func (c *Control) incomingTransfer(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var body incomingBody
	if err := web.Decode(r, &body, true); err != nil {
		return nil, err
	}
	in, err := incomingRequest(body)
	if err != nil {
		return nil, err
	}
	var t *ledger.Transaction
	err = w.Update(func(op *kernel.Op) error {
		t, err = ledger.SimulateIncoming(op, in)
		return err
	})
	if err != nil {
		return nil, err
	}
	return web.Status(http.StatusCreated, t), nil
}
