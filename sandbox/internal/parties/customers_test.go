package parties_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

func TestCustomerInputValidate(t *testing.T) {
	cases := []struct {
		name   string
		in     parties.CustomerInput
		field  string
		detail string
	}{
		{"no email", parties.CustomerInput{Name: "Initrode"}, "/email", "required"},
		{"an email without a domain", parties.CustomerInput{Name: "Initrode", Email: "ap@initrode"}, "/email",
			"must be an email address"},
		{"no name", parties.CustomerInput{Email: "ap@initrode.test"}, "/name", "required"},
		{"a phone of 41 characters", parties.CustomerInput{Name: "Initrode", Email: "ap@initrode.test",
			Phone: ptr("+1 " + strings.Repeat("5", 38))}, "/phone", "must be at most 40 characters"},
		{"metadata as an array", parties.CustomerInput{Name: "Initrode", Email: "ap@initrode.test",
			CustomMetadata: json.RawMessage(`["crm"]`)}, "/customMetadata", "must be an object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			enginetest.WantError(t, c.in.Validate(), kernel.CodeInvalidRequest, map[string]string{c.field: c.detail})
		})
	}
	enginetest.WantError(t, (&parties.CustomerPatch{Status: ptr("deleted")}).Validate(), kernel.CodeInvalidRequest,
		map[string]string{"/status": "must be active or archived"})
	enginetest.WantError(t, (&parties.CustomerPatch{Phone: json.RawMessage(`5550100`)}).Validate(),
		kernel.CodeInvalidRequest,
		map[string]string{"/phone": "must be a string or null"})
	enginetest.WantError(t, (&parties.CustomerPatch{Address: json.RawMessage(`{"addressLine":"1 Way"}`)}).Validate(),
		kernel.CodeInvalidRequest, map[string]string{"/address/addressCity": "required"})
}

// A customer starts active; a PATCH changes only what it gives, null
// removes an optional field, and archiving is a status the list filters
// on.
func TestCustomerLifecycle(t *testing.T) {
	w := enginetest.Demo(t)
	var c *parties.Customer
	enginetest.Must(t, enginetest.As(t, w, "sk_sandbox_acme", func(op *kernel.Op, a *kernel.Actor) error {
		var err error
		c, err = parties.CreateCustomer(op, a, &parties.CustomerInput{Name: "Initrode", Email: "ap@initrode.test",
			Phone: ptr("+1 415 555 0199"), CustomMetadata: json.RawMessage(`{"crmId":"CRM-1"}`)})
		return err
	}))
	if c.Status != parties.CustomerActive || c.LegalEntityID != "le_acme" ||
		string(c.CustomMetadata) != `{"crmId":"CRM-1"}` {
		t.Errorf("created %+v", c)
	}
	enginetest.Must(t, enginetest.As(t, w, "sk_sandbox_acme", func(op *kernel.Op, a *kernel.Actor) error {
		got, err := parties.UpdateCustomer(op, a, c.ID, &parties.CustomerPatch{Phone: json.RawMessage(`null`),
			Status: ptr(parties.CustomerArchived)})
		if err == nil && (got.Phone != "" || got.Status != parties.CustomerArchived || got.Name != "Initrode" ||
			got.Email != "ap@initrode.test" || string(got.CustomMetadata) != `{"crmId":"CRM-1"}`) {
			t.Errorf("after the patch %+v: want the phone removed, archived, the rest kept", got)
		}
		return err
	}))

	list := func(f parties.CustomerFilter) []string {
		t.Helper()
		var ids []string
		enginetest.Must(t, enginetest.As(t, w, "sk_sandbox_acme", func(op *kernel.Op, a *kernel.Actor) error {
			page, err := parties.ListCustomers(op, a, f, kernel.PageRequest{})
			for _, c := range page.Items {
				ids = append(ids, c.ID)
			}
			return err
		}))
		return ids
	}
	if got := list(parties.CustomerFilter{Status: parties.CustomerArchived}); len(got) != 2 ||
		got[0] != "le_cust_oldclient" || got[1] != c.ID {
		t.Errorf("archived customers %v, want le_cust_oldclient and %s in creation order", got, c.ID)
	}
	if got := list(parties.CustomerFilter{Name: "INI"}); len(got) != 2 || got[0] != "le_cust_initech" {
		t.Errorf("customers named like INI: %v, want Initech and Initrode", got)
	}
	enginetest.WantError(t, enginetest.As(t, w, "sk_sandbox_acme", func(op *kernel.Op, a *kernel.Actor) error {
		_, err := parties.ListCustomers(op, a, parties.CustomerFilter{Status: "deleted"}, kernel.PageRequest{})
		return err
	}), kernel.CodeInvalidRequest, map[string]string{"filter:status": "must be active or archived"})
	enginetest.WantError(t, enginetest.As(t, w, "sk_sandbox_globex", func(op *kernel.Op, a *kernel.Actor) error {
		_, err := parties.UpdateCustomer(op, a, c.ID, &parties.CustomerPatch{Name: ptr("Mine")})
		return err
	}), kernel.CodeNotFound, nil)
}
