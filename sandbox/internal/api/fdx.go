package api

import (
	"math"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// FDX (Financial Data Exchange) read API: accounts, balances, statements,
// transactions and payment networks, with offset/limit paging and amounts
// in dollars.

func (a *API) routesFDX(r *mux.Router, docs *openapi.Registry) {
	describeFDX(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/fdx/customers/current", "fdx.customer.current", a.fdxCustomer)
	web.Route(r, web.Gen1, http.MethodGet, "/fdx/accounts", "fdx.account.list", a.fdxAccounts)
	web.Route(r, web.Gen1, http.MethodGet, "/fdx/accounts/{accountId}", "fdx.account.get", a.fdxAccount)
	web.Route(r, web.Gen1, http.MethodGet, "/fdx/accounts/{accountId}/contact", "fdx.account.contact", a.fdxContact)
	web.Route(r, web.Gen1, http.MethodGet, "/fdx/accounts/{accountId}/statements", "fdx.statement.list", a.fdxStatements)
	web.Route(r, web.Gen1, http.MethodGet, "/fdx/accounts/{accountId}/statements/{statementId}", "fdx.statement.get",
		a.fdxStatementPDF)
	web.Route(r, web.Gen1, http.MethodGet, "/fdx/accounts/{accountId}/transactions", "fdx.transaction.list",
		a.fdxTransactions)
	web.Route(r, web.Gen1, http.MethodGet, "/fdx/accounts/{accountId}/payment-networks", "fdx.payment_network.list",
		a.fdxPaymentNetworks)
}

type fdxCurrency struct {
	CurrencyCode string `json:"currencyCode"`
}

// fdxAccount is the part every FDX account kind shares, and the balance
// fields of deposit and line-of-credit accounts when asked for.
type fdxAccount struct {
	AccountID            string      `json:"accountId"`
	AccountNumberDisplay string      `json:"accountNumberDisplay,omitempty"`
	ProductName          string      `json:"productName"`
	Nickname             string      `json:"nickname,omitempty"`
	Status               string      `json:"status" enum:"OPEN,CLOSED"`
	Currency             fdxCurrency `json:"currency"`
	AccountType          string      `json:"accountType" enum:"CHECKING,CHARGE"`
	CurrentBalance       *float64    `json:"currentBalance,omitempty"`
	AvailableBalance     *float64    `json:"availableBalance,omitempty"`
	AvailableCredit      *float64    `json:"availableCredit,omitempty"`
}

// fdxAccountKind wraps an account under its kind: depositAccount or
// locAccount.
type fdxAccountKind struct {
	DepositAccount *fdxAccount `json:"depositAccount,omitempty"`
	LocAccount     *fdxAccount `json:"locAccount,omitempty"`
}

type fdxPage struct {
	NextOffset string `json:"nextOffset,omitempty"`
}

type fdxLink struct {
	Href   string   `json:"href"`
	Rel    string   `json:"rel,omitempty"`
	Action string   `json:"action,omitempty" enum:"GET"`
	Types  []string `json:"types,omitempty" enum:"application/pdf"`
}

type fdxStatement struct {
	AccountID     string    `json:"accountId"`
	StatementID   string    `json:"statementId"`
	StatementDate string    `json:"statementDate" format:"date"`
	Description   string    `json:"description"`
	Links         []fdxLink `json:"links"`
	Status        string    `json:"status" enum:"pending,available"`
}

type fdxTransaction struct {
	TransactionID        string  `json:"transactionId"`
	PostedTimestamp      string  `json:"postedTimestamp,omitempty" format:"date-time"`
	TransactionTimestamp string  `json:"transactionTimestamp" format:"date-time"`
	Description          string  `json:"description"`
	DebitCreditMemo      string  `json:"debitCreditMemo" enum:"DEBIT,CREDIT,MEMO"`
	Category             string  `json:"category,omitempty"`
	Status               string  `json:"status" enum:"AUTHORIZATION,MEMO,PENDING,POSTED"`
	Amount               float64 `json:"amount"`
	Payee                string  `json:"payee,omitempty"`
}

type fdxTransactionKind struct {
	DepositTransaction *fdxTransaction `json:"depositTransaction,omitempty"`
	LocTransaction     *fdxTransaction `json:"locTransaction,omitempty"`
}

type fdxPaymentNetwork struct {
	BankID      string `json:"bankId"`
	Identifier  string `json:"identifier"`
	Type        string `json:"type" enum:"US_ACH,US_FEDWIRE,US_CHIPS,US_RTP,CA_ACSS,CA_LVTS"`
	TransferIn  bool   `json:"transferIn"`
	TransferOut bool   `json:"transferOut"`
}

type fdxName struct {
	First  string `json:"first"`
	Middle string `json:"middle"`
	Last   string `json:"last"`
}

type fdxHolder struct {
	Name fdxName `json:"name"`
	// Relationship is required upstream but not declared there; FDX's
	// value for a business holder is BUSINESS.
	Relationship string `json:"relationship" enum:"BUSINESS"`
}

type fdxContact struct {
	Holders    []fdxHolder `json:"holders"`
	Emails     []string    `json:"emails"`
	Addresses  []any       `json:"addresses"`
	Telephones []any       `json:"telephones"`
}

// describeFDX adds the descriptions of these routes, and the components
// they name, to docs.
func describeFDX(docs *openapi.Registry) {
	paging := []openapi.Param{{Name: "offset"}, {Name: "limit", Description: "Items per page: 1 to 1000, default 100."}}
	times := []openapi.Param{{Name: "startTime", Description: "YYYY-MM-DD or an RFC 3339 instant, inclusive."},
		{Name: "endTime", Description: "YYYY-MM-DD (the whole day) or an RFC 3339 instant, inclusive."}}
	docs.Component("FdxAccount", fdxAccountKind{})
	docs.Describe("fdx.customer.current", openapi.Op{Summary: "FDX: the current customer (the legal entity)",
		Response: openapi.Schema{
			"type":       "object",
			"required":   []string{"customerId"},
			"properties": openapi.Schema{"customerId": openapi.Schema{"type": "string"}},
		}})
	docs.Describe(
		"fdx.account.list",
		openapi.Op{Summary: "FDX: accounts", Description: "offset is the number of accounts to skip.",
			Query: paging, Response: fdxList("accounts", openapi.Ref("FdxAccount"))},
	)
	docs.Describe("fdx.account.get", openapi.Op{Summary: "FDX: an account with its balances", Response: fdxAccountKind{}})
	docs.Describe("fdx.account.contact",
		openapi.Op{Summary: "FDX: the account holder's contact details", Response: fdxContact{}})
	docs.Describe("fdx.statement.list", openapi.Op{Summary: "FDX: monthly statements, newest first",
		Description: "offset is the statementId of the last statement of the previous page.",
		Query:       append(times, paging...), Response: fdxList("statements", openapi.Schema{"$go": fdxStatement{}})})
	docs.Describe("fdx.statement.get", openapi.Op{Summary: "FDX: a statement as a PDF", ResponseType: "application/pdf",
		Response: openapi.Schema{"type": "string", "format": "binary"}})
	docs.Describe("fdx.transaction.list", openapi.Op{Summary: "FDX: an account's transactions, newest first",
		Description: "offset is the transactionId of the last transaction of the previous page. Amounts are in dollars.",
		Query: append(
			times,
			paging...), Response: fdxList("transactions", openapi.Schema{"$go": fdxTransactionKind{}})})
	docs.Describe("fdx.payment_network.list", openapi.Op{Summary: "FDX: payment networks the account can use",
		Description: "offset is the type of the last payment network of the previous page.",
		Query:       paging, Response: fdxList("paymentNetworks", openapi.Schema{"$go": fdxPaymentNetwork{}})})
}

func fdxList(name string, item openapi.Schema) openapi.Schema {
	return openapi.Schema{"type": "object", "required": []string{name}, "additionalProperties": false,
		"properties": openapi.Schema{
			"page": openapi.Schema{"$go": fdxPage{}},
			name:   openapi.Schema{"type": "array", "items": item},
		}}
}

// dollars turns cents into the major units FDX uses.
func dollars(cents int64) float64 { return math.Round(float64(cents)) / 100 }

// fdxLimit reads limit: 1 to 1000, default 100.
func fdxLimit(q url.Values) (int, error) {
	raw := q.Get("limit")
	if raw == "" {
		return 100, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > 1000 {
		return 0, kernel.InvalidField("limit", "must be a whole number from 1 to 1000")
	}
	return n, nil
}

// fdxTimes reads startTime and endTime.
func fdxTimes(q url.Values) (from, to *time.Time, err error) {
	parse := func(name string, end bool) (*time.Time, error) {
		raw := q.Get(name)
		if raw == "" {
			return nil, nil
		}
		if t, err := time.Parse(time.RFC3339Nano, raw); err == nil {
			return &t, nil
		}
		t, err := time.Parse("2006-01-02", raw)
		if err != nil {
			return nil, kernel.InvalidField(name, "must be YYYY-MM-DD or an RFC 3339 instant")
		}
		if end {
			t = t.Add(24*time.Hour - time.Millisecond)
		}
		return &t, nil
	}
	if from, err = parse("startTime", false); err != nil {
		return nil, nil, err
	}
	to, err = parse("endTime", true)
	return from, to, err
}

func fdxAccountView(acc *ledger.Account) fdxAccount {
	v := fdxAccount{AccountID: acc.ID, ProductName: "Slash Business Checking", Nickname: acc.Name, Status: "OPEN",
		Currency: fdxCurrency{"USD"}, AccountType: "CHECKING"}
	if n := acc.AccountNumber; len(n) >= 4 {
		v.AccountNumberDisplay = "*****" + n[len(n)-4:]
	}
	if acc.Status == "closed" {
		v.Status = "CLOSED"
	}
	if acc.Type == "charge_card" {
		v.ProductName, v.AccountType = "Slash Charge Card", "CHARGE"
	}
	return v
}

func wrapAccount(acc *ledger.Account, v fdxAccount) fdxAccountKind {
	if acc.Type == "charge_card" {
		return fdxAccountKind{LocAccount: &v}
	}
	return fdxAccountKind{DepositAccount: &v}
}

func (a *API) fdxCustomer(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	return map[string]string{"customerId": c.Actor.LegalEntityID()}, nil
}

func (a *API) fdxAccounts(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	limit, err := fdxLimit(r.URL.Query())
	if err != nil {
		return nil, err
	}
	skip := 0
	if raw := r.URL.Query().Get("offset"); raw != "" {
		if skip, err = strconv.Atoi(raw); err != nil || skip < 0 {
			return nil, kernel.InvalidField("offset", "must be the number of accounts to skip")
		}
	}
	var accs []ledger.Account
	err = c.view(func(op *kernel.Op) error {
		accs, err = ledger.Accounts(op, c.Actor)
		return err
	})
	if err != nil {
		return nil, err
	}
	out := map[string]any{"accounts": []fdxAccountKind{}}
	items := []fdxAccountKind{}
	for i := skip; i < len(accs) && i < skip+limit; i++ {
		items = append(items, wrapAccount(&accs[i], fdxAccountView(&accs[i])))
	}
	out["accounts"] = items
	if skip+limit < len(accs) {
		out["page"] = fdxPage{NextOffset: strconv.Itoa(skip + limit)}
	}
	return out, nil
}

func (a *API) fdxAccount(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var out fdxAccountKind
	err = c.view(func(op *kernel.Op) error {
		acc, err := ledger.AccountOf(op, c.Actor, mux.Vars(r)["accountId"], "")
		if err != nil {
			return err
		}
		v := fdxAccountView(acc)
		if acc.Type == "charge_card" {
			t, err := ledger.AccountTotals(op, acc.ID, "credit")
			owed, avail := dollars(max(0, -(t.Posted+t.PendingDebits))), dollars(max(0, t.Available()))
			v.CurrentBalance, v.AvailableCredit = &owed, &avail
			out = wrapAccount(acc, v)
			return err
		}
		t, err := ledger.AccountTotals(op, acc.ID, "cash")
		cur, avail := dollars(t.Posted+t.PendingDebits+t.PendingCredits), dollars(t.Available())
		v.CurrentBalance, v.AvailableBalance = &cur, &avail
		out = wrapAccount(acc, v)
		return err
	})
	return out, err
}

func (a *API) fdxContact(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	err = c.view(func(op *kernel.Op) error {
		_, err := ledger.AccountOf(op, c.Actor, mux.Vars(r)["accountId"], "")
		return err
	})
	if err != nil {
		return nil, err
	}
	emails := []string{}
	if c.P.User != nil {
		emails = append(emails, c.P.User.Email)
	}
	return fdxContact{
		Holders:    []fdxHolder{{Name: fdxName{First: c.Actor.LegalEntity.Name}, Relationship: "BUSINESS"}},
		Emails:     emails,
		Addresses:  []any{},
		Telephones: []any{},
	}, nil
}

func (a *API) fdxTransactions(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	limit, err := fdxLimit(q)
	if err != nil {
		return nil, err
	}
	from, to, err := fdxTimes(q)
	if err != nil {
		return nil, err
	}
	accountID := mux.Vars(r)["accountId"]
	var page kernel.Page[ledger.Transaction]
	var acc *ledger.Account
	err = c.view(func(op *kernel.Op) error {
		if acc, err = ledger.AccountOf(op, c.Actor, accountID, ""); err != nil {
			return err
		}
		page, err = ledger.AccountTransactionsAfter(op, c.Actor, accountID, q.Get("offset"), from, to, limit)
		return err
	})
	if err != nil {
		return nil, err
	}
	items := make([]fdxTransactionKind, len(page.Items))
	for i := range page.Items {
		v := fdxTransactionView(&page.Items[i])
		if acc.Type == "charge_card" {
			items[i].LocTransaction = &v
		} else {
			items[i].DepositTransaction = &v
		}
	}
	out := map[string]any{"transactions": items}
	if page.Next != "" {
		out["page"] = fdxPage{NextOffset: page.Items[len(page.Items)-1].ID}
	}
	return out, nil
}

func fdxTransactionView(t *ledger.Transaction) fdxTransaction {
	v := fdxTransaction{TransactionID: t.ID, TransactionTimestamp: timestamp(t.CreatedAt), Description: t.Description,
		DebitCreditMemo: "CREDIT", Category: t.Category, Amount: dollars(t.AmountCents), Status: "PENDING"}
	if t.AmountCents < 0 {
		v.DebitCreditMemo, v.Amount = "DEBIT", dollars(-t.AmountCents)
	}
	switch t.Status {
	case ledger.StatusPosted:
		v.Status, v.PostedTimestamp = "POSTED", timestamp(t.Date)
	case ledger.StatusFailed:
		v.Status, v.DebitCreditMemo = "MEMO", "MEMO"
	}
	if t.Merchant != nil {
		v.Payee = t.Merchant.Description
	}
	return v
}

func (a *API) fdxPaymentNetworks(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	limit, err := fdxLimit(r.URL.Query())
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
	var all []fdxPaymentNetwork
	if acc.Type != "charge_card" && acc.Status != "closed" {
		for _, n := range []struct {
			kind string
			out  bool
		}{{"US_ACH", true}, {"US_FEDWIRE", true}, {"US_RTP", false}} {
			all = append(
				all,
				fdxPaymentNetwork{
					BankID:      acc.RoutingNumber,
					Identifier:  acc.AccountNumber,
					Type:        n.kind,
					TransferIn:  true,
					TransferOut: n.out,
				},
			)
		}
	}
	start := 0
	if off := r.URL.Query().Get("offset"); off != "" {
		start = -1
		for i, n := range all {
			if n.Type == off {
				start = i + 1
			}
		}
		if start < 0 {
			return nil, kernel.InvalidField("offset", "is not the type of a payment network of this account")
		}
	}
	end := min(start+limit, len(all))
	out := map[string]any{"paymentNetworks": append([]fdxPaymentNetwork{}, all[start:end]...)}
	if end < len(all) {
		out["page"] = fdxPage{NextOffset: all[end-1].Type}
	}
	return out, nil
}
