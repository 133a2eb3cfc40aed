package sandboxtest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/client"
	"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest"
)

func TestStartServesTheScenarioAndDrivesTheClock(t *testing.T) {
	sb := sandboxtest.Start(t, sandboxtest.Options{Scenario: "empty"})
	req, _ := http.NewRequest(http.MethodGet, sb.URL+"/account", nil)
	req.Header.Set("X-API-Key", sb.Key("sk_test_empty_user"))
	req.Header.Set("x-legal-entity", "le_empty")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var accounts struct {
		Items []struct{ ID string } `json:"items"`
	}
	if err := json.NewDecoder(res.Body).Decode(&accounts); err != nil || len(accounts.Items) != 1 ||
		accounts.Items[0].ID != "sa_group_empty" {
		t.Fatalf("accounts = %+v, %v", accounts, err)
	}
	ctx := context.Background()
	adv, err := sb.Control.Advance(ctx, "36h")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := adv.Clock.Now.Sub(adv.From).Hours(), 36.0; got != want {
		t.Fatalf("advanced %vh, want %vh", got, want)
	}
	if err := sb.Control.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	c, err := sb.Control.Clock(ctx)
	if err != nil || !c.Now.Equal(c.Start) {
		t.Fatalf("clock after reset = %+v, %v", c, err)
	}
	if _, err := sb.Control.Advance(ctx, "soon"); err == nil {
		t.Fatal("a bad duration was accepted")
	}
}

// TestMemoryBudget: a test's sandbox has the binary's memory budget, which
// Options.MemoryBudget sets: a world past it is refused with 507 and the
// sandbox's own world goes on answering.
func TestMemoryBudget(t *testing.T) {
	sb := sandboxtest.Start(t, sandboxtest.Options{Scenario: "empty", MemoryBudget: 16 << 20})
	ctx := context.Background()
	h, err := sb.Control.Health(ctx)
	if err != nil || h.Memory.Budget == nil || *h.Memory.Budget != 16<<20 || h.Memory.Used <= 0 {
		t.Fatalf("health = %+v, %v; want the 16 MiB budget and what is used", h.Memory, err)
	}
	huge := "name: gen\nlegalEntities: [{id: le_g, name: G}]\naccounts: [{id: sa_g, legalEntityId: le_g, name: A}]\n" +
		"cards: [{id: card_g, accountId: sa_g, name: C}]\ngenerate:\n  - {kind: card_transactions, count: 100000}\n"
	_, err = sb.Control.CreateWorld(ctx, client.NewWorld{YAML: huge})
	var e *client.Error
	if !errors.As(err, &e) || e.Status != http.StatusInsufficientStorage ||
		!strings.Contains(e.Message, "16 MiB memory budget") {
		t.Fatalf("err = %v, want 507 naming the 16 MiB budget", err)
	}
	if _, err := sb.Control.Clock(ctx); err != nil {
		t.Fatal(err)
	}
	if worlds, err := sb.Control.Worlds(ctx); err != nil || len(worlds) != 1 {
		t.Fatalf("worlds = %v, %v; want the sandbox's own alone", worlds, err)
	}
}
