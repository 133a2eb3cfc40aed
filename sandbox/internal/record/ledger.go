package record

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// railKeys are the keys of a transaction's rail details, as the API shows
// them and a scenario's details take them.
var railKeys = []string{"wireInfo", "achInfo", "sepaInfo", "pixInfo", "speiInfo", "fpsInfo", "rtpInfo", "feeInfo"}

// transaction is what a recording reads of a transaction.
type transaction struct {
	ID, Date, Description, Memo, Status, DetailedStatus, AccountID, VirtualAccountID, CardID string
	DeclineReason, ReferenceNumber, ApprovalReason, ProviderAuthorizationID, AuthorizedAt    string
	TransferID, Note, CardGroupID                                                            string
	AmountCents                                                                              int64
	MerchantData                                                                             map[string]any
	// details are its rail details, by their key.
	details map[string]any
}

// UnmarshalJSON reads a transaction and its rail details.
func (t *transaction) UnmarshalJSON(b []byte) error {
	type plain transaction
	if err := json.Unmarshal(b, (*plain)(t)); err != nil {
		return err
	}
	var all map[string]any
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	t.details = map[string]any{}
	for _, k := range railKeys {
		if v, ok := all[k]; ok && v != nil {
			t.details[k] = whole(v)
		}
	}
	return nil
}

// rail is an international wire's local rail, by the details that name it.
func (t transaction) rail() string {
	for k, rail := range map[string]string{"sepaInfo": "sepa", "pixInfo": "pix", "speiInfo": "spei", "fpsInfo": "fps"} {
		if t.details[k] != nil {
			return rail
		}
	}
	return ""
}

// category is the transaction's category: the one a filtered read found,
// else the one its card or details show.
func (t transaction) category(found map[string]string) string {
	switch {
	case found[t.ID] != "":
		return found[t.ID]
	case t.CardID != "":
		return "card"
	case t.rail() != "":
		return "international_wire"
	case t.details["wireInfo"] != nil:
		return "wire"
	case t.details["rtpInfo"] != nil:
		return "rtp"
	case t.details["feeInfo"] != nil:
		return "fee"
	}
	return "ach"
}

// transactions reads every transaction. A transaction does not show its
// category: the fee and internal ones, which nothing else tells apart, are
// read again by that filter.
func (rc *recording) transactions(ctx context.Context, le string) error {
	ts, err := items[transaction](ctx, rc, "transactions", "/transaction", nil, le)
	if err != nil {
		return err
	}
	found := map[string]string{}
	for _, category := range []string{"fee", "internal"} {
		raw, err := rc.r.list(ctx, category+" transactions", "/transaction", url.Values{"filter:category": {category}},
			le)
		if err != nil {
			return err
		}
		for _, r := range raw {
			var t struct{ ID string }
			if json.Unmarshal(r, &t) == nil {
				found[t.ID] = category
			}
		}
	}
	pending := 0
	for _, t := range ts {
		if t.DetailedStatus == "pending" {
			pending++
		}
		rc.sc.Transactions = append(rc.sc.Transactions, scenario.Transaction{ID: t.ID, AccountID: t.AccountID,
			VirtualAccountID: t.VirtualAccountID, CardID: t.CardID, Category: t.category(found),
			AmountCents: t.AmountCents, Description: t.Description, DetailedStatus: t.DetailedStatus, Date: t.Date,
			Memo: t.Memo, DeclineReason: t.DeclineReason, Rail: t.rail(), CardGroupID: t.CardGroupID, Note: t.Note,
			ReferenceNumber: t.ReferenceNumber, ApprovalReason: t.ApprovalReason,
			ProviderAuthorizationID: t.ProviderAuthorizationID, AuthorizedAt: t.AuthorizedAt,
			TransferID: t.TransferID, MerchantData: whole(t.MerchantData), Details: t.details})
	}
	if pending > 0 {
		rc.note("when pending transactions will settle (the source's schedule is not in the API)")
	}
	return nil
}
