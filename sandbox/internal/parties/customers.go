package parties

import (
	"encoding/json"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Customer statuses.
const (
	CustomerActive   = "active"
	CustomerArchived = "archived"
)

// CustomerInput is the body of POST /customer.
type CustomerInput struct {
	Name           string          `json:"name"`
	Email          string          `json:"email"`
	Phone          *string         `json:"phone,omitempty"`
	Address        *Address        `json:"address,omitempty"`
	CustomMetadata json.RawMessage `json:"customMetadata,omitempty" ref:"CustomMetadata"`
}

// Validate checks a new customer.
func (in *CustomerInput) Validate() error {
	d := map[string]string{}
	RequireText(d, "/name", in.Name, 200)
	if strings.TrimSpace(in.Email) == "" {
		d["/email"] = "required"
	} else {
		CheckEmail(d, "/email", in.Email)
	}
	if in.Phone != nil && len(*in.Phone) > 40 {
		d["/phone"] = "must be at most 40 characters"
	}
	if in.Address != nil {
		CheckAddress(d, "/address", in.Address)
	}
	checkObject(d, "/customMetadata", in.CustomMetadata)
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

// checkObject accepts an absent value or a JSON object.
func checkObject(d map[string]string, path string, raw json.RawMessage) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		d[path] = "must be an object"
	}
}

// CustomerPatch is the body of PATCH /customer/{id}: absent fields stay,
// null removes an optional one.
type CustomerPatch struct {
	Name           *string
	Email          *string
	Phone          json.RawMessage
	Address        json.RawMessage
	CustomMetadata json.RawMessage
	Status         *string
}

// Validate checks the fields a PATCH gives.
func (p *CustomerPatch) Validate() error {
	d := map[string]string{}
	if p.Name != nil {
		RequireText(d, "/name", *p.Name, 200)
	}
	if p.Email != nil {
		CheckEmail(d, "/email", *p.Email)
	}
	if p.Status != nil && *p.Status != CustomerActive && *p.Status != CustomerArchived {
		d["/status"] = "must be active or archived"
	}
	var phone string
	if Present(p.Phone) && json.Unmarshal(p.Phone, &phone) != nil {
		d["/phone"] = "must be a string or null"
	}
	if Present(p.Address) {
		var a Address
		if err := json.Unmarshal(p.Address, &a); err != nil {
			d["/address"] = "must be an address object or null"
		} else if jsonshape.CheckAt(d, "/address", p.Address, &a) {
			CheckAddress(d, "/address", &a)
		}
	}
	checkObject(d, "/customMetadata", p.CustomMetadata)
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

// Present reports whether a raw field was given with a value other than
// null.
func Present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// CustomerFilter narrows the customer list.
type CustomerFilter struct {
	Name   string
	Status string
}

// ListCustomers lists the actor's customers in creation order.
func ListCustomers(
	op *kernel.Op,
	a *kernel.Actor,
	f CustomerFilter,
	req kernel.PageRequest,
) (kernel.Page[Customer], error) {
	if f.Status != "" && f.Status != CustomerActive && f.Status != CustomerArchived {
		return kernel.Page[Customer]{}, kernel.InvalidField("filter:status", "must be active or archived")
	}
	name := strings.ToLower(f.Name)
	return kernel.List(
		op,
		KindCustomer,
		kernel.IndexPrefix(IndexCustomerLE, a.LegalEntityID()),
		req,
		func(c *Customer) bool {
			return (name == "" || strings.Contains(strings.ToLower(c.Name), name)) && (f.Status == "" || c.Status == f.Status)
		},
	)
}

// CustomerOf loads one of the actor's customers.
func CustomerOf(op *kernel.Op, a *kernel.Actor, id, field string) (*Customer, error) {
	return CustomerOfEntity(op, a.LegalEntityID(), id, field)
}

// CustomerOfEntity loads a customer of the legal entity; any other is
// not found, reported against field.
func CustomerOfEntity(op *kernel.Op, legalEntityID, id, field string) (*Customer, error) {
	var c Customer
	ok, err := op.Get(KindCustomer, id, &c)
	if err != nil {
		return nil, err
	}
	if !ok || c.LegalEntityID != legalEntityID {
		return nil, kernel.NotFound("customer", field, id)
	}
	return &c, nil
}

// CreateCustomer stores a new, active customer.
func CreateCustomer(op *kernel.Op, a *kernel.Actor, in *CustomerInput) (*Customer, error) {
	id, err := op.NewID(PrefixCustomer)
	if err != nil {
		return nil, err
	}
	seq, err := op.NextSeq()
	if err != nil {
		return nil, err
	}
	c := &Customer{ID: id, LegalEntityID: a.LegalEntityID(), Name: in.Name, Email: in.Email, Address: in.Address,
		Status: CustomerActive, CreatedAt: op.Now, Seq: seq}
	if in.Phone != nil {
		c.Phone = *in.Phone
	}
	if Present(in.CustomMetadata) {
		c.CustomMetadata = in.CustomMetadata
	}
	return c, op.Save(KindCustomer, c.ID, c, CustomerIndexes(c)...)
}

// UpdateCustomer applies a PATCH; archiving is a status change.
func UpdateCustomer(op *kernel.Op, a *kernel.Actor, id string, p *CustomerPatch) (*Customer, error) {
	c, err := CustomerOf(op, a, id, "")
	if err != nil {
		return nil, err
	}
	if p.Name != nil {
		c.Name = *p.Name
	}
	if p.Email != nil {
		c.Email = *p.Email
	}
	if p.Status != nil {
		c.Status = *p.Status
	}
	if p.Phone != nil {
		c.Phone = ""
		_ = json.Unmarshal(p.Phone, &c.Phone)
	}
	if p.Address != nil {
		c.Address = nil
		if Present(p.Address) {
			c.Address = &Address{}
			_ = json.Unmarshal(p.Address, c.Address)
		}
	}
	if p.CustomMetadata != nil {
		c.CustomMetadata = nil
		if Present(p.CustomMetadata) {
			c.CustomMetadata = p.CustomMetadata
		}
	}
	return c, op.Save(KindCustomer, c.ID, c, CustomerIndexes(c)...)
}

// CustomerIndexes are the index keys of a customer: its legal entity's
// customers in creation order.
func CustomerIndexes(c *Customer) []string {
	return []string{kernel.IndexKey(IndexCustomerLE, c.LegalEntityID, store.Millis(c.CreatedAt), store.Seq(c.Seq), c.ID)}
}

// IndexCustomerLE holds a legal entity's customers in creation order.
const IndexCustomerLE = "customer.le"
