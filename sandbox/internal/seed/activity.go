package seed

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/agentrequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/inforequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// at runs fn with the operation's time set to t, so what it writes is
// dated then, as if it had happened at t.
func (l *loader) at(t time.Time, fn func() error) error {
	now := l.op.Now
	l.op.Now = t
	defer func() { l.op.Now = now }()
	return fn()
}

// actor acts on a legal entity as its own key would.
func (l *loader) actor(legalEntityID string) (*kernel.Actor, error) {
	var le kernel.LegalEntity
	if _, err := l.op.Get(kernel.LegalEntities.Name, legalEntityID, &le); err != nil {
		return nil, err
	}
	return &kernel.Actor{LegalEntity: le}, nil
}

// activity writes the work under way when the world starts: invoice
// emails, information requests (and the ACH queued on them), deferred
// writes waiting for approval.
func (l *loader) activity() error {
	l.history.mailing = true
	defer func() { l.history.mailing = false }()
	for _, inv := range l.emailed {
		if err := l.at(inv.IssuedAt, func() error { return invoices.Email(l.op, inv) }); err != nil {
			return err
		}
	}
	for i, s := range l.sc.InformationRequests {
		l.op.SetOrigin(fmt.Sprintf("informationRequests[%d]", i))
		if err := l.informationRequest(fmt.Sprintf("informationRequests[%d]", i), s); err != nil {
			return err
		}
	}
	for i, s := range l.sc.DeferredWrites {
		if err := l.deferredWrite(fmt.Sprintf("deferredWrites[%d]", i), s); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) informationRequest(path string, s scenario.InformationRequest) error {
	var c struct {
		LegalEntityID string `json:"legalEntityId"`
	}
	if _, err := l.op.Get(parties.KindContact, s.ContactID, &c); err != nil {
		return err
	}
	a, err := l.actor(c.LegalEntityID)
	if err != nil {
		return err
	}
	if s.ID != "" {
		return l.restoredInformationRequest(path, s, a)
	}
	in := inforequests.Input{ContactID: s.ContactID, RequesterName: s.RequesterName,
		RequestedInformation: requestedInformation(s.RequestedInformation)}
	if s.Note != "" {
		in.Note = &s.Note
	}
	return l.at(l.createdAt(s.SentAt, l.op.Now), func() error {
		ir, err := inforequests.CreateInformationRequest(l.op, a, in)
		if err != nil {
			return l.problem(path, "%v", err)
		}
		q := s.QueuedACH
		if q == nil {
			return nil
		}
		r := ledger.RailTransferRequest{
			SourceID:             q.From,
			Field:                "/from",
			InformationRequestID: ir.ID,
			AmountCents:          q.AmountCents,
			Memo:                 q.Memo,
		}
		if _, err := inforequests.SendQueuedACH(l.op, a, r, ir.ID); err != nil {
			return l.problem(path+".queuedAch", "%v", err)
		}
		return nil
	})
}

// deferredWrite stores a read-only key's write as a pending agent request.
// The scenario names it by method, path and body; the API completes it
// (the route that runs it, what a person is shown) when it is first read.
func (l *loader) deferredWrite(path string, s scenario.DeferredWrite) error {
	i := slices.IndexFunc(l.sc.Keys, func(k scenario.Key) bool { return k.Key == s.Key })
	key := l.sc.Keys[i]
	le := key.LegalEntityID
	header := map[string]string{"Content-Type": "application/json"}
	if key.Kind == kernel.KeyUser {
		le = s.LegalEntityID
		header["x-legal-entity"] = le
	}
	body, err := json.Marshal(s.Body)
	if err != nil {
		return l.problem(path+".body", "%v", err)
	}
	if s.Body == nil {
		body = nil
	}
	ar := &agentrequests.Request{LegalEntityID: le, APIKey: key.Key, Method: s.Method, Path: s.Path, Body: body,
		Header: header, Display: agentrequests.Display{Description: s.Method + " " + s.Path,
			Sections: []agentrequests.Section{}}}
	if s.ID != "" {
		return l.agentRequest(path, s, ar)
	}
	return l.at(l.createdAt(s.At, l.op.Now), func() error { return agentrequests.Create(l.op, ar) })
}

// refusals writes the deliveries a failing endpoint has been refusing. The
// scenario's events are the engine's (TestWebhookEventsAreTheEngines).
func (l *loader) refusals(w *deliveries.Webhook, f *scenario.WebhookFailing) error {
	events := make([]deliveries.PastEvent, len(f.Events))
	for i, e := range f.Events {
		events[i] = deliveries.PastEvent{Event: e.Event, EntityID: e.EntityID}
	}
	return l.at(l.time(f.Since), func() error { return deliveries.RecordRefusals(l.op, w, f.Attempts, events) })
}

// requestedInformation is what a declared information request asks for,
// as the API takes it: address and tax only when asked.
func requestedInformation(r scenario.RequestedInformation) inforequests.RequestedInformation {
	out := inforequests.RequestedInformation{DestinationTypes: r.DestinationTypes}
	if r.Address {
		out.Address = &r.Address
	}
	if r.Tax {
		out.Tax = &r.Tax
	}
	return out
}
