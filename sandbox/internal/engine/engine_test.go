package engine_test

import (
	"bytes"
	"context"
	"fmt"
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
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

func mustSnapshot(t *testing.T, w *kernel.World) []byte {
	t.Helper()
	b, err := w.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSameScenarioAndSeedGiveIdenticalWorlds(t *testing.T) {
	sc := enginetest.MustScenario(t, "demo")
	a, b := enginetest.MustWorld(t, sc), enginetest.MustWorld(t, sc)
	if !bytes.Equal(mustSnapshot(t, a), mustSnapshot(t, b)) {
		t.Fatal("two worlds from the same scenario and seed differ")
	}
	seed := int64(7)
	eng, _ := engine.New(nil)
	defer eng.Close()
	c, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc, Seed: &seed})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(mustSnapshot(t, a), mustSnapshot(t, c)) {
		t.Fatal("a different seed gave the same world")
	}
}

func TestLedgerTotalsEqualTheirEntries(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	check := func(when string) {
		stored, summed := enginetest.LedgerSums(t, w)
		if len(summed) == 0 {
			t.Fatal("no transactions")
		}
		for k, want := range summed {
			if got := stored[k]; got != want {
				t.Errorf("%s: totals %s = %+v, sum of entries %+v", when, k, got, want)
			}
		}
	}
	check("at start")
	if _, err := w.Advance(w.Now().Add(72 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	check("after settling")
}

func TestDemoDeclaredBalances(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	err := w.View(func(op *kernel.Op) error {
		for id, want := range map[string]int64{"subaccount_acmeengineering": 25000000, "subaccount_acmepayroll": 60000000} {
			got, err := ledger.VirtualAccountTotals(op, id)
			if err != nil {
				return err
			}
			if got.Posted != want {
				t.Errorf("%s posted = %d, want %d", id, got.Posted, want)
			}
		}
		cash, err := ledger.AccountTotals(op, "sa_group_acmecharge", "cash")
		if cash.Posted != 50000000 {
			t.Errorf("charge card cash = %d, want 50000000", cash.Posted)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestDemoCoversEveryDetailedStatus(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	seen := map[string]int{}
	err := w.View(func(op *kernel.Op) error {
		txns, err := kernel.All[ledger.Transaction](op, ledger.KindTransaction, kernel.IndexPrefix(ledger.IndexTxnLE))
		for _, tx := range txns {
			seen[tx.DetailedStatus]++
		}
		if len(txns) < 300 {
			t.Errorf("demo has %d transactions, want hundreds", len(txns))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ledger.DetailedStatuses {
		if seen[s] == 0 {
			t.Errorf("no %s transaction in the demo", s)
		}
	}
}

func TestAdvanceRunsEventsInOrderAtTheirInstant(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	start := w.Now()
	ran, err := w.Advance(start.Add(26 * time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var settled []kernel.Event
	for i, ev := range ran {
		if i > 0 && ev.At.Before(ran[i-1].At) {
			t.Fatalf("event %d at %v ran after %v", i, ev.At, ran[i-1].At)
		}
		if ev.RanAt == nil || !ev.RanAt.Equal(ev.At) {
			t.Fatalf("event %s ran at %v, due %v", ev.ID, ev.RanAt, ev.At)
		}
		if ev.Kind == "transaction.settle" {
			settled = append(settled, ev)
		}
	}
	if len(settled) == 0 {
		t.Fatal("no settlement ran in 26h")
	}
	if got, want := w.Now(), start.Add(26*time.Hour); !got.Equal(want) {
		t.Fatalf("clock = %v, want %v", got, want)
	}
	if _, err := w.Advance(start); err == nil {
		t.Fatal("advancing backwards succeeded")
	}
}

func TestAdvanceRunsAtMostItsEventsAndStopsWhole(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	start := w.Now()
	target := start.Add(48 * time.Hour)
	ran, err := w.AdvanceContext(context.Background(), target, 5)
	e, ok := kernel.AsError(err)
	if !ok || e.Code != kernel.CodeInvalidRequest || len(ran) != 5 || e.Details["eventsRun"] != "5" {
		t.Fatalf("capped advance = %d events, %v", len(ran), err)
	}
	if got := w.Now(); !got.Equal(ran[4].At) || e.Details["clock"] != got.Format(time.RFC3339Nano) {
		t.Fatalf("clock stands at %v (error says %s), want the fifth event's instant %v", got, e.Details["clock"], ran[4].At)
	}
	rest, err := w.AdvanceContext(context.Background(), target, kernel.MaxAdvanceEvents)
	if err != nil || len(rest) == 0 || !w.Now().Equal(target) {
		t.Fatalf("advancing on ran %d events to %v: %v", len(rest), w.Now(), err)
	}
	if rest[0].At.Before(ran[4].At) || rest[0].ID == ran[4].ID {
		t.Fatalf("the advance that went on re-ran or skipped: %s at %v after %s at %v", rest[0].ID, rest[0].At, ran[4].ID,
			ran[4].At)
	}
	t.Run("exactly as many events as allowed is no error", func(t *testing.T) {
		w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
		all, err := w.Advance(target)
		if err != nil {
			t.Fatal(err)
		}
		w2 := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
		if same, err := w2.AdvanceContext(context.Background(), target, len(all)); err != nil || len(same) != len(all) {
			t.Fatalf("advance capped at its own count = %d, %v", len(same), err)
		}
	})
	t.Run("an ended context stops it before the next event", func(t *testing.T) {
		w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		ran, err := w.AdvanceContext(ctx, target, kernel.MaxAdvanceEvents)
		if e, ok := kernel.AsError(err); !ok || e.Code != kernel.CodeUnavailable || len(ran) != 0 || !w.Now().Equal(start) {
			t.Fatalf("cancelled advance = %d events, clock %v, %v", len(ran), w.Now(), err)
		}
	})
	t.Run("beyond the clock's range", func(t *testing.T) {
		w := enginetest.MustWorld(t, enginetest.MustScenario(t, "empty"))
		if _, err := w.Advance(time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)); err == nil {
			t.Fatal("advancing to 9999 succeeded")
		}
	})
}

func TestEventNotBeforeItsTime(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	next, ok, err := w.NextEventAt()
	if err != nil || !ok {
		t.Fatalf("no next event: %v", err)
	}
	ran, err := w.Advance(next.Add(-time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if len(ran) != 0 {
		t.Fatalf("%d events ran before their time", len(ran))
	}
	if ran, _ = w.Advance(next); len(ran) == 0 {
		t.Fatal("the due event did not run at its instant")
	}
}

// TestResetRestoresTheScenarioStart: reset gives back the state the
// scenario started the world with, whether the world kept a copy of it or,
// being too large for one, loads its scenario again; in the default world
// and in a spawned one (whose loading writes links that name it).
func TestResetRestoresTheScenarioStart(t *testing.T) {
	for _, keep := range []int{kernel.KeepStartKeys, 0} {
		for _, id := range []string{"default", "x"} {
			t.Run(fmt.Sprintf("keep %d keys, world %s", keep, id), func(t *testing.T) {
				defer func(keep int) { kernel.KeepStartKeys = keep }(kernel.KeepStartKeys)
				kernel.KeepStartKeys = keep
				eng, err := engine.New(nil)
				if err != nil {
					t.Fatal(err)
				}
				defer eng.Close()
				sc := enginetest.MustScenario(t, "demo")
				w, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc})
				if err == nil && id != "default" {
					w, err = eng.SpawnWorld(kernel.WorldSpec{ID: id, Scenario: sc})
				}
				if err != nil {
					t.Fatal(err)
				}
				before := mustSnapshot(t, w)
				if _, err := w.Advance(w.Now().Add(96 * time.Hour)); err != nil {
					t.Fatal(err)
				}
				if bytes.Equal(before, mustSnapshot(t, w)) {
					t.Fatal("advancing changed nothing")
				}
				if err := w.Reset(); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(before, mustSnapshot(t, w)) {
					t.Fatal("reset did not restore the starting state")
				}
				if !w.Now().Equal(w.Start) {
					t.Fatalf("clock after reset = %v, want %v", w.Now(), w.Start)
				}
			})
		}
	}
}

func TestScenarioEventOfUnknownKind(t *testing.T) {
	src := "legalEntities:\n  - {id: le_x, name: X}\nevents:\n  - at: +1h\n    kind: nothing.happens\n"
	_, err := scenario.Parse("e.yaml", []byte(src))
	if err == nil ||
		!strings.Contains(err.Error(), `e.yaml:5:11: events[0].kind: "nothing.happens" is not one of transaction.settle,`) {
		t.Fatalf("err = %v, want e.yaml:5:11: the kinds a scenario may schedule", err)
	}
}

// TestScenarioEventKindsRun: every kind of event a scenario may schedule
// is one the engine runs.
func TestScenarioEventKindsRun(t *testing.T) {
	handlers := engine.Wiring().Events
	for _, kind := range scenario.EventKinds() {
		if _, ok := handlers[kind]; !ok {
			t.Errorf("scenarios may schedule %q, which the engine does not run", kind)
		}
	}
}

func TestTokenPricesWalkDeterministically(t *testing.T) {
	sc := enginetest.MustScenario(t, "demo")
	a, b := enginetest.MustWorld(t, sc), enginetest.MustWorld(t, sc)
	for _, w := range []*kernel.World{a, b} {
		if _, err := w.Advance(w.Now().Add(5 * time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	pa, _ := ledger.TokenPrices(a)
	pb, _ := ledger.TokenPrices(b)
	moved := false
	for i := range pa {
		if pa[i] != pb[i] {
			t.Fatalf("prices differ between identical worlds: %+v vs %+v", pa[i], pb[i])
		}
		if pa[i].Symbol == "BTC" && pa[i].Value() != "97250.00" {
			moved = true
		}
		if !pa[i].LastUpdatedAt.Equal(a.Now()) {
			t.Fatalf("%s lastUpdatedAt = %v, want %v", pa[i].Symbol, pa[i].LastUpdatedAt, a.Now())
		}
	}
	if !moved {
		t.Fatal("BTC did not move in 5 ticks")
	}
}

func TestLuhnAndRouting(t *testing.T) {
	if !cards.LuhnValid("4111111111111111") || cards.LuhnValid("4111111111111112") {
		t.Fatal("Luhn check wrong on known numbers")
	}
	if !parties.RoutingNumberValid("021000021") || parties.RoutingNumberValid("021000022") {
		t.Fatal("ABA check wrong on known numbers")
	}
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	err := w.View(func(op *kernel.Op) error {
		list, err := kernel.All[cards.Card](op, cards.Kind, kernel.IndexPrefix(cards.IndexCardLE))
		for _, c := range list {
			if !cards.LuhnValid(c.PAN) || len(c.PAN) != 16 {
				t.Errorf("card %s PAN %s is not a valid 16-digit number", c.ID, c.PAN)
			}
		}
		accs, _ := kernel.All[ledger.Account](op, ledger.KindAccount, kernel.IndexPrefix(ledger.IndexAccount))
		for _, a := range accs {
			if !parties.RoutingNumberValid(a.RoutingNumber) {
				t.Errorf("account %s routing %s fails its checksum", a.ID, a.RoutingNumber)
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestFormatCents(t *testing.T) {
	for c, want := range map[int64]string{0: "$0.00", 5: "$0.05", 123456: "$1,234.56", -100000000: "-$1,000,000.00"} {
		if got := ledger.FormatCents(c); got != want {
			t.Errorf("FormatCents(%d) = %q, want %q", c, got, want)
		}
	}
}

func TestLedgerChangesEmitWebhookEvents(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	// The demo's paused endpoint of le_acme takes every event and keeps
	// its deliveries queued.
	count := func() []deliveries.WebhookDelivery {
		return listDeliveries(t, w, deliveries.Filter{WebhookID: "webhook_acmelocal"})
	}
	if n := len(count()); n != 0 {
		t.Fatalf("loading the scenario emitted %d events", n)
	}
	if _, err := w.Advance(w.Now().Add(23 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	evs := count()
	if len(evs) == 0 {
		t.Fatal("settlements emitted nothing")
	}
	for _, e := range evs {
		if e.Event != deliveries.EventTransactionUpdate || e.EntityID == "" || e.EventID == "" {
			t.Fatalf("emitted %+v", e)
		}
	}
}

// Ordered ids are as long as derived ones, sort in the order they were
// made, and differ by seed.
func TestOrderedIDsSortInCreationOrder(t *testing.T) {
	prev := ""
	for _, n := range []int64{1, 2, 9, 10, 35, 36, 1295, 1296, 46655, 1 << 30, 1 << 40} {
		id := kernel.OrderedID(42, deliveries.PrefixDelivery, n)
		if len(id) != len(kernel.DeriveID(42, deliveries.PrefixDelivery, n)) {
			t.Errorf("%d: %q is not as long as a derived id", n, id)
		}
		if id <= prev {
			t.Errorf("%d: %q does not sort after %q", n, id, prev)
		}
		if other := kernel.OrderedID(43, deliveries.PrefixDelivery, n); other == id {
			t.Errorf("%d: seeds 42 and 43 both give %q", n, id)
		}
		prev = id
	}
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	hook := enginetest.NewEndpoint(t, w)
	var ids []string
	err := w.Update(func(op *kernel.Op) error {
		for range 3 {
			d, err := deliveries.QueueDelivery(op, hook, "evt_x", deliveries.EventCardUpdate, "card_x",
				deliveries.SourceEvent, "")
			if err != nil {
				return err
			}
			ids = append(ids, d.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(ids) || ids[0] == ids[1] {
		t.Errorf("deliveries made in a row have ids %v", ids)
	}
}

func TestWorldsAndSnapshotsAreCapped(t *testing.T) {
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	sc := enginetest.MustScenario(t, "empty")
	first, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc})
	if err != nil {
		t.Fatal(err)
	}
	for len(eng.Worlds()) < kernel.MaxWorlds {
		if _, err := eng.SpawnWorld(kernel.WorldSpec{Scenario: sc}); err != nil {
			t.Fatalf("world %d: %v", len(eng.Worlds())+1, err)
		}
	}
	_, err = eng.SpawnWorld(kernel.WorldSpec{Scenario: sc})
	if e, ok := kernel.AsError(err); !ok || e.Code != kernel.CodeConflict || len(eng.Worlds()) != kernel.MaxWorlds {
		t.Fatalf("world past the cap = %v; %d worlds", err, len(eng.Worlds()))
	}
	if err := eng.DeleteWorld("w1"); err != nil {
		t.Fatal(err)
	}
	if _, err := eng.SpawnWorld(kernel.WorldSpec{Scenario: sc}); err != nil {
		t.Fatalf("a freed place was not taken: %v", err)
	}
	for range kernel.MaxSnapshots {
		if _, err := eng.TakeSnapshot(first, ""); err != nil {
			t.Fatal(err)
		}
	}
	_, err = eng.TakeSnapshot(first, "")
	if e, ok := kernel.AsError(err); !ok || e.Code != kernel.CodeConflict || len(eng.Snapshots()) != kernel.MaxSnapshots {
		t.Fatalf("snapshot past the cap = %v; %d snapshots", err, len(eng.Snapshots()))
	}
}
