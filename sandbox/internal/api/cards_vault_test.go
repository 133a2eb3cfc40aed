package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// The card vault as the docs describe it
// (https://docs.slash.com/api-reference/card-get-by-id, and the same page on
// docs.joinslash.com): "To reveal the full PAN or CVV of the card, you must:
// 1. Set the query params include_pan=true and/or include_cvv=true. 2. Set
// the base URL of the request to https://vault.joinslash.com." The sandbox's
// vault is its own address followed by /vault.

func TestVaultRevealsPANAndCVVOnlyWithTheFlags(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	const id = "card_acmeaws"
	vault := func(query string) apitest.CardJSON {
		t.Helper()
		var c apitest.CardJSON
		e.Get("/vault/card/"+id+query, apitest.AcmeKey, "").Status(t, 200).Decode(t, &c)
		return c
	}
	both := vault("?include_pan=true&include_cvv=true")
	if both.PAN == nil || len(*both.PAN) != 16 || !strings.HasSuffix(*both.PAN, both.Last4) || both.CVV == nil ||
		len(*both.CVV) != 3 {
		t.Fatalf("vault with both flags: pan %v cvv %v last4 %s", both.PAN, both.CVV, both.Last4)
	}
	if c := vault("?include_pan=true"); c.PAN == nil || *c.PAN != *both.PAN || c.CVV != nil {
		t.Fatalf("vault with include_pan: pan %v cvv %v", c.PAN, c.CVV)
	}
	if c := vault("?include_cvv=true"); c.CVV == nil || *c.CVV != *both.CVV || c.PAN != nil {
		t.Fatalf("vault with include_cvv: pan %v cvv %v", c.PAN, c.CVV)
	}
	if c := vault(""); c.PAN != nil || c.CVV != nil || c.ID != id || c.Last4 != both.Last4 {
		t.Fatalf("vault without flags: %+v", c)
	}
	e.Get("/vault/card/"+id+"?include_pan=yes", apitest.AcmeKey, "").Gen1(t, 400, "invalid_request")
	e.Get("/vault/card/card_globexfleet?include_pan=true", apitest.AcmeKey, "").Gen1(t, 404, "not_found")
}

func TestMainAddressAnswersTheCardWithoutPANOrCVV(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	r := e.Get("/card/card_acmeaws?include_pan=true&include_cvv=true", apitest.AcmeKey, "").Status(t, 200)
	var c apitest.CardJSON
	r.Decode(t, &c)
	if c.ID != "card_acmeaws" || len(c.Last4) != 4 || c.Status != "active" {
		t.Fatalf("card = %+v", c)
	}
	if raw := r.JSON(t); raw["pan"] != nil || raw["cvv"] != nil {
		t.Fatalf("the main address revealed card data: %s", r.Raw)
	}
	// The flags are still checked, as the operation declares them.
	e.Get("/card/card_acmeaws?include_cvv=1", apitest.AcmeKey, "").Gen1(t, 400, "invalid_request")
}

// healthVaultURL is the vault's base URL as GET /_sandbox/health names it.
func healthVaultURL(t *testing.T, e *apitest.Env) string {
	t.Helper()
	var h struct {
		VaultURL string `json:"vaultUrl"`
	}
	e.Get("/_sandbox/health", "", "").Status(t, 200).Decode(t, &h)
	return h.VaultURL
}

func TestHealthNamesTheVaultURL(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	if got, want := healthVaultURL(t, e), e.Server.URL+"/vault"; got != want {
		t.Fatalf("vaultUrl = %q, want %q", got, want)
	}
}

// sdkClient reads a card as the official SDKs do: the base URL given to
// the client, then the operation's path and query appended to it
// (client.ts buildURL; _base_client.py _prepare_url).
type sdkClient struct{ baseURL, key string }

