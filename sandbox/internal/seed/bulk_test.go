package seed_test

import (
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// Loading keeps ledger totals in memory and stores them at the end;
// the stored world must be exactly the one writing them through would give.
func TestBulkLoadingStoresWhatWritingThroughStores(t *testing.T) {
	generated, err := scenario.Parse("gen.yaml", []byte(`
name: gen
clockStart: 2026-06-15T14:00:00Z
legalEntities: [{id: le_g, name: G}]
accounts:
  - {id: sa_group_g, legalEntityId: le_g, name: G, type: debit, balanceCents: 5000000, virtualAccounts: [{id:`+
		` subaccount_g, name: Sub, balanceCents: 100000}]}
cards: [{id: card_g, accountId: sa_group_g, name: Card}]
generate:
  - {kind: card_transactions, count: 300, over: 30d, legalEntityId: le_g}
  - {kind: bank_transactions, count: 100, over: 30d, accountId: sa_group_g}
`))
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range []*scenario.Scenario{enginetest.MustScenario(t, "demo"), enginetest.MustScenario(t, "empty"),
		generated} {
		t.Run(sc.Name, func(t *testing.T) {
			bulk, err := enginetest.MustWorld(t, sc).Db.Items()
			if err != nil {
				t.Fatal(err)
			}
			ledger.BulkLoading = false
			through, err := enginetest.MustWorld(t, sc).Db.Items()
			ledger.BulkLoading = true
			if err != nil {
				t.Fatal(err)
			}
			if len(bulk) != len(through) {
				t.Fatalf("%d keys loading in bulk, %d writing through", len(bulk), len(through))
			}
			for i := range bulk {
				if bulk[i] != through[i] {
					t.Fatalf("key %d: bulk %q = %q, through %q = %q", i, bulk[i].Key, bulk[i].Value, through[i].Key, through[i].Value)
				}
			}
		})
	}
}
