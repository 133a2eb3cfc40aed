package deliveries

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// A delivery writes its own stored form, whose JSON is exactly what
// json.Marshal gives, whichever optional fields it has; with attempts or
// strings that need escaping it leaves the work to json.Marshal.
func TestDeliveryAppendsItsStoredForm(t *testing.T) {
	at := time.Date(2026, 6, 15, 14, 0, 0, 0, time.UTC)
	later := at.Add(1500*time.Millisecond + 7)
	strs := []string{"", "whdel_000000051abcdef", "card_creation.event", "card_3y6yczyy4rqsj28"}
	special := []string{"<b>&", "é", "a\"b", "tab\t", "\u2028"}
	appended, left := 0, 0
	for i := range 512 {
		pick := func(k int) string { return strs[(i>>(2*k))%len(strs)] }
		d := WebhookDelivery{ID: "whdel_" + pick(0), WebhookID: "webhook_acmelocal", LegalEntityID: "le_acme",
			EventID: "evt_1", Event: pick(1), EntityID: pick(2), Status: StatusQueued, Source: SourceEvent, RelatedID: pick(3),
			Attempts: []Attempt{}, CreatedAt: at.Add(time.Duration(i) * time.Millisecond), Seq: int64(i), Order: pick(4)}
		if i%5 == 0 {
			*[]*string{&d.Event, &d.EntityID, &d.RelatedID, &d.Order, &d.ID}[i/5%5] = special[i/25%len(special)]
		}
		if i&1 != 0 {
			d.NextAttemptAt = &later
		}
		if i&2 != 0 {
			d.RetryEventID = "evt_retry"
		}
		if i&4 != 0 {
			d.CompletedAt = &later
		}
		if i%7 == 0 {
			d.Attempts = append(
				d.Attempts,
				Attempt{
					Number:         1,
					At:             at,
					URL:            "http://127.0.0.1:9/",
					RequestHeaders: map[string]string{"b": "2", "a": "1"},
				},
			)
		}
		if i%11 == 0 {
			d.Attempts = nil
		}
		wrote, err := store.CheckStoredForm(&d)
		if err != nil {
			t.Fatalf("delivery %d: %v", i, err)
		}
		if wrote {
			appended++
		} else {
			left++
		}
	}
	if appended < 100 || left < 100 {
		t.Fatalf("%d deliveries appended their JSON and %d left it to json.Marshal; the test should see many of both",
			appended, left)
	}
}

// AppendStored writes every field of WebhookDelivery: a field added to it
// must be added there too, and here.
func TestDeliveryAppendKnowsEveryField(t *testing.T) {
	var names []string
	for f := range reflect.TypeFor[WebhookDelivery]().Fields() {
		names = append(names, f.Tag.Get("json"))
	}
	want := []string{"id", "webhookId", "legalEntityId", "eventId", "event", "entityId", "status", "source",
		"relatedId,omitempty", "attempts", "nextAttemptAt,omitempty", "retryEventId,omitempty", "createdAt",
		"completedAt,omitempty", "seq", "order"}
	if !slices.Equal(names, want) {
		t.Fatalf("WebhookDelivery's fields are\n%v\nAppendStored writes\n%v", names, want)
	}
}