func (s sdkClient) retrieveCard(t *testing.T, id string, q url.Values) map[string]any {
	t.Helper()
	u := strings.TrimRight(s.baseURL, "/") + "/card/" + url.PathEscape(id) + "?" + q.Encode()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-API-Key", s.key)
	req.Header.Set("Accept", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", u, res.StatusCode, raw)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSDKClientWithTheVaultBaseURLGetsThePAN(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	vault := healthVaultURL(t, e)
	flags := url.Values{"include_pan": {"true"}, "include_cvv": {"true"}}
	for _, base := range []string{vault, vault + "/"} {
		got := sdkClient{baseURL: base, key: apitest.AcmeKey}.retrieveCard(t, "card_acmeaws", flags)
		if pan, _ := got["pan"].(string); len(pan) != 16 || got["cvv"] == nil {
			t.Fatalf("base URL %s: %v", base, got)
		}
	}
	// The same client with the main base URL gets the card without them,
	// as production's api host answers.
	got := sdkClient{baseURL: e.Server.URL, key: apitest.AcmeKey}.retrieveCard(t, "card_acmeaws", flags)
	if got["id"] != "card_acmeaws" || got["pan"] != nil || got["cvv"] != nil {
		t.Fatalf("main base URL: %v", got)
	}
}

func TestVaultAddressGuardsAsTheMainOne(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	t.Run("a key is required", func(t *testing.T) {
		e.Get("/vault/card/card_acmeaws?include_pan=true", "", "").Gen1(t, 401, "unauthorized")
		e.Get("/vault/card/card_acmeaws?include_pan=true", "sk_sandbox_nope", "").Gen1(t, 401, "unauthorized")
	})
	t.Run("another legal entity's card is not found", func(t *testing.T) {
		e.Get("/vault/card/card_acmeaws?include_pan=true", "sk_sandbox_globex", "").Gen1(t, 404, "not_found")
	})
	t.Run("the control API is not under the vault", func(t *testing.T) {
		for _, p := range []string{"/vault/_sandbox/health", "/vault/_sandbox/keys", "/vault/_sandbox/ui/", "/vault/mcp"} {
			e.Get(p, "", "").Gen1(t, 404, "not_found")
		}
	})
	t.Run("the vault serves the card read alone", func(t *testing.T) {
		e.Get("/vault/account", apitest.AcmeKey, "").Gen1(t, 404, "not_found")
		e.Do(apitest.Req{Method: http.MethodPatch, Path: "/vault/card/card_acmeaws", Key: apitest.AcmeKey,
			Body: `{"name":"x"}`}).Gen1(t, 405, "method_not_allowed")
	})
	t.Run("CORS as on the public API", func(t *testing.T) {
		r := e.Do(apitest.Req{Path: "/vault/card/card_acmeaws?include_pan=true", Key: apitest.AcmeKey,
			Header: map[string]string{"Origin": "http://localhost:5173"}}).Status(t, 200)
		main := e.Do(apitest.Req{Path: "/card/card_acmeaws", Key: apitest.AcmeKey,
			Header: map[string]string{"Origin": "http://localhost:5173"}}).Status(t, 200)
		for _, h := range []string{"Access-Control-Allow-Origin", "Access-Control-Expose-Headers"} {
			if got, want := r.Header.Get(h), main.Header.Get(h); got == "" || got != want {
				t.Fatalf("%s = %q at the vault, %q at the main address", h, got, want)
			}
		}
	})
	t.Run("journaled under its route", func(t *testing.T) {
		e.Get("/vault/card/card_acmeoffice?include_pan=true", apitest.AcmeKey, "").Status(t, 200)
		var j struct {
			Items []struct {
				Route  string `json:"route"`
				Path   string `json:"path"`
				Status int    `json:"status"`
			} `json:"items"`
		}
		e.Get("/_sandbox/requests?limit=1&route=card.vault_get", "", "").Status(t, 200).Decode(t, &j)
		if len(j.Items) != 1 || j.Items[0].Path != "/vault/card/card_acmeoffice" || j.Items[0].Status != 200 {
			t.Fatalf("journal = %+v", j.Items)
		}
	})
}
