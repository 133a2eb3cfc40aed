package seed_test

import (
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/seed"
)

// exportOf exports a world and parses the file, as a user would load it.
func exportOf(t *testing.T, w *kernel.World) *scenario.Scenario {
	t.Helper()
	var sc *scenario.Scenario
	if err := w.View(func(op *kernel.Op) (err error) { sc, err = seed.Export(op); return err }); err != nil {
		t.Fatal(err)
	}
	raw, err := scenario.Encode(sc)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := scenario.Parse("export.yaml", raw)
	if err != nil {
		t.Fatalf("the export does not parse: %v", err)
	}
	return parsed
}

// TestExportWritesWorkUnderWayAsItStands: the demo's work under way (a
// failing endpoint, a pending agent request, an information request with
// an ACH held on it) is written with the ids of what it made and of the
// events it waits for, and a world loaded from the export exports the
// same work under way again.
func TestExportWritesWorkUnderWayAsItStands(t *testing.T) {
	w := demoAt(t, 1, time.Date(2026, 6, 15, 14, 0, 0, 0, time.UTC))
	sc := exportOf(t, w)
	events := map[string]scenario.Event{}
	for _, e := range sc.Events {
		events[e.ID] = e
	}
	i := slices.IndexFunc(sc.Webhooks, func(h scenario.Webhook) bool { return h.ID == "webhook_acmeerp" })
	if i < 0 || len(sc.Webhooks[i].Deliveries) != 3 {
		t.Fatalf("the failing endpoint's deliveries are not written: %+v", sc.Webhooks)
	}
	first := sc.Webhooks[i].Deliveries[0]
	if first.Status != "retrying" || len(first.Attempts) != 7 || events[first.RetryEventID].Kind != "webhook.retry" ||
		events[first.RetryEventID].With["deliveryId"] != first.ID {
		t.Errorf("the failing delivery = %+v, its retry %+v", first, events[first.RetryEventID])
	}
	if len(sc.DeferredWrites) != 1 || sc.DeferredWrites[0].ID == "" || sc.DeferredWrites[0].Status != "pending" {
		t.Fatalf("deferred writes = %+v", sc.DeferredWrites)
	}
	expiry := slices.ContainsFunc(sc.Events, func(e scenario.Event) bool {
		return e.Kind == "agent_request.expire" && e.With["agentRequestId"] == sc.DeferredWrites[0].ID
	})
	if !expiry {
		t.Errorf("no agent_request.expire event names %s", sc.DeferredWrites[0].ID)
	}
	ir := sc.InformationRequests
	if len(ir) != 1 || ir[0].ID == "" || ir[0].FormToken == "" || ir[0].MessageID == "" || ir[0].QueuedACH == nil ||
		!slices.ContainsFunc(sc.Transactions, func(t scenario.Transaction) bool {
			return t.ID == ir[0].QueuedACH.TransactionID
		}) {
		t.Fatalf("information requests = %+v", ir)
	}
	if sc.IDCounters["global"] == nil || sc.IDCounters["evt_"] == nil {
		t.Errorf("id counters = %v", sc.IDCounters)
	}

	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	loaded, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc})
	if err != nil {
		t.Fatalf("the export does not load: %v", err)
	}
	again := exportOf(t, loaded)
	for name, pair := range map[string][2]any{
		"webhooks":            {sc.Webhooks, again.Webhooks},
		"deferredWrites":      {sc.DeferredWrites, again.DeferredWrites},
		"informationRequests": {sc.InformationRequests, again.InformationRequests},
		"events":              {sc.Events, again.Events},
		"idCounters":          {withoutEvents(sc.IDCounters), withoutEvents(again.IDCounters)},
	} {
		if !reflect.DeepEqual(pair[0], pair[1]) {
			t.Errorf("%s exported from the loaded world differ:\n%+v\n%+v", name, pair[1], pair[0])
		}
	}
}

// withoutEvents is a world's id counters but the scheduled events': the
// load plans the invoices' and expense reports' events anew, after the
// ids the scenario declares, so that sequence runs ahead by as many.
func withoutEvents(c map[string]any) map[string]any {
	out := maps.Clone(c)
	delete(out, "evt_")
	return out
}
