package record

import (
	"context"
	"net/url"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// achRecurring reads whether a contact or customer holds an active
// recurring ACH debit authorization.
func (rc *recording) achRecurring(ctx context.Context, path, le string) (bool, error) {
	var a struct {
		HasActiveRecurringAuth bool `json:"hasActiveRecurringAuth"`
	}
	err := rc.r.get(ctx, path+"/ach-debit-recurring", nil, le, &a)
	return a.HasActiveRecurringAuth, err
}

// contacts reads the contacts and where they can be paid.
func (rc *recording) contacts(ctx context.Context, le string) error {
	cs, err := items[struct {
		ID, Name, RecipientType, RecipientLegalName, RecipientEmail string
		Address                                                     *scenario.Address
	}](ctx, rc, "contacts", "/contact", url.Values{"filter:legalEntityId": {le}}, le)
	if err != nil {
		return err
	}
	start := len(rc.sc.Contacts)
	for _, c := range cs {
		ct := scenario.Contact{ID: c.ID, LegalEntityID: le, Name: rc.anon.company(c.Name),
			RecipientType: c.RecipientType, RecipientLegalName: rc.anon.company(c.RecipientLegalName),
			RecipientEmail: rc.anon.email(c.RecipientEmail), Address: rc.anon.address(c.Address)}
		if ct.AchDebitRecurring, err = rc.achRecurring(ctx, "/contact/"+url.PathEscape(c.ID), le); err != nil {
			return err
		}
		rc.sc.Contacts = append(rc.sc.Contacts, ct)
	}
	ds, err := items[struct {
		ID, ContactID, Type, Name string
		BankAccount               *struct {
			AccountNumberLast4, RoutingNumber, AccountType, BankName string
		}
		InternationalWire *struct {
			IbanLast4, Swift, BankName, BankCountry, Currency string
		}
		CryptoAddress *struct {
			Address, Chain, Currency string
		}
	}](ctx, rc, "destinations", "/contact/destination", nil, le)
	if err != nil {
		return err
	}
	for _, d := range ds {
		dst := scenario.Destination{ID: d.ID, Type: d.Type, Name: d.Name}
		switch {
		case d.BankAccount != nil:
			b := d.BankAccount
			dst.AccountNumber = rc.anon.digits("account", "00000000"+b.AccountNumberLast4)
			dst.RoutingNumber, dst.AccountType, dst.BankName = rc.anon.routing(b.RoutingNumber), b.AccountType,
				b.BankName
		case d.InternationalWire != nil:
			w := d.InternationalWire
			country := strings.ToUpper(w.BankCountry)
			if len(country) != 2 {
				country = "XX"
			}
			dst.IBAN = rc.anon.alnum("iban", country+"00"+"00000000000000"+w.IbanLast4, 2)
			dst.SWIFT, dst.BankName, dst.BankCountry, dst.Currency = rc.anon.alnum("swift", w.Swift, 4), w.BankName,
				w.BankCountry, w.Currency
		case d.CryptoAddress != nil:
			c := d.CryptoAddress
			dst.Address, dst.Chain, dst.Currency = rc.anon.alnum("crypto", c.Address, 2), c.Chain, c.Currency
		}
		for i := start; i < len(rc.sc.Contacts); i++ {
			if rc.sc.Contacts[i].ID == d.ContactID {
				rc.sc.Contacts[i].Destinations = append(rc.sc.Contacts[i].Destinations, dst)
			}
		}
	}
	rc.note("contacts' full bank account numbers and IBANs (only their last four digits are read)")
	return nil
}

// customers reads the customers, active and archived.
func (rc *recording) customers(ctx context.Context, le string) error {
	cs, err := items[struct {
		ID, Name, Email, Phone, Status string
		Address                        *scenario.Address
		CustomMetadata                 map[string]any
	}](ctx, rc, "customers", "/customer", url.Values{"filter:legalEntityId": {le}}, le)
	if err != nil {
		return err
	}
	for _, c := range cs {
		cu := scenario.Customer{ID: c.ID, LegalEntityID: le, Name: rc.anon.company(c.Name),
			Email: rc.anon.email(c.Email), Phone: rc.anon.digits("phone", c.Phone), Address: rc.anon.address(c.Address),
			Status: c.Status, CustomMetadata: whole(c.CustomMetadata)}
		if cu.AchDebitRecurring, err = rc.achRecurring(ctx, "/customer/"+url.PathEscape(c.ID), le); err != nil {
			return err
		}
		rc.sc.Customers = append(rc.sc.Customers, cu)
	}
	return nil
}
