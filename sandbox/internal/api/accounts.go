package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesAccounts(r *mux.Router, docs *openapi.Registry) {
	describeAccounts(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/account", "account.list", a.listAccounts)
	web.Route(r, web.Gen1, http.MethodGet, "/account/{accountId}", "account.get", a.getAccount)
	web.Route(r, web.Gen1, http.MethodGet, "/account/{accountId}/balance", "account.balance", a.accountBalance)
}

// describeAccounts adds the descriptions of these routes, and the
// components they name, to docs.
func describeAccounts(docs *openapi.Registry) {
	docs.Component("Account", account{})
	docs.Component("Balance", balance{})
	docs.Describe("account.list",
		openapi.Op{Summary: "List accounts", Query: []openapi.Param{legalEntityFilter}, Response: listOf(account{})})
	docs.Describe("account.get", openapi.Op{Summary: "Get an account", Response: account{}})
	docs.Describe("account.balance", openapi.Op{Summary: "Get an account's balances",
		Response: openapi.Schema{"type": "object", "required": []string{"balances"}, "additionalProperties": false,
			"properties": openapi.Schema{"balances": openapi.Schema{"type": "array", "items": openapi.Ref("Balance")}}}})
}

type account struct {
	ID            string   `json:"id"`
	Status        string   `json:"status" enum:"open,closed"`
	Name          string   `json:"name"`
	AccountNumber string   `json:"accountNumber"`
	RoutingNumber string   `json:"routingNumber"`
	CreatedAt     string   `json:"createdAt" format:"date-time"`
	Type          string   `json:"type" enum:"debit,charge_card"`
	Balances      []string `json:"balances" enum:"debit,cash,credit"`
}

func accountView(acc *ledger.Account) account {
	return account{ID: acc.ID, Status: acc.Status, Name: acc.Name, AccountNumber: acc.AccountNumber,
		RoutingNumber: acc.RoutingNumber, CreatedAt: timestamp(acc.CreatedAt), Type: acc.Type,
		Balances: ledger.BalanceTypes(acc.Type)}
}

func (a *API) listAccounts(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	if err := c.Actor.CheckLegalEntityFilter("filter:legalEntityId",
		r.URL.Query().Get("filter:legalEntityId")); err != nil {
		return nil, err
	}
	var accs []ledger.Account
	err = c.view(func(op *kernel.Op) error {
		accs, err = ledger.Accounts(op, c.Actor)
		return err
	})
	if err != nil {
		return nil, err
	}
	items := make([]account, len(accs))
	for i := range accs {
		items[i] = accountView(&accs[i])
	}
	return newList(items, ""), nil
}

func (a *API) getAccount(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var acc *ledger.Account
	err = c.view(func(op *kernel.Op) error {
		acc, err = ledger.AccountOf(op, c.Actor, mux.Vars(r)["accountId"], "")
		return err
	})
	if err != nil {
		return nil, err
	}
	return accountView(acc), nil
}

type balance struct {
	AccountID string `json:"accountId"`
	Type      string `json:"type" enum:"cash,credit,debit"`
	Available money  `json:"available"`
	Posted    money  `json:"posted"`
	Timestamp string `json:"timestamp" format:"date-time"`
}

func (a *API) accountBalance(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var out []balance
	err = c.view(func(op *kernel.Op) error {
		acc, err := ledger.AccountOf(op, c.Actor, mux.Vars(r)["accountId"], "")
		if err != nil {
			return err
		}
		bals, err := ledger.Balances(op, acc)
		for _, b := range bals {
			out = append(out, balance{AccountID: b.AccountID, Type: b.Type, Available: money{b.Totals.Available()},
				Posted: money{b.Totals.Posted}, Timestamp: timestamp(op.Now)})
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"balances": out}, nil
}
