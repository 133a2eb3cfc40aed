package api

import (
	"encoding/json"
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesVirtualAccounts(r *mux.Router, docs *openapi.Registry) {
	describeVirtualAccounts(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/virtual-account", "virtual_account.list", a.listVirtualAccounts)
	web.Route(r, web.Gen1, http.MethodPost, "/virtual-account", "virtual_account.create", a.createVirtualAccount)
	web.Route(r, web.Gen1, http.MethodGet, "/virtual-account/{virtualAccountId}", "virtual_account.get",
		a.getVirtualAccount)
	web.Route(r, web.Gen1, http.MethodPatch, "/virtual-account/{virtualAccountId}", "virtual_account.update",
		a.updateVirtualAccount)
	a.shows("virtual_account.update", listed(currentVirtualAccount))
}

// describeVirtualAccounts adds the descriptions of these routes, and
// the components they name, to docs.
func describeVirtualAccounts(docs *openapi.Registry) {
	docs.Component("VirtualAccount", virtualAccountView{})
	docs.Component("VirtualAccountModel", virtualAccountModel{})
	docs.Component("VirtualAccountCommissionRule", ledger.CommissionRule{})
	docs.Component("VirtualAccountCommissionDetails", openapi.Schema{"oneOf": []any{
		object(
			openapi.Schema{
				"type":      oneOfStrings("flatFee"),
				"amount":    openapi.Ref("Money"),
				"frequency": oneOfStrings("monthly", "yearly"),
				"startDate": dateTime,
			},
			"type",
			"amount",
			"frequency",
		),
		object(openapi.Schema{"type": oneOfStrings("takeRate"),
			"takeRate": openapi.Schema{
				"type":             "number",
				"exclusiveMinimum": 0,
				"maximum":          100,
				"description":      "A percentage.",
			}}, "type", "takeRate"),
	}})
	name := openapi.Schema{"type": "string", "minLength": 1, "maxLength": 255}
	commission := openapi.Ref("VirtualAccountCommissionDetails")
	docs.Describe("virtual_account.list", openapi.Op{Summary: "List virtual accounts",
		Description: "The primary account appears as a virtual account with accountType primary.",
		Query: []openapi.Param{cursorParam, {Name: "filter:accountId"}, {Name: "filter:includeClosedAccounts",
			Description: "Closed virtual accounts are left out unless true.",
			Schema:      openapi.Schema{"type": "string", "enum": []string{"true", "false"}}}},
		Response: listOf(virtualAccountView{})})
	docs.Describe("virtual_account.create", keyed(openapi.Op{Summary: "Open a virtual account", Status: http.StatusCreated,
		Body: object(
			openapi.Schema{
				"accountId":         openapi.Schema{"type": "string", "minLength": 1},
				"name":              name,
				"commissionDetails": commission,
			},
			"accountId",
			"name",
		),
		Response: virtualAccountWrite{}}))
	docs.Describe("virtual_account.get",
		openapi.Op{Summary: "Get a virtual account with its balance and spend", Response: virtualAccountView{}})
	docs.Describe(
		"virtual_account.update",
		openapi.Op{Summary: "Rename, change the commission of, or close a virtual account",
			Description: "action update changes what the body gives (commissionDetails null removes the commission); action" +
				" close closes the account.",
			Body: openapi.Schema{"oneOf": []any{
				object(
					openapi.Schema{"action": oneOfStrings("update"), "name": name, "commissionDetails": openapi.Nullable(commission)},
					"action",
				),
				object(openapi.Schema{"action": oneOfStrings("close")}, "action"),
			}},
			Response: virtualAccountWrite{}},
	)
}

// virtualAccountModel is the upstream VirtualAccountModel.
type virtualAccountModel struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	AccountNumber string `json:"accountNumber,omitempty"`
	RoutingNumber string `json:"routingNumber,omitempty"`
	AccountID     string `json:"accountId"`
	ClosedAt      string `json:"closedAt,omitempty" format:"date-time"`
	AccountType   string `json:"accountType" enum:"default,primary"`
}

// virtualAccountView is the upstream VirtualAccount: the model with its
// balance and card spend.
type virtualAccountView struct {
	VirtualAccount virtualAccountModel    `json:"virtualAccount"`
	Balance        money                  `json:"balance"`
	Spend          money                  `json:"spend"`
	CommissionRule *ledger.CommissionRule `json:"commissionRule,omitempty"`
}

// virtualAccountWrite is the body of create and update responses.
type virtualAccountWrite struct {
	VirtualAccount virtualAccountModel    `json:"virtualAccount"`
	CommissionRule *ledger.CommissionRule `json:"commissionRule,omitempty"`
}

func virtualAccountModelOf(va *ledger.VirtualAccount) virtualAccountModel {
	m := virtualAccountModel{ID: va.ID, Name: va.Name, AccountNumber: va.AccountNumber, RoutingNumber: va.RoutingNumber,
		AccountID: va.AccountID, AccountType: "default"}
	if va.Primary {
		m.AccountType = "primary"
	}
	if va.ClosedAt != nil {
		m.ClosedAt = timestamp(*va.ClosedAt)
	}
	return m
}

func virtualAccountOf(op *kernel.Op, va *ledger.VirtualAccount) (virtualAccountView, error) {
	t, err := ledger.VirtualAccountTotals(op, va.ID)
	return virtualAccountView{VirtualAccount: virtualAccountModelOf(va), Balance: money{t.Posted}, Spend: money{t.Spend},
		CommissionRule: va.CommissionRuleOf()}, err
}

func writtenVirtualAccount(va *ledger.VirtualAccount) virtualAccountWrite {
	return virtualAccountWrite{VirtualAccount: virtualAccountModelOf(va), CommissionRule: va.CommissionRuleOf()}
}

func (a *API) listVirtualAccounts(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	include := q.Get("filter:includeClosedAccounts")
	if include != "" && include != "true" && include != "false" {
		return nil, kernel.InvalidField("filter:includeClosedAccounts", "must be true or false")
	}
	after, err := decodeCursor(r, c)
	if err != nil {
		return nil, err
	}
	var items []virtualAccountView
	var next string
	err = c.view(func(op *kernel.Op) error {
		page, err := ledger.ListVirtualAccounts(op, c.Actor, q.Get("filter:accountId"), include == "true",
			kernel.PageRequest{After: after})
		if err != nil {
			return err
		}
		next = page.Next
		for i := range page.Items {
			v, err := virtualAccountOf(op, &page.Items[i])
			if err != nil {
				return err
			}
			items = append(items, v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return newList(items, encodeCursor(r, c, next)), nil
}

func (a *API) getVirtualAccount(r *http.Request) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	var out virtualAccountView
	err = c.view(func(op *kernel.Op) error {
		va, err := ledger.VirtualAccountOf(op, c.Actor, mux.Vars(r)["virtualAccountId"], "")
		if err != nil {
			return err
		}
		out, err = virtualAccountOf(op, va)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// createVirtualAccountBody is the create body: absent properties are nil,
// none may be null.
type createVirtualAccountBody struct {
	AccountID         *string         `json:"accountId,omitempty"`
	Name              *string         `json:"name,omitempty"`
	CommissionDetails json.RawMessage `json:"commissionDetails,omitempty" ref:"VirtualAccountCommissionDetails"`
}

// commission decodes optional commission details: absent or (in an
// update, which removes them so) null is nil.
func commission(raw json.RawMessage) (*ledger.CommissionDetails, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	return ledger.ParseCommissionDetails(raw, "/commissionDetails")
}

func (a *API) createVirtualAccount(r *http.Request) (any, error) {
	var body createVirtualAccountBody
	var details *ledger.CommissionDetails
	return a.doWrite(r, write{
		gen:    web.Gen1,
		idem:   idemOptional,
		status: http.StatusCreated,
		input: func(c *call, raw []byte) error {
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			d := map[string]string{}
			if body.AccountID == nil || *body.AccountID == "" {
				d["/accountId"] = "required"
			}
			if body.Name == nil {
				d["/name"] = "required"
			}
			if len(d) > 0 {
				return kernel.Invalid(d)
			}
			if err := ledger.CheckVirtualAccountName(*body.Name); err != nil {
				return err
			}
			var err error
			details, err = commission(body.CommissionDetails)
			return err
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			va, err := ledger.CreateVirtualAccount(op, c.Actor, *body.AccountID, *body.Name, details)
			if err != nil {
				return nil, err
			}
			return writtenVirtualAccount(va), nil
		},
	})
}

// updateVirtualAccountBody is the update body: only commissionDetails may
// be null.
type updateVirtualAccountBody struct {
	Action            *string         `json:"action,omitempty"`
	Name              *string         `json:"name,omitempty"`
	CommissionDetails json.RawMessage `json:"commissionDetails" nullable:"true"`
}

// updateVirtualAccount takes {action: "update", name?, commissionDetails?}
// (commissionDetails null removes the commission) or {action: "close"}.
func (a *API) updateVirtualAccount(r *http.Request) (any, error) {
	var body updateVirtualAccountBody
	var u ledger.VirtualAccountUpdate
	return a.doWrite(r, write{
		gen: web.Gen1,
		input: func(c *call, raw []byte) error {
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			switch {
			case body.Action == nil:
				return kernel.InvalidField("/action", "required: update or close")
			case *body.Action == "close":
				if body.Name != nil || body.CommissionDetails != nil {
					return kernel.InvalidField("/action", "close takes no other properties")
				}
				return nil
			case *body.Action != "update":
				return kernel.InvalidField("/action", "must be update or close")
			}
			if body.Name != nil {
				if err := ledger.CheckVirtualAccountName(*body.Name); err != nil {
					return err
				}
			}
			u.Name = body.Name
			u.SetCommission = body.CommissionDetails != nil
			var err error
			u.Commission, err = commission(body.CommissionDetails)
			return err
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			id := mux.Vars(r)["virtualAccountId"]
			var va *ledger.VirtualAccount
			var err error
			if *body.Action == "close" {
				va, err = ledger.CloseVirtualAccount(op, c.Actor, id)
			} else {
				va, err = ledger.UpdateVirtualAccount(op, c.Actor, id, u)
			}
			if err != nil {
				return nil, err
			}
			return writtenVirtualAccount(va), nil
		},
	})
}

// currentVirtualAccount is a virtual account as GET shows it.
func currentVirtualAccount(op *kernel.Op, c *call, vars map[string]string) (any, error) {
	va, err := ledger.VirtualAccountOf(op, c.Actor, vars["virtualAccountId"], "")
	if err != nil {
		return nil, err
	}
	return virtualAccountOf(op, va)
}
