package scenario

import (
	"strings"
	"testing"
)

// activityBase declares what the work under way refers to: a contact, a
// read-only key and a writable one, an endpoint.
const activityBase = base + `contacts:
  - {id: le_c_vendor, legalEntityId: le_one, name: Vendor, recipientEmail: ap@vendor.test}
keys:
  - {key: sk_ro, kind: legal_entity, legalEntityId: le_one, readOnly: true}
  - {key: sk_rw, kind: legal_entity, legalEntityId: le_one}
`

func TestActivityIsChecked(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"information request without a contact", "informationRequests:\n  - {requesterName: Me, requestedInformation: {address: true}}\n",
			"informationRequests[0].contactId: is required"},
		{"information request asking for nothing", "informationRequests:\n  - {contactId: le_c_vendor, requesterName: Me}\n",
			"must ask for at least one of destinationTypes, address, tax"},
		{"unknown destination type", "informationRequests:\n  - {contactId: le_c_vendor, requesterName: Me, requestedInformation: {destinationTypes: [paypal]}}\n",
			`"paypal" is not one of bank_account, international_wire, crypto_address`},
		{"queued ACH without a bank account asked for", "informationRequests:\n  - {contactId: le_c_vendor, requesterName: Me, requestedInformation: {address: true}, queuedAch: {from: sa_group_one, amountCents: 100}}\n",
			"queuedAch: needs the request to ask for a bank_account destination"},
		{"queued ACH from nowhere", "informationRequests:\n  - {contactId: le_c_vendor, requesterName: Me, requestedInformation: {destinationTypes: [bank_account]}, queuedAch: {from: sa_group_gone, amountCents: 100}}\n",
			`queuedAch.from: names account "sa_group_gone"`},
		{"queued ACH of nothing", "informationRequests:\n  - {contactId: le_c_vendor, requesterName: Me, requestedInformation: {destinationTypes: [bank_account]}, queuedAch: {from: sa_group_one}}\n",
			"queuedAch.amountCents: must be a positive amount in cents"},
		{"deferred write of a writable key", "deferredWrites:\n  - {key: sk_rw, method: POST, path: /card}\n",
			`key "sk_rw" is not read-only`},
		{"deferred write of an undeclared key", "deferredWrites:\n  - {key: sk_gone, method: POST, path: /card}\n",
			`names key "sk_gone", which the scenario does not declare`},
		{"deferred read", "deferredWrites:\n  - {key: sk_ro, method: GET, path: /card}\n",
			`"GET" is not one of POST, PUT, PATCH, DELETE`},
		{"deferred write without a path", "deferredWrites:\n  - {key: sk_ro, method: POST, path: card}\n",
			"must be an API path starting with /"},
		{"deferred write at a bad time", "deferredWrites:\n  - {key: sk_ro, method: POST, path: /card, at: soon}\n",
			"deferredWrites[0].at"},
		{"failing paused endpoint", "webhooks:\n  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, status: paused, failing: {since: -1h, attempts: 2, events: [{event: card.update, entityId: card_1}]}}\n",
			"needs an active endpoint"},
		{"failing since the future", "webhooks:\n  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, failing: {since: +1h, attempts: 2, events: [{event: card.update, entityId: card_1}]}}\n",
			"must be before the clock start"},
		{"failing too often", "webhooks:\n  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, failing: {since: -1h, attempts: 13, events: [{event: card.update, entityId: card_1}]}}\n",
			"attempts: must be between 1 and 12"},
		{"failing without events", "webhooks:\n  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, failing: {since: -1h, attempts: 2}}\n",
			"needs at least one event"},
		{"failing event without an entity", "webhooks:\n  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, failing: {since: -1h, attempts: 2, events: [{event: card.update}]}}\n",
			"events[0].entityId: is required"},
		{"emailed before it is sent", "customers:\n  - {id: le_cust_c, legalEntityId: le_one, name: C, email: c@c.test}\ninvoices:\n  - {accountId: sa_group_one, customerId: le_cust_c, number: I-1, issuedAt: -1d, dueAt: +9d, scheduledSendAt: +1d, emailed: true, lineItems: [{name: W, quantity: 1, priceCents: 100}]}\n",
			"has not been emailed yet"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := mustProblems(t, activityBase+tc.src)
			for _, p := range ps {
				if strings.Contains(p.Message, tc.want) && p.Line > 0 {
					return
				}
			}
			t.Errorf("problems %v, want one with %q and its line", ps, tc.want)
		})
	}
	if _, err := Parse("ok.yaml", []byte(activityBase+`informationRequests:
  - {contactId: le_c_vendor, requesterName: Me, requestedInformation: {destinationTypes: [bank_account]}, queuedAch: {from: sa_group_one, amountCents: 100}}
deferredWrites:
  - {key: sk_ro, method: PATCH, path: /card/card_1, body: {name: New}, at: -5m}
webhooks:
  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, failing: {since: -1h, attempts: 2, events: [{event: card.update, entityId: card_1}]}}
`)); err != nil {
		t.Errorf("a scenario with work under way: %v", err)
	}
}
