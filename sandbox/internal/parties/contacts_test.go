package parties_test

import (
	"slices"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

func ptr[T any](v T) *T { return &v }

// contact is a valid contact body.
func contact() *parties.ContactInput {
	return &parties.ContactInput{Name: "Zephyr Parts", RecipientType: "vendor", RecipientLegalName: "Zephyr Parts Inc.",
		RecipientEmail: ptr("ap@zephyr.test"), Address: &parties.Address{AddressLine: "9 Dock Rd",
			AddressCity: "Oakland", AddressState: "CA", AddressZip: "94607", AddressCountry: "US"}}
}

func TestContactInputValidate(t *testing.T) {
	cases := []struct {
		name    string
		change  func(in *parties.ContactInput)
		replace bool
		field   string
		detail  string
	}{
		{"no name", func(in *parties.ContactInput) { in.Name = "" }, false, "/name", "required"},
		{"a name of 201 characters", func(in *parties.ContactInput) { in.Name = string(make([]rune, 201)) }, false,
			"/name", "must be at most 200 characters"},
		{"a customer as recipient type", func(in *parties.ContactInput) { in.RecipientType = "customer" }, false,
			"/recipientType", "must be contact or vendor"},
		{"an email with a display name", func(in *parties.ContactInput) { in.RecipientEmail = ptr("Ap <ap@zephyr.test>") },
			false, "/recipientEmail", "must be an email address"},
		{"no email on replace", func(in *parties.ContactInput) { in.RecipientEmail = nil }, true, "/recipientEmail",
			"required"},
		{"no address on replace", func(in *parties.ContactInput) { in.Address = nil }, true, "/address", "required"},
		{"an address without a ZIP", func(in *parties.ContactInput) { in.Address.AddressZip = " " }, false,
			"/address/addressZip", "required"},
		{"a lower-case country", func(in *parties.ContactInput) { in.Address.AddressCountry = "us" }, false,
			"/address/addressCountry", "must be an ISO 3166-1 alpha-2 code such as US"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := contact()
			c.change(in)
			enginetest.WantError(t, in.Validate(c.replace), kernel.CodeInvalidRequest, map[string]string{c.field: c.detail})
		})
	}
	// A new contact may leave out its email and address.
	in := contact()
	in.RecipientEmail, in.Address = nil, nil
	if err := in.Validate(false); err != nil {
		t.Errorf("a new contact without email and address: %v", err)
	}
}

// A contact belongs to its legal entity: replacing sets all five fields,
// and another legal entity neither finds nor lists it.
func TestContactsStayWithTheirLegalEntity(t *testing.T) {
	w := enginetest.Demo(t)
	var c *parties.Contact
	enginetest.Must(t, enginetest.As(t, w, "sk_sandbox_acme", func(op *kernel.Op, a *kernel.Actor) error {
		var err error
		c, err = parties.CreateContact(op, a, contact())
		return err
	}))
	if c.LegalEntityID != "le_acme" || c.RecipientEmail != "ap@zephyr.test" || c.Address.AddressCity != "Oakland" {
		t.Errorf("created %+v", c)
	}
	in := contact()
	in.Name, in.RecipientType, in.RecipientEmail = "Zephyr", "contact", ptr("billing@zephyr.test")
	enginetest.Must(t, enginetest.As(t, w, "sk_sandbox_acme", func(op *kernel.Op, a *kernel.Actor) error {
		got, err := parties.ReplaceContact(op, a, c.ID, in)
		if err == nil && (got.Name != "Zephyr" || got.RecipientType != "contact" ||
			got.RecipientEmail != "billing@zephyr.test" || got.ID != c.ID || !got.CreatedAt.Equal(c.CreatedAt)) {
			t.Errorf("replaced %+v", got)
		}
		return err
	}))

	enginetest.WantError(t, enginetest.As(t, w, "sk_sandbox_globex", func(op *kernel.Op, a *kernel.Actor) error {
		_, err := parties.ReplaceContact(op, a, c.ID, contact())
		return err
	}), kernel.CodeNotFound, nil)
	enginetest.Must(t, enginetest.As(t, w, "sk_sandbox_globex", func(op *kernel.Op, a *kernel.Actor) error {
		page, err := parties.ListContacts(op, a, parties.ContactFilter{Name: "zephyr"}, kernel.PageRequest{})
		if err == nil && len(page.Items) != 0 {
			t.Errorf("Globex lists Acme's contact: %+v", page.Items)
		}
		return err
	}))
	enginetest.Must(t, enginetest.As(t, w, "sk_sandbox_acme", func(op *kernel.Op, a *kernel.Actor) error {
		page, err := parties.ListContacts(op, a, parties.ContactFilter{Name: "ZEPH"}, kernel.PageRequest{})
		if err == nil && (len(page.Items) != 1 || page.Items[0].ID != c.ID) {
			t.Errorf("a search for ZEPH lists %+v, want %s alone", page.Items, c.ID)
		}
		return err
	}))
}

