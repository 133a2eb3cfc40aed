package sandbox

import (
	"fmt"

	"github.com/slash-sandbox/slash-sandbox/sandbox/store"
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

func init() { OnInformationRequest(releaseQueuedACH, cancelQueuedACH) }

// SendQueuedACH sends an ACH to the contact of an information request that
// asks for a bank account. While the request is pending the money is held
// (a pending debit with no settlement date); once it was submitted, the
// ACH goes to the bank account it collected.
func (op *Op) SendQueuedACH(a *Actor, r RailTransferRequest, infoRequestID string) (*RailTransfer, error) {
	ir, ok, err := op.InfoRequest(infoRequestID)
	if err != nil {
		return nil, err
	}
	if !ok || ir.LegalEntityID != a.LegalEntityID() {
		return nil, NotFound("information request", "informationRequestId", infoRequestID)
	}
	if !ir.RequestedInformation.Wants(DestinationACH) {
		return nil, InvalidField("/informationRequestId", "the information request does not ask for a bank account")
	}
	switch ir.Status {
	case InfoCanceled:
		return nil, InvalidField("/informationRequestId", "the information request was canceled")
	case InfoSubmitted:
		d, err := op.latestBankDestination(ir.ContactID)
		if err != nil {
			return nil, err
		}
		r.DestinationID = d.ID
		return op.SendACH(a, r)
	}
	return op.holdACH(a, r, ir)
}

// holdACH posts the pending debit of a queued ACH.
func (op *Op) holdACH(a *Actor, r RailTransferRequest, ir *InformationRequest) (*RailTransfer, error) {
	src, err := op.ownEndpoint(a, r.SourceID, r.Field)
	if err != nil {
		return nil, err
	}
	if err := src.open(r.Field); err != nil {
		return nil, err
	}
	if err := op.checkFunds(src, r.AmountCents); err != nil {
		return nil, err
	}
	var c Contact
	if _, err := op.get(kindContact, ir.ContactID, &c); err != nil {
		return nil, err
	}
	id, err := op.newID(PrefixTransfer)
	if err != nil {
		return nil, err
	}
	t := leg(src, -r.AmountCents, "ach", "pending", "ACH to "+c.Name+" (queued: awaiting bank details)", r.Memo, id)
	t.CreatedAt = op.Now
	fillRail(op.W.faker("transfer:"+id, 0), t, "")
	if err := op.PostTransaction(t); err != nil {
		return nil, err
	}
	q := &QueuedACH{TransactionID: t.ID, InformationRequestID: ir.ID}
	err = op.save(kindQueuedACH, t.ID, q, IndexKey(indexQueuedInfo, ir.ID, store.Seq(t.Seq), t.ID))
	return &RailTransfer{TransferID: id, TransactionID: t.ID}, err
}

func (op *Op) latestBankDestination(contactID string) (*Destination, error) {
	dests, err := op.DestinationsOf(contactID)
	if err != nil {
		return nil, err
	}
	for i := len(dests) - 1; i >= 0; i-- {
		if dests[i].Type == DestinationACH && dests[i].AccountNumber != "" {
			return &dests[i], nil
		}
	}
	return nil, InvalidField("/informationRequestId", "the contact submitted no bank account")
}

// QueuedACHOf lists the ACH transfers queued on an information request.
func (op *Op) QueuedACHOf(infoRequestID string) ([]QueuedACH, error) {
	return all[QueuedACH](op, kindQueuedACH, IndexPrefix(indexQueuedInfo, infoRequestID))
}

// releaseQueuedACH sends every held ACH of a submitted request to the bank
// account it collected: each settles after the ACH business days from now.
func releaseQueuedACH(op *Op, ir *InformationRequest, dests []*Destination) error {
	var bank *Destination
	for _, d := range dests {
		if d.Type == DestinationACH {
			bank = d
		}
	}
	queued, err := op.QueuedACHOf(ir.ID)
	if err != nil || bank == nil {
		return err
	}
	settings, err := op.RailSettings()
	if err != nil {
		return err
	}
	for _, q := range queued {
		if q.Released {
			continue
		}
		t, ok, err := op.Transaction(q.TransactionID)
		if err != nil || !ok || t.Status != StatusPending {
			if err == nil && !ok {
				err = fmt.Errorf("queued transaction %s is missing", q.TransactionID)
			}
			if err != nil {
				return err
			}
			continue
		}
		if err := op.release(t, &q, bank, settings.ACHSettlementBusinessDays); err != nil {
			return err
		}
	}
	return nil
}

func (op *Op) release(t *Transaction, q *QueuedACH, bank *Destination, days int) error {
	var c Contact
	if _, err := op.get(kindContact, bank.ContactID, &c); err != nil {
		return err
	}
	t.Description = "ACH to " + c.Name
	if t.ACHInfo != nil {
		t.ACHInfo.CounterpartyBank = firstNonEmpty(bank.BankName, t.ACHInfo.CounterpartyBank)
	}
	if err := op.save(kindTransaction, t.ID, t, txnIndexes(t)...); err != nil {
		return err
	}
	if err := op.Emit(t.LegalEntityID, EventTransactionUpdate, t.ID); err != nil {
		return err
	}
	at := AddBusinessDays(op.Now, days)
	if _, err := op.Schedule(EventKindACHSettle, at, achPayload{TransactionID: t.ID, ReturnCode: ReturnCodeOf(bank)}); err != nil {
		return err
	}
	q.Released = true
	return op.save(kindQueuedACH, t.ID, q, IndexKey(indexQueuedInfo, q.InformationRequestID, store.Seq(t.Seq), t.ID))
}

// cancelQueuedACH cancels every held ACH of a canceled request: nothing is
// debited.
func cancelQueuedACH(op *Op, ir *InformationRequest) error {
	queued, err := op.QueuedACHOf(ir.ID)
	if err != nil {
		return err
	}
	for _, q := range queued {
		t, ok, err := op.Transaction(q.TransactionID)
		if err != nil {
			return err
		}
		if ok && t.Status == StatusPending && !q.Released {
			if err := op.SetTransactionStatus(t, "canceled"); err != nil {
				return err
			}
		}
	}
	return nil
}
