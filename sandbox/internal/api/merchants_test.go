package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func TestMerchants(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	t.Run("list is the catalogue", func(t *testing.T) {
		var pg struct {
			Items []struct{ ID, Name, URL string }
		}
		e.Get("/merchant", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &pg)
		if got, want := len(pg.Items), len(e.Engine.Catalog.Merchants); got != want {
			t.Fatalf("%d merchants, want %d", got, want)
		}
		if pg.Items[0].ID != "merchant_v2_aws" || pg.Items[0].Name != "Amazon Web Services" || pg.Items[0].URL == "" {
			t.Fatalf("first merchant = %+v", pg.Items[0])
		}
	})
	t.Run("search by name ignores case", func(t *testing.T) {
		var pg struct{ Items []struct{ ID, Name string } }
		e.Get("/merchant?search:merchant_name=ADS", "sk_sandbox_globex", "").Status(t, 200).Decode(t, &pg)
		if len(pg.Items) != 3 {
			t.Fatalf("search ADS found %+v, want the three ads merchants", pg.Items)
		}
		for _, m := range pg.Items {
			if !strings.Contains(strings.ToLower(m.Name), "ads") {
				t.Fatalf("%s does not match", m.Name)
			}
		}
	})
	t.Run("get one", func(t *testing.T) {
		m := e.Get("/merchant/merchant_v2_github", "sk_sandbox_alice", "le_acme").Status(t, 200).JSON(t)
		if m["name"] != "GitHub" || m["url"] != "https://github.com" {
			t.Fatalf("merchant = %v", m)
		}
		e.Get("/merchant/merchant_v2_nope", "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
	})
	t.Run("categories", func(t *testing.T) {
		var pg struct{ Items []struct{ ID, Name string } }
		e.Get("/merchant-category", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &pg)
		if len(pg.Items) != len(e.Engine.Catalog.Categories) || pg.Items[0].ID != "merchant_category_software" ||
			pg.Items[0].Name != "Software" {
			t.Fatalf("categories = %+v", pg.Items)
		}
	})
	t.Run("a forged cursor is refused", func(t *testing.T) {
		d := e.Get("/merchant?cursor=abc.def", "sk_sandbox_acme", "").Gen1(t, 400, "invalid_request")
		if d["meta"].(map[string]any)["details"].(map[string]any)["cursor"] == nil {
			t.Fatalf("details do not name the cursor: %v", d)
		}
	})
	t.Run("needs a key", func(t *testing.T) {
		e.Do(apitest.Req{Method: http.MethodGet, Path: "/merchant-category"}).Gen1(t, 401, "unauthorized")
	})
}

func TestCryptoOfframp(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	body := map[string]string{"virtualAccountId": "subaccount_acmeengineering", "paymentRail": "wire", "currency": "usdc"}
	type offramp struct {
		Wallet struct {
			ID, Type, Status, SubaccountID, SlashAccountGroupID string
		}
		Addresses []struct {
			ID, WalletID, Currency, Chain, Address, Method, BlockchainMemo string
		}
	}
	var first, again offramp
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/crypto/offramp", Key: "sk_sandbox_acme", Body: body}).
		Status(t, 200).
		Decode(t, &first)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/crypto/offramp", Key: "sk_sandbox_acme_readonly", Body: body}).
		Status(t, 200).
		Decode(t, &again)
	t.Run("wallet of the virtual account", func(t *testing.T) {
		w := first.Wallet
		if w.Type != "off_ramp" || w.Status != "active" || w.SubaccountID != "subaccount_acmeengineering" ||
			w.SlashAccountGroupID != "sa_group_acmeoperating" {
			t.Fatalf("wallet = %+v", w)
		}
		if first.Wallet.ID != again.Wallet.ID || first.Addresses[0].Address != again.Addresses[0].Address {
			t.Fatal("the same request gave another wallet or address")
		}
	})
	t.Run("an address per chain in its own form", func(t *testing.T) {
		chains := map[string]string{}
		for _, a := range first.Addresses {
			if a.WalletID != first.Wallet.ID || a.Currency != "usdc" || a.Method != "wire" {
				t.Fatalf("address = %+v", a)
			}
			chains[a.Chain] = a.Address
			if a.Chain == "stellar" && a.BlockchainMemo == "" {
				t.Fatal("a Stellar address needs a memo")
			}
		}
		if eth := chains["ethereum"]; len(eth) != 42 || !strings.HasPrefix(eth, "0x") {
			t.Fatalf("ethereum address %q", eth)
		}
		if sol := chains["solana"]; len(sol) != 44 {
			t.Fatalf("solana address %q", sol)
		}
	})
	t.Run("another rail is another wallet", func(t *testing.T) {
		var ach offramp
		b := map[string]string{"virtualAccountId": "subaccount_acmeengineering", "paymentRail": "ach", "currency": "usdt"}
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/crypto/offramp", Key: "sk_sandbox_acme", Body: b}).
			Status(t, 200).
			Decode(t, &ach)
		if ach.Wallet.ID == first.Wallet.ID || ach.Addresses[0].Currency != "usdt" {
			t.Fatalf("ach wallet = %+v", ach.Wallet)
		}
		for _, a := range ach.Addresses {
			if a.Chain == "tron" && !strings.HasPrefix(a.Address, "T") {
				t.Fatalf("tron address %q", a.Address)
			}
		}
	})
	t.Run("not enrolled", func(t *testing.T) {
		b := map[string]string{"virtualAccountId": "subaccount_globexfleet", "paymentRail": "ach", "currency": "usdc"}
		m := e.Do(apitest.Req{Method: http.MethodPost, Path: "/crypto/offramp", Key: "sk_sandbox_globex", Body: b}).
			Status(t, 400).
			JSON(t)
		if m["error"] != "NOT_ENROLLED" ||
			!strings.HasPrefix(m["message"].(string), "You are not enrolled in crypto offramping.") ||
			len(m) != 2 {
			t.Fatalf("body = %v", m)
		}
	})
	t.Run("errors", func(t *testing.T) {
		post := func(key string, body any) *apitest.Resp {
			return e.Do(apitest.Req{Method: http.MethodPost, Path: "/crypto/offramp", Key: key, Body: body})
		}
		post(
			"sk_sandbox_acme",
			map[string]string{"virtualAccountId": "subaccount_globexfleet", "paymentRail": "ach", "currency": "usdc"},
		).Gen1(t, 404, "not_found")
		post(
			"sk_sandbox_acme",
			map[string]string{"virtualAccountId": "subaccount_acmeoldproject", "paymentRail": "ach", "currency": "usdc"},
		).Gen1(t, 400, "invalid_request")
		d := post(
			"sk_sandbox_acme",
			map[string]string{"virtualAccountId": "x", "paymentRail": "rtp", "currency": "btc"},
		).Gen1(t, 400, "invalid_request")
		details := d["meta"].(map[string]any)["details"].(map[string]any)
		if details["/paymentRail"] == nil || details["/currency"] == nil {
			t.Fatalf("details = %v", details)
		}
		post("sk_sandbox_acme", `{"virtualAccountId":"x","extra":1}`).Gen1(t, 400, "invalid_request")
	})
}