func TestDestinationPatchValidate(t *testing.T) {
	cases := []struct {
		name   string
		patch  parties.DestinationPatch
		field  string
		detail string
	}{
		{"a routing number with a wrong checksum", parties.DestinationPatch{RoutingNumber: ptr("021000022")},
			"/routingNumber", "is not a valid ABA routing number (9 digits with a valid checksum)"},
		{"an eight-digit routing number", parties.DestinationPatch{RoutingNumber: ptr("02100002")}, "/routingNumber", ""},
		{"a three-digit account number", parties.DestinationPatch{AccountNumber: ptr("123")}, "/accountNumber",
			"must be 4 to 17 digits"},
		{"an 18-digit account number", parties.DestinationPatch{AccountNumber: ptr("123456789012345678")},
			"/accountNumber", "must be 4 to 17 digits"},
		{"a money-market account", parties.DestinationPatch{AccountType: ptr("money_market")}, "/accountType",
			"must be checking or savings"},
		{"a blank bank name", parties.DestinationPatch{BankName: ptr(" ")}, "/bankName", "must not be empty"},
		{"an IBAN with a wrong checksum", parties.DestinationPatch{IBAN: ptr("DE89370400440532013001")}, "/iban", ""},
		{"a SWIFT code of 9 characters", parties.DestinationPatch{SWIFT: ptr("COBADEFFX")}, "/swift",
			"must be an 8 or 11 character BIC such as COBADEFFXXX"},
		{"a lower-case bank country", parties.DestinationPatch{BankCountry: ptr("de")}, "/bankCountry",
			"must be an ISO 3166-1 alpha-2 code"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.patch.Validate()
			e, ok := kernel.AsError(err)
			if !ok || e.Code != kernel.CodeInvalidRequest {
				t.Fatalf("got %v, want invalid_request", err)
			}
			if got, ok := e.Details[c.field]; !ok || (c.detail != "" && got != c.detail) {
				t.Errorf("details %v, want %s: %q", e.Details, c.field, c.detail)
			}
		})
	}
	valid := parties.DestinationPatch{RoutingNumber: ptr("021000021"), AccountNumber: ptr("0001"),
		AccountType: ptr("savings"), IBAN: ptr("GB82WEST12345698765432"), SWIFT: ptr("COBADEFF"), BankCountry: ptr("DE")}
	if err := valid.Validate(); err != nil {
		t.Errorf("valid patch: %v", err)
	}
}

