package sandboxtest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

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
	if err := json.NewDecoder(res.Body).Decode(&accounts); err != nil || len(accounts.Items) != 1 || accounts.Items[0].ID != "sa_group_empty" {
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
