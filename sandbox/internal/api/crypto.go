package api

import (
	"errors"
	"net/http"
	"slices"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesCrypto(r *mux.Router, docs *openapi.Registry) {
	describeCrypto(docs)
	web.Route(r, web.Gen1, http.MethodPost, "/crypto/offramp", "crypto.offramp", a.cryptoOfframp)
}

// notEnrolledMessage is the real service's fixed 400 message.
const notEnrolledMessage = "You are not enrolled in crypto offramping. You can enroll by logging into your account," +
	" clicking “Move Money”, “Add Funds”, and selecting “USDC / USDT”."

type offrampBody struct {
	VirtualAccountID string `json:"virtualAccountId"`
	PaymentRail      string `json:"paymentRail" enum:"ach,wire"`
	Currency         string `json:"currency" enum:"usdt,usdc"`
}

type cryptoWallet struct {
	ID                  string `json:"id"`
	Type                string `json:"type" enum:"off_ramp"`
	Status              string `json:"status" enum:"pending_active,active,deactivated"`
	SubaccountID        string `json:"subaccountId"`
	SlashAccountGroupID string `json:"slashAccountGroupId"`
	Timestamp           string `json:"timestamp" format:"date-time"`
}

type cryptoAddress struct {
	ID             string `json:"id"`
	WalletID       string `json:"walletId"`
	Status         string `json:"status" enum:"pending_active,active,deactivated"`
	Currency       string `json:"currency" enum:"usdc,usdt"`
	Chain          string `json:"chain" enum:"ethereum,avalanche,base,optimism,polygon,arbitrum,solana,stellar,tron"`
	Address        string `json:"address"`
	Method         string `json:"method,omitempty" enum:"wire,ach"`
	BlockchainMemo string `json:"blockchainMemo,omitempty"`
	Timestamp      string `json:"timestamp" format:"date-time"`
}

type offrampResponse struct {
	Wallet    cryptoWallet    `json:"wallet"`
	Addresses []cryptoAddress `json:"addresses"`
}

type notEnrolled struct {
	Error   string `json:"error" enum:"NOT_ENROLLED"`
	Message string `json:"message"`
}

// describeCrypto adds the descriptions of these routes, and the components
// they name, to docs.
func describeCrypto(docs *openapi.Registry) {
	docs.Component("CryptoWallet", cryptoWallet{})
	docs.Component("CryptoAddress", cryptoAddress{})
	docs.Describe("crypto.offramp", openapi.Op{Summary: "Crypto off-ramp wallet and deposit addresses",
		Description: "Returns the deposit wallet of a virtual account for a rail and its addresses for a stablecoin, one" +
			" per chain. A read: a read-only key is served, not deferred.",
		Security: openapi.APIKeyOnly, Read: true, Body: offrampBody{}, Response: offrampResponse{},
		Extra: map[int]any{
			http.StatusBadRequest: openapi.Schema{"oneOf": []openapi.Schema{{"$go": notEnrolled{}}, openapi.Ref("Error")}},
		}})
}

func (a *API) cryptoOfframp(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1, apiKeyOnly: true})
	if err != nil {
		return nil, err
	}
	raw, err := web.ReadBody(r)
	if err != nil {
		return nil, err
	}
	var body offrampBody
	if err := web.DecodeBytes(raw, &body, true); err != nil {
		return nil, err
	}
	if err := body.check(); err != nil {
		return nil, err
	}
	var w *ledger.OfframpWallet
	err = c.view(func(op *kernel.Op) error {
		w, err = ledger.CryptoOfframp(op, c.Actor, body.VirtualAccountID, body.PaymentRail, body.Currency)
		return err
	})
	if errors.Is(err, ledger.ErrNotEnrolled) {
		return web.Status(http.StatusBadRequest, notEnrolled{Error: "NOT_ENROLLED", Message: notEnrolledMessage}), nil
	}
	if err != nil {
		return nil, err
	}
	at := timestamp(w.CreatedAt)
	out := offrampResponse{
		Wallet: cryptoWallet{ID: w.ID, Type: "off_ramp", Status: "active", SubaccountID: w.VirtualAccountID,
			SlashAccountGroupID: w.AccountID, Timestamp: at},
		Addresses: []cryptoAddress{},
	}
	for _, ad := range w.Addresses {
		out.Addresses = append(
			out.Addresses,
			cryptoAddress{ID: ad.ID, WalletID: w.ID, Status: "active", Currency: ad.Currency,
				Chain: ad.Chain, Address: ad.Address, Method: w.Rail, BlockchainMemo: ad.Memo, Timestamp: at},
		)
	}
	return out, nil
}

func (b *offrampBody) check() error {
	d := map[string]string{}
	if b.VirtualAccountID == "" {
		d["/virtualAccountId"] = "required"
	}
	if !slices.Contains(ledger.OfframpRails, b.PaymentRail) {
		d["/paymentRail"] = "must be ach or wire"
	}
	if !slices.Contains(ledger.OfframpCurrencies, b.Currency) {
		d["/currency"] = "must be usdt or usdc"
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}
