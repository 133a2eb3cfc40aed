package scenario

import (
	"strings"
	"testing"
)

// activityBase declares what the work under way refers to: a contact, a
// read-only key and a writable one, a card, and a second legal entity with
// its own account.
const activityBase = base + `contacts:
  - {id: le_c_vendor, legalEntityId: le_one, name: Vendor, recipientEmail: ap@vendor.test}
keys:
  - {key: sk_ro, kind: legal_entity, legalEntityId: le_one, readOnly: true}
  - {key: sk_rw, kind: legal_entity, legalEntityId: le_one}
  - {key: sk_user_ro, kind: user, userId: u_ann, readOnly: true}
users:
  - {id: u_ann, name: Ann, roles: [{legalEntityId: le_one}]}
cards:
  - {id: card_one, accountId: sa_group_one, name: One}
`

func TestActivityIsChecked(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{
			"information request without a contact",
			"informationRequests:\n  - {requesterName: Me, requestedInformation: {address: true}}\n",
			"informationRequests[0].contactId: is required",
		},
		{
			"information request to an undeclared contact",
			"informationRequests:\n  - {contactId: le_c_vendr, requesterName: Me, requestedInformation: {address: true}}\n",
			`informationRequests[0].contactId: no contact "le_c_vendr"; did you mean "le_c_vendor"?`,
		},
		{"information request asking for nothing", "informationRequests:\n  - {contactId: le_c_vendor, requesterName: Me}\n",
			"informationRequests[0].requestedInformation: must ask for at least one of destinationTypes, address, tax"},
		{
			"unknown destination type",
			"informationRequests:\n  - {contactId: le_c_vendor, requesterName: Me, requestedInformation: {destinationTypes:" +
				" [bank_acount]}}\n",
			`informationRequests[0].requestedInformation.destinationTypes[0]: "bank_acount" is not one of bank_account,` +
				` international_wire, crypto_address; did you mean "bank_account"?`,
		},
		{
			"queued ACH without a bank account asked for",
			"informationRequests:\n  - {contactId: le_c_vendor, requesterName: Me, requestedInformation: {address: true}," +
				" queuedAch: {from: sa_group_one, amountCents: 100}}\n",
			"informationRequests[0].queuedAch: needs the request to ask for a bank_account destination",
		},
		{
			"queued ACH from nowhere",
			"informationRequests:\n  - {contactId: le_c_vendor, requesterName: Me, requestedInformation: {destinationTypes:" +
				" [bank_account]}, queuedAch: {from: sa_group_on, amountCents: 100}}\n",
			`informationRequests[0].queuedAch.from: no account or virtual account "sa_group_on"; did you mean "sa_group_one"?`,
		},
		{
			"queued ACH from another legal entity",
			"legalEntities:\n  - {id: le_one, name: One}\n  - {id: le_two, name: Two}\naccounts:\n  - {id: sa_group_one," +
				" legalEntityId: le_one, name: One}\n  - {id: sa_group_two, legalEntityId: le_two, name: Two, virtualAccounts: [" +
				"{id: subaccount_two, name: Sub}]}\ninformationRequests:\n  - {contactId: le_c_vendor, requesterName: Me," +
				" requestedInformation: {destinationTypes: [bank_account]}, queuedAch: {from: subaccount_two, amountCents: 100}}\n",
			"informationRequests[0].queuedAch.from: belongs to legal entity le_two, not le_one",
		},
		{
			"queued ACH of nothing",
			"informationRequests:\n  - {contactId: le_c_vendor, requesterName: Me, requestedInformation: {destinationTypes:" +
				" [bank_account]}, queuedAch: {from: sa_group_one}}\n",
			"informationRequests[0].queuedAch.amountCents: must be a positive amount in cents",
		},
		{"deferred write of a writable key", "deferredWrites:\n  - {key: sk_rw, method: POST, path: /card}\n",
			`deferredWrites[0].key: key "sk_rw" is not read-only`},
		{"deferred write of an undeclared key", "deferredWrites:\n  - {key: sk_r, method: POST, path: /card}\n",
			`deferredWrites[0].key: no API key "sk_r"; did you mean "sk_ro"?`},
		{
			"deferred write of a user key without a legal entity",
			"deferredWrites:\n  - {key: sk_user_ro, method: POST, path: /card}\n",
			"deferredWrites[0].legalEntityId: is required with a user key",
		},
		{
			"deferred write of a legal entity key naming one",
			"deferredWrites:\n  - {key: sk_ro, method: POST, path: /card, legalEntityId: le_one}\n",
			"deferredWrites[0].legalEntityId: is for a user key",
		},
		{
			"deferred write to an undeclared legal entity",
			"deferredWrites:\n  - {key: sk_user_ro, method: POST, path: /card, legalEntityId: le_on}\n",
			`deferredWrites[0].legalEntityId: no legal entity "le_on"; did you mean "le_one"?`,
		},
		{"deferred read", "deferredWrites:\n  - {key: sk_ro, method: GET, path: /card}\n",
			`deferredWrites[0].method: "GET" is not one of POST, PUT, PATCH, DELETE`},
		{"deferred write without a path", "deferredWrites:\n  - {key: sk_ro, method: POST, path: card}\n",
			"deferredWrites[0].path: must be an API path starting with /"},
		{"deferred write at a bad time", "deferredWrites:\n  - {key: sk_ro, method: POST, path: /card, at: soon}\n",
			"deferredWrites[0].at: "},
		{
			"failing paused endpoint",
			"webhooks:\n  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, status: paused, failing: {since: -1h," +
				" attempts: 2, events: [{event: card.update, entityId: card_one}]}}\n",
			"webhooks[0].failing: needs an active endpoint (a paused one sends nothing)",
		},
		{
			"failing since the future",
			"webhooks:\n  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, failing: {since: +1h, attempts: 2," +
				" events: [{event: card.update, entityId: card_one}]}}\n",
			"webhooks[0].failing.since: must be before the clock start",
		},
		{
			"failing too often",
			"webhooks:\n  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, failing: {since: -1h, attempts: 13," +
				" events: [{event: card.update, entityId: card_one}]}}\n",
			"webhooks[0].failing.attempts: must be between 1 and 12",
		},
		{
			"failing without events",
			"webhooks:\n  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, failing: {since: -1h, attempts: 2}}\n",
			"webhooks[0].failing.events: is required",
		},
		{
			"failing event without an entity",
			"webhooks:\n  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, failing: {since: -1h, attempts: 2," +
				" events: [{event: card.update}]}}\n",
			"webhooks[0].failing.events[0].entityId: is required",
		},
		{
			"failing event the engine does not emit",
			"webhooks:\n  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, failing: {since: -1h, attempts: 2," +
				" events: [{event: card.updated, entityId: card_one}]}}\n",
			`webhooks[0].failing.events[0].event: "card.updated" is not one of card.update, card.delete, card_creation.event,` +
				` aggregated_transaction.create, aggregated_transaction.update, expense_report.create, expense_report.update; did` +
				` you mean "card.update"?`,
		},
		{
			"failing event about an undeclared entity",
			"webhooks:\n  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, failing: {since: -1h, attempts: 2," +
				" events: [{event: card.update, entityId: card_on}]}}\n",
			`webhooks[0].failing.events[0].entityId: no card, transaction or expense report "card_on"; did you mean "card_one"?`,
		},
		{
			"failing event about another kind of entity",
			"webhooks:\n  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, failing: {since: -1h, attempts: 2," +
				" events: [{event: aggregated_transaction.create, entityId: card_one}]}}\n",
			"webhooks[0].failing.events[0].entityId: card_one is a card, and aggregated_transaction.create is about a" +
				" transaction",
		},
		{
			"failing event about another legal entity's card",
			"legalEntities:\n  - {id: le_one, name: One}\n  - {id: le_two, name: Two}\naccounts:\n  - {id: sa_group_one," +
				" legalEntityId: le_one, name: One}\n  - {id: sa_group_two, legalEntityId: le_two, name: Two}\n" +
				"webhooks:\n  - {legalEntityId: le_two, url: http://127.0.0.1:9/h, name: H, failing: {since: -1h, attempts: 2," +
				" events: [{event: card.update, entityId: card_one}]}}\n",
			"webhooks[0].failing.events[0].entityId: belongs to legal entity le_one, not le_two",
		},
		{
			"emailed before it is sent",
			"customers:\n  - {id: le_cust_c, legalEntityId: le_one, name: C, email: c@c.test}\ninvoices:\n  - {accountId:" +
				" sa_group_one, customerId: le_cust_c, number: I-1, issuedAt: -1d, dueAt: +9d, scheduledSendAt: +1d, emailed:" +
				" true, lineItems: [{name: W, quantity: 1, priceCents: 100}]}\n",
			"invoices[0].emailed: an invoice scheduled to be sent (scheduledSendAt) has not been emailed yet",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := activityBase + tc.src
			if strings.HasPrefix(tc.src, "legalEntities:") {
				src = "name: t\n" + strings.TrimPrefix(activityBase, base) + tc.src
			}
			// Each case's entry is on the source's last line.
			line := strings.Count(src, "\n")
			ps := mustProblems(t, src)
			for _, p := range ps {
				if strings.HasPrefix(p.Message, tc.want) {
					if p.Line != line || p.Column < 1 {
						t.Errorf("%q is at %d:%d, want line %d", p.Message, p.Line, p.Column, line)
					}
					return
				}
			}
			t.Errorf("problems %v, want one starting %q", ps, tc.want)
		})
	}
}

