package ledger

import (
	"encoding/hex"
	"slices"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// Off-ramp rails and currencies.
var (
	OfframpRails      = []string{"ach", "wire"}
	OfframpCurrencies = []string{"usdc", "usdt"}
)

// offrampChains lists the chains each stablecoin is accepted on.
var offrampChains = map[string][]string{
	"usdc": {"ethereum", "base", "polygon", "arbitrum", "optimism", "avalanche", "solana", "stellar"},
	"usdt": {"ethereum", "tron", "solana", "polygon", "arbitrum"},
}

// OfframpWallet is the deposit wallet that converts stablecoins sent to it
// into dollars on a virtual account, by one rail.
type OfframpWallet struct {
	ID               string
	VirtualAccountID string
	AccountID        string
	Rail             string
	CreatedAt        time.Time
	Addresses        []OfframpAddress
}

// OfframpAddress is one deposit address of a wallet.
type OfframpAddress struct {
	ID       string
	Currency string
	Chain    string
	Address  string
	Memo     string
}

// ErrNotEnrolled is returned for a legal entity not enrolled in crypto
// off-ramping; the API answers it with upstream's own 400 body.
var ErrNotEnrolled = kernel.Errorf(kernel.CodeInvalidRequest, "the legal entity is not enrolled in crypto off-ramping")

// CryptoOfframp returns the off-ramp wallet of one of the actor's open
// virtual accounts for a rail, with its deposit addresses for a currency.
// Everything is derived from the world's seed: the same request always
// gets the same wallet and addresses.
func CryptoOfframp(op *kernel.Op, a *kernel.Actor, virtualAccountID, rail, currency string) (*OfframpWallet, error) {
	if !a.LegalEntity.CryptoOfframp {
		return nil, ErrNotEnrolled
	}
	if !slices.Contains(OfframpRails, rail) || !slices.Contains(OfframpCurrencies, currency) {
		return nil, kernel.InvalidField("/paymentRail", "must be ach or wire, with currency usdc or usdt")
	}
	var va VirtualAccount
	ok, err := op.Get(KindVirtualAccount, virtualAccountID, &va)
	if err != nil {
		return nil, err
	}
	if !ok || va.LegalEntityID != a.LegalEntityID() {
		return nil, kernel.NotFound("virtual account", "virtualAccountId", virtualAccountID)
	}
	if va.ClosedAt != nil {
		return nil, kernel.InvalidField("/virtualAccountId", "the virtual account is closed")
	}
	label := "offramp|" + va.ID + "|" + rail
	w := &OfframpWallet{
		ID:               "wallet_" + kernel.Token36(op.W.Seed, label, 15),
		VirtualAccountID: va.ID,
		AccountID:        va.AccountID,
		Rail:             rail,
		CreatedAt:        va.CreatedAt,
	}
	for _, chain := range offrampChains[currency] {
		l := label + "|" + currency + "|" + chain
		addr := OfframpAddress{ID: "wallet_address_" + kernel.Token36(op.W.Seed, l, 15), Currency: currency, Chain: chain,
			Address: chainAddress(op.W.Seed, l, chain)}
		if chain == "stellar" {
			addr.Memo = kernel.Token36(op.W.Seed, l+"|memo", 12)
		}
		w.Addresses = append(w.Addresses, addr)
	}
	return w, nil
}

const base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// chainAddress makes an address in the chain's own form: 0x and 40 hex
// digits on EVM chains, base58 on Solana and Tron, a G-address on Stellar.
func chainAddress(seed int64, label, chain string) string {
	sum := kernel.Digest(seed, label, 0)
	pick := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			x := kernel.Digest(seed, label, int64(i+1))
			b[i] = alphabet[int(x[0])%len(alphabet)]
		}
		return string(b)
	}
	switch chain {
	case "solana":
		return pick(base58, 44)
	case "tron":
		return "T" + pick(base58, 33)
	case "stellar":
		return "G" + pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 55)
	}
	return "0x" + hex.EncodeToString(sum[:20])
}
