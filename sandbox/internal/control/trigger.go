package control

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/agnivade/levenshtein"
	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (c *Control) routesTrigger(s *mux.Router) {
	web.Route(s, web.Gen2, http.MethodPost, "/events/trigger", "sandbox.events.trigger", c.triggerEvent)
}

// eventTriggerBody asks the world to raise a webhook event.
type eventTriggerBody struct {
	Event         string `json:"event"`
	EntityID      string `json:"entityId"`
	LegalEntityID string `json:"legalEntityId"`
}

// triggeredEvent is one webhook event a trigger raised.
type triggeredEvent struct {
	EventID  string `json:"eventId"`
	Event    string `json:"event"`
	EntityID string `json:"entityId"`
}

// triggerResult answers a trigger: the event asked for, what was done to
// raise it, every event the actions raised and the deliveries they queued.
type triggerResult struct {
	Event         string `json:"event"`
	EventID       string `json:"eventId"`
	EntityID      string `json:"entityId"`
	LegalEntityID string `json:"legalEntityId"`
	// Actions says what was done, in order.
	Actions    []string         `json:"actions"`
	Events     []triggeredEvent `json:"events"`
	Deliveries []deliveryView   `json:"deliveries"`
}

// triggerEvent makes the world raise a webhook event the way real use
// does: it performs an action (issue, update or close a card, a card
// purchase and its clearing, an expense report) through the domain's own
// operation, so every endpoint of the legal entity gets the event, and the
// other events the action raises, exactly as it would.
func (c *Control) triggerEvent(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var b eventTriggerBody
	if err := web.Decode(r, &b, true); err != nil {
		return nil, err
	}
	b.EntityID, b.LegalEntityID = strings.TrimSpace(b.EntityID), strings.TrimSpace(b.LegalEntityID)
	action, ok := eventTriggers[b.Event]
	if !ok {
		return nil, unknownEventType(b.Event)
	}
	defaultLE := ""
	if b.LegalEntityID == "" {
		if defaultLE, err = defaultLegalEntity(w); err != nil {
			return nil, err
		}
	}
	var out triggerResult
	err = w.Update(func(op *kernel.Op) error {
		le, err := triggerLegalEntity(op, action, b, defaultLE)
		if err != nil {
			return err
		}
		run := &triggerRun{op: op, actor: &kernel.Actor{LegalEntity: *le,
			Principal: kernel.Principal{
				Key: kernel.APIKey{Kind: kernel.KeyLegalEntity, LegalEntityID: le.ID, Name: "slash-sandbox trigger"},
			}}}
		entity, err := action.run(run, b.EntityID)
		if err != nil {
			return err
		}
		var raised []kernel.Emitted
		for _, e := range op.Emitted() {
			if e.LegalEntityID == le.ID {
				raised = append(raised, e)
			}
		}
		out, err = triggered(op, b.Event, entity, le.ID, run.actions, raised)
		return err
	})
	if err != nil {
		return nil, err
	}
	return web.Status(http.StatusCreated, out), nil
}

// triggered assembles the answer from the events an action raised.
func triggered(
	op *kernel.Op,
	event, entity, le string,
	actions []string,
	raised []kernel.Emitted,
) (triggerResult, error) {
	out := triggerResult{Event: event, EntityID: entity, LegalEntityID: le, Actions: actions,
		Events: make([]triggeredEvent, len(raised)), Deliveries: []deliveryView{}}
	for i, e := range raised {
		out.Events[i] = triggeredEvent{EventID: e.EventID, Event: e.Event, EntityID: e.EntityID}
		if e.Event == event && e.EntityID == entity {
			out.EventID = e.EventID
		}
	}
	if out.EventID == "" {
		return out, fmt.Errorf("trigger %s: the actions raised no %s for %s", event, event, entity)
	}
	ds, err := deliveries.EventDeliveries(op, raised)
	for i := range ds {
		out.Deliveries = append(out.Deliveries, deliveryOf(&ds[i]))
	}
	return out, err
}

// defaultLegalEntity is the legal entity a trigger acts for when the
// request names neither it nor an entity of its own: the first legal
// entity of the first key that may write, in the order GET /_sandbox/keys
// lists them. slash-sandbox listen picks the same one.
func defaultLegalEntity(w *kernel.World) (string, error) {
	keys, err := w.Keys()
	if err != nil {
		return "", err
	}
	for _, k := range keys {
		if !k.Key.ReadOnly && len(k.LegalEntityIDs) > 0 {
			return k.LegalEntityIDs[0], nil
		}
	}
	return "", kernel.InvalidField("/legalEntityId",
		"required: the world has no key that may write, so no legal entity is the default")
}

// triggerLegalEntity is the legal entity a trigger acts for: the one the
// named entity belongs to, the one the body names (they must agree), else
// the default.
func triggerLegalEntity(
	op *kernel.Op,
	t eventTrigger,
	b eventTriggerBody,
	defaultLE string,
) (*kernel.LegalEntity, error) {
	id := b.LegalEntityID
	if b.EntityID != "" && t.kind != "" {
		var owner struct {
			LegalEntityID string `json:"legalEntityId"`
		}
		ok, err := op.Get(t.kind, b.EntityID, &owner)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, kernel.NotFound(t.noun, "entityId", b.EntityID)
		}
		if id != "" && id != owner.LegalEntityID {
			return nil, kernel.InvalidField("/legalEntityId",
				fmt.Sprintf("%s %s belongs to %s, not %s", t.noun, b.EntityID, owner.LegalEntityID, id))
		}
		id = owner.LegalEntityID
	}
	if id == "" {
		id = defaultLE
	}
	var le kernel.LegalEntity
	ok, err := op.Get(kernel.LegalEntities.Name, id, &le)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, kernel.NotFound("legal entity", "legalEntityId", id)
	}
	return &le, nil
}

// unknownEventType refuses an event type, suggesting the nearest and
// listing the valid ones.
func unknownEventType(event string) error {
	valid := "must be one of " + strings.Join(deliveries.EventTypes, ", ")
	if event == "" {
		return kernel.InvalidField("/event", "required: "+strings.TrimPrefix(valid, "must be "))
	}
	message := fmt.Sprintf("%q is not a webhook event type", event)
	if s := nearestEventType(event); s != "" {
		message += fmt.Sprintf("; did you mean %q?", s)
	}
	return kernel.Errorf(kernel.CodeInvalidRequest, "%s", message).With("/event", valid)
}

// nearestEventType is the event type a mistyped name most likely meant
// ("" when none is close): one that contains it (five characters or more)
// or that it contains, else one a few edits away.
func nearestEventType(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	best, bestDist := "", 4
	for _, t := range deliveries.EventTypes {
		if name == "" {
			break
		}
		if (len(name) >= 5 && strings.Contains(t, name)) || strings.Contains(name, t) {
			return t
		}
		// The distance is at least the difference in length: a long
		// name is never measured against every type.
		if max(len(name)-len(t), len(t)-len(name)) >= bestDist {
			continue
		}
		if d := levenshtein.ComputeDistance(name, t); d < bestDist {
			best, bestDist = t, d
		}
	}
	return best
}
