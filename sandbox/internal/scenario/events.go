package scenario

import (
	"fmt"
	"slices"
	"strings"
)

// eventKey is a key of an event's with.
type eventKey struct {
	key, doc string
	required bool
	ref      string   // the kind of thing it names by id
	enum     []string // the values it may take
}

// eventKind is a kind of event a scenario may schedule, and what its with
// takes. The engine schedules more kinds itself (a series' next invoice).
type eventKind struct {
	kind, doc string
	with      []eventKey
}

var (
	settleKeys = []eventKey{
		{key: "transactionId", doc: "The pending transaction.", required: true, ref: "transaction"},
		{key: "detailedStatus", doc: "The status it ends in (default settled).", enum: detailedStatuses},
	}
	achKeys = []eventKey{
		{key: "transactionId", doc: "The pending ACH transaction.", required: true, ref: "transaction"},
		{key: "returnCode", doc: "An ACH return code, R01 to R99: the transfer is returned a business day after it settles."},
	}
	invoiceKeys = []eventKey{{key: "invoiceId", doc: "The invoice.", required: true, ref: "invoice"}}
)

var eventKinds = []eventKind{
	{"transaction.settle", "A pending transaction settles (or ends in detailedStatus).", settleKeys},
	{"wire.settle", "A pending wire settles (or ends in detailedStatus).", settleKeys},
	{"incoming_transfer.settle", "A pending incoming transfer settles (or ends in detailedStatus).", settleKeys},
	{"ach.settle", "A pending ACH transfer settles, and is returned later when returnCode is given.", achKeys},
	{"ach.return", "A settled ACH transfer is returned with returnCode.", achKeys},
	{"invoice.send", "A scheduled invoice is sent.", invoiceKeys},
	{"invoice.overdue", "An open invoice past its due date becomes overdue.", invoiceKeys},
	{"invoice.remind", "An open invoice past its due date is reminded.", invoiceKeys},
	{
		"expense_report.payout",
		"An approved expense report's reimbursement settles, or fails when its destination is not active.",
		[]eventKey{
			{key: "expenseReportId", doc: "The expense report, in payment_processing.", required: true, ref: "expense_report"},
		},
	},
	{"information_request.submit", "A contact submits the details of its pending information request.",
		[]eventKey{{key: "contactId", doc: "The contact.", required: true, ref: "contact"}}},
	{"token_prices.tick", "Token prices move once more.", nil},
	// The engine's own, which an exported world writes with the records
	// that wait for them (by the event's id).
	{"webhook.retry", "A retrying webhook delivery is attempted again, when it still waits for this event.",
		[]eventKey{{key: "deliveryId", doc: "The delivery (webhooks[].deliveries[].id).", required: true,
			ref: "webhook_delivery"}}},
	{"webhook.resume", "A backing-off webhook endpoint is active again, when it still waits for this event.",
		[]eventKey{{key: "webhookId", doc: "The endpoint.", required: true, ref: "webhook"}}},
	{"agent_request.expire", "A pending agent request expires.",
		[]eventKey{{key: "agentRequestId", doc: "The agent request (deferredWrites[].id).", required: true,
			ref: "agent_request"}}},
}

// EventKinds lists the kinds of event a scenario may schedule.
func EventKinds() []string {
	out := make([]string, len(eventKinds))
	for i, k := range eventKinds {
		out[i] = k.kind
	}
	return out
}

func eventKindOf(kind string) (eventKind, bool) {
	i := slices.IndexFunc(eventKinds, func(k eventKind) bool { return k.kind == kind })
	if i < 0 {
		return eventKind{}, false
	}
	return eventKinds[i], true
}

// events checks each event's time and what its with names.
func (v *validator) events() {
	for i, e := range v.sc.Events {
		p := fmt.Sprintf("events[%d]", i)
		v.time(p+".at", e.At)
		if IsRelative(e.At) && strings.HasPrefix(strings.TrimSpace(e.At), "-") {
			v.add(p+".at", "a scheduled event must not be before the clock start")
		}
		kind, ok := eventKindOf(e.Kind)
		if !ok {
			continue
		}
		keys := make([]string, len(kind.with))
		for j, k := range kind.with {
			keys[j] = k.key
		}
		for _, name := range sortedKeys(e.With) {
			if !slices.Contains(keys, name) {
				hint := keyHint(name, keys)
				if len(keys) == 0 {
					hint = "; " + e.Kind + " takes no keys"
				}
				v.add(p+".with."+name, "unknown key for %s%s", e.Kind, hint)
			}
		}
		for _, k := range kind.with {
			v.eventKey(p+".with."+k.key, k, e.With)
		}
	}
}

func (v *validator) eventKey(path string, k eventKey, with map[string]any) {
	raw, given := with[k.key]
	if !given || raw == nil {
		if k.required {
			v.add(path, "is required")
		}
		return
	}
	s, ok := raw.(string)
	if !ok {
		v.add(path, "expected text, got %s", kindOfValue(raw))
		return
	}
	switch {
	case k.ref != "":
		v.ref(path, k.ref, s)
	case len(k.enum) > 0 && !slices.Contains(k.enum, s):
		v.add(path, "%q is not one of %s%s", s, strings.Join(k.enum, ", "), suggest(s, k.enum))
	case k.key == "returnCode" && !returnCodePattern.MatchString(s):
		v.add(path, "must be an ACH return code, R01 to R99")
	}
}

// kindOfValue says what a decoded free-form value holds.
func kindOfValue(x any) string {
	switch x.(type) {
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	case bool:
		return "true or false"
	case int, int64, uint64:
		return "a whole number"
	case float64:
		return "a number"
	}
	return "a value of another kind"
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
