package cards_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Utilization sums the spend the card and group index entries keep: each
// entry keeps what its transaction's record says, and entries written
// before they kept it (the id alone) sum to the same.
func TestUtilizationFromIndexEntriesEqualsRecords(t *testing.T) {
	w := enginetest.Demo(t)
	prefixes := []string{kernel.IndexPrefix(ledger.IndexTxnCard), kernel.IndexPrefix(ledger.IndexTxnGroup)}
	utilization := func() string {
		t.Helper()
		var b strings.Builder
		err := enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
			groups, err := kernel.All[cards.Group](op, cards.KindGroup, kernel.IndexPrefix(cards.IndexGroupLE, "le_acme"))
			if err != nil {
				return err
			}
			if len(groups) == 0 {
				return fmt.Errorf("the demo's acme has no card groups")
			}
			for _, g := range groups {
				u, err := cards.GroupUtilization(op, a, g.ID)
				if err != nil {
					return err
				}
				fmt.Fprintf(&b, "%s %d %v\n", g.ID, u.Spend, u.Limits)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	entries := 0
	w.View(func(op *kernel.Op) error {
		for _, p := range prefixes {
			op.Tx.Scan(p, "", false, func(key, val string) bool {
				entries++
				id, _ := kernel.SplitIndexValue(val)
				txn, _, _ := ledger.FindTransaction(op, id)
				if n, ok := ledger.CardSpendOf(val); !ok || n != txn.CardSpend() {
					t.Errorf("entry %q keeps spend %d (%v); its transaction's is %d", key, n, ok, txn.CardSpend())
				}
				return true
			})
		}
		return nil
	})
	if entries < 100 {
		t.Fatalf("only %d card and group entries in the demo", entries)
	}
	withFacts := utilization()
	if !strings.Contains(withFacts, "card_group_acmesaas") {
		t.Fatalf("utilization = %q", withFacts)
	}
	err := w.Update(func(op *kernel.Op) error {
		var kvs []store.KV
		for _, p := range prefixes {
			op.Tx.Scan(p, "", false, func(k, val string) bool {
				id, _ := kernel.SplitIndexValue(val)
				kvs = append(kvs, store.KV{Key: k, Value: id})
				return true
			})
		}
		for _, kv := range kvs {
			if err := op.Tx.PutRaw(kv.Key, kv.Value); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if without := utilization(); without != withFacts {
		t.Errorf("utilization from the entries' spend:\n%s\nfrom the records:\n%s", withFacts, without)
	}
}
