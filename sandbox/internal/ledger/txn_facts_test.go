package ledger_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// The aggregation reads the facts txn.le entries keep; it must give what
// reading every record gives, for every filter, and entries without facts
// (written before they existed) must still count.
func TestAggregationFromIndexFactsEqualsRecords(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	start := w.Now()
	ms := func(d time.Duration) *time.Time { at := start.Add(d); return &at }
	filters := []ledger.TransactionFilter{
		{}, {AccountID: "sa_group_acmeoperating"}, {VirtualAccountID: "subaccount_acmeengineering"},
		{CardID: "card_acmeaws"}, {CardGroupID: "card_group_acmetravel"}, {Status: ledger.StatusPending},
		{DetailedStatus: "settled", Category: "card"}, {Category: "wire"},
		{FromDate: ms(-30 * 24 * time.Hour), ToDate: ms(-5 * 24 * time.Hour)},
		{FromAuthorized: ms(-10 * 24 * time.Hour)}, {ToAuthorized: ms(-20 * 24 * time.Hour)},
		{FromDate: ms(-1000000 * time.Hour), ToDate: ms(1000000 * time.Hour)},
	}
	var auth string
	w.View(func(op *kernel.Op) error {
		return op.Tx.Scan(kernel.IndexPrefix(ledger.IndexTxnLE, "le_acme"), "", false, func(_, val string) bool {
			id, _ := kernel.SplitIndexValue(val)
			t, _, _ := ledger.FindTransaction(op, id)
			if t.ProviderAuthorizationID == "" || t.Status == ledger.StatusFailed {
				return true // aggregations leave failed transactions out
			}
			auth = t.ProviderAuthorizationID
			return false
		})
	})
	filters = append(filters, ledger.TransactionFilter{ProviderAuthorizationID: auth})

	aggregate := func() []ledger.Aggregation {
		t.Helper()
		var out []ledger.Aggregation
		err := w.View(func(op *kernel.Op) error {
			p, err := op.Authenticate("sk_sandbox_acme")
			if err != nil {
				return err
			}
			a, err := op.Act(p, "", false)
			if err != nil {
				return err
			}
			for _, f := range filters {
				g, err := ledger.AggregateTransactions(op, a, f)
				if err != nil {
					return err
				}
				var brute ledger.Aggregation
				all, err := kernel.All[ledger.Transaction](op, ledger.KindTransaction,
					kernel.IndexPrefix(ledger.IndexTxnLE, "le_acme"))
				if err != nil {
					return err
				}
				for i := range all {
					if all[i].Status != ledger.StatusFailed && f.Match("le_acme", &all[i]) {
						brute.Add(all[i].AmountCents)
					}
				}
				if g != brute {
					return fmt.Errorf("filter %+v: aggregation %+v, records sum to %+v", f, g, brute)
				}
				out = append(out, g)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	withFacts := aggregate()
	if withFacts[0].Count < 100 || withFacts[len(withFacts)-1].Count != 1 {
		t.Fatalf("aggregations %+v: the demo's transactions are not all counted", withFacts)
	}
	// Strip the facts, as in a file written before they existed.
	err := w.Update(func(op *kernel.Op) error {
		var kvs []store.KV
		op.Tx.Scan(kernel.IndexPrefix(ledger.IndexTxnLE, "le_acme"), "", false, func(k, val string) bool {
			id, facts := kernel.SplitIndexValue(val)
			if facts == "" {
				t.Errorf("entry %q keeps no facts", k)
			}
			kvs = append(kvs, store.KV{Key: k, Value: id})
			return true
		})
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
	without := aggregate()
	for i := range withFacts {
		if withFacts[i] != without[i] {
			t.Errorf("filter %+v: %+v with facts, %+v without", filters[i], withFacts[i], without[i])
		}
	}
}

func TestTxnFactsRoundTrip(t *testing.T) {
	at := time.Date(2026, 6, 15, 14, 0, 0, 123456789, time.UTC)
	tx := &ledger.Transaction{AccountID: "sa_1", VirtualAccountID: "subaccount_1", CardID: "card_1", Status: "posted",
		DetailedStatus: "settled", Category: "card", Date: at, AmountCents: -4200, AuthorizedAt: &at}
	_, enc := tx.Covering()
	f, ok := ledger.ParseTxnFacts(enc)
	if !ok || f.Account != "sa_1" || f.Card != "card_1" || f.CardGroup != "" || f.Amount != -4200 || !f.Authorized ||
		f.Date != at.UnixNano() || f.DetailedStatus != "settled" {
		t.Fatalf("round trip of %q = %+v, %v", enc, f, ok)
	}
	tx.Memo, tx.ProviderAuthorizationID = "x", "has\x1fseparator"
	if _, enc := tx.Covering(); enc != "" {
		t.Fatalf("a field with a separator was encoded: %q", enc)
	}
	for _, bad := range []string{"", "a\x1fb", "1\x1f2\x1f3\x1f4\x1f5\x1f6\x1f7\x1f8\x1fx\x1f\x1f9"} {
		if _, ok := ledger.ParseTxnFacts(bad); ok {
			t.Errorf("parsed %q", bad)
		}
	}
}
