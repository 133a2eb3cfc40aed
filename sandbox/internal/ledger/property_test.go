package ledger_test

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

// moneyActors are the actors of the demo that move money: each legal
// entity through its own key, and Alice (a user key on both) for book
// transfers between them.
type moneyActors struct {
	acme, globex, aliceAcme, aliceGlobex *kernel.Actor
}

func mustActor(t *testing.T, w *kernel.World, key, le string) *kernel.Actor {
	t.Helper()
	var a *kernel.Actor
	err := w.View(func(op *kernel.Op) error {
		p, err := op.Authenticate(key)
		if err != nil {
			return err
		}
		a, err = op.Act(p, le, false)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func demoActors(t *testing.T, w *kernel.World) moneyActors {
	return moneyActors{acme: mustActor(t, w, "sk_sandbox_acme", ""), globex: mustActor(t, w, "sk_sandbox_globex", ""),
		aliceAcme: mustActor(t, w, "sk_sandbox_alice", "le_acme"), aliceGlobex: mustActor(t, w, "sk_sandbox_alice",
			"le_globex")}
}

// worldMoney sums the posted and pending amounts of every account bucket,
// checking on the way that every bucket's totals equal its entries.
func worldMoney(t *testing.T, w *kernel.World) (posted, pending int64) {
	t.Helper()
	stored, summed := enginetest.LedgerSums(t, w)
	for k, want := range summed {
		if got := stored[k]; got != want {
			t.Errorf("totals %s = %+v, sum of its entries %+v", k, got, want)
		}
		if !strings.HasSuffix(k, "/virtual") {
			posted += want.Posted
			pending += want.PendingDebits + want.PendingCredits
		}
	}
	return posted, pending
}

var (
	acmeEndpoints = []string{
		"sa_group_acmeoperating",
		"subaccount_acmeengineering",
		"subaccount_acmemarketing",
		"subaccount_acmepayroll",
		"sa_group_acmecharge",
		"subaccount_acmeoldproject",
	}
	globexEndpoints = []string{"sa_group_globexmain", "subaccount_globexfleet"}
)

// outcome is what one random movement did to the world's money: external
// is the change it makes to the world's total once everything settled.
type outcome struct {
	kind     string
	err      error
	external int64
}

// randomMovement makes one random movement inside op.
func randomMovement(op *kernel.Op, rng *rand.Rand, as moneyActors, dests map[string][]string) outcome {
	amount := rng.Int64N(500_000) + 1
	if rng.IntN(50) == 0 {
		amount = 90_000_000_000
	}
	pick := func(ids []string) string { return ids[rng.IntN(len(ids))] }
	acmeSide := rng.IntN(2) == 0
	actor, own, other, otherAlice := as.acme, acmeEndpoints, globexEndpoints, as.aliceAcme
	if !acmeSide {
		actor, own, other, otherAlice = as.globex, globexEndpoints, acmeEndpoints, as.aliceGlobex
	}
	switch kind := rng.IntN(6); kind {
	case 0:
		_, err := ledger.TransferBetweenVirtualAccounts(op, actor,
			ledger.TransferRequest{From: pick(own), To: pick(own), AmountCents: amount})
		return outcome{kind: "virtual", err: err}
	case 1:
		_, err := ledger.BookTransfer(op, otherAlice,
			ledger.TransferRequest{From: pick(own), To: pick(other), AmountCents: amount, Memo: "rebalance"})
		return outcome{kind: "book", err: err}
	case 2:
		d := pick(dests[actor.LegalEntityID()])
		_, err := ledger.SendACH(op, actor,
			ledger.RailTransferRequest{SourceID: pick(own), Field: "accountId", DestinationID: d, AmountCents: amount})
		ext := -amount
		if strings.HasPrefix(d, "test_return") {
			ext = 0
		}
		return outcome{kind: "ach", err: err, external: ext}
	case 3:
		d := pick([]string{"le_c_dest_bluefiniban", "le_c_dest_northwindach"})
		_, err := ledger.SendWire(op, as.acme,
			ledger.RailTransferRequest{SourceID: pick(acmeEndpoints), Field: "accountId", DestinationID: d, AmountCents: amount})
		ext := -amount
		if d == "le_c_dest_bluefiniban" {
			ext -= ledger.InternationalWireFeeCents
		}
		return outcome{kind: "wire", err: err, external: ext}
	case 4:
		_, err := ledger.SimulateIncoming(
			op,
			ledger.IncomingTransfer{TargetID: pick(append(own, other...)), Field: "accountId",
				Rail: ledger.IncomingRails[rng.IntN(len(ledger.IncomingRails))], AmountCents: amount},
		)
		return outcome{kind: "incoming", err: err, external: amount}
	default:
		to := map[bool]string{true: "globex-logistics", false: "@Acme-Robotics"}[acmeSide]
		_, err := ledger.Pay(op, actor, ledger.PayRequest{SlashHandle: to, AmountCents: amount})
		return outcome{kind: "pay", err: err}
	}
}

// expectedRefusal reports whether a movement was refused for a reason the
// random walk provokes on purpose.
func expectedRefusal(err error) bool {
	e, ok := kernel.AsError(err)
	return ok && (e.Code == kernel.CodeInsufficientFunds || e.Code == kernel.CodeInvalidRequest)
}

// returningDestinations adds two destinations whose ACH transfers come
// back: one by a magic account number, one by its return code.
func returningDestinations(t *testing.T, w *kernel.World) map[string][]string {
	t.Helper()
	dests := map[string][]string{
		"le_acme":   {"le_c_dest_northwindach", "le_c_dest_danaach"},
		"le_globex": {"le_c_dest_tankerach"},
	}
	err := w.Update(func(op *kernel.Op) error {
		for _, d := range []*parties.Destination{
			{ID: "test_return_r01", ContactID: "le_c_northwindsupply", LegalEntityID: "le_acme", Type: parties.DestinationACH,
				AccountNumber: "99990001", RoutingNumber: "021000021"},
			{ID: "test_return_r10", ContactID: "le_c_tankerfuel", LegalEntityID: "le_globex", Type: parties.DestinationACH,
				AccountNumber: "1234", RoutingNumber: "121000248", ReturnCode: "R10"},
		} {
			dests[d.LegalEntityID] = append(dests[d.LegalEntityID], d.ID)
			if err := parties.SaveDestination(op, d); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dests
}

// moveConcurrently runs random movements from several goroutines while
// the clock advances: every advanceEvery movements a worker asks for an
// advance, which runs while the other workers keep moving money.
func moveConcurrently(
	t *testing.T,
	w *kernel.World,
	as moneyActors,
	dests map[string][]string,
) (outcomes []outcome, advances int) {
	const workers, perWorker, advanceEvery = 6, 400, 50
	results := make([][]outcome, workers)
	ticks := make(chan struct{}, workers*perWorker/advanceEvery)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(42, uint64(i)))
			for n := range perWorker {
				if n%advanceEvery == advanceEvery-1 {
					ticks <- struct{}{}
				}
				var o outcome
				err := w.Update(func(op *kernel.Op) error {
					o = randomMovement(op, rng, as, dests)
					return o.err
				})
				if err != nil && !expectedRefusal(err) {
					t.Errorf("%s: unexpected error %v", o.kind, err)
				}
				results[i] = append(results[i], o)
			}
		}()
	}
	go func() { wg.Wait(); close(ticks) }()
	for range ticks {
		if _, err := w.Advance(w.Now().Add(time.Duration(1+advances%11) * time.Hour)); err != nil {
			t.Error(err)
		}
		advances++
	}
	for _, rs := range results {
		outcomes = append(outcomes, rs...)
	}
	return outcomes, advances
}

func TestLedgerStaysConsistentUnderConcurrentMovements(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	// Let the scenario's own pending transactions settle first.
	if _, err := w.Advance(w.Now().Add(7 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	dests := returningDestinations(t, w)
	posted0, pending0 := worldMoney(t, w)
	outcomes, advances := moveConcurrently(t, w, demoActors(t, w), dests)
	if _, err := w.Advance(w.Now().Add(15 * 24 * time.Hour)); err != nil {
		t.Fatal(err)
	}

	var external int64
	ok, refused := map[string]int{}, map[kernel.Code]int{}
	for _, o := range outcomes {
		if e, failed := kernel.AsError(o.err); failed {
			refused[e.Code]++
			continue
		}
		ok[o.kind]++
		external += o.external
	}
	for _, kind := range []string{"virtual", "book", "ach", "wire", "incoming", "pay"} {
		if ok[kind] == 0 {
			t.Errorf("no %s movement succeeded: %v", kind, ok)
		}
	}
	if refused[kernel.CodeInsufficientFunds] == 0 || refused[kernel.CodeInvalidRequest] == 0 {
		t.Errorf("refusals %v: want some insufficient funds and some invalid requests", refused)
	}
	posted1, pending1 := worldMoney(t, w)
	if got, want := posted1-posted0, external; got != want {
		t.Errorf("world posted money changed by %s, external inflows less outflows are %s", ledger.FormatCents(got),
			ledger.FormatCents(want))
	}
	if pending1 != pending0 {
		t.Errorf("pending money %s after everything settled, %s before", ledger.FormatCents(pending1),
			ledger.FormatCents(pending0))
	}
	checkTransfersBalance(t, w)
	t.Logf("%d advances; succeeded %v; refused %v", advances, ok, refused)
}

// checkTransfersBalance checks that every internal transfer is a debit and
// a credit that cancel out.
func checkTransfersBalance(t *testing.T, w *kernel.World) {
	t.Helper()
	sums, legs := map[string]int64{}, map[string]int{}
	err := w.View(func(op *kernel.Op) error {
		txns, err := kernel.All[ledger.Transaction](op, ledger.KindTransaction, kernel.IndexPrefix(ledger.IndexTxnLE))
		for _, tx := range txns {
			if tx.Category == "internal" && tx.TransferID != "" {
				sums[tx.TransferID] += tx.AmountCents
				legs[tx.TransferID]++
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(sums) == 0 {
		t.Fatal("no internal transfer was posted")
	}
	for id, sum := range sums {
		if sum != 0 || legs[id] != 2 {
			t.Fatalf("transfer %s: %d legs summing to %d", id, legs[id], sum)
		}
	}
}

func TestConcurrentTransfersNeverOverdraw(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	as := demoActors(t, w)
	var avail int64
	err := w.View(func(op *kernel.Op) error {
		e, _, err := ledger.Endpoint(op, "subaccount_globexfleet")
		if err == nil {
			avail, err = ledger.Available(op, e)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	const each = 100_000
	var mu sync.Mutex
	succeeded := 0
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				err := w.Update(func(op *kernel.Op) error {
					_, err := ledger.TransferBetweenVirtualAccounts(op, as.globex,
						ledger.TransferRequest{From: "subaccount_globexfleet", To: "sa_group_globexmain", AmountCents: each})
					return err
				})
				mu.Lock()
				if err == nil {
					succeeded++
				} else if e, ok := kernel.AsError(err); !ok || e.Code != kernel.CodeInsufficientFunds {
					t.Errorf("unexpected error %v", err)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if got, want := int64(succeeded), avail/each; got != want {
		t.Fatalf("%d transfers of %s succeeded from %s available, want %d", got, ledger.FormatCents(each),
			ledger.FormatCents(avail), want)
	}
}

func TestAddBusinessDays(t *testing.T) {
	friday := time.Date(2026, 6, 19, 14, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		from time.Time
		n    int
		want time.Time
	}{
		{"friday plus two is tuesday", friday, 2, friday.AddDate(0, 0, 4)},
		{"friday plus one is monday", friday, 1, friday.AddDate(0, 0, 3)},
		{"saturday plus one is monday", friday.AddDate(0, 0, 1), 1, friday.AddDate(0, 0, 3)},
		{"monday plus two is wednesday", friday.AddDate(0, 0, 3), 2, friday.AddDate(0, 0, 5)},
		{"zero days stays", friday, 0, friday},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ledger.AddBusinessDays(tc.from, tc.n); !got.Equal(tc.want) {
				t.Fatalf("AddBusinessDays(%s, %d) = %s, want %s", tc.from.Weekday(), tc.n, got.Weekday(), tc.want.Weekday())
			}
		})
	}
}

func TestHandleName(t *testing.T) {
	for in, want := range map[string]string{"Acme Robotics Inc.": "acme-robotics",
		"Globex Logistics LLC": "globex-logistics",
		"  Ünïcode & Co ":      "ünïcode", "LLC": "llc", "!!!": "slash-user"} {
		if got := ledger.HandleName(in); got != want {
			t.Errorf("HandleName(%q) = %q, want %q", in, got, want)
		}
	}
}
