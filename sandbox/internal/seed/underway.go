package seed

import (
	"cmp"
	"encoding/json"
	"slices"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/agentrequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/inforequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// The work under way as an exported world writes it: each record as it
// stands, with the ids of the scheduled events it waits for, which the
// scenario's events declare with those ids. Nothing is sent or scheduled
// twice.

// optionalTime is the time a spec names, nil for none.
func (l *loader) optionalTime(spec string) *time.Time {
	if spec == "" {
		return nil
	}
	t := l.time(spec)
	return &t
}

// declaredEvent finds the id of the scenario's event of kind whose with
// names id under key ("" when there is none).
func (l *loader) declaredEvent(kind, key, id string) string {
	for _, e := range l.sc.Events {
		if e.ID != "" && e.Kind == kind && e.With[key] == id {
			return e.ID
		}
	}
	return ""
}

// declaresTick reports whether the scenario declares the next token price
// tick by its id: the load then schedules none of its own.
func (l *loader) declaresTick() bool {
	return slices.ContainsFunc(l.sc.Events, func(e scenario.Event) bool {
		return e.ID != "" && e.Kind == ledger.TokenTickKind
	})
}

// endpointState applies what the scenario says of an endpoint's delivery
// state: since when it is paused or disabled, until when it backs off and
// the event that ends it, its failures and whether it is archived.
func (l *loader) endpointState(w *deliveries.Webhook, s scenario.Webhook) {
	w.SetStatus(w.Status, l.createdAt(s.StatusSince, w.CreatedAt), l.optionalTime(s.BackingOffUntil))
	w.ConsecutiveFailures, w.ResumeEventID, w.StatusReason = s.ConsecutiveFailures, s.ResumeEventID, s.StatusReason
	w.ArchivedAt = l.optionalTime(s.ArchivedAt)
}

// deliveries writes an endpoint's declared deliveries as they stand.
func (l *loader) deliveries(w *deliveries.Webhook, s scenario.Webhook) error {
	for _, sd := range s.Deliveries {
		d := &deliveries.WebhookDelivery{ID: sd.ID, WebhookID: w.ID, LegalEntityID: w.LegalEntityID,
			EventID: sd.EventID, Event: sd.Event, EntityID: sd.EntityID, Status: sd.Status,
			Source: sd.Source, RelatedID: sd.RelatedID, NextAttemptAt: l.optionalTime(sd.NextAttemptAt),
			RetryEventID: sd.RetryEventID, CreatedAt: l.time(sd.CreatedAt), CompletedAt: l.optionalTime(sd.CompletedAt)}
		if d.Source == "" {
			d.Source = deliveries.SourceEvent
		}
		for i, a := range sd.Attempts {
			d.Attempts = append(d.Attempts, deliveries.Attempt{Number: i + 1, At: l.time(a.At), URL: a.URL,
				RequestHeaders: a.RequestHeaders, RequestBody: a.RequestBody, ResponseStatus: a.ResponseStatus,
				ResponseBody: a.ResponseBody, LatencyMs: a.LatencyMs, Error: a.Error, Succeeded: a.Succeeded})
		}
		if err := deliveries.Restore(l.op, d); err != nil {
			return err
		}
	}
	return nil
}

// agentRequest writes a deferred write the scenario declares by its id as
// it stands. A pending one waits for the agent_request.expire event that
// names it, or gets one at its expiry.
func (l *loader) agentRequest(path string, s scenario.DeferredWrite, ar *agentrequests.Request) error {
	ar.ID, ar.Status = s.ID, s.Status
	if ar.Status == "" {
		ar.Status = agentrequests.Pending
	}
	ar.CreatedAt = l.createdAt(s.At, l.op.Now)
	ar.UpdatedAt = l.createdAt(s.UpdatedAt, ar.CreatedAt)
	ar.ExpiresAt = l.createdAt(s.ExpiresAt, ar.CreatedAt.Add(agentrequests.Expiry(l.op)))
	ar.Query, ar.FailureStatus = s.Query, s.FailureStatus
	if s.IdempotencyKey != "" {
		ar.Header["X-Idempotency-Key"] = s.IdempotencyKey
	}
	if s.ContentType != "" {
		ar.Header["Content-Type"] = s.ContentType
	}
	if s.Display != nil {
		raw, err := json.Marshal(s.Display)
		if err == nil {
			err = json.Unmarshal(raw, &ar.Display)
		}
		if err != nil {
			return l.problem(path+".display", "%v", err)
		}
	}
	for _, j := range []struct {
		key, text string
		to        *json.RawMessage
	}{{"result", s.Result, &ar.Result}, {"failure", s.Failure, &ar.Failure}} {
		if j.text == "" {
			continue
		}
		if !json.Valid([]byte(j.text)) {
			return l.problem(path+"."+j.key, "is not JSON")
		}
		*j.to = json.RawMessage(j.text)
	}
	if ar.Status == agentrequests.Pending {
		ar.ExpiryEvent = l.declaredEvent(agentrequests.ExpireKind, "agentRequestId", ar.ID)
		if ar.ExpiryEvent == "" {
			ev, err := l.op.Schedule(agentrequests.ExpireKind, ar.ExpiresAt, map[string]string{"agentRequestId": ar.ID})
			if err != nil {
				return err
			}
			ar.ExpiryEvent = ev.ID
		}
	}
	return agentrequests.Restore(l.op, ar)
}

// reserveDeclared moves the sequences of the ids a scenario declares for
// records the load also makes (scheduled events, emails) to where the
// scenario says they stand, before anything is made: an event or email the
// load plans never takes the id of one it declares.
func (l *loader) reserveDeclared() error {
	for _, name := range []string{kernel.Events.Prefix, "msg_"} {
		if n, ok := scenario.CounterValue(l.sc.IDCounters[name]); ok {
			if err := l.op.RaiseCounter(name, n); err != nil {
				return err
			}
		}
	}
	return nil
}

// scheduleDeclared schedules an event the scenario declares with its id.
func (l *loader) scheduleDeclared(s scenario.Event, at time.Time) error {
	payload, err := json.Marshal(s.With)
	if err != nil {
		return err
	}
	_, err = l.op.ScheduleAs(s.ID, s.Kind, at, payload)
	return err
}

// restoredInformationRequest writes an information request the scenario
// declares by its id as it stands, with the email that carried it and the
// ACHs held on it, whose transactions the scenario declares: nothing is
// posted or sent anew.
func (l *loader) restoredInformationRequest(path string, s scenario.InformationRequest, a *kernel.Actor) error {
	var c parties.Contact
	if _, err := l.op.Get(parties.KindContact, s.ContactID, &c); err != nil {
		return err
	}
	sent := l.createdAt(s.SentAt, l.op.Now)
	ir := &inforequests.Request{ID: s.ID, LegalEntityID: a.LegalEntityID(), ContactID: s.ContactID,
		Status: cmp.Or(s.Status, inforequests.StatusPending), SentToEmail: cmp.Or(s.SentToEmail, c.RecipientEmail),
		CCEmails: s.CCEmails, RequesterName: s.RequesterName, SentAt: sent, CreatedAt: sent, FormToken: s.FormToken,
		FirstSubmittedAt: l.optionalTime(s.FirstSubmittedAt), LastSubmittedAt: l.optionalTime(s.LastSubmittedAt),
		CanceledAt:           l.optionalTime(s.CanceledAt),
		RequestedInformation: requestedInformation(s.RequestedInformation)}
	if ir.CCEmails == nil {
		ir.CCEmails = []string{}
	}
	if s.Note != "" {
		ir.Note = &s.Note
	}
	if err := inforequests.Restore(l.op, a.LegalEntity.Name, &c, ir, s.MessageID); err != nil {
		return l.problem(path, "%v", err)
	}
	queued := s.QueuedACHs
	if s.QueuedACH != nil {
		queued = append([]scenario.QueuedACH{*s.QueuedACH}, queued...)
	}
	for _, q := range queued {
		err := inforequests.RestoreQueuedACH(l.op, &inforequests.QueuedACH{TransactionID: q.TransactionID,
			InformationRequestID: ir.ID, Released: q.Released})
		if err != nil {
			return l.problem(path+".queuedAch", "%v", err)
		}
	}
	return nil
}