func TestActivityLoadsWhenRight(t *testing.T) {
	sc, err := Parse("ok.yaml", []byte(activityBase+`informationRequests:
  - {contactId: le_c_vendor, requesterName: Me, requestedInformation: {destinationTypes: [bank_account,`+
		` crypto_address]}, queuedAch: {from: sa_group_one, amountCents: 100}}
deferredWrites:
  - {key: sk_ro, method: PATCH, path: /card/card_one, body: {name: New}, at: -5m}
  - {key: sk_user_ro, method: POST, path: /card, legalEntityId: le_one}
webhooks:
  - {legalEntityId: le_one, url: http://127.0.0.1:9/h, name: H, failing: {since: -1h, attempts: 2, events: [{event:`+
		` card.update, entityId: card_one}]}}
`))
	if err != nil {
		t.Fatalf("a scenario with work under way: %v", err)
	}
	if got, want := sc.InformationRequests[0].RequestedInformation.DestinationTypes,
		[]string{"bank_account", "crypto_address"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("destination types %v, want %v", got, want)
	}
	if got := sc.DeferredWrites[0].Body["name"]; got != "New" {
		t.Errorf("the deferred write's body name is %v, want New", got)
	}
	if f := sc.Webhooks[0].Failing; f == nil || f.Attempts != 2 || f.Events[0].EntityID != "card_one" {
		t.Errorf("failing = %+v", f)
	}
}
