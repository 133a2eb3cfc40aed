package scenario

import (
	"strings"
	"testing"
)

// TestUnderWayIsChecked: the keys an export writes of the work under way
// are checked, each mistake reported where it is.
func TestUnderWayIsChecked(t *testing.T) {
	hook := "webhooks:\n  - {id: webhook_one, legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, "
	tests := []struct {
		name, src, want string
	}{
		{"event id of another kind", "events:\n  - {id: card_1, kind: token_prices.tick}\n",
			`events[0].id: "card_1" must start with evt_`},
		{"backing off without an end", hook + "status: backing-off}\n",
			"webhooks[0].backingOffUntil: is given with status backing-off, and only then"},
		{"delivery of an unknown status", hook + "deliveries: [{id: whdel_1, eventId: evt_1, event: card.update, " +
			"entityId: card_one, status: lost, createdAt: -1h}]}\n",
			`webhooks[0].deliveries[0].status: "lost" is not one of queued, pending, retrying`},
		{"delivery waiting for no event", hook + "deliveries: [{id: whdel_1, eventId: evt_1, event: card.update, " +
			"entityId: card_one, status: retrying, retryEventId: evt_nope, createdAt: -1h}]}\n",
			`webhooks[0].deliveries[0].retryEventId: no scheduled event "evt_nope"`},
		{"retry of a finished delivery", hook + "deliveries: [{id: whdel_1, eventId: evt_1, event: card.update, " +
			"entityId: card_one, status: succeeded, retryEventId: evt_r, createdAt: -1h}]}\nevents:\n" +
			"  - {id: evt_r, kind: webhook.retry, with: {deliveryId: whdel_1}}\n",
			"webhooks[0].deliveries[0].retryEventId: is for a retrying delivery; this one is succeeded"},
		{"failing and deliveries both", hook + "failing: {since: -1h, attempts: 1, events: [{event: card.update, " +
			"entityId: card_one}]}, deliveries: [{id: whdel_1, eventId: evt_1, event: card.update, entityId: card_one, " +
			"status: queued, createdAt: -1h}]}\n",
			"webhooks[0].deliveries: failing declares the deliveries too: give one or the other"},
		{"expiry of an undeclared agent request", "events:\n  - {id: evt_x, kind: agent_request.expire, " +
			"with: {agentRequestId: dfa_nope}}\n", `events[0].with.agentRequestId: no agent request "dfa_nope"`},
		{"agent request result that is not JSON", "deferredWrites:\n  - {id: dfa_1, key: sk_ro, method: POST, " +
			"path: /card, status: executed, result: '{nope'}\n", "deferredWrites[0].result: must be JSON text"},
		{"agent request display without a title", "deferredWrites:\n  - {id: dfa_1, key: sk_ro, method: POST, " +
			"path: /card, display: {description: x}}\n", "deferredWrites[0].display.title: is required"},
		{"exported information request without its held transaction", "informationRequests:\n  - {id: " +
			"le_c_info_req_1, contactId: le_c_vendor, requesterName: Me, requestedInformation: {destinationTypes: " +
			"[bank_account]}, queuedAch: {from: sa_group_one, amountCents: 100}}\n",
			"informationRequests[0].queuedAch.transactionId: is required with the request's id"},
		{"canceled information request without its time", "informationRequests:\n  - {id: le_c_info_req_1, " +
			"contactId: le_c_vendor, requesterName: Me, requestedInformation: {address: true}, status: canceled}\n",
			"informationRequests[0].canceledAt: is given with status canceled, and only then"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := activityBase + tc.src
			ps := mustProblems(t, src)
			for _, p := range ps {
				if strings.HasPrefix(p.Message, tc.want) {
					if p.Line < strings.Count(activityBase, "\n") || p.Column < 1 {
						t.Errorf("%q is at %d:%d, want a line of the case", p.Message, p.Line, p.Column)
					}
					return
				}
			}
			t.Errorf("problems %v, want one starting %q", ps, tc.want)
		})
	}
}
