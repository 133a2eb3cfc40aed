package control

import (
	"net/http"

	"github.com/slash-sandbox/slash-sandbox/sandbox/openapi"
)

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
	"properties": openapi.Schema{"limit": openapi.Nullable(openapi.Schema{"$go": RateLimit{}})}}

func init() {
	openapi.Component("SandboxClock", clockView{})
	openapi.Component("SandboxWorld", worldView{})
	openapi.Component("SandboxSnapshot", snapshotView{})
	openapi.Component("SandboxEvent", eventView{})
	d := func(name, summary string, op openapi.Op) {
		op.Summary = summary
		openapi.Describe(name, op)
	}
	d("sandbox.health", "Health, version and the world's clock", openapi.Op{Response: health{}})
	d("sandbox.reset", "Reset the world to its scenario", openapi.Op{Response: health{}})
	d("sandbox.keys", "The world's API keys and what each may act on", openapi.Op{Response: items(keyView{})})
	d("sandbox.clock", "The world's virtual clock", openapi.Op{Response: clockView{}})
	d("sandbox.clock.advance", "Advance the clock, running due events in order", openapi.Op{Body: advanceRequest{},
		Response: openapi.Schema{"type": "object", "required": []string{"from", "to", "clock", "events"}, "additionalProperties": false,
			"properties": openapi.Schema{"from": openapi.Schema{"type": "string", "format": "date-time"}, "to": openapi.Schema{"type": "string", "format": "date-time"},
				"clock": openapi.Ref("SandboxClock"), "events": openapi.Schema{"type": "array", "items": openapi.Ref("SandboxEvent")},
				"webhooks": openapi.Schema{"type": "object", "description": "Whether the webhook deliveries due were attempted, and those that were.",
					"properties": openapi.Schema{"settled": openapi.Schema{"type": "boolean"}, "delivered": openapi.Schema{"type": "array"}}}}}})
	d("sandbox.clock.mode", "Freeze the clock or let it run (real time or scaled)", openapi.Op{Body: modeRequest{}, Response: clockView{}})
	d("sandbox.events", "Scheduled and finished events", openapi.Op{Query: []openapi.Param{{Name: "status"}},
		Response: openapi.Schema{"type": "object", "required": []string{"items", "metadata"}, "additionalProperties": false,
			"properties": openapi.Schema{"items": openapi.Schema{"type": "array", "items": openapi.Ref("SandboxEvent")},
				"metadata": openapi.Schema{"type": "object", "properties": openapi.Schema{"count": openapi.Schema{"type": "integer"}}}}}})
	d("sandbox.agent_requests", "Every agent request of the world", openapi.Op{Query: []openapi.Param{{Name: "status"}}, Response: items(agentRequestView{})})
	d("sandbox.agent_requests.settings", "How long pending agent requests wait", openapi.Op{Response: agentSettings{}})
	d("sandbox.agent_requests.settings.set", "Change how long new agent requests wait", openapi.Op{Body: agentSettings{}, Response: agentSettings{}})
	d("sandbox.agent_request.approve", "Approve an agent request and run its write", openapi.Op{Response: agentRequestView{}})
	d("sandbox.agent_request.reject", "Reject an agent request", openapi.Op{Response: agentRequestView{}})
	d("sandbox.worlds.list", "List worlds", openapi.Op{Response: items(worldView{})})
	d("sandbox.worlds.create", "Create an isolated world", openapi.Op{Body: createWorldRequest{}, Status: http.StatusCreated, Response: worldView{}})
	d("sandbox.worlds.get", "Get a world", openapi.Op{Response: worldView{}})
	d("sandbox.worlds.delete", "Delete a world", openapi.Op{Response: deleted})
	d("sandbox.snapshots.list", "List snapshots", openapi.Op{Response: items(snapshotView{})})
	d("sandbox.snapshots.create", "Snapshot the world", openapi.Op{Status: http.StatusCreated, Response: snapshotView{},
		Body: openapi.Schema{"type": "object", "properties": openapi.Schema{"label": openapi.Schema{"type": "string"}}}})
	d("sandbox.snapshots.import", "Import a snapshot file", openapi.Op{Status: http.StatusCreated, Response: snapshotView{}, Body: openapi.Schema{"type": "object"}})
	d("sandbox.snapshots.restore", "Restore a snapshot into the world", openapi.Op{Response: worldView{}})
	d("sandbox.snapshots.export", "Export a snapshot as a file", openapi.Op{Response: openapi.Schema{"type": "object"}})
	d("sandbox.snapshots.delete", "Delete a snapshot", openapi.Op{Response: deleted})
	d("sandbox.faults.list", "Injected faults", openapi.Op{Response: items(Fault{})})
	d("sandbox.faults.create", "Inject a fault into a route", openapi.Op{Body: Fault{}, Status: http.StatusCreated, Response: Fault{}})
	d("sandbox.faults.clear", "Remove every fault", openapi.Op{Response: openapi.Schema{"type": "object", "required": []string{"cleared"},
		"properties": openapi.Schema{"cleared": openapi.Schema{"type": "integer"}}}})
	d("sandbox.faults.delete", "Remove one fault", openapi.Op{Response: deleted})
	d("sandbox.rate_limit.get", "The world's rate limit", openapi.Op{Response: limitBody})
	d("sandbox.rate_limit.set", "Set a rate limit per API key", openapi.Op{Body: RateLimit{}, Response: limitBody})
	d("sandbox.rate_limit.clear", "Remove the rate limit", openapi.Op{Response: limitBody})
	d("sandbox.requests", "The request journal, newest first", openapi.Op{Query: []openapi.Param{{Name: "limit"}, {Name: "route"},
		{Name: "status"}, {Name: "legalEntity"}, {Name: "method"}, {Name: "path"}}, Response: items(JournalEntry{})})
	html := openapi.Schema{"type": "string", "description": "An HTML page for a person."}
	page := openapi.Content{"text/html": html}
	pageOrError := openapi.Content{"text/html": html, "application/json": openapi.Ref("ErrorV2")}
	d("sandbox.form.information_request", "The secure form a contact opens from the emailed link", openapi.Op{
		Security: openapi.Public, Extension: true, Content: page, Extra: map[int]any{404: pageOrError, 410: page}})
	d("sandbox.form.information_request.submit", "The contact's form submission", openapi.Op{
		Security: openapi.Public, Extension: true, BodyType: "application/x-www-form-urlencoded",
		Body: openapi.Schema{"type": "object"}, Content: page, Extra: map[int]any{400: pageOrError, 404: pageOrError, 410: page}})
	bytes := openapi.Schema{"type": "string", "format": "binary"}
	d("sandbox.document.get", "A document's bytes: a logo, a receipt, an invoice", openapi.Op{Content: openapi.Content{
		"image/png": bytes, "image/jpeg": bytes, "image/webp": bytes, "image/svg+xml": bytes, "application/pdf": bytes, "text/html": html}})
	d("sandbox.webhooks.public_key", "The key webhook signatures verify with (format=json or pem)", openapi.Op{
		Query: []openapi.Param{{Name: "format"}}, Content: openapi.Content{
			"application/json":       openapi.Schema{"type": "object", "required": []string{"header", "algorithm", "pem", "jwk"}},
			"application/x-pem-file": openapi.Schema{"type": "string"}}})
	d("sandbox.world_scoped", "Any control call, for the world named in the path", openapi.Op{
		Description: "/_sandbox/worlds/{world}/<call> is <call> with X-Sandbox-World: {world}.", Response: openapi.Schema{}})
}
