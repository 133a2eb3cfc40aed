package control

import (
	"net/http"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/inforequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/traffic"
)

// itemList is the {items} body of the control lists that return
// everything at once.
type itemList[T any] struct {
	Items []T `json:"items"`
}

// items is {items: [...]} of v.
func items(v any) openapi.Schema {
	return openapi.Schema{"type": "object", "required": []string{"items"}, "additionalProperties": false,
		"properties": openapi.Schema{"items": openapi.Schema{"type": "array", "items": openapi.Schema{"$go": v}}}}
}

// deleted is {id, deleted: true}.
var deleted = openapi.Schema{"type": "object", "required": []string{"id", "deleted"}, "additionalProperties": false,
	"properties": openapi.Schema{"id": openapi.Schema{"type": "string"}, "deleted": openapi.Schema{"type": "boolean"}}}

// limitBody is {limit: RateLimit | null}.
var limitBody = openapi.Schema{"type": "object", "required": []string{"limit"}, "additionalProperties": false,
	"properties": openapi.Schema{"limit": openapi.Nullable(openapi.Schema{"$go": traffic.RateLimit{}})}}

// describe adds the descriptions of the control routes, and the
// components they name, to docs.
func describe(docs *openapi.Registry) {
	docs.Component("SandboxClock", clockView{})
	docs.Component("SandboxWorld", worldView{})
	docs.Component("SandboxSnapshot", snapshotView{})
	docs.Component("SandboxEvent", eventView{})
	var d describer = func(name, summary string, op openapi.Op) {
		op.Summary = summary
		docs.Describe(name, op)
	}
	d("sandbox.health", "Health, version and the world's clock", openapi.Op{
		Description: "With an admin token configured, a call without it (a liveness probe) is answered only {status," +
			" version}; the world, scenario, seed and clock need the token, and a wrong token is refused.",
		Response: openapi.Schema{"oneOf": []openapi.Schema{{"$go": health{}}, {"$go": liveness{}}}}})
	d("sandbox.reset", "Reset the world to its scenario", openapi.Op{Response: health{}})
	d("sandbox.keys", "The world's API keys and what each may act on", openapi.Op{Response: items(keyView{})})
	d("sandbox.clock", "The world's virtual clock", openapi.Op{Response: clockView{}})
	d("sandbox.clock.advance", "Advance the clock, running due events in order", openapi.Op{Body: advanceRequest{},
		Description: "Waits at every instant for the webhook deliveries due then, each time at most --webhook-advance-wait" +
			" (5s by default); once a wait runs out it stops waiting, so a slow or dead receiver never holds the advance for" +
			" long. webhooks.delivered lists the attempts made, each with its status or error, and webhooks.pending the" +
			" deliveries still to be attempted.",
		Response: advanceResult{}})
	d("sandbox.clock.mode", "Freeze the clock or let it run (real time or scaled)",
		openapi.Op{Body: modeRequest{}, Response: clockView{}})
	d("sandbox.events", "Scheduled and finished events", openapi.Op{Query: []openapi.Param{{Name: "status"}},
		Response: openapi.Schema{"type": "object", "required": []string{"items", "metadata"}, "additionalProperties": false,
			"properties": openapi.Schema{"items": openapi.Schema{"type": "array", "items": openapi.Ref("SandboxEvent")},
				"metadata": openapi.Schema{
					"type":       "object",
					"properties": openapi.Schema{"count": openapi.Schema{"type": "integer"}},
				}}}})
	d("sandbox.changes", "Wait for the world to change (long poll)", openapi.Op{Query: []openapi.Param{
		{
			Name:        "since",
			Description: "The version an earlier answer gave: the answer waits until the world changed since.",
			Schema:      openapi.Schema{"type": "integer", "minimum": 0},
		},
		{
			Name:        "wait",
			Description: "How many seconds to wait at most (0–60, default 25).",
			Schema:      openapi.Schema{"type": "integer", "minimum": 0, "maximum": 60},
		}},
		Response: changesView{}})
	d("sandbox.agent_requests", "Every agent request of the world",
		openapi.Op{Query: []openapi.Param{{Name: "status"}}, Response: items(agentRequestView{})})
	d("sandbox.agent_requests.settings", "How long pending agent requests wait", openapi.Op{Response: agentSettings{}})
	d("sandbox.agent_requests.settings.set", "Change how long new agent requests wait",
		openapi.Op{Body: agentSettings{}, Response: agentSettings{}})
	d("sandbox.agent_request", "One agent request of the world, as its approval page shows it",
		openapi.Op{Response: agentRequestView{}})
	d("sandbox.agent_request.approve", "Approve an agent request and run its write",
		openapi.Op{Response: agentRequestView{}})
	d("sandbox.agent_request.reject", "Reject an agent request", openapi.Op{Response: agentRequestView{}})
	d("sandbox.worlds.list", "List worlds", openapi.Op{Response: items(worldView{})})
	d("sandbox.worlds.create", "Create an isolated world",
		openapi.Op{Body: createWorldRequest{}, Status: http.StatusCreated, Response: worldView{}})
	d("sandbox.worlds.get", "Get a world", openapi.Op{Response: worldView{}})
	d("sandbox.worlds.delete", "Delete a world", openapi.Op{Response: deleted})
	d("sandbox.worlds.scenario", "Export a world as a scenario", openapi.Op{
		Description: "The world as a scenario file (YAML) that loads into a world answering every public read " +
			"the same, ids included, at the same clock: every record written explicitly.",
		Content: openapi.Content{"application/yaml": openapi.Schema{"type": "string"}}})
	d("sandbox.snapshots.list", "List snapshots", openapi.Op{Response: items(snapshotView{})})
	d("sandbox.snapshots.create", "Snapshot the world", openapi.Op{Status: http.StatusCreated, Response: snapshotView{},
		Body: openapi.Schema{"type": "object", "properties": openapi.Schema{"label": openapi.Schema{"type": "string"}}}})
	d("sandbox.snapshots.import", "Import a snapshot file",
		openapi.Op{Status: http.StatusCreated, Response: snapshotView{}, Body: openapi.Schema{"type": "object"}})
	d("sandbox.snapshots.restore", "Restore a snapshot into the world", openapi.Op{Response: worldView{}})
	d("sandbox.snapshots.export", "Export a snapshot as a file", openapi.Op{Response: openapi.Schema{"type": "object"}})
	d("sandbox.snapshots.delete", "Delete a snapshot", openapi.Op{Response: deleted})
	d("sandbox.faults.list", "Injected faults", openapi.Op{Response: items(traffic.Fault{})})
	d("sandbox.faults.create", "Inject a fault into a route",
		openapi.Op{Body: traffic.Fault{}, Status: http.StatusCreated, Response: traffic.Fault{}})
	d(
		"sandbox.faults.clear",
		"Remove every fault",
		openapi.Op{Response: openapi.Schema{"type": "object", "required": []string{"cleared"},
			"properties": openapi.Schema{"cleared": openapi.Schema{"type": "integer"}}}},
	)
	d("sandbox.faults.delete", "Remove one fault", openapi.Op{Response: deleted})
	d("sandbox.rate_limit.get", "The world's rate limit", openapi.Op{Response: limitBody})
	d("sandbox.rate_limit.set", "Set a rate limit per API key", openapi.Op{Body: traffic.RateLimit{}, Response: limitBody})
	d("sandbox.rate_limit.clear", "Remove the rate limit", openapi.Op{Response: limitBody})
	d(
		"sandbox.requests",
		"The request journal, newest first",
		openapi.Op{Query: []openapi.Param{{Name: "limit"}, {Name: "route"},
			{Name: "status"}, {Name: "legalEntity"}, {Name: "method"}, {Name: "path"}}, Response: items(traffic.JournalEntry{})},
	)
	html := openapi.Schema{"type": "string", "description": "An HTML page for a person."}
	page := openapi.Content{"text/html": html}
	pageOrError := openapi.Content{"text/html": html, "application/json": openapi.Ref("ErrorV2")}
	d("sandbox.form.information_request", "The secure form a contact opens from the emailed link", openapi.Op{
		Security: openapi.Public, Extension: true, Content: page, Extra: map[int]any{404: pageOrError, 410: page}})
	d("sandbox.form.information_request.submit", "The contact's form submission", openapi.Op{
		Security: openapi.Public, Extension: true, BodyType: "application/x-www-form-urlencoded",
		Body: openapi.Schema{"type": "object"}, Content: page, Extra: map[int]any{400: pageOrError, 404: pageOrError,
			410: page}})
	bytes := openapi.Schema{"type": "string", "format": "binary"}
	d("sandbox.document.get", "A document's bytes: a logo, a receipt, an invoice", openapi.Op{Content: openapi.Content{
		"image/png": bytes, "image/jpeg": bytes, "image/webp": bytes, "image/svg+xml": bytes, "application/pdf": bytes,
		"text/html": html}})
	d("sandbox.webhooks.public_key", "The key webhook signatures verify with (format=json or pem)", openapi.Op{
		Query: []openapi.Param{{Name: "format"}}, Content: openapi.Content{
			"application/json": openapi.Schema{
				"type":     "object",
				"required": []string{"header", "algorithm", "pem", "jwk"},
			},
			"application/x-pem-file": openapi.Schema{"type": "string"}}})
	describeSimulations(docs, d)
	describeDeliveries(docs, d)
	d("sandbox.world_scoped", "Any control call, for the world named in the path", openapi.Op{
		Description: "/_sandbox/worlds/{world}/<call> is <call> with X-Sandbox-World: {world}.", Response: openapi.Schema{}})
}

