package kernel

import (
	"cmp"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/store"
)

// Webhook event types of the real service.
const (
	EventCardUpdate          = "card.update"
	EventCardDelete          = "card.delete"
	EventCardCreation        = "card_creation.event"
	EventTransactionCreate   = "aggregated_transaction.create"
	EventTransactionUpdate   = "aggregated_transaction.update"
	EventExpenseReportNew    = "expense_report.create"
	EventExpenseReportUpdate = "expense_report.update"
)

// WebhookEventTypes lists every event type, in the real service's order.
var WebhookEventTypes = []string{EventCardUpdate, EventCardDelete, EventCardCreation, EventTransactionCreate,
	EventTransactionUpdate, EventExpenseReportNew, EventExpenseReportUpdate}

// Emitted is a state change a webhook endpoint may be told about: the
// payload is the entity id, the event type and a unique event id.
type Emitted struct {
	EventID       string    `json:"eventId"`
	Event         string    `json:"event"`
	EntityID      string    `json:"entityId"`
	LegalEntityID string    `json:"legalEntityId"`
	At            time.Time `json:"at"`
	Seq           int64     `json:"seq"`
}

// emittedLog is the key of a legal entity's emitted event with sequence
// seq. Emitted events form an append-only log read in order: nothing looks
// one up by id, so each is one entry in sequence order, not a record and
// an index entry.
func emittedLog(legalEntityID string, seq int64, id string) string {
	return store.Key("l", "emitted", legalEntityID, store.Seq(seq), id)
}

// Emit records that entityID of a legal entity changed in a way webhook
// receivers hear about. Call it in the operation that makes the change.
func (op *Op) Emit(legalEntityID, event, entityID string) error {
	if op.Loading {
		return nil
	}
	id, err := op.NewID("evt_")
	if err != nil {
		return err
	}
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	e := &Emitted{EventID: id, Event: event, EntityID: entityID, LegalEntityID: legalEntityID, At: op.Now, Seq: seq}
	if err := op.Tx.Put(emittedLog(legalEntityID, seq, id), e); err != nil {
		return err
	}
	for _, h := range op.W.wiring.OnEmit {
		if err := h(op, e); err != nil {
			return err
		}
	}
	return nil
}

// EmittedEvents lists a legal entity's emitted events, oldest first.
func (op *Op) EmittedEvents(legalEntityID string) ([]Emitted, error) {
	var out []Emitted
	var err error
	scanErr := op.Tx.Scan(store.Prefix("l", "emitted", legalEntityID), "", false, func(_, raw string) bool {
		var e Emitted
		if err = store.DecodeValue(raw, &e); err != nil {
			return false
		}
		out = append(out, e)
		return true
	})
	return out, cmp.Or(scanErr, err)
}