// A destination takes only the fields of its own type; a crypto address,
// or another legal entity's destination, is not found.
func TestUpdateDestination(t *testing.T) {
	w := enginetest.Demo(t)
	update := func(key, id string, p *parties.DestinationPatch) (*parties.Destination, error) {
		var d *parties.Destination
		err := enginetest.As(t, w, key, func(op *kernel.Op, a *kernel.Actor) error {
			var err error
			d, err = parties.UpdateDestination(op, a, id, p)
			return err
		})
		return d, err
	}
	_, err := update("sk_sandbox_acme", "le_c_dest_northwindach",
		&parties.DestinationPatch{IBAN: ptr("GB82WEST12345698765432"), SWIFT: ptr("COBADEFF")})
	enginetest.WantError(t, err, kernel.CodeInvalidRequest, map[string]string{
		"/iban": "does not apply to a bank_account destination", "/swift": "does not apply to a bank_account destination"})
	_, err = update("sk_sandbox_acme", "le_c_dest_bluefiniban", &parties.DestinationPatch{RoutingNumber: ptr("021000021")})
	enginetest.WantError(t, err, kernel.CodeInvalidRequest, map[string]string{
		"/routingNumber": "does not apply to a international_wire destination"})
	_, err = update("sk_sandbox_acme", "le_c_dest_danacrypto", &parties.DestinationPatch{Name: ptr("Wallet")})
	enginetest.WantError(t, err, kernel.CodeNotFound, nil)
	_, err = update("sk_sandbox_globex", "le_c_dest_northwindach", &parties.DestinationPatch{Name: ptr("Mine")})
	enginetest.WantError(t, err, kernel.CodeNotFound, nil)

	d, err := update("sk_sandbox_acme", "le_c_dest_northwindach", &parties.DestinationPatch{Name: ptr("Main"),
		AccountType: ptr("savings")})
	enginetest.Must(t, err)
	if d.Name != "Main" || d.AccountType != "savings" || d.AccountNumber != "000123456789" ||
		d.RoutingNumber != "021000021" {
		t.Errorf("updated %+v: want the new name and type, the numbers kept", d)
	}
	if got := parties.EligibleRails(d); !slices.Equal(got, []string{parties.RailACH, parties.RailWire}) {
		t.Errorf("a savings account takes %v, want ach and wire", got)
	}
}

func TestEligibleRails(t *testing.T) {
	for _, c := range []struct {
		d    parties.Destination
		want []string
	}{
		{parties.Destination{Type: parties.DestinationACH, AccountType: "checking"},
			[]string{parties.RailACH, parties.RailWire, parties.RailRTP}},
		{parties.Destination{Type: parties.DestinationACH, AccountType: "savings"},
			[]string{parties.RailACH, parties.RailWire}},
		{parties.Destination{Type: parties.DestinationInternationalWire}, []string{parties.RailInternationalWire}},
		{parties.Destination{Type: parties.DestinationCrypto}, []string{}},
	} {
		if got := parties.EligibleRails(&c.d); !slices.Equal(got, c.want) || got == nil {
			t.Errorf("%s %s: %v, want %v", c.d.Type, c.d.AccountType, got, c.want)
		}
	}
}

// The destination list shows bank destinations only: a contact's crypto
// address is kept but not listed.
func TestListDestinationsLeavesOutCryptoAddresses(t *testing.T) {
	w := enginetest.Demo(t)
	enginetest.Must(t, enginetest.As(t, w, "sk_sandbox_acme", func(op *kernel.Op, a *kernel.Actor) error {
		page, err := parties.ListDestinations(op, a, "le_c_danaconsulting", kernel.PageRequest{})
		if err == nil && (len(page.Items) != 1 || page.Items[0].ID != "le_c_dest_danaach") {
			t.Errorf("Dana's destinations: %+v, want le_c_dest_danaach alone", page.Items)
		}
		return err
	}))
	enginetest.WantError(t, enginetest.As(t, w, "sk_sandbox_acme", func(op *kernel.Op, a *kernel.Actor) error {
		_, err := parties.ListDestinations(op, a, "le_c_tankerfuel", kernel.PageRequest{})
		return err
	}), kernel.CodeNotFound, map[string]string{"field": "filter:contactId", "id": "le_c_tankerfuel"})
}

func TestIBANValid(t *testing.T) {
	for iban, want := range map[string]bool{
		"DE89370400440532013000": true, "GB82WEST12345698765432": true, "FR1420041010050500013M02606": true,
		"DE89 3704 0044 0532 0130 00": false, "GB82WEST1234569876543X": false, "GB82WEST12345698765433": false,
		"1289370400440532013000": false, "DE89370400": false,
	} {
		if got := parties.IBANValid(iban); got != want {
			t.Errorf("IBANValid(%q) = %v, want %v", iban, got, want)
		}
	}
}
