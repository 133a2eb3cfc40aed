package api

import (
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesContacts(r *mux.Router, docs *openapi.Registry) {
	describeContacts(docs)
	// The destination routes come first: /contact/{contactId} would match
	// them too.
	web.Route(r, web.Gen1, http.MethodGet, "/contact/destination", "contact.destination.list", a.listDestinations)
	web.Route(r, web.Gen1, http.MethodPatch, "/contact/destination/{destinationId}", "contact.destination.update",
		a.updateDestination)
	web.Route(r, web.Gen1, http.MethodGet, "/contact", "contact.list", a.listContacts)
	web.Route(r, web.Gen1, http.MethodPost, "/contact", "contact.create", a.createContact)
	web.Route(r, web.Gen1, http.MethodGet, "/contact/{contactId}", "contact.get", a.getContact)
	web.Route(r, web.Gen1, http.MethodPatch, "/contact/{contactId}", "contact.update", a.updateContact)
	a.shows("contact.destination.update", noCurrent)
	a.shows("contact.update", listed(currentContact))
	web.Route(r, web.Gen1, http.MethodGet, "/contact/{contactId}/ach-debit-recurring", "contact.ach_debit_recurring",
		a.contactACHDebit)
}

// describeContacts adds the descriptions of these routes, and the components
// they name, to docs.
func describeContacts(docs *openapi.Registry) {
	docs.Component("Contact", contactView{})
	docs.Component("ContactDestination", contactDestination{})
	text := openapi.Schema{"type": "string", "minLength": 1, "maxLength": 200}
	props := openapi.Schema{"name": text, "recipientType": oneOfStrings("contact", "vendor"), "recipientLegalName": text,
		"recipientEmail": openapi.Schema{"type": "string", "format": "email"}, "address": openapi.Ref("Address")}
	le := []openapi.Param{legalEntityFilter}
	docs.Describe("contact.list", openapi.Op{Summary: "List contacts",
		Query: []openapi.Param{
			cursorParam,
			legalEntityFilter,
			{Name: "filter:name", Description: "Part of the name, ignoring case."},
		},
		Response: listOf(contactView{})})
	docs.Describe("contact.create", keyed(openapi.Op{Summary: "Create a contact", Query: le,
		Body: object(props, "name", "recipientType", "recipientLegalName"), Response: contactBody{}}))
	docs.Describe("contact.get", openapi.Op{Summary: "Get a contact", Query: le, Response: contactBody{}})
	docs.Describe("contact.update", openapi.Op{Summary: "Replace a contact's details", Query: le,
		Description: "Every property is required: the body replaces the contact's details.",
		Body:        object(props, "name", "recipientType", "recipientLegalName", "recipientEmail", "address"),
		Response:    contactBody{}})
	docs.Describe("contact.ach_debit_recurring", openapi.Op{Summary: "Whether the contact has an active recurring ACH" +
		" debit authorization",
		Query: le, Response: achDebitRecurring{}})
	docs.Describe("contact.destination.list", openapi.Op{Summary: "List contact destinations with the transaction types" +
		" each can receive",
		Description: "Bank account and international wire destinations; crypto addresses are not listed.",
		Query: []openapi.Param{cursorParam, legalEntityFilter,
			{Name: "filter:contactId", Description: "One contact's destinations."}},
		Response: listOf(contactDestination{})})
	docs.Describe("contact.destination.update", openapi.Op{Summary: "Update a contact destination",
		Description: "Absent properties stay as they are. The bank fields apply to bank_account destinations, the wire" +
			" fields to international_wire ones.",
		Body: object(openapi.Schema{"name": openapi.Schema{"type": "string", "maxLength": 200},
			"accountNumber": openapi.Schema{"type": "string", "pattern": "^[0-9]{4,17}$"},
			"routingNumber": described(openapi.Schema{"type": "string", "pattern": "^[0-9]{9}$"},
				"An ABA routing number with a valid checksum."),
			"accountType": oneOfStrings("checking", "savings"), "bankName": openapi.Schema{"type": "string", "minLength": 1},
			"iban":        described(stringType, "An IBAN with a valid checksum."),
			"swift":       openapi.Schema{"type": "string", "pattern": "^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$"},
			"bankCountry": openapi.Schema{"type": "string", "pattern": "^[A-Z]{2}$"}}),
		Response: destinationBody{}})
}

// achDebitRecurring is the body of GET …/ach-debit-recurring.
type achDebitRecurring struct {
	HasActiveRecurringAuth bool `json:"hasActiveRecurringAuth"`
}

// destinationBody is the body of PATCH /contact/destination/{destinationId}.
type destinationBody struct {
	Destination contactDestination `json:"destination"`
}

type contactView struct {
	ID                 string           `json:"id"`
	Name               string           `json:"name"`
	RecipientType      string           `json:"recipientType,omitempty" enum:"contact,vendor"`
	RecipientLegalName string           `json:"recipientLegalName,omitempty"`
	RecipientEmail     string           `json:"recipientEmail,omitempty"`
	Address            *parties.Address `json:"address,omitempty"`
	ArchivedAt         string           `json:"archivedAt,omitempty" format:"date-time"`
}

func contactOf(c *parties.Contact) contactView {
	v := contactView{ID: c.ID, Name: c.Name, RecipientType: c.RecipientType, RecipientLegalName: c.RecipientLegalName,
		RecipientEmail: c.RecipientEmail, Address: c.Address}
	if c.ArchivedAt != nil {
		v.ArchivedAt = timestamp(*c.ArchivedAt)
	}
	return v
}

type contactBody struct {
	Contact contactView `json:"contact"`
}

// checkLEFilter enforces filter:legalEntityId, which many of these routes
// take, reads and writes alike.
func checkLEFilter(r *http.Request, c *call) error {
	return c.Actor.CheckLegalEntityFilter("filter:legalEntityId", r.URL.Query().Get("filter:legalEntityId"))
}

// readOp authenticates a first-generation read, checks filter:legalEntityId
// and runs fn in a read-only operation.
func (a *API) readOp(r *http.Request, fn func(op *kernel.Op, c *call) (any, error)) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	if err := checkLEFilter(r, c); err != nil {
		return nil, err
	}
	var out any
	err = c.view(func(op *kernel.Op) error {
		out, err = fn(op, c)
		return err
	})
	return out, err
}

