package sandboxtest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest"
)

// TestVaultURLRevealsThePAN: the docs (docs.slash.com/api-reference/
// card-get-by-id) reveal a card's PAN and CVV only when the request's base
// URL is the vault host; sb.VaultURL stands for it, sb.URL does not, and
// the health answer names the same vault.
func TestVaultURLRevealsThePAN(t *testing.T) {
	sb := sandboxtest.Start(t, sandboxtest.Options{})
	read := func(base string) map[string]any {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, base+"/card/card_acmeaws?include_pan=true&include_cvv=true", nil)
		req.Header.Set("X-API-Key", sb.Key("sk_sandbox_acme"))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var card map[string]any
		if err := json.NewDecoder(res.Body).Decode(&card); err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %v", req.URL, res.StatusCode, err)
		}
		return card
	}
	if card := read(sb.VaultURL); card["pan"] == nil || card["cvv"] == nil {
		t.Fatalf("at VaultURL: %v", card)
	}
	if card := read(sb.URL); card["id"] != "card_acmeaws" || card["pan"] != nil || card["cvv"] != nil {
		t.Fatalf("at URL: %v", card)
	}
	h, err := sb.Control.Health(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if h.VaultURL != sb.VaultURL {
		t.Fatalf("health vaultUrl = %q, want %q", h.VaultURL, sb.VaultURL)
	}
}
