package engine_test

import (
	"slices"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// mixedEndpoint gives a new endpoint of the demo twelve deliveries that
// finish out of order: shuffled, every one is due at once, and every
// other attempt fails and waits for its retry. It returns the endpoint and
// its deliveries in the order made, read from the records.
func mixedEndpoint(t *testing.T, w *kernel.World) (*deliveries.Webhook, []deliveries.WebhookDelivery) {
	t.Helper()
	hook := enginetest.NewEndpoint(t, w)
	if err := deliveries.SetWebhookChaos(w, deliveries.WebhookChaos{Shuffle: true}); err != nil {
		t.Fatal(err)
	}
	newCards(t, w, "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9", "c10", "c11", "c12")
	due, err := deliveries.DueDeliveries(w, 100)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range due {
		if d.WebhookID != hook.ID {
			continue
		}
		status := 200
		if n%2 == 0 {
			status = 500
		}
		n++
		if _, err := deliveries.RecordDeliveryAttempt(w, d.ID, deliveries.AttemptResult{SentAt: w.Now(), URL: d.URL,
			ResponseStatus: status}); err != nil {
			t.Fatal(err)
		}
	}
	if n != 12 {
		t.Fatalf("%d deliveries to the new endpoint were due, want 12", n)
	}
	var mine []deliveries.WebhookDelivery
	for _, d := range listDeliveries(t, w, deliveries.Filter{}) {
		if d.WebhookID == hook.ID {
			mine = append(mine, d)
		}
	}
	return hook, mine
}

func ids(ds []deliveries.WebhookDelivery) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.ID
	}
	return out
}

// An endpoint's history lists its deliveries in the order made, finished
// or not, page after page whatever the page size, oldest first (the
// control API's list) and newest first (its notifications), with filters
// applied; its cursor belongs to its list alone.
func TestEndpointHistoryPagesInTheOrderMade(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	hook, want := mixedEndpoint(t, w)
	finished, unfinished := 0, 0
	for i, d := range want {
		if d.Status == deliveries.StatusSucceeded {
			finished++
		} else {
			unfinished++
		}
		if i > 0 && want[i-1].Seq >= d.Seq {
			t.Fatalf("the records list %s before %s", want[i-1].ID, d.ID)
		}
	}
	if finished == 0 || unfinished == 0 ||
		want[0].Status == want[1].Status && want[1].Status == want[2].Status && want[2].Status == want[3].Status {
		t.Fatalf("the endpoint's deliveries do not interleave finished and unfinished ones: %d and %d", finished, unfinished)
	}
	var retrying []string
	for _, d := range want {
		if d.Status == deliveries.StatusRetrying {
			retrying = append(retrying, d.ID)
		}
	}
	newest := slices.Clone(ids(want))
	slices.Reverse(newest)
	for size := 1; size <= 5; size++ {
		walk := func(desc bool, f deliveries.Filter) []string {
			t.Helper()
			var got []string
			req := kernel.PageRequest{Size: size}
			for pages := 0; ; pages++ {
				var page kernel.Page[deliveries.WebhookDelivery]
				var err error
				if desc {
					err = w.View(func(op *kernel.Op) error {
						page, err = deliveries.WebhookNotifications(op, enginetest.ActorInOp(t, op, "sk_sandbox_acme"), hook.ID, req)
						return err
					})
				} else {
					page, err = deliveries.List(w, f, req)
				}
				if err != nil {
					t.Fatal(err)
				}
				if len(page.Items) > size || pages > 100 {
					t.Fatalf("page of %d items, size %d, page %d", len(page.Items), size, pages)
				}
				got = append(got, ids(page.Items)...)
				if page.Next == "" {
					return got
				}
				req.After = page.Next
			}
		}
		if got := walk(false, deliveries.Filter{WebhookID: hook.ID}); !slices.Equal(got, ids(want)) {
			t.Errorf("size %d, oldest first:\n%v\nwant\n%v", size, got, ids(want))
		}
		if got := walk(true, deliveries.Filter{}); !slices.Equal(got, newest) {
			t.Errorf("size %d, newest first:\n%v\nwant\n%v", size, got, newest)
		}
		if got := walk(false, deliveries.Filter{WebhookID: hook.ID,
			Status: deliveries.StatusRetrying}); !slices.Equal(
			got,
			retrying,
		) {
			t.Errorf("size %d, retrying only:\n%v\nwant\n%v", size, got, retrying)
		}
	}
	first, err := deliveries.List(w, deliveries.Filter{WebhookID: hook.ID}, kernel.PageRequest{Size: 2})
	if err != nil || first.Next == "" {
		t.Fatalf("first page: %v, next %q", err, first.Next)
	}
	_, err = deliveries.List(w, deliveries.Filter{WebhookID: "webhook_acmelocal"},
		kernel.PageRequest{Size: 2, After: first.Next})
	if e, ok := kernel.AsError(err); !ok || e.Code != kernel.CodeInvalidRequest {
		t.Errorf("another endpoint's cursor: %v, want invalid", err)
	}
}