// listPage reads one page of a list: the cursor is decoded first, and the next
// one encoded with the same filters.
func listPage[T any, V any](
	a *API,
	r *http.Request,
	page func(op *kernel.Op, c *call, req kernel.PageRequest) (kernel.Page[T], error),
	view func(op *kernel.Op, item *T) (V, error),
) (any, error) {
	return a.readOp(r, func(op *kernel.Op, c *call) (any, error) {
		after, err := decodeCursor(r, c)
		if err != nil {
			return nil, err
		}
		p, err := page(op, c, kernel.PageRequest{After: after})
		if err != nil {
			return nil, err
		}
		items := make([]V, len(p.Items))
		for i := range p.Items {
			if items[i], err = view(op, &p.Items[i]); err != nil {
				return nil, err
			}
		}
		return newList(items, encodeCursor(r, c, p.Next)), nil
	})
}

func (a *API) listContacts(r *http.Request) (any, error) {
	f := parties.ContactFilter{Name: r.URL.Query().Get("filter:name")}
	return listPage(a, r, func(op *kernel.Op, c *call, req kernel.PageRequest) (kernel.Page[parties.Contact], error) {
		return parties.ListContacts(op, c.Actor, f, req)
	}, func(_ *kernel.Op, ct *parties.Contact) (contactView, error) { return contactOf(ct), nil })
}

func (a *API) getContact(r *http.Request) (any, error) {
	return a.readOp(r, func(op *kernel.Op, c *call) (any, error) {
		ct, err := parties.ContactOf(op, c.Actor, mux.Vars(r)["contactId"], "")
		if err != nil {
			return nil, err
		}
		return contactBody{contactOf(ct)}, nil
	})
}

func (a *API) contactACHDebit(r *http.Request) (any, error) {
	return a.readOp(r, func(op *kernel.Op, c *call) (any, error) {
		ct, err := parties.ContactOf(op, c.Actor, mux.Vars(r)["contactId"], "")
		if err != nil {
			return nil, err
		}
		return achDebitRecurring{HasActiveRecurringAuth: ct.ACHDebitRecurring}, nil
	})
}

