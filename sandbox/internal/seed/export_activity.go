package seed

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/agentrequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/expenses"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/inforequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// eventsElsewhere are the kinds of scheduled event the future step does not
// write: the load plans them again from the invoices, series and expense
// reports the export writes (their dates, payoutAt).
var eventsElsewhere = map[string]bool{
	invoices.EventSend: true, invoices.EventOverdue: true, invoices.EventRemind: true, invoices.EventSeriesIssue: true,
	expenses.EventPayout: true,
}

// future writes what the world will do: every scheduled event, with its id
// and payload, so that the world loaded from the export runs the same
// events in the same order. A settlement the transaction's settlesAt
// already carries is not written twice.
func (x *exporter) future() error {
	settled := map[string]bool{}
	for _, t := range x.sc.Transactions {
		settled[t.ID] = t.SettlesAt != ""
	}
	req := kernel.PageRequest{Size: 1000}
	for {
		page, err := kernel.List[kernel.Event](x.op, kernel.Events.Name, kernel.IndexPrefix(kernel.IndexEventDue), req,
			nil)
		if err != nil {
			return err
		}
		for _, ev := range page.Items {
			if eventsElsewhere[ev.Kind] {
				continue
			}
			with, err := freeForm(ev.Payload)
			if id, _ := with["transactionId"].(string); ev.Kind == "transaction.settle" && settled[id] {
				continue
			}
			if err != nil {
				return fmt.Errorf("event %s: %w", ev.ID, err)
			}
			// An event a request scheduled while an advance passed its
			// instant is due now: it runs at the next advance, here and there.
			at := ev.At
			if at.Before(x.op.Now) {
				at = x.op.Now
			}
			x.sc.Events = append(x.sc.Events, scenario.Event{ID: ev.ID, At: stamp(at), Kind: ev.Kind, With: with})
		}
		if page.Next == "" {
			break
		}
		req.After = page.Next
	}
	return nil
}

// endpoints writes each endpoint's delivery state and every delivery it
// has, as they stand.
func (x *exporter) endpoints() error {
	for i := range x.sc.Webhooks {
		s := &x.sc.Webhooks[i]
		w, ok, err := deliveries.LoadWebhook(x.op, s.ID)
		if err != nil || !ok {
			return cmp.Or(err, fmt.Errorf("webhook %s is gone", s.ID))
		}
		switch {
		case w.PausedAt != nil:
			s.StatusSince = stamp(*w.PausedAt)
		case w.DisabledAt != nil:
			s.StatusSince = stamp(*w.DisabledAt)
		}
		s.BackingOffUntil, s.ArchivedAt = stampPtr(w.BackingOffUntil), stampPtr(w.ArchivedAt)
		s.ResumeEventID, s.ConsecutiveFailures, s.StatusReason = w.ResumeEventID, w.ConsecutiveFailures, w.StatusReason
		all, err := deliveries.History(x.op, w.ID)
		if err != nil {
			return err
		}
		for _, d := range all {
			sd := scenario.WebhookDelivery{ID: d.ID, EventID: d.EventID, Event: d.Event, EntityID: d.EntityID,
				Status: d.Status, RelatedID: d.RelatedID, NextAttemptAt: stampPtr(d.NextAttemptAt),
				RetryEventID: d.RetryEventID, CreatedAt: stamp(d.CreatedAt), CompletedAt: stampPtr(d.CompletedAt)}
			if d.Source != deliveries.SourceEvent {
				sd.Source = d.Source
			}
			for _, a := range d.Attempts {
				sd.Attempts = append(sd.Attempts, scenario.WebhookAttempt{At: stamp(a.At), URL: a.URL,
					RequestHeaders: a.RequestHeaders, RequestBody: a.RequestBody, ResponseStatus: a.ResponseStatus,
					ResponseBody: a.ResponseBody, LatencyMs: a.LatencyMs, Error: a.Error, Succeeded: a.Succeeded})
			}
			s.Deliveries = append(s.Deliveries, sd)
		}
	}
	return nil
}

