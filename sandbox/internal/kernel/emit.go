package kernel

import (
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

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

// retiredEmittedLog held every emitted event, one key each, in data files
// written before deliveries were the only record of them: the log had no
// reader but the operation that wrote it. Its keys are removed when a
// world adopts such a file (see World.adoptStore).
var retiredEmittedLog = store.Prefix("l", "emitted")

// Emit records that entityID of a legal entity changed in a way webhook
// receivers hear about; event is its type, which the emitting domain
// names. Call it in the operation that makes the change: the reactions
// the engine was wired with (the deliveries it owes) run in it, and
// Emitted lists it until the operation ends. A quiet operation emits
// nothing.
func (op *Op) Emit(legalEntityID, event, entityID string) error {
	if op.quiet != nil {
		return nil
	}
	id, err := op.NewID(Events.Prefix)
	if err != nil {
		return err
	}
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	op.emitted = append(op.emitted,
		Emitted{EventID: id, Event: event, EntityID: entityID, LegalEntityID: legalEntityID, At: op.Now, Seq: seq})
	e := &op.emitted[len(op.emitted)-1]
	for _, h := range op.W.wiring.OnEmit {
		if err := h(op, e); err != nil {
			return err
		}
	}
	return nil
}

// Emitted lists the events the operation has emitted so far, in order.
func (op *Op) Emitted() []Emitted { return op.emitted }