// writeContact is the shared body of POST and PATCH /contact.
func (a *API) writeContact(r *http.Request, replace bool) (any, error) {
	var body parties.ContactInput
	return a.doWrite(r, write{
		gen:  web.Gen1,
		idem: keyedUnless(replace),
		input: func(c *call, raw []byte) error {
			if err := checkLEFilter(r, c); err != nil {
				return err
			}
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			return body.Validate(replace)
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			var ct *parties.Contact
			var err error
			if replace {
				ct, err = parties.ReplaceContact(op, c.Actor, mux.Vars(r)["contactId"], &body)
			} else {
				ct, err = parties.CreateContact(op, c.Actor, &body)
			}
			if err != nil {
				return nil, err
			}
			return contactBody{contactOf(ct)}, nil
		},
	})
}

func (a *API) createContact(r *http.Request) (any, error) { return a.writeContact(r, false) }

func (a *API) updateContact(r *http.Request) (any, error) { return a.writeContact(r, true) }

// contactDestination is how the sandbox shows a contact destination (the
// real API publishes no schema for it): the bank details, masked, and the
// transaction types the destination can receive.
type contactDestination struct {
	ID                       string             `json:"id"`
	ContactID                string             `json:"contactId"`
	Type                     string             `json:"type" enum:"bank_account,international_wire"`
	Name                     string             `json:"name,omitempty"`
	EligibleTransactionTypes []string           `json:"eligibleTransactionTypes" enum:"ach,wire,rtp,international_wire"`
	BankAccount              *bankAccountView   `json:"bankAccount,omitempty"`
	InternationalWire        *internationalView `json:"internationalWire,omitempty"`
	CreatedAt                string             `json:"createdAt" format:"date-time"`
}

type bankAccountView struct {
	AccountNumberLast4 string `json:"accountNumberLast4"`
	RoutingNumber      string `json:"routingNumber"`
	AccountType        string `json:"accountType,omitempty" enum:"checking,savings"`
	BankName           string `json:"bankName,omitempty"`
}

type internationalView struct {
	IBANLast4   string `json:"ibanLast4"`
	SWIFT       string `json:"swift,omitempty"`
	BankName    string `json:"bankName,omitempty"`
	BankCountry string `json:"bankCountry,omitempty"`
}

func last4(s string) string {
	if len(s) <= 4 {
		return s
	}
	return s[len(s)-4:]
}

func destinationOf(d *parties.Destination) contactDestination {
	v := contactDestination{ID: d.ID, ContactID: d.ContactID, Type: d.Type, Name: d.Name,
		EligibleTransactionTypes: parties.EligibleRails(d), CreatedAt: timestamp(d.CreatedAt)}
	if d.Type == parties.DestinationACH {
		v.BankAccount = &bankAccountView{AccountNumberLast4: last4(d.AccountNumber), RoutingNumber: d.RoutingNumber,
			AccountType: d.AccountType, BankName: d.BankName}
	} else {
		v.InternationalWire = &internationalView{IBANLast4: last4(d.IBAN), SWIFT: d.SWIFT, BankName: d.BankName,
			BankCountry: d.BankCountry}
	}
	return v
}

func (a *API) listDestinations(r *http.Request) (any, error) {
	contact := r.URL.Query().Get("filter:contactId")
	return listPage(a, r, func(op *kernel.Op, c *call, req kernel.PageRequest) (kernel.Page[parties.Destination], error) {
		return parties.ListDestinations(op, c.Actor, contact, req)
	}, func(_ *kernel.Op, d *parties.Destination) (contactDestination, error) { return destinationOf(d), nil })
}

func (a *API) updateDestination(r *http.Request) (any, error) {
	var body parties.DestinationPatch
	return a.doWrite(r, write{
		gen: web.Gen1,
		input: func(c *call, raw []byte) error {
			if err := web.DecodeBytes(raw, &body, true); err != nil {
				return err
			}
			return body.Validate()
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			d, err := parties.UpdateDestination(op, c.Actor, mux.Vars(r)["destinationId"], &body)
			if err != nil {
				return nil, err
			}
			return destinationBody{Destination: destinationOf(d)}, nil
		},
	})
}

// currentContact is a contact as GET shows it.
func currentContact(op *kernel.Op, c *call, vars map[string]string) (any, error) {
	ct, err := parties.ContactOf(op, c.Actor, vars["contactId"], "")
	if err != nil {
		return nil, err
	}
	return contactBody{contactOf(ct)}, nil
}
