package api

import (
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

func (a *API) routesTransactions(r *mux.Router, docs *openapi.Registry) {
	describeTransactions(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/transaction", "transaction.list", a.listTransactions)
	// The aggregation is registered before /transaction/{transactionId},
	// which would otherwise take "aggregation" for an id.
	web.Route(r, web.Gen1, http.MethodGet, "/transaction/aggregation", "transaction.aggregation", a.aggregateTransactions)
	web.Route(r, web.Gen1, http.MethodGet, "/transaction/{transactionId}", "transaction.get", a.getTransaction)
	web.Route(r, web.Gen1, http.MethodGet, "/transaction/{transactionId}/fee-details", "transaction.fee_details",
		a.feeDetails)
	web.Route(r, web.Gen1, http.MethodPatch, "/transaction/{transactionId}/note", "transaction.note.update",
		a.noteTransaction)
	a.shows("transaction.note.update", currentTransaction)
}

// describeTransactions adds the descriptions of these routes, and
// the components they name, to docs.
func describeTransactions(docs *openapi.Registry) {
	docs.Component("Transaction", transaction{})
	docs.Component("TransactionMerchant", ledger.MerchantData{})
	docs.Component("TransactionMerchantLocation", ledger.MerchantLocation{})
	docs.Component("FeeTransaction", feeTransaction{})
	docs.Describe("transaction.list",
		openapi.Op{Summary: "List transactions", Query: transactionQuery(), Response: listOf(transaction{})})
	docs.Describe("transaction.get", openapi.Op{Summary: "Get a transaction", Response: transaction{}})
	docs.Describe("transaction.note.update", openapi.Op{Summary: "Add a note to a transaction",
		Description: "An empty note clears it.",
		Body:        object(openapi.Schema{"note": openapi.Schema{"type": "string", "maxLength": 2000}}, "note"),
		Response:    success{}})
	docs.Describe("transaction.aggregation", openapi.Op{Summary: "Count and sums of the transactions a list would return",
		Description: "The list's filters; failed transactions are left out. Amounts are cents: totalOut is negative and" +
			" netChange is totalIn + totalOut.",
		Query: transactionQuery()[1:], Response: aggregation{}})
	docs.Describe("transaction.fee_details", openapi.Op{Summary: "The fees charged for a transaction",
		Description: "For a fee transaction, the fee itself.", Response: feeDetails{}})
}

// feeDetails is the body of GET /transaction/{transactionId}/fee-details.
type feeDetails struct {
	Items []feeTransaction `json:"items"`
}

type transaction struct {
	ID                      string               `json:"id"`
	Date                    string               `json:"date"`
	Description             string               `json:"description"`
	Memo                    string               `json:"memo,omitempty"`
	Note                    string               `json:"note,omitempty"`
	MerchantDescription     string               `json:"merchantDescription,omitempty"`
	MerchantData            *ledger.MerchantData `json:"merchantData,omitempty"`
	AmountCents             int64                `json:"amountCents"`
	Status                  string               `json:"status" enum:"pending,posted,failed"`
	DetailedStatus          string               `json:"detailedStatus" enum:"pending,pending_approval,canceled,failed,settled,declined,refund,reversed,returned,dispute"`
	AccountID               string               `json:"accountId"`
	VirtualAccountID        string               `json:"virtualAccountId,omitempty"`
	AccountSubtype          string               `json:"accountSubtype" enum:"cash,credit"`
	CardID                  string               `json:"cardId,omitempty"`
	ReferenceNumber         string               `json:"referenceNumber,omitempty"`
	AuthorizedAt            string               `json:"authorizedAt,omitempty"`
	DeclineReason           string               `json:"declineReason,omitempty"`
	ApprovalReason          string               `json:"approvalReason,omitempty"`
	ProviderAuthorizationID string               `json:"providerAuthorizationId,omitempty"`
	WireInfo                *ledger.WireInfo     `json:"wireInfo,omitempty"`
	ACHInfo                 *ledger.ACHInfo      `json:"achInfo,omitempty"`
	SEPAInfo                *ledger.SEPAInfo     `json:"sepaInfo,omitempty"`
	PIXInfo                 *ledger.PIXInfo      `json:"pixInfo,omitempty"`
	SPEIInfo                *ledger.SPEIInfo     `json:"speiInfo,omitempty"`
	FPSInfo                 *ledger.FPSInfo      `json:"fpsInfo,omitempty"`
	RTPInfo                 *ledger.RTPInfo      `json:"rtpInfo,omitempty"`
	FeeInfo                 *ledger.FeeInfo      `json:"feeInfo,omitempty"`
	// TransferID is a sandbox extension: the transfer that made the
	// transaction, shared by its debit and credit.
	TransferID string `json:"transferId,omitempty"`
}

func transactionView(t *ledger.Transaction) transaction {
	v := transaction{ID: t.ID, Date: timestamp(t.Date), Description: t.Description, Memo: t.Memo, Note: t.Note,
		MerchantData: t.Merchant, AmountCents: t.AmountCents, Status: t.Status, DetailedStatus: t.DetailedStatus,
		AccountID: t.AccountID, VirtualAccountID: t.VirtualAccountID, AccountSubtype: t.AccountSubtype, CardID: t.CardID,
		ReferenceNumber: t.ReferenceNumber, DeclineReason: t.DeclineReason, ApprovalReason: t.ApprovalReason,
		ProviderAuthorizationID: t.ProviderAuthorizationID, WireInfo: t.WireInfo, ACHInfo: t.ACHInfo,
		SEPAInfo: t.SEPAInfo, PIXInfo: t.PIXInfo, SPEIInfo: t.SPEIInfo, FPSInfo: t.FPSInfo, RTPInfo: t.RTPInfo,
		FeeInfo: t.FeeInfo, TransferID: t.TransferID}
	if t.Merchant != nil {
		v.MerchantDescription = t.Merchant.Description
	}
	if t.AuthorizedAt != nil {
		v.AuthorizedAt = timestamp(*t.AuthorizedAt)
	}
	return v
}

// millisParam reads an inclusive Unix-milliseconds filter.
func millisParam(q url.Values, name string, d map[string]string) *time.Time {
	raw := q.Get(name)
	if raw == "" {
		return nil
	}
	ms, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		d[name] = "must be Unix epoch milliseconds"
		return nil
	}
	t := time.UnixMilli(ms).UTC()
	return &t
}

// transactionFilter reads the list filters shared by the list and the
// aggregation.
func transactionFilter(q url.Values) (ledger.TransactionFilter, error) {
	d := map[string]string{}
	f := ledger.TransactionFilter{
		AccountID: q.Get("filter:accountId"), VirtualAccountID: q.Get("filter:virtualAccountId"),
		CardID: q.Get("filter:cardId"), CardGroupID: q.Get("filter:cardGroupId"), Status: q.Get("filter:status"),
		DetailedStatus: q.Get("filter:detailed_status"), Category: q.Get("filter:category"),
		ProviderAuthorizationID: q.Get("filter:providerAuthorizationId"),
		FromDate:                millisParam(q, "filter:from_date", d), ToDate: millisParam(q, "filter:to_date", d),
		FromAuthorized: millisParam(q, "filter:from_authorized_at", d),
		ToAuthorized:   millisParam(q, "filter:to_authorized_at", d),
	}
	if f.AccountID == "" {
		f.AccountID = q.Get("accountId")
	}
	if len(d) > 0 {
		return f, kernel.Invalid(d)
	}
	return f, f.Validate()
}

func (a *API) listTransactions(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	if err := c.Actor.CheckLegalEntityFilter("filter:legalEntityId", q.Get("filter:legalEntityId")); err != nil {
		return nil, err
	}
	f, err := transactionFilter(q)
	if err != nil {
		return nil, err
	}
	after, err := decodeCursor(r, c)
	if err != nil {
		return nil, err
	}
	var page kernel.Page[ledger.Transaction]
	err = c.view(func(op *kernel.Op) error {
		page, err = ledger.Transactions(op, c.Actor, f, kernel.PageRequest{After: after})
		return err
	})
	if err != nil {
		return nil, err
	}
	items := make([]transaction, len(page.Items))
	for i := range page.Items {
		items[i] = transactionView(&page.Items[i])
	}
	return newList(items, encodeCursor(r, c, page.Next)), nil
}

func (a *API) getTransaction(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var t *ledger.Transaction
	err = c.view(func(op *kernel.Op) error {
		t, err = ledger.TransactionOf(op, c.Actor, mux.Vars(r)["transactionId"])
		return err
	})
	if err != nil {
		return nil, err
	}
	return transactionView(t), nil
}

// noteBody is the note body. note is required and never null; a pointer
// tells it absent from empty.
type noteBody struct {
	Note *string `json:"note,omitempty"`
}

// noteTransaction sets the note of a transaction; an empty note clears it.
func (a *API) noteTransaction(r *http.Request) (any, error) {
	var body noteBody
	return a.doWrite(r, write{
		gen: web.Gen1,
		input: func(c *call, raw []byte) error {
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			if body.Note == nil {
				return kernel.InvalidField("/note", "required")
			}
			if len(*body.Note) > 2000 {
				return kernel.InvalidField("/note", "must be at most 2000 characters")
			}
			return nil
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			if err := ledger.SetTransactionNote(op, c.Actor, mux.Vars(r)["transactionId"], *body.Note); err != nil {
				return nil, err
			}
			return success{Success: true}, nil
		},
	})
}

// aggregation is the body of GET /transaction/aggregation.
type aggregation struct {
	Count     int   `json:"count"`
	TotalIn   int64 `json:"totalIn"`
	TotalOut  int64 `json:"totalOut"`
	NetChange int64 `json:"netChange"`
}

// aggregateTransactions sums what the list returns for the same filters,
// failed transactions left out.
func (a *API) aggregateTransactions(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	if err := c.Actor.CheckLegalEntityFilter("filter:legalEntityId", q.Get("filter:legalEntityId")); err != nil {
		return nil, err
	}
	f, err := transactionFilter(q)
	if err != nil {
		return nil, err
	}
	var g ledger.Aggregation
	err = c.view(func(op *kernel.Op) error {
		g, err = ledger.AggregateTransactions(op, c.Actor, f)
		return err
	})
	if err != nil {
		return nil, err
	}
	return aggregation{Count: g.Count, TotalIn: g.TotalIn, TotalOut: g.TotalOut, NetChange: g.NetChange()}, nil
}

// feeTransaction is the upstream FeeTransaction.
type feeTransaction struct {
	ID                  string       `json:"id"`
	DateCharged         string       `json:"dateCharged"`
	FeeAmountCents      int64        `json:"feeAmountCents"`
	FeeType             string       `json:"feeType"`
	AccountID           string       `json:"accountId"`
	OriginalTransaction *transaction `json:"originalTransaction,omitempty"`
}

func (a *API) feeDetails(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var fees []ledger.Fee
	err = c.view(func(op *kernel.Op) error {
		fees, err = ledger.FeeDetails(op, c.Actor, mux.Vars(r)["transactionId"])
		return err
	})
	if err != nil {
		return nil, err
	}
	items := make([]feeTransaction, len(fees))
	for i := range fees {
		f := &fees[i]
		items[i] = feeTransaction{
			ID:             f.Transaction.ID,
			DateCharged:    timestamp(f.Transaction.Date),
			FeeAmountCents: -f.Transaction.AmountCents,
			FeeType:        f.FeeType(),
			AccountID:      f.Transaction.AccountID,
		}
		if f.Original != nil {
			v := transactionView(f.Original)
			items[i].OriginalTransaction = &v
		}
	}
	return feeDetails{Items: items}, nil
}

// currentTransaction is a transaction as GET shows it, note included.
func currentTransaction(op *kernel.Op, c *call, vars map[string]string) (any, error) {
	t, err := ledger.TransactionOf(op, c.Actor, vars["transactionId"])
	if err != nil {
		return nil, err
	}
	return transactionView(t), nil
}