// waitQuery are the parameters every wait takes; after names a record of
// kind.
func waitQuery(kind string) []openapi.Param {
	return []openapi.Param{
		{Name: "timeout", Description: "How long to wait, up to 60s; 10s by default."},
		{
			Name:        "since",
			Description: "Only what was made at or after this virtual time.",
			Schema:      openapi.Schema{"type": "string", "format": "date-time"},
		},
		{Name: "after", Description: "A " + kind + " id: only what was made after it."}}
}

// waitErrors is the answer of a wait that ran out of time.
var waitErrors = map[int]any{http.StatusRequestTimeout: openapi.Ref("ErrorV2")}

// describer documents one control route.
type describer func(name, summary string, op openapi.Op)

// object is a closed object schema: props, of which required must be given.
func object(props openapi.Schema, required ...string) openapi.Schema {
	s := openapi.Schema{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

var (
	stringType = openapi.Schema{"type": "string"}
	idType     = openapi.Schema{"type": "string", "minLength": 1}
)

// oneOfStrings is a string that is one of values.
func oneOfStrings(values ...string) openapi.Schema {
	enum := make([]any, len(values))
	for i, v := range values {
		enum[i] = v
	}
	return openapi.Schema{"type": "string", "enum": enum}
}

// describeSimulations documents the simulations and the information
// request and outbox routes they feed.
func describeSimulations(docs *openapi.Registry, d describer) {
	docs.Component("SandboxTransactionRecord", ledger.Transaction{})
	docs.Component("SandboxInformationRequest", infoControlView{})
	docs.Component("SandboxMessage", messageView{})
	simulated := openapi.Schema{"type": "integer", "minimum": 1, "maximum": maxSimulatedCents}
	merchant := object(openapi.Schema{"name": idType, "mcc": openapi.Schema{"type": "string", "pattern": "^[0-9]{4}$"},
		"categoryId": openapi.Schema{"type": "string", "description": "A merchant category; by default the MCC's."},
		"country":    openapi.Schema{"type": "string", "pattern": "^[A-Za-z]{2}$"}, "city": stringType, "state": stringType,
		"zip": stringType},
		"name", "mcc", "country")
	merchantID := openapi.Schema{
		"type":        "string",
		"description": "A merchant of the fixtures catalogue (merchant_v2_…); give this or merchant.",
	}
	oneMerchant := []any{
		openapi.Schema{
			"oneOf": []any{openapi.Schema{"required": []string{"merchantId"}}, openapi.Schema{"required": []string{"merchant"}}},
		},
	}
	authorization := object(
		openapi.Schema{"cardId": idType, "amountCents": simulated, "merchantId": merchantID, "merchant": merchant,
			"recurring": openapi.Schema{
				"type":        "boolean",
				"description": "A recurring payment (card modifiers may require it).",
			}},
		"cardId",
		"amountCents",
	)
	authorization["allOf"] = oneMerchant
	d(
		"sandbox.simulate.card_authorization",
		"Simulate a card purchase through the real authorization decision",
		openapi.Op{
			Description: "Records a card event and a transaction: pending when approved, declined otherwise.",
			Body:        authorization, Response: authorizationResult{}},
	)
	verification := object(
		openapi.Schema{"type": oneOfStrings(cards.EventVerification), "cardId": idType, "merchantId": merchantID,
			"merchant": merchant},
		"type",
		"cardId",
	)
	verification["allOf"] = oneMerchant
	d("sandbox.simulate.card_event", "Simulate a reversal, clearing, refund or verification", openapi.Op{
		Description: "A reversal, clearing or refund names the authorization's transaction (a reversal takes no amount); a" +
			" verification names a card and a merchant.",
		Body: openapi.Schema{"oneOf": []any{
			object(openapi.Schema{"type": oneOfStrings(cards.EventReversal, cards.EventClearing, cards.EventRefund),
				"transactionId": idType, "amountCents": simulated}, "type", "transactionId"),
			verification,
		}},
		Response: cardEventResult{}})
	incoming := object(openapi.Schema{"accountId": idType, "virtualAccountId": idType,
		"rail": oneOfStrings(ledger.IncomingRails...),
		"amountCents": openapi.Schema{"type": "number", "exclusiveMinimum": 0, "maximum": 1e14,
			"description": "A whole number of cents."},
		"senderName": openapi.Schema{"type": "string", "maxLength": 140},
		"reference":  openapi.Schema{"type": "string", "maxLength": 140}},
		"rail", "amountCents")
	incoming["oneOf"] = []any{openapi.Schema{"required": []string{"accountId"}},
		openapi.Schema{"required": []string{"virtualAccountId"}}}
	d("sandbox.simulate.incoming_transfer", "Simulate money arriving from outside", openapi.Op{Status: http.StatusCreated,
		Description: "Credits an account or virtual account of any legal entity and answers with the transaction record.",
		Body:        incoming, Response: ledger.Transaction{}})
	d("sandbox.simulate.invoice_payment", "Simulate a customer paying an invoice", openapi.Op{
		Description: "A posted credit on the invoice's account, reconciled to it: by default what remains, by the invoice's" +
			" first payment method, else inbound_ach_transfer.",
		Body: object(
			openapi.Schema{"invoiceId": idType, "amountCents": openapi.Schema{"type": "integer", "exclusiveMinimum": 0},
				"method": oneOfStrings(invoices.PaymentMethodNames()...)},
			"invoiceId",
		),
		Response: invoicePaymentView{}})
	d("sandbox.simulate.information_request_submission", "Answer an information request without the form", openapi.Op{
		Description: "With details, or with generated valid ones when details are left out.",
		Body: object(
			openapi.Schema{"informationRequestId": idType, "details": openapi.Schema{"$go": inforequests.Submission{}}},
			"informationRequestId",
		),
		Response: infoControlView{}})
	d("sandbox.information_requests.list", "Every information request of the world", openapi.Op{
		Query:    []openapi.Param{{Name: "legalEntityId", Description: "One legal entity's requests."}},
		Response: itemList[infoControlView]{}})
	d("sandbox.information_requests.get", "An information request with its form link",
		openapi.Op{Response: infoControlView{}})
	d("sandbox.information_requests.cancel", "Cancel an information request", openapi.Op{
		Description: "Its queued ACH transfers are canceled with it.", Response: infoControlView{}})
	outboxQuery := []openapi.Param{
		{Name: "to", Description: "A recipient, To or CC, any case."},
		{Name: "kind"},
		{Name: "relatedId"},
		{Name: "subject", Description: "A part of the subject, any case."},
	}
	d("sandbox.outbox.list", "The emails the sandbox sent, newest first",
		openapi.Op{Query: outboxQuery, Response: outboxPage{}})
	d("sandbox.outbox.get", "One email", openapi.Op{Response: messageView{}})
	d("sandbox.outbox.wait", "Wait for an email", openapi.Op{
		Description: "Answers the first email, in the order they were sent, that matches the filters, waiting until one is" +
			" sent; 408 timeout when none is before the timeout. after names a message: only later ones match.",
		Query: append(outboxQuery, waitQuery("message")...), Response: messageView{}, Extra: waitErrors})
}

// describeDeliveries documents the webhook delivery routes.
func describeDeliveries(docs *openapi.Registry, d describer) {
	docs.Component("SandboxWebhookDelivery", deliveryView{})
	docs.Component(
		"WebhookEvent",
		object(openapi.Schema{"entityId": stringType, "event": oneOfStrings(deliveries.EventTypes...),
			"eventId": stringType}, "entityId", "event", "eventId"),
	)
	filters := []openapi.Param{{Name: "webhookId"}, {Name: "event", Schema: oneOfStrings(deliveries.EventTypes...)},
		{Name: "status", Schema: oneOfStrings(deliveries.Statuses...)}}
	d("sandbox.webhook_deliveries.list", "Webhook deliveries with every attempt", openapi.Op{Response: deliveryPage{},
		Query: append(
			[]openapi.Param{
				{
					Name:        "limit",
					Description: "1 to 500; 100 by default.",
					Schema:      openapi.Schema{"type": "integer", "minimum": 1, "maximum": 500},
				},
				{Name: "cursor", Description: "metadata.nextCursor of the previous page."},
			},
			filters...)})
	d("sandbox.webhook_deliveries.wait", "Wait for a webhook delivery", openapi.Op{
		Description: "Answers the first delivery, in the order they were made, that matches the filters, waiting until one" +
			" does (with status, until a delivery reaches it); 408 timeout when none does before the timeout. after names a" +
			" delivery: only later ones match.",
		Query: append(filters, waitQuery("delivery")...), Response: deliveryView{}, Extra: waitErrors})
	d("sandbox.webhook_deliveries.get", "One webhook delivery", openapi.Op{Response: deliveryView{}})
	d("sandbox.webhook_deliveries.redeliver", "Send a delivery's event again",
		openapi.Op{Status: http.StatusCreated, Response: deliveryView{}})
	d("sandbox.webhook_deliveries.settle", "Wait until the deliveries due now have been attempted", openapi.Op{
		BodyOptional: true,
		Body: object(
			openapi.Schema{
				"timeout": openapi.Schema{"type": "string", "description": "How long to wait, 1s to 10m; 30s by default."},
			},
		),
		Response: settleResult{}})
	d("sandbox.webhooks.trigger", "Send a webhook endpoint a chosen event", openapi.Op{Status: http.StatusCreated,
		Body: object(openapi.Schema{"event": oneOfStrings(deliveries.EventTypes...),
			"entityId": openapi.Schema{"type": "string", "minLength": 1, "maxLength": 255}}, "event", "entityId"),
		Response: deliveryView{}})
	d(
		"sandbox.events.trigger",
		"Make the world raise a webhook event through a real action",
		openapi.Op{Status: http.StatusCreated,
			Description: "Issues, updates or closes a card, runs a card purchase and its clearing, or submits or edits an" +
				" expense report, so every endpoint of the legal entity gets the event as in real use. entityId names the entity" +
				" to act on (an account for card_creation.event, a card for aggregated_transaction.create, a user for" +
				" expense_report.create); without it the trigger makes what it needs.",
			Body: object(openapi.Schema{"event": oneOfStrings(deliveries.EventTypes...),
				"entityId": openapi.Schema{"type": "string", "maxLength": 255},
				"legalEntityId": openapi.Schema{
					"type":        "string",
					"maxLength":   255,
					"description": "By default the entity's, else the first legal entity of the first key that may write.",
				}}, "event"),
			Response: triggerResult{}},
	)
	d("sandbox.webhooks.chaos", "Shuffle or duplicate webhook deliveries", openapi.Op{
		Description: "Replaces the settings: a property left out is off.",
		Body: object(
			openapi.Schema{
				"shuffle": openapi.Schema{
					"type":        "boolean",
					"description": "Send an endpoint's queued deliveries at once, in a seeded random order.",
				},
				"duplicate": openapi.Schema{
					"type":        "number",
					"minimum":     0,
					"maximum":     1,
					"description": "The probability that a delivery is sent twice (same eventId).",
				},
			},
		),
		Response: deliveries.WebhookChaos{}})
}