// agentRequests writes every agent request as it stands: the write it
// holds, what a person is shown, its status and times. A pending one's
// expiry is its agent_request.expire event, which future writes.
func (x *exporter) agentRequests() error {
	keys, err := records[kernel.APIKey](x.op, kernel.APIKeys.Name)
	if err != nil {
		return err
	}
	base := map[string]string{}
	for _, k := range keys {
		base[k.Key] = cmp.Or(k.BaseKey, k.Key)
	}
	all, err := agentrequests.All(x.op)
	if err != nil {
		return err
	}
	for _, ar := range all {
		s := scenario.DeferredWrite{ID: ar.ID, Key: cmp.Or(base[ar.APIKey], ar.APIKey), Method: ar.Method,
			Path: ar.Path, LegalEntityID: ar.Header["x-legal-entity"], At: stamp(ar.CreatedAt), Status: ar.Status,
			Query: ar.Query, IdempotencyKey: ar.Header["X-Idempotency-Key"], FailureStatus: ar.FailureStatus,
			UpdatedAt: stamp(ar.UpdatedAt), ExpiresAt: stamp(ar.ExpiresAt)}
		if ct := ar.Header["Content-Type"]; ct != "application/json" {
			s.ContentType = ct
		}
		if s.Body, err = freeForm(ar.Body); err != nil {
			return fmt.Errorf("agent request %s: its body is not a JSON object: %w", ar.ID, err)
		}
		if ar.Route != "" { // a request not yet read keeps the display its first read makes
			if s.Display, err = freeFormOf(ar.Display); err != nil {
				return err
			}
		}
		s.Result, s.Failure = string(ar.Result), string(ar.Failure)
		x.sc.DeferredWrites = append(x.sc.DeferredWrites, s)
	}
	return nil
}

// informationRequests writes every information request as it stands, with
// its form token, the id of the email that carried it and the ACHs held on
// it, whose transactions the transactions step writes.
func (x *exporter) informationRequests() error {
	page, err := inforequests.List(x.op, "", kernel.PageRequest{Size: 1 << 20})
	if err != nil {
		return err
	}
	all := page.Items
	slices.SortFunc(all, func(a, b inforequests.Request) int { return cmp.Compare(a.Seq, b.Seq) })
	for _, ir := range all {
		s := scenario.InformationRequest{ID: ir.ID, ContactID: ir.ContactID, RequesterName: ir.RequesterName,
			Status: ir.Status, SentAt: stamp(ir.SentAt), SentToEmail: ir.SentToEmail, CCEmails: ir.CCEmails,
			FormToken: ir.FormToken, MessageID: ir.MessageID, FirstSubmittedAt: stampPtr(ir.FirstSubmittedAt),
			LastSubmittedAt: stampPtr(ir.LastSubmittedAt), CanceledAt: stampPtr(ir.CanceledAt),
			RequestedInformation: scenario.RequestedInformation{DestinationTypes: ir.RequestedInformation.DestinationTypes,
				Address: ir.RequestedInformation.Address != nil && *ir.RequestedInformation.Address,
				Tax:     ir.RequestedInformation.Tax != nil && *ir.RequestedInformation.Tax}}
		if ir.Note != nil {
			s.Note = *ir.Note
		}
		queued, err := inforequests.QueuedACHOf(x.op, ir.ID)
		if err != nil {
			return err
		}
		for _, q := range queued {
			t, ok, err := ledger.FindTransaction(x.op, q.TransactionID)
			if err != nil || !ok {
				return cmp.Or(err, fmt.Errorf("information request %s holds missing transaction %s", ir.ID,
					q.TransactionID))
			}
			s.QueuedACHs = append(s.QueuedACHs, scenario.QueuedACH{From: cmp.Or(t.VirtualAccountID, t.AccountID),
				AmountCents: -t.AmountCents, Memo: t.Memo, TransactionID: t.ID, Released: q.Released})
		}
		if len(s.QueuedACHs) == 1 {
			s.QueuedACH, s.QueuedACHs = &s.QueuedACHs[0], nil
		}
		x.sc.InformationRequests = append(x.sc.InformationRequests, s)
	}
	return nil
}

// destinationSince is when a destination was added, "" when it came with
// its contact.
func destinationSince(c parties.Contact, d parties.Destination) string {
	if d.CreatedAt.Equal(c.CreatedAt) {
		return ""
	}
	return stamp(d.CreatedAt)
}
