package inforequests

import (
	"fmt"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// A queued ACH is an ACH to a contact whose bank details an information
// request is still collecting: the money is held as a pending debit, and
// the transfer joins the normal ACH lifecycle when the details arrive, or
// is canceled (nothing debited) with the request.

// QueuedACH links a held ACH transaction to its information request.
type QueuedACH struct {
	TransactionID        string `json:"transactionId"`
	InformationRequestID string `json:"informationRequestId"`
	Released             bool   `json:"released"`
}

const (
	kindQueuedACH   = "queued_ach"
	indexQueuedInfo = "queued.info"
)

// SendQueuedACH sends an ACH to the contact of an information request that
// asks for a bank account. While the request is pending the money is held
// (a pending debit with no settlement date); once it was submitted, the
// ACH goes to the bank account it collected.
func SendQueuedACH(
	op *kernel.Op,
	a *kernel.Actor,
	r ledger.RailTransferRequest,
	infoRequestID string,
) (*ledger.RailTransfer, error) {
	ir, ok, err := InfoRequest(op, infoRequestID)
	if err != nil {
		return nil, err
	}
	if !ok || ir.LegalEntityID != a.LegalEntityID() {
		return nil, kernel.NotFound("information request", "informationRequestId", infoRequestID)
	}
	if !ir.RequestedInformation.Wants(parties.DestinationACH) {
		return nil, kernel.InvalidField("/informationRequestId", "the information request does not ask for a bank account")
	}
	switch ir.Status {
	case StatusCanceled:
		return nil, kernel.InvalidField("/informationRequestId", "the information request was canceled")
	case StatusSubmitted:
		d, err := latestBankDestination(op, ir.ContactID)
		if err != nil {
			return nil, err
		}
		r.DestinationID = d.ID
		return ledger.SendACH(op, a, r)
	}
	return holdACH(op, a, r, ir)
}

// holdACH posts the pending debit of a queued ACH.
func holdACH(
	op *kernel.Op,
	a *kernel.Actor,
	r ledger.RailTransferRequest,
	ir *Request,
) (*ledger.RailTransfer, error) {
	src, err := ledger.OwnEndpoint(op, a, r.SourceID, r.Field)
	if err != nil {
		return nil, err
	}
	if err := src.Open(r.Field); err != nil {
		return nil, err
	}
	if err := ledger.CheckFunds(op, src, r.AmountCents); err != nil {
		return nil, err
	}
	var c parties.Contact
	if _, err := op.Get(parties.KindContact, ir.ContactID, &c); err != nil {
		return nil, err
	}
	id, err := op.NewID(ledger.PrefixTransfer)
	if err != nil {
		return nil, err
	}
	t := ledger.Leg(src, -r.AmountCents, "ach", "pending", "ACH to "+c.Name+" (queued: awaiting bank details)", r.Memo, id)
	t.CreatedAt = op.Now
	ledger.FillRail(op.W.Faker("transfer:"+id, 0), t, "")
	if err := ledger.PostTransaction(op, t); err != nil {
		return nil, err
	}
	q := &QueuedACH{TransactionID: t.ID, InformationRequestID: ir.ID}
	err = op.Save(kindQueuedACH, t.ID, q, queuedIndex(q, t.Seq))
	return &ledger.RailTransfer{TransferID: id, TransactionID: t.ID}, err
}

func latestBankDestination(op *kernel.Op, contactID string) (*parties.Destination, error) {
	dests, err := DestinationsOf(op, contactID)
	if err != nil {
		return nil, err
	}
	for i := len(dests) - 1; i >= 0; i-- {
		if dests[i].Type == parties.DestinationACH && dests[i].AccountNumber != "" {
			return &dests[i], nil
		}
	}
	return nil, kernel.InvalidField("/informationRequestId", "the contact submitted no bank account")
}

// QueuedACHOf lists the ACH transfers queued on an information request.
func QueuedACHOf(op *kernel.Op, infoRequestID string) ([]QueuedACH, error) {
	return kernel.All[QueuedACH](op, kindQueuedACH, kernel.IndexPrefix(indexQueuedInfo, infoRequestID))
}

// releaseQueuedACH sends every held ACH of a submitted request to the bank
// account it collected: each settles after the ACH business days from now.
func releaseQueuedACH(op *kernel.Op, ir *Request, dests []*parties.Destination) error {
	var bank *parties.Destination
	for _, d := range dests {
		if d.Type == parties.DestinationACH {
			bank = d
		}
	}
	queued, err := QueuedACHOf(op, ir.ID)
	if err != nil || bank == nil {
		return err
	}
	settings, err := ledger.CurrentRailSettings(op)
	if err != nil {
		return err
	}
	for _, q := range queued {
		if q.Released {
			continue
		}
		t, ok, err := ledger.FindTransaction(op, q.TransactionID)
		if err != nil || !ok || t.Status != ledger.StatusPending {
			if err == nil && !ok {
				err = fmt.Errorf("queued transaction %s is missing", q.TransactionID)
			}
			if err != nil {
				return err
			}
			continue
		}
		if err := release(op, t, &q, bank, settings.ACHSettlementBusinessDays); err != nil {
			return err
		}
	}
	return nil
}

func release(op *kernel.Op, t *ledger.Transaction, q *QueuedACH, bank *parties.Destination, days int) error {
	var c parties.Contact
	if _, err := op.Get(parties.KindContact, bank.ContactID, &c); err != nil {
		return err
	}
	t.Description = "ACH to " + c.Name
	if t.ACHInfo != nil {
		t.ACHInfo.CounterpartyBank = ledger.FirstNonEmpty(bank.BankName, t.ACHInfo.CounterpartyBank)
	}
	if err := op.Save(ledger.KindTransaction, t.ID, t, ledger.TxnIndexes(t)...); err != nil {
		return err
	}
	if err := op.Emit(t.LegalEntityID, deliveries.EventTransactionUpdate, t.ID); err != nil {
		return err
	}
	at := ledger.AddBusinessDays(op.Now, days)
	if _, err := op.Schedule(ledger.EventKindACHSettle, at, ledger.AchPayload{TransactionID: t.ID,
		ReturnCode: ledger.ReturnCodeOf(bank)}); err != nil {
		return err
	}
	q.Released = true
	return op.Save(kindQueuedACH, t.ID, q, queuedIndex(q, t.Seq))
}

// cancelQueuedACH cancels every held ACH of a canceled request: nothing is
// debited.
func cancelQueuedACH(op *kernel.Op, ir *Request) error {
	queued, err := QueuedACHOf(op, ir.ID)
	if err != nil {
		return err
	}
	for _, q := range queued {
		t, ok, err := ledger.FindTransaction(op, q.TransactionID)
		if err != nil {
			return err
		}
		if ok && t.Status == ledger.StatusPending && !q.Released {
			if err := ledger.SetTransactionStatus(op, t, "canceled"); err != nil {
				return err
			}
		}
	}
	return nil
}

// RestoreQueuedACH links a held transaction, already written, to its
// information request as a world it was exported from holds it: nothing
// is posted.
func RestoreQueuedACH(op *kernel.Op, q *QueuedACH) error {
	t, ok, err := ledger.FindTransaction(op, q.TransactionID)
	if err != nil {
		return err
	}
	if !ok {
		return kernel.NotFound("transaction", "transactionId", q.TransactionID)
	}
	return op.Save(kindQueuedACH, t.ID, q, queuedIndex(q, t.Seq))
}

// queuedIndex is a queued ACH's entry among its request's, placed by its
// transaction's sequence number.
func queuedIndex(q *QueuedACH, seq int64) string {
	return kernel.IndexKey(indexQueuedInfo, q.InformationRequestID, store.Seq(seq), q.TransactionID)
}
