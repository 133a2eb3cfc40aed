package seed_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// TestWebhookEventsAreTheEngines: the events a scenario's failing endpoint
// may declare are the ones the engine emits, so every declared one loads.
func TestWebhookEventsAreTheEngines(t *testing.T) {
	f, _ := reflect.TypeFor[scenario.WebhookEvent]().FieldByName("Event")
	got := strings.Split(f.Tag.Get("enum"), ",")
	if !slices.Equal(got, deliveries.EventTypes) {
		t.Errorf("webhooks[].failing.events[].event may be %v, the engine emits %v", got, deliveries.EventTypes)
	}
}
