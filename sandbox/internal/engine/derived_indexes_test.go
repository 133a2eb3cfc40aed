package engine_test

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// derivedIndexNames are the index names each derived kind writes.
var derivedIndexNames = map[string][]string{
	ledger.KindTransaction: {
		ledger.IndexTxnLE,
		ledger.IndexTxnAccount,
		ledger.IndexTxnVA,
		ledger.IndexTxnCard,
		ledger.IndexTxnGroup,
		ledger.IndexTxnFee,
	},
	cards.Kind:              {cards.IndexCardLE, cards.IndexCardName, cards.IndexCardAccount, cards.IndexCardGroup},
	cards.KindGroup:         {cards.IndexGroupLE},
	deliveries.KindDelivery: {deliveries.IndexDeliveryWebhook, deliveries.IndexDeliveryDue},
	kernel.Events.Name:      {kernel.IndexEventDue, kernel.IndexEventDone},
}

// checkDerivedIndexes fails unless, for every kind whose index keys derive
// from its records, the entries of its indexes are exactly the keys its
// stored records derive, each naming its record, and no record of the kind
// has a sidecar.
func checkDerivedIndexes(t *testing.T, w *kernel.World) {
	t.Helper()
	if got, want := slices.Sorted(maps.Keys(engine.Wiring().Derived())),
		slices.Sorted(maps.Keys(derivedIndexNames)); !slices.Equal(
		got,
		want,
	) {
		t.Fatalf("derived kinds %v, the check knows %v", got, want)
	}
	err := w.View(func(op *kernel.Op) error {
		for kind, derive := range engine.Wiring().Derived() {
			want := map[string]string{}
			err := op.Tx.Scan(store.Prefix("r", kind), "", false, func(k, raw string) bool {
				keys, err := derive(op, k, raw)
				if err != nil {
					t.Errorf("%s: %v", k, err)
				}
				for _, ik := range keys {
					want[ik] = strings.TrimPrefix(k, store.Prefix("r", kind))
				}
				return true
			})
			if err != nil {
				return err
			}
			got := map[string]string{}
			for _, name := range derivedIndexNames[kind] {
				err := op.Tx.Scan(kernel.IndexPrefix(name), "", false, func(k, val string) bool {
					got[k], _ = kernel.SplitIndexValue(val)
					return true
				})
				if err != nil {
					return err
				}
			}
			for k, id := range got {
				if want[k] != id {
					t.Errorf("%s: index entry %q names %q; its records derive %q", kind, k, id, want[k])
				}
			}
			for k, id := range want {
				if _, ok := got[k]; !ok {
					t.Errorf("%s: %s lacks index entry %q", kind, id, k)
				}
			}
			err = op.Tx.Scan(store.Prefix("x", kind), "", false, func(k, _ string) bool {
				t.Errorf("%s has a sidecar", k)
				return true
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A workload that changes every derived kind's index keys: cards renamed,
// regrouped and ungrouped, deliveries failed, retried and delivered,
// events run, a month of transactions settled. The entries follow.
func TestDerivedIndexesStayExactWithoutSidecars(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	checkDerivedIndexes(t, w)
	hook := enginetest.NewEndpoint(t, w)
	var renamed string
	err := w.Update(func(op *kernel.Op) error {
		a := enginetest.ActorInOp(t, op, "sk_sandbox_acme")
		g1, err := cards.CreateGroup(op, a, cards.NewGroup{Name: "First"})
		if err != nil {
			return err
		}
		g2, err := cards.CreateGroup(op, a, cards.NewGroup{Name: "Second"})
		if err != nil {
			return err
		}
		c, err := cards.Create(op, a, cards.NewCard{Name: "Alpha", CardGroupID: g1.ID})
		if err != nil {
			return err
		}
		renamed = c.ID
		if _, err := cards.Update(op, a, c.ID, cards.CardUpdate{Name: cards.Patch[string]{Set: true, Value: "Zulu"},
			CardGroupID: cards.Patch[string]{Set: true, Value: g2.ID}}); err != nil {
			return err
		}
		c2, err := cards.Create(op, a, cards.NewCard{Name: "Bravo", CardGroupID: g1.ID})
		if err != nil {
			return err
		}
		_, err = cards.Update(op, a, c2.ID, cards.CardUpdate{CardGroupID: cards.Patch[string]{Set: true, Null: true}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// Send every delivery: each fails once, is retried on the clock, then
	// succeeds.
	var succeeded int
	for round := 0; round < 50; round++ {
		due, err := deliveries.DueDeliveries(w, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) == 0 {
			if _, err := w.Advance(w.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			if due, err = deliveries.DueDeliveries(w, 10); err != nil || len(due) == 0 {
				break
			}
		}
		status := 500
		if due[0].Attempt > 1 {
			status = 200
		}
		d, err := deliveries.RecordDeliveryAttempt(w, due[0].ID,
			deliveries.AttemptResult{SentAt: w.Now(), URL: due[0].URL, ResponseStatus: status})
		if err != nil {
			t.Fatal(err)
		}
		if d.Status == deliveries.StatusSucceeded {
			succeeded++
		}
	}
	if succeeded < 4 {
		t.Fatalf("%d deliveries to %s succeeded after a retry, want at least 4", succeeded, hook.ID)
	}
	if _, err := w.Advance(w.Now().Add(30 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	err = w.View(func(op *kernel.Op) error {
		var c cards.Card
		if ok, err := op.Get(cards.Kind, renamed, &c); err != nil || !ok || c.Name != "Zulu" {
			t.Errorf("card %s after the update: %+v (found %v, %v)", renamed, c, ok, err)
		}
		var done int
		op.Tx.Scan(kernel.IndexPrefix(kernel.IndexEventDone), "", false, func(string, string) bool { done++; return true })
		if done == 0 {
			t.Error("no event has run")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	checkDerivedIndexes(t, w)
}

// A record saved by an older version has a sidecar: its next save removes
// what the sidecar lists that the new keys do not, and drops the sidecar.
func TestLegacySidecarIsUsedOnceAndDropped(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	var id string
	stray := kernel.IndexKey(cards.IndexCardLE, "le_gone", "0", "0", "x")
	err := w.Update(func(op *kernel.Op) error {
		list, err := kernel.All[cards.Card](op, cards.Kind, kernel.IndexPrefix(cards.IndexCardLE, "le_acme"))
		if err != nil {
			return err
		}
		id = list[0].ID
		if err := op.Tx.PutRaw(stray, id); err != nil {
			return err
		}
		return op.Tx.PutRaw(kernel.IndexSidecar(cards.Kind, id),
			strings.Join(append(cards.Indexes(&list[0]), stray), "\n"))
	})
	if err != nil {
		t.Fatal(err)
	}
	err = w.Update(func(op *kernel.Op) error {
		var c cards.Card
		if _, err := op.Get(cards.Kind, id, &c); err != nil {
			return err
		}
		c.Name = "Saved again"
		return op.Save(cards.Kind, c.ID, &c, cards.Indexes(&c)...)
	})
	if err != nil {
		t.Fatal(err)
	}
	w.View(func(op *kernel.Op) error {
		if _, ok, _ := op.Tx.GetRaw(stray); ok {
			t.Error("the entry only the old sidecar listed is still there")
		}
		return nil
	})
	checkDerivedIndexes(t, w)
}

// A record with no index keys keeps no sidecar; one that had keys and is
// saved with none loses the entries and the sidecar.
func TestRecordWithoutIndexKeysHasNoSidecar(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	var key string
	stray := kernel.IndexKey("totals.old", "x")
	err := w.Update(func(op *kernel.Op) error {
		var totals int
		err := op.Tx.Scan(store.Prefix("r", ledger.KindTotals), "", false, func(k, _ string) bool {
			key = strings.TrimPrefix(k, store.Prefix("r", ledger.KindTotals))
			totals++
			return true
		})
		if err != nil {
			return err
		}
		if totals == 0 {
			t.Fatal("the demo world has no totals")
		}
		op.Tx.Scan(store.Prefix("x", ledger.KindTotals), "", false, func(k, _ string) bool {
			t.Errorf("%q: a sidecar for a record with no index keys", k)
			return true
		})
		if err := op.Tx.PutRaw(stray, key); err != nil {
			return err
		}
		return op.Tx.PutRaw(kernel.IndexSidecar(ledger.KindTotals, key), stray)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = w.Update(func(op *kernel.Op) error {
		var tot ledger.Totals
		if ok, err := op.Get(ledger.KindTotals, key, &tot); err != nil || !ok {
			t.Fatalf("totals %s: %v %v", key, ok, err)
		}
		return op.Save(ledger.KindTotals, key, &tot)
	})
	if err != nil {
		t.Fatal(err)
	}
	w.View(func(op *kernel.Op) error {
		for _, k := range []string{stray, kernel.IndexSidecar(ledger.KindTotals, key)} {
			if _, ok, _ := op.Tx.GetRaw(k); ok {
				t.Errorf("%q is still there", k)
			}
		}
		return nil
	})
}

// A snapshot written by an earlier version holds keys no longer kept: the
// entries of the index of every delivery in the order made, and the log of
// every emitted event. The world restored from it drops them, and still
// lists its deliveries, in the order they were made, and with the bodies
// they post.
func TestRetiredKeysAreDroppedOnRestore(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	enginetest.NewEndpoint(t, w)
	newCards(t, w, "One", "Two", "Three")
	before := listDeliveries(t, w, deliveries.Filter{})
	if len(before) < 6 {
		t.Fatalf("%d deliveries, want those of the demo and of three new cards", len(before))
	}
	for i := 1; i < len(before); i++ {
		if before[i-1].Seq >= before[i].Seq {
			t.Fatalf("deliveries listed out of the order made: %s (seq %d) before %s (seq %d)",
				before[i-1].ID, before[i-1].Seq, before[i].ID, before[i].Seq)
		}
	}
	retired, log := kernel.IndexPrefix(deliveries.RetiredDeliveryAll), store.Prefix("l", "emitted")
	err := w.Db.Update(func(tx *store.Tx) error {
		for _, d := range before {
			if err := tx.PutRaw(kernel.IndexKey(deliveries.RetiredDeliveryAll, store.Seq(d.Seq), d.ID), d.ID); err != nil {
				return err
			}
			event := `{"eventId":"` + d.EventID + `","event":"` + d.Event + `","entityId":"` + d.EntityID + `"}`
			if err := tx.PutRaw(store.Key("l", "emitted", d.LegalEntityID, store.Seq(d.Seq-1), d.EventID), event); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	old := restoreOwnSnapshot(t, w)
	if !strings.Contains(string(old), retired) || !strings.Contains(string(old), log) {
		t.Fatal("the snapshot lacks the retired keys it was made to hold")
	}
	err = w.View(func(op *kernel.Op) error {
		for _, prefix := range []string{retired, log} {
			err := op.Tx.Scan(prefix, "", false, func(k, _ string) bool {
				t.Errorf("the restored world keeps %q", k)
				return true
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	after := listDeliveries(t, w, deliveries.Filter{})
	if len(after) != len(before) {
		t.Fatalf("%d deliveries after the restore, %d before", len(after), len(before))
	}
	for i, d := range after {
		want := `{"entityId":"` + d.EntityID + `","event":"` + d.Event + `","eventId":"` + d.EventID + `"}`
		if d.ID != before[i].ID || d.Body() != want {
			t.Errorf("delivery %d after the restore: %s posting %s; before: %s, posting %s", i, d.ID, d.Body(), before[i].ID,
				want)
		}
	}
	checkDerivedIndexes(t, w)
}
