package sandbox

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/store"
)

// Transactions keep no sidecar: their index entries are worked out from the
// stored record. After a month of settlements and returns, every index
// entry names an existing transaction whose keys include it, and every
// transaction has all its keys.
func TestTransactionIndexesStayExactWithoutSidecars(t *testing.T) {
	w := mustWorld(t, mustScenario(t, "demo"))
	if _, err := w.Advance(w.Now().Add(30 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	check := func() {
		t.Helper()
		err := w.View(func(op *Op) error {
			entries := map[string]bool{}
			err := op.Tx.Scan(store.Prefix("i"), "", false, func(k, val string) bool {
				if strings.HasPrefix(k, "i\x1ftxn.") {
					entries[k] = true
					id, _ := splitIndexValue(val)
					tx, ok, _ := op.Transaction(id)
					if !ok || !slices.Contains(txnIndexes(tx), k) {
						t.Errorf("index entry %q names %q, which does not have it", k, id)
					}
				}
				return true
			})
			if err != nil {
				return err
			}
			txns, err := all[Transaction](op, kindTransaction, IndexPrefix(indexTxnLE, "le_acme"))
			for i := range txns {
				for _, k := range txnIndexes(&txns[i]) {
					if !entries[k] {
						t.Errorf("transaction %s lacks index entry %q", txns[i].ID, k)
					}
				}
				if _, ok, _ := op.Tx.GetRaw(indexSidecar(kindTransaction, txns[i].ID)); ok {
					t.Errorf("transaction %s has a sidecar", txns[i].ID)
				}
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	check()
	// A transaction saved by an older version has a sidecar: the next save
	// uses it (removing what it lists and the new keys do not) and drops it.
	var id string
	stray := IndexKey(indexTxnCard, "card_gone", "0", "0", "x")
	err := w.Update(func(op *Op) error {
		txns, err := all[Transaction](op, kindTransaction, IndexPrefix(indexTxnLE, "le_acme"))
		if err != nil {
			return err
		}
		id = txns[0].ID
		keys := append(txnIndexes(&txns[0]), stray)
		if err := op.Tx.PutRaw(stray, id); err != nil {
			return err
		}
		return op.Tx.PutRaw(indexSidecar(kindTransaction, id), strings.Join(keys, "\n"))
	})
	if err != nil {
		t.Fatal(err)
	}
	err = w.Update(func(op *Op) error {
		tx, _, err := op.Transaction(id)
		if err != nil {
			return err
		}
		tx.Note = "saved again"
		return op.save(kindTransaction, tx.ID, tx, txnIndexes(tx)...)
	})
	if err != nil {
		t.Fatal(err)
	}
	check()
	w.View(func(op *Op) error {
		if _, ok, _ := op.Tx.GetRaw(stray); ok {
			t.Error("the entry only the old sidecar listed is still there")
		}
		return nil
	})
}
