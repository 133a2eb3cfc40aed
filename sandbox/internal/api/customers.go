package api

import (
	"encoding/json"
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesCustomers(r *mux.Router, docs *openapi.Registry) {
	describeCustomers(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/customer", "customer.list", a.listCustomers)
	web.Route(r, web.Gen1, http.MethodPost, "/customer", "customer.create", a.createCustomer)
	web.Route(r, web.Gen1, http.MethodGet, "/customer/{customerId}", "customer.get", a.getCustomer)
	web.Route(r, web.Gen1, http.MethodPatch, "/customer/{customerId}", "customer.update", a.updateCustomer)
	a.shows("customer.update", listed(currentCustomer))
	web.Route(r, web.Gen1, http.MethodGet, "/customer/{customerId}/ach-debit-recurring", "customer.ach_debit_recurring",
		a.customerACHDebit)
}

// describeCustomers adds the descriptions of these routes, and the components
// they name, to docs.
func describeCustomers(docs *openapi.Registry) {
	docs.Component("Customer", customerView{})
	docs.Component("CustomMetadata", described(openapi.Schema{"type": "object"}, "The caller's own JSON object."))
	name := openapi.Schema{"type": "string", "minLength": 1, "maxLength": 200}
	email := openapi.Schema{"type": "string", "format": "email"}
	le := []openapi.Param{legalEntityFilter}
	docs.Describe("customer.list", openapi.Op{Summary: "List customers", Response: listOf(customerView{}),
		Query: []openapi.Param{
			cursorParam,
			legalEntityFilter,
			{Name: "filter:name", Description: "Part of the name, ignoring case."},
			{Name: "filter:status", Schema: oneOfStrings(parties.CustomerActive, parties.CustomerArchived)},
		}})
	docs.Describe("customer.create", keyed(openapi.Op{Summary: "Create a customer", Query: le, Response: customerBody{},
		Body: object(openapi.Schema{"name": name, "email": email, "phone": openapi.Schema{"type": "string", "maxLength": 40},
			"address": openapi.Ref("Address"), "customMetadata": openapi.Ref("CustomMetadata")}, "name", "email")}))
	docs.Describe("customer.get", openapi.Op{Summary: "Get a customer", Query: le, Response: customerBody{}})
	docs.Describe("customer.update", openapi.Op{Summary: "Update or archive a customer", Query: le,
		Response:    customerBody{},
		Description: "Absent properties stay as they are; phone, address and customMetadata set to null are removed.",
		Body: object(openapi.Schema{"name": name, "email": email, "phone": openapi.Nullable(stringType),
			"address":        openapi.Nullable(openapi.Ref("Address")),
			"customMetadata": openapi.Nullable(openapi.Ref("CustomMetadata")),
			"status":         oneOfStrings(parties.CustomerActive, parties.CustomerArchived)})})
	docs.Describe("customer.ach_debit_recurring", openapi.Op{Summary: "Whether the customer has an active recurring ACH" +
		" debit authorization",
		Query: le, Response: achDebitRecurring{}})
}

// customerBody is the {customer} body of the customer operations.
type customerBody struct {
	Customer customerView `json:"customer"`
}

type customerView struct {
	ID             string           `json:"id"`
	Name           string           `json:"name"`
	Email          string           `json:"email"`
	Phone          string           `json:"phone,omitempty"`
	Address        *parties.Address `json:"address,omitempty"`
	CustomMetadata json.RawMessage  `json:"customMetadata,omitempty" ref:"CustomMetadata"`
	Status         string           `json:"status" enum:"active,archived"`
}

func customerOf(c *parties.Customer) customerBody {
	return customerBody{Customer: customerView{ID: c.ID, Name: c.Name, Email: c.Email, Phone: c.Phone, Address: c.Address,
		CustomMetadata: c.CustomMetadata, Status: c.Status}}
}

func (a *API) listCustomers(r *http.Request) (any, error) {
	q := r.URL.Query()
	f := parties.CustomerFilter{Name: q.Get("filter:name"), Status: q.Get("filter:status")}
	return listPage(a, r, func(op *kernel.Op, c *call, req kernel.PageRequest) (kernel.Page[parties.Customer], error) {
		return parties.ListCustomers(op, c.Actor, f, req)
	}, func(_ *kernel.Op, c *parties.Customer) (customerView, error) { return customerOf(c).Customer, nil })
}

func (a *API) getCustomer(r *http.Request) (any, error) {
	return a.readOp(r, func(op *kernel.Op, c *call) (any, error) {
		cust, err := parties.CustomerOf(op, c.Actor, mux.Vars(r)["customerId"], "")
		if err != nil {
			return nil, err
		}
		return customerOf(cust), nil
	})
}

func (a *API) customerACHDebit(r *http.Request) (any, error) {
	return a.readOp(r, func(op *kernel.Op, c *call) (any, error) {
		cust, err := parties.CustomerOf(op, c.Actor, mux.Vars(r)["customerId"], "")
		if err != nil {
			return nil, err
		}
		return achDebitRecurring{HasActiveRecurringAuth: cust.ACHDebitRecurring}, nil
	})
}

func (a *API) createCustomer(r *http.Request) (any, error) {
	var body parties.CustomerInput
	return a.doWrite(r, write{
		gen:  web.Gen1,
		idem: idemOptional,
		input: func(c *call, raw []byte) error {
			if err := checkLEFilter(r, c); err != nil {
				return err
			}
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			return body.Validate()
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			cust, err := parties.CreateCustomer(op, c.Actor, &body)
			if err != nil {
				return nil, err
			}
			return customerOf(cust), nil
		},
	})
}

// customerPatch tells absent fields from null ones: phone, address and
// customMetadata may be null (removed), the others may not.
type customerPatch struct {
	Name           *string         `json:"name,omitempty"`
	Email          *string         `json:"email,omitempty"`
	Phone          json.RawMessage `json:"phone"`
	Address        json.RawMessage `json:"address"`
	CustomMetadata json.RawMessage `json:"customMetadata"`
	Status         *string         `json:"status,omitempty"`
}

func (a *API) updateCustomer(r *http.Request) (any, error) {
	var p parties.CustomerPatch
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
			p = parties.CustomerPatch{Name: body.Name, Email: body.Email, Phone: body.Phone, Address: body.Address,
				CustomMetadata: body.CustomMetadata, Status: body.Status}
			return p.Validate()
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			cust, err := parties.UpdateCustomer(op, c.Actor, mux.Vars(r)["customerId"], &p)
			if err != nil {
				return nil, err
			}
			return customerOf(cust), nil
		},
	})
}

// currentCustomer is a customer as GET shows it.
func currentCustomer(op *kernel.Op, c *call, vars map[string]string) (any, error) {
	cust, err := parties.CustomerOf(op, c.Actor, vars["customerId"], "")
	if err != nil {
		return nil, err
	}
	return customerOf(cust), nil
}
