package engine_test

import (
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// checkEntryFacts fails unless every endpoint's webhook.le entry keeps
// what its record's Covering gives, and every delivery.webhook entry keeps
// the status of the delivery it names.
func checkEntryFacts(t *testing.T, w *kernel.World) {
	t.Helper()
	err := w.View(func(op *kernel.Op) error {
		err := op.Tx.Scan(kernel.IndexPrefix(deliveries.IndexWebhookLE), "", false, func(k, val string) bool {
			id, facts := kernel.SplitIndexValue(val)
			hook, ok, err := deliveries.LoadWebhook(op, id)
			if err != nil || !ok {
				t.Errorf("%q names missing webhook %s: %v", k, id, err)
				return true
			}
			if _, want := hook.Covering(); facts != want {
				t.Errorf("%s (%s, archived %v, events %v): entry keeps %q, want %q", id, hook.Status, hook.ArchivedAt != nil,
					hook.EnabledEvents, facts, want)
			}
			return true
		})
		if err != nil {
			return err
		}
		return op.Tx.Scan(kernel.IndexPrefix(deliveries.IndexDeliveryWebhook), "", false, func(k, val string) bool {
			id, facts := kernel.SplitIndexValue(val)
			d, err := deliveries.Delivery(w, id)
			if err != nil {
				t.Errorf("%q: %v", k, err)
			} else if facts != d.Status {
				t.Errorf("entry %q of %s keeps status %q; the delivery is %s", k, id, facts, d.Status)
			}
			return true
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}

// listDeliveries lists the deliveries f matches, in the order they were
// made (up to 10,000).
func listDeliveries(t *testing.T, w *kernel.World, f deliveries.Filter) []deliveries.WebhookDelivery {
	t.Helper()
	page, err := deliveries.List(w, f, kernel.PageRequest{Size: 10000})
	if err != nil {
		t.Fatal(err)
	}
	return page.Items
}

// restoreOwnSnapshot restores the world from a snapshot of itself, as a
// world adopting what an earlier version stored does, and returns it.
func restoreOwnSnapshot(t *testing.T, w *kernel.World) []byte {
	t.Helper()
	snapshot, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Restore(snapshot); err != nil {
		t.Fatal(err)
	}
	return snapshot
}

// newCards creates cards for acme in one write each.
func newCards(t *testing.T, w *kernel.World, names ...string) {
	t.Helper()
	for _, name := range names {
		err := w.Update(func(op *kernel.Op) error {
			_, err := cards.Create(op, enginetest.ActorInOp(t, op, "sk_sandbox_acme"), cards.NewCard{Name: name})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// An endpoint's entry follows its status, its archiving and the events it
// takes; a delivery's entry follows its status as it is queued, made due,
// attempted, retried and finished. Fanning a card's event out reads them: an
// endpoint that takes other events gets nothing, an archived one nothing,
// a paused one a queued delivery.
func TestEntriesKeepTheFactsFanningOutReads(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	checkEntryFacts(t, w)
	picky, paused, archived := enginetest.NewEndpoint(t, w), enginetest.NewEndpoint(t, w), enginetest.NewEndpoint(t, w)
	err := w.Update(func(op *kernel.Op) error {
		a := enginetest.ActorInOp(t, op, "sk_sandbox_acme")
		picky.EnabledEvents = []string{"card.update", "card.delete"}
		if err := op.Save(deliveries.KindWebhook, picky.ID, picky, deliveries.WebhookIndexes(picky)...); err != nil {
			return err
		}
		if _, err := deliveries.SetWebhookStatus(op, a, paused.ID, deliveries.WebhookPaused, ""); err != nil {
			return err
		}
		_, err := deliveries.SetWebhookStatus(op, a, archived.ID, deliveries.WebhookArchived, "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	checkEntryFacts(t, w)
	made, err := deliveries.Made(w)
	if err != nil {
		t.Fatal(err)
	}
	newCards(t, w, "Fanned out")
	checkEntryFacts(t, w)
	got := map[string]string{}
	for _, d := range listDeliveries(t, w, deliveries.Filter{})[made:] {
		got[d.WebhookID] = d.Status
	}
	if _, ok := got[picky.ID]; ok {
		t.Errorf("the endpoint taking only card.update and card.delete got a card_creation.event delivery")
	}
	if _, ok := got[archived.ID]; ok {
		t.Errorf("the archived endpoint got a delivery")
	}
	if got[paused.ID] != deliveries.StatusQueued {
		t.Errorf("the paused endpoint's delivery is %q, want queued (all new: %v)", got[paused.ID], got)
	}
	// Attempt what is due: a failure, a retry on the clock, a success.
	for round := 0; round < 20; round++ {
		due, err := deliveries.DueDeliveries(w, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) == 0 {
			break
		}
		status := 500
		if due[0].Attempt > 1 {
			status = 200
		}
		if _, err := deliveries.RecordDeliveryAttempt(w, due[0].ID,
			deliveries.AttemptResult{SentAt: w.Now(), URL: due[0].URL, ResponseStatus: status}); err != nil {
			t.Fatal(err)
		}
		checkEntryFacts(t, w)
	}
	err = w.Update(func(op *kernel.Op) error {
		_, err := deliveries.SetWebhookStatus(op, enginetest.ActorInOp(t, op, "sk_sandbox_acme"), paused.ID,
			deliveries.WebhookActive, "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	checkEntryFacts(t, w)
}

// Entries written before they kept facts hold the id alone, as in older
// data files: fanning out reads the records instead and queues the same
// deliveries as entries with facts do.
func TestFanOutReadsEntriesWithoutFacts(t *testing.T) {
	plain := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	kept := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	stripped := 0
	err := plain.Db.Update(func(tx *store.Tx) error {
		var entries [][2]string
		for _, name := range []string{deliveries.IndexWebhookLE, deliveries.IndexDeliveryWebhook} {
			err := tx.Scan(kernel.IndexPrefix(name), "", false, func(k, val string) bool {
				id, facts := kernel.SplitIndexValue(val)
				if facts != "" {
					entries = append(entries, [2]string{k, id})
				}
				return true
			})
			if err != nil {
				return err
			}
		}
		for _, e := range entries {
			if err := tx.PutRaw(e[0], e[1]); err != nil {
				return err
			}
		}
		stripped = len(entries)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if stripped < 3 {
		t.Fatalf("stripped %d entries, want the demo's endpoints' and its queued deliveries'", stripped)
	}
	newCards(t, plain, "One", "Two")
	newCards(t, kept, "One", "Two")
	a, b := listDeliveries(t, plain, deliveries.Filter{}), listDeliveries(t, kept, deliveries.Filter{})
	if len(a) != len(b) {
		t.Fatalf("%d deliveries from entries without facts, %d from entries with", len(a), len(b))
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].WebhookID != b[i].WebhookID || a[i].Status != b[i].Status ||
			a[i].EntityID != b[i].EntityID {
			t.Errorf("delivery %d: %s to %s, %s, for %s; with facts: %s to %s, %s, for %s", i, a[i].ID, a[i].WebhookID,
				a[i].Status, a[i].EntityID, b[i].ID, b[i].WebhookID, b[i].Status, b[i].EntityID)
		}
	}
}
