package sandbox

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/store"
)

// derivedIndexNames are the index names each derived kind writes.
var derivedIndexNames = map[string][]string{
	kindTransaction: {indexTxnLE, indexTxnAccount, indexTxnVA, indexTxnCard, indexTxnGroup, indexTxnFee},
	kindCard:        {indexCardLE, indexCardName, indexCardAccount, indexCardGroup},
	kindCardGroup:   {indexGroupLE},
	kindDelivery:    {indexDeliveryAll, indexDeliveryWebhook, indexDeliveryQueue, indexDeliveryDue},
	kindEvent:       {indexEventDue, indexEventDone},
}

// checkDerivedIndexes fails unless, for every kind whose index keys derive
// from its records, the entries of its indexes are exactly the keys its
// stored records derive, each naming its record, and no record of the kind
// has a sidecar.
func checkDerivedIndexes(t *testing.T, w *World) {
	t.Helper()
	if got, want := slices.Sorted(maps.Keys(derivedIndexes)), slices.Sorted(maps.Keys(derivedIndexNames)); !slices.Equal(got, want) {
		t.Fatalf("derived kinds %v, the check knows %v", got, want)
	}
	err := w.View(func(op *Op) error {
		for kind, derive := range derivedIndexes {
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
				err := op.Tx.Scan(IndexPrefix(name), "", false, func(k, val string) bool {
					got[k], _ = splitIndexValue(val)
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
	w := mustWorld(t, mustScenario(t, "demo"))
	checkDerivedIndexes(t, w)
	hook := newEndpoint(t, w)
	var renamed string
	err := w.Update(func(op *Op) error {
		a := actorInOp(t, op, "sk_sandbox_acme")
		g1, err := op.CreateCardGroup(a, NewCardGroup{Name: "First"})
		if err != nil {
			return err
		}
		g2, err := op.CreateCardGroup(a, NewCardGroup{Name: "Second"})
		if err != nil {
			return err
		}
		c, err := op.CreateCard(a, NewCard{Name: "Alpha", CardGroupID: g1.ID})
		if err != nil {
			return err
		}
		renamed = c.ID
		if _, err := op.UpdateCard(a, c.ID, CardUpdate{Name: Patch[string]{Set: true, Value: "Zulu"},
			CardGroupID: Patch[string]{Set: true, Value: g2.ID}}); err != nil {
			return err
		}
		c2, err := op.CreateCard(a, NewCard{Name: "Bravo", CardGroupID: g1.ID})
		if err != nil {
			return err
		}
		_, err = op.UpdateCard(a, c2.ID, CardUpdate{CardGroupID: Patch[string]{Set: true, Null: true}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// Send every delivery: each fails once, is retried on the clock, then
	// succeeds.
	var succeeded int
	for round := 0; round < 50; round++ {
		due, err := w.DueDeliveries(10)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) == 0 {
			if _, err := w.Advance(w.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			if due, err = w.DueDeliveries(10); err != nil || len(due) == 0 {
				break
			}
		}
		status := 500
		if due[0].Attempt > 1 {
			status = 200
		}
		d, err := w.RecordDeliveryAttempt(due[0].ID, AttemptResult{SentAt: w.Now(), URL: due[0].URL, ResponseStatus: status})
		if err != nil {
			t.Fatal(err)
		}
		if d.Status == DeliverySucceeded {
			succeeded++
		}
	}
	if succeeded < 4 {
		t.Fatalf("%d deliveries to %s succeeded after a retry, want at least 4", succeeded, hook.ID)
	}
	if _, err := w.Advance(w.Now().Add(30 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	err = w.View(func(op *Op) error {
		var c Card
		if ok, err := op.get(kindCard, renamed, &c); err != nil || !ok || c.Name != "Zulu" {
			t.Errorf("card %s after the update: %+v (found %v, %v)", renamed, c, ok, err)
		}
		var done int
		op.Tx.Scan(IndexPrefix(indexEventDone), "", false, func(string, string) bool { done++; return true })
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
	w := mustWorld(t, mustScenario(t, "demo"))
	var id string
	stray := IndexKey(indexCardLE, "le_gone", "0", "0", "x")
	err := w.Update(func(op *Op) error {
		cards, err := all[Card](op, kindCard, IndexPrefix(indexCardLE, "le_acme"))
		if err != nil {
			return err
		}
		id = cards[0].ID
		if err := op.Tx.PutRaw(stray, id); err != nil {
			return err
		}
		return op.Tx.PutRaw(indexSidecar(kindCard, id), strings.Join(append(cardIndexes(&cards[0]), stray), "\n"))
	})
	if err != nil {
		t.Fatal(err)
	}
	err = w.Update(func(op *Op) error {
		var c Card
		if _, err := op.get(kindCard, id, &c); err != nil {
			return err
		}
		c.Name = "Saved again"
		return op.save(kindCard, c.ID, &c, cardIndexes(&c)...)
	})
	if err != nil {
		t.Fatal(err)
	}
	w.View(func(op *Op) error {
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
	w := mustWorld(t, mustScenario(t, "demo"))
	var key string
	stray := IndexKey("totals.old", "x")
	err := w.Update(func(op *Op) error {
		var totals int
		err := op.Tx.Scan(store.Prefix("r", kindTotals), "", false, func(k, _ string) bool {
			key = strings.TrimPrefix(k, store.Prefix("r", kindTotals))
			totals++
			return true
		})
		if err != nil {
			return err
		}
		if totals == 0 {
			t.Fatal("the demo world has no totals")
		}
		op.Tx.Scan(store.Prefix("x", kindTotals), "", false, func(k, _ string) bool {
			t.Errorf("%q: a sidecar for a record with no index keys", k)
			return true
		})
		if err := op.Tx.PutRaw(stray, key); err != nil {
			return err
		}
		return op.Tx.PutRaw(indexSidecar(kindTotals, key), stray)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = w.Update(func(op *Op) error {
		var tot Totals
		if ok, err := op.get(kindTotals, key, &tot); err != nil || !ok {
			t.Fatalf("totals %s: %v %v", key, ok, err)
		}
		return op.save(kindTotals, key, &tot)
	})
	if err != nil {
		t.Fatal(err)
	}
	w.View(func(op *Op) error {
		for _, k := range []string{stray, indexSidecar(kindTotals, key)} {
			if _, ok, _ := op.Tx.GetRaw(k); ok {
				t.Errorf("%q is still there", k)
			}
		}
		return nil
	})
}
