// Package enginetest makes whole worlds for the tests of the engine's
// domain packages: a domain's own tests that need a world seeded from a
// scenario import it from their external test package.
package enginetest

import (
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// MustScenario loads an embedded scenario by name.
func MustScenario(t testing.TB, name string) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// MustWorld makes a world from a scenario in an engine of its own, closed
// when the test ends.
func MustWorld(t testing.TB, sc *scenario.Scenario) *kernel.World {
	t.Helper()
	eng, err := engine.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	w, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Close() })
	return w
}

// LedgerSums recomputes every bucket's totals from the transactions.
func LedgerSums(t *testing.T, w *kernel.World) (stored, summed map[string]ledger.Totals) {
	t.Helper()
	stored, summed = map[string]ledger.Totals{}, map[string]ledger.Totals{}
	err := w.View(func(op *kernel.Op) error {
		txns, err := kernel.All[ledger.Transaction](op, ledger.KindTransaction, kernel.IndexPrefix(ledger.IndexTxnLE))
		if err != nil {
			return err
		}
		for i := range txns {
			tx := &txns[i]
			e := ledger.Effect(tx, tx.DetailedStatus)
			for _, k := range []string{tx.AccountID + "/" + tx.AccountSubtype, tx.VirtualAccountID + "/virtual"} {
				s := summed[k]
				s.Posted, s.PendingDebits, s.PendingCredits, s.Spend = s.Posted+e.Posted, s.PendingDebits+e.PendingDebits,
					s.PendingCredits+e.PendingCredits, s.Spend+e.Spend
				summed[k] = s
				owner, bucket, _ := strings.Cut(k, "/")
				if stored[k], err = ledger.TotalsOf(op, owner, bucket); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return stored, summed
}

// ActorInOp authenticates a key inside an open operation.
func ActorInOp(t *testing.T, op *kernel.Op, key string) *kernel.Actor {
	t.Helper()
	p, err := op.Authenticate(key)
	if err != nil {
		t.Fatal(err)
	}
	a, err := op.Act(p, "", false)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// NewEndpoint registers an active endpoint for le_acme.
func NewEndpoint(t *testing.T, w *kernel.World) *deliveries.Webhook {
	t.Helper()
	var hook *deliveries.Webhook
	err := w.Update(func(op *kernel.Op) error {
		var err error
		hook, err = deliveries.CreateWebhook(op, ActorInOp(t, op, "sk_sandbox_acme"),
			deliveries.WebhookInput{URL: "http://127.0.0.1:9/hook", Name: "Test"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return hook
}

// Demo makes a fresh world of the embedded demo scenario: its clock stands
// at 2026-06-15T14:00:00Z, a Monday.
func Demo(t testing.TB) *kernel.World {
	t.Helper()
	return MustWorld(t, MustScenario(t, "demo"))
}

// As runs fn in one write of w as the holder of key and returns its error.
func As(t *testing.T, w *kernel.World, key string, fn func(op *kernel.Op, a *kernel.Actor) error) error {
	t.Helper()
	return w.Update(func(op *kernel.Op) error { return fn(op, ActorInOp(t, op, key)) })
}

// Must fails the test on err.
func Must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// DomainError is err as a domain error, failing the test for any other.
func DomainError(t testing.TB, err error) *kernel.Error {
	t.Helper()
	e, ok := kernel.AsError(err)
	if !ok {
		t.Fatalf("got %v, want a domain error", err)
	}
	return e
}

// WantError fails unless err is a domain error with code whose details
// hold every key and value of details.
func WantError(t testing.TB, err error, code kernel.Code, details map[string]string) {
	t.Helper()
	e := DomainError(t, err)
	if e.Code != code {
		t.Fatalf("code %s (%s), want %s", e.Code, e.Message, code)
	}
	for k, v := range details {
		if got, ok := e.Details[k]; !ok || got != v {
			t.Errorf("details[%q] = %q (present %v), want %q; all details %v", k, got, ok, v, e.Details)
		}
	}
}
