package scenario

import (
	"encoding/json"
	"fmt"
)

// underWay checks what an exported world writes of its work under way:
// the ids of scheduled events and of the records that wait for them, the
// deliveries of endpoints, the agent requests as they stand, and where the
// id sequences stand.
func (v *validator) underWay() {
	events := map[string]string{} // id → kind
	for i, e := range v.sc.Events {
		v.prefixed(fmt.Sprintf("events[%d].id", i), e.ID, "evt_")
		if e.ID != "" {
			events[e.ID] = e.Kind
		}
	}
	waits := func(path, id, kind string) {
		if k, ok := events[id]; id != "" && ok && k != kind {
			v.add(path, "%q is a %s event, not a %s one", id, k, kind)
		}
	}
	for i, w := range v.sc.Webhooks {
		p := fmt.Sprintf("webhooks[%d]", i)
		v.time(p+".statusSince", w.StatusSince)
		v.time(p+".backingOffUntil", w.BackingOffUntil)
		v.time(p+".archivedAt", w.ArchivedAt)
		if (w.Status == "backing-off") != (w.BackingOffUntil != "") {
			v.add(p+".backingOffUntil", "is given with status backing-off, and only then")
		}
		waits(p+".resumeEventId", w.ResumeEventID, "webhook.resume")
		if w.ConsecutiveFailures < 0 {
			v.add(p+".consecutiveFailures", "must be 0 or more")
		}
		if w.Failing != nil && len(w.Deliveries) > 0 {
			v.add(p+".deliveries", "failing declares the deliveries too: give one or the other")
		}
		for j, d := range w.Deliveries {
			dp := fmt.Sprintf("%s.deliveries[%d]", p, j)
			v.prefixed(dp+".id", d.ID, "whdel_")
			for _, t := range []struct{ key, spec string }{{"createdAt", d.CreatedAt},
				{"completedAt", d.CompletedAt}, {"nextAttemptAt", d.NextAttemptAt}} {
				v.time(dp+"."+t.key, t.spec)
			}
			for k, a := range d.Attempts {
				v.time(fmt.Sprintf("%s.attempts[%d].at", dp, k), a.At)
			}
			waits(dp+".retryEventId", d.RetryEventID, "webhook.retry")
			if d.RetryEventID != "" && d.Status != "retrying" {
				v.add(dp+".retryEventId", "is for a retrying delivery; this one is %s", d.Status)
			}
		}
	}
	for i, d := range v.sc.DeferredWrites {
		p := fmt.Sprintf("deferredWrites[%d]", i)
		v.prefixed(p+".id", d.ID, "dfa_")
		v.time(p+".updatedAt", d.UpdatedAt)
		v.time(p+".expiresAt", d.ExpiresAt)
		for key, text := range map[string]string{"result": d.Result, "failure": d.Failure} {
			if text != "" && !json.Valid([]byte(text)) {
				v.add(p+"."+key, "must be JSON text")
			}
		}
		if d.Display != nil {
			if title, _ := d.Display["title"].(string); title == "" {
				v.add(p+".display.title", "is required: the title a person reads")
			}
		}
	}
	for i, c := range v.sc.Contacts {
		for j, d := range c.Destinations {
			v.time(fmt.Sprintf("contacts[%d].destinations[%d].createdAt", i, j), d.CreatedAt)
		}
	}
	for i, ir := range v.sc.InformationRequests {
		p := fmt.Sprintf("informationRequests[%d]", i)
		v.prefixed(p+".id", ir.ID, "le_c_info_req_")
		v.prefixed(p+".messageId", ir.MessageID, "msg_")
		v.time(p+".firstSubmittedAt", ir.FirstSubmittedAt)
		v.time(p+".lastSubmittedAt", ir.LastSubmittedAt)
		v.time(p+".canceledAt", ir.CanceledAt)
		if (ir.Status == "canceled") != (ir.CanceledAt != "") {
			v.add(p+".canceledAt", "is given with status canceled, and only then")
		}
	}
}

// declareUnderWay records the ids of the scheduled events, deliveries and
// agent requests the scenario declares, which other records name.
func (v *validator) declareUnderWay() {
	for i, e := range v.sc.Events {
		v.id(fmt.Sprintf("events[%d].id", i), "event", e.ID, "")
	}
	for i, w := range v.sc.Webhooks {
		for j, d := range w.Deliveries {
			v.id(fmt.Sprintf("webhooks[%d].deliveries[%d].id", i, j), "webhook_delivery", d.ID, w.LegalEntityID)
		}
	}
	for i, d := range v.sc.DeferredWrites {
		v.id(fmt.Sprintf("deferredWrites[%d].id", i), "agent_request", d.ID, "")
	}
	for i, ir := range v.sc.InformationRequests {
		v.id(fmt.Sprintf("informationRequests[%d].id", i), "information_request", ir.ID, "")
	}
}
