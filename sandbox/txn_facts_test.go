package sandbox

import (
	"fmt"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/store"
)

// The aggregation reads the facts txn.le entries keep; it must give what
// reading every record gives, for every filter, and entries without facts
// (written before they existed) must still count.
func TestAggregationFromIndexFactsEqualsRecords(t *testing.T) {
	w := mustWorld(t, mustScenario(t, "demo"))
	start := w.Now()
	ms := func(d time.Duration) *time.Time { at := start.Add(d); return &at }
	filters := []TransactionFilter{
		{}, {AccountID: "sa_group_acmeoperating"}, {VirtualAccountID: "subaccount_acmeengineering"},
		{CardID: "card_acmeaws"}, {CardGroupID: "card_group_acmetravel"}, {Status: StatusPending},
		{DetailedStatus: "settled", Category: "card"}, {Category: "wire"},
		{FromDate: ms(-30 * 24 * time.Hour), ToDate: ms(-5 * 24 * time.Hour)},
		{FromAuthorized: ms(-10 * 24 * time.Hour)}, {ToAuthorized: ms(-20 * 24 * time.Hour)},
		{FromDate: ms(-1000000 * time.Hour), ToDate: ms(1000000 * time.Hour)},
	}
	var auth string
	w.View(func(op *Op) error {
		return op.Tx.Scan(IndexPrefix(indexTxnLE, "le_acme"), "", false, func(_, val string) bool {
			id, _ := splitIndexValue(val)
			t, _, _ := op.Transaction(id)
			auth = t.ProviderAuthorizationID
			return auth == ""
		})
	})
	filters = append(filters, TransactionFilter{ProviderAuthorizationID: auth})

	aggregate := func() []Aggregation {
		t.Helper()
		var out []Aggregation
		err := w.View(func(op *Op) error {
			p, err := op.Authenticate("sk_sandbox_acme")
			if err != nil {
				return err
			}
			a, err := op.Act(p, "", false)
			if err != nil {
				return err
			}
			for _, f := range filters {
				g, err := op.AggregateTransactions(a, f)
				if err != nil {
					return err
				}
				var brute Aggregation
				all, err := all[Transaction](op, kindTransaction, IndexPrefix(indexTxnLE, "le_acme"))
				if err != nil {
					return err
				}
				for i := range all {
					if all[i].Status != StatusFailed && f.match("le_acme", &all[i]) {
						brute.add(all[i].AmountCents)
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
	err := w.Update(func(op *Op) error {
		var kvs []store.KV
		op.Tx.Scan(IndexPrefix(indexTxnLE, "le_acme"), "", false, func(k, val string) bool {
			id, facts := splitIndexValue(val)
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
	tx := &Transaction{AccountID: "sa_1", VirtualAccountID: "subaccount_1", CardID: "card_1", Status: "posted",
		DetailedStatus: "settled", Category: "card", Date: at, AmountCents: -4200, AuthorizedAt: &at}
	_, enc := tx.covering()
	f, ok := parseTxnFacts(enc)
	if !ok || f.account != "sa_1" || f.card != "card_1" || f.cardGroup != "" || f.amount != -4200 || !f.authorized ||
		f.date != at.UnixNano() || f.detailedStatus != "settled" {
		t.Fatalf("round trip of %q = %+v, %v", enc, f, ok)
	}
	tx.Memo, tx.ProviderAuthorizationID = "x", "has\x1fseparator"
	if _, enc := tx.covering(); enc != "" {
		t.Fatalf("a field with a separator was encoded: %q", enc)
	}
	for _, bad := range []string{"", "a\x1fb", "1\x1f2\x1f3\x1f4\x1f5\x1f6\x1f7\x1f8\x1fx\x1f\x1f9"} {
		if _, ok := parseTxnFacts(bad); ok {
			t.Errorf("parsed %q", bad)
		}
	}
}
