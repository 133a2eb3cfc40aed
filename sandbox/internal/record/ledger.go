package record

import (
	"context"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// transaction is what a recording reads of a transaction.
type transaction struct {
	ID, Date, Description, Memo, Status, DetailedStatus, AccountID, VirtualAccountID, CardID, DeclineReason string
	AmountCents                                                                                             int64
	AchInfo, WireInfo, RtpInfo, SepaInfo, PixInfo, SpeiInfo, FpsInfo                                        map[string]any
}

// rails are the international wires' local rails, by the detail that names
// them.
func (t transaction) rail() string {
	switch {
	case t.SepaInfo != nil:
		return "sepa"
	case t.PixInfo != nil:
		return "pix"
	case t.SpeiInfo != nil:
		return "spei"
	case t.FpsInfo != nil:
		return "fps"
	}
	return ""
}

// category is the transaction's category, as its details show it.
func (t transaction) category() string {
	switch {
	case t.CardID != "":
		return "card"
	case t.rail() != "":
		return "international_wire"
	case t.WireInfo != nil:
		return "wire"
	case t.RtpInfo != nil:
		return "rtp"
	case t.AchInfo != nil:
		return "ach"
	}
	return ""
}

// transactions reads every transaction.
func (rc *recording) transactions(ctx context.Context, le string) error {
	ts, err := items[transaction](ctx, rc, "transactions", "/transaction", nil, le)
	if err != nil {
		return err
	}
	pending := 0
	for _, t := range ts {
		if t.Status == "posted" {
			rc.posted[t.ID] = t
		}
		if t.DetailedStatus == "pending" {
			pending++
		}
		rc.sc.Transactions = append(rc.sc.Transactions, scenario.Transaction{ID: t.ID, AccountID: t.AccountID,
			VirtualAccountID: t.VirtualAccountID, CardID: t.CardID, Category: t.category(),
			AmountCents: t.AmountCents, Description: t.Description, DetailedStatus: t.DetailedStatus, Date: t.Date,
			Memo: t.Memo, DeclineReason: t.DeclineReason, Rail: t.rail()})
	}
	if pending > 0 {
		rc.note("when pending transactions will settle (the source's schedule is not in the API)")
	}
	return nil
}