// A snapshot written before an endpoint's queue and history shared one
// index keeps a queue entry for each unfinished delivery and a history
// entry without a range for every one. The world restored from it
// rewrites them, and lists, queues and sends as before.
func TestOlderDeliveryIndexEntriesAreRewritten(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	hook, want := mixedEndpoint(t, w)
	err := w.Db.Update(func(tx *store.Tx) error {
		history := kernel.IndexPrefix(deliveries.IndexDeliveryWebhook)
		var entries [][2]string
		err := tx.Scan(history, "", false, func(k, v string) bool {
			entries = append(entries, [2]string{k, v})
			return true
		})
		if err != nil {
			return err
		}
		for _, e := range entries {
			id, status := kernel.SplitIndexValue(e[1])
			var hookID, state, rest string
			hookID, rest = cut(e[0][len(history):])
			state, rest = cut(rest)
			seq, _ := cut(rest)
			if err := tx.Delete(e[0]); err != nil {
				return err
			}
			if err := tx.PutRaw(kernel.IndexKey(deliveries.IndexDeliveryWebhook, hookID, seq, id), id); err != nil {
				return err
			}
			if state == "q" {
				if err := tx.PutRaw(kernel.IndexKey("delivery.queue", hookID, seq, id), id); err != nil {
					return err
				}
			}
			if status == "" {
				t.Errorf("entry %q keeps no status", e[0])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	restoreOwnSnapshot(t, w)
	checkDerivedIndexes(t, w)
	checkEntryFacts(t, w)
	err = w.View(func(op *kernel.Op) error {
		return op.Tx.Scan(kernel.IndexPrefix("delivery.queue"), "", false, func(k, _ string) bool {
			t.Errorf("the restored world keeps %q", k)
			return true
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	got := listDeliveries(t, w, deliveries.Filter{WebhookID: hook.ID})
	if !slices.Equal(ids(got), ids(want)) {
		t.Errorf("history after the restore:\n%v\nbefore\n%v", ids(got), ids(want))
	}
	// The queue still works: a new card queues behind the retrying ones
	// and each is sent in turn.
	newCards(t, w, "after")
	if _, err := w.Advance(w.Now().Add(24 * 3600 * 1e9)); err != nil {
		t.Fatal(err)
	}
	due, err := deliveries.DueDeliveries(w, 100)
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	for _, d := range due {
		if d.WebhookID == hook.ID {
			sent++
		}
	}
	if sent == 0 {
		t.Error("after the restore and a day, nothing of the endpoint's queue is due")
	}
	checkDerivedIndexes(t, w)
}

// cut splits a key's rest at its first separator.
func cut(s string) (string, string) {
	for i := 0; i < len(s); i++ {
		if s[i] == store.Sep[0] {
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}
