package api

import (
	"encoding/json"
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox"
	"github.com/slash-sandbox/slash-sandbox/sandbox/web"
)

func (a *API) routesCustomers(r *mux.Router) {
	web.Route(r, web.Gen1, http.MethodGet, "/customer", "customer.list", a.listCustomers)
	web.Route(r, web.Gen1, http.MethodPost, "/customer", "customer.create", a.createCustomer)
	web.Route(r, web.Gen1, http.MethodGet, "/customer/{customerId}", "customer.get", a.getCustomer)
	web.Route(r, web.Gen1, http.MethodPatch, "/customer/{customerId}", "customer.update", a.updateCustomer)
	web.Route(r, web.Gen1, http.MethodGet, "/customer/{customerId}/ach-debit-recurring", "customer.ach_debit_recurring", a.customerACHDebit)
}

type customerView struct {
	ID             string           `json:"id"`
	Name           string           `json:"name"`
	Email          string           `json:"email"`
	Phone          string           `json:"phone,omitempty"`
	Address        *sandbox.Address `json:"address,omitempty"`
	CustomMetadata json.RawMessage  `json:"customMetadata,omitempty"`
	Status         string           `json:"status"`
}

func customerOf(c *sandbox.Customer) map[string]customerView {
	return map[string]customerView{"customer": {ID: c.ID, Name: c.Name, Email: c.Email, Phone: c.Phone, Address: c.Address,
		CustomMetadata: c.CustomMetadata, Status: c.Status}}
}

func (a *API) listCustomers(r *http.Request) (any, error) {
	q := r.URL.Query()
	f := sandbox.CustomerFilter{Name: q.Get("filter:name"), Status: q.Get("filter:status")}
	return listPage(a, r, func(op *sandbox.Op, c *call, req sandbox.PageRequest) (sandbox.Page[sandbox.Customer], error) {
		return op.ListCustomers(c.Actor, f, req)
	}, func(_ *sandbox.Op, c *sandbox.Customer) (customerView, error) { return customerOf(c)["customer"], nil })
}

func (a *API) getCustomer(r *http.Request) (any, error) {
	return a.readOp(r, func(op *sandbox.Op, c *call) (any, error) {
		cust, err := op.CustomerOf(c.Actor, mux.Vars(r)["customerId"], "")
		if err != nil {
			return nil, err
		}
		return customerOf(cust), nil
	})
}

func (a *API) customerACHDebit(r *http.Request) (any, error) {
	return a.readOp(r, func(op *sandbox.Op, c *call) (any, error) {
		cust, err := op.CustomerOf(c.Actor, mux.Vars(r)["customerId"], "")
		if err != nil {
			return nil, err
		}
		return map[string]bool{"hasActiveRecurringAuth": cust.ACHDebitRecurring}, nil
	})
}

func (a *API) createCustomer(r *http.Request) (any, error) {
	var body sandbox.CustomerInput
	return a.doWrite(r, write{
		gen: web.Gen1,
		input: func(c *call, raw []byte) error {
			if err := checkLEFilter(r, c); err != nil {
				return err
			}
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			return body.Validate()
		},
		run: func(op *sandbox.Op, c *call) (any, error) {
			cust, err := op.CreateCustomer(c.Actor, &body)
			if err != nil {
				return nil, err
			}
			return customerOf(cust), nil
		},
	})
}

// customerPatch tells absent fields from null ones.
type customerPatch struct {
	Name           *string         `json:"name"`
	Email          *string         `json:"email"`
	Phone          json.RawMessage `json:"phone"`
	Address        json.RawMessage `json:"address"`
	CustomMetadata json.RawMessage `json:"customMetadata"`
	Status         *string         `json:"status"`
}

func (a *API) updateCustomer(r *http.Request) (any, error) {
	var p sandbox.CustomerPatch
	return a.doWrite(r, write{
		gen: web.Gen1,
		input: func(c *call, raw []byte) error {
			if err := checkLEFilter(r, c); err != nil {
				return err
			}
			var body customerPatch
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			p = sandbox.CustomerPatch{Name: body.Name, Email: body.Email, Phone: body.Phone, Address: body.Address,
				CustomMetadata: body.CustomMetadata, Status: body.Status}
			return p.Validate()
		},
		run: func(op *sandbox.Op, c *call) (any, error) {
			cust, err := op.UpdateCustomer(c.Actor, mux.Vars(r)["customerId"], &p)
			if err != nil {
				return nil, err
			}
			return customerOf(cust), nil
		},
	})
}
