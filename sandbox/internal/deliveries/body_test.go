package deliveries

import (
	"encoding/json"
	"testing"
)

// The body a delivery posts is exactly what json.Marshal makes of the
// event, whatever its strings hold.
func TestEventBodyIsTheEventsJSON(t *testing.T) {
	for _, s := range []string{"card_3y6yczyy4rqsj28", "card_creation.event", "", "a\"b", `back\slash`, "<script>&",
		"tab\t", "é", "\u2028", "\x7f", "~ok~", "bad\xffutf8"} {
		e := webhookEvent{EntityID: s, Event: "card.update", EventID: "evt_" + s}
		want, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		d := WebhookDelivery{EntityID: e.EntityID, Event: e.Event, EventID: e.EventID}
		if got := d.Body(); got != string(want) {
			t.Errorf("the body of a delivery for entity %q is %s; want %s", s, got, want)
		}
	}
}
