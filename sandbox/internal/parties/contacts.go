package parties

import (
	"fmt"
	"math/big"
	"net/mail"
	"regexp"
	"strings"
	"unicode"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// ContactInput is a contact's writable fields: the body of POST /contact
// and, all five required, of PATCH /contact/{id}.
type ContactInput struct {
	Name               string   `json:"name"`
	RecipientType      string   `json:"recipientType"`
	RecipientLegalName string   `json:"recipientLegalName"`
	RecipientEmail     *string  `json:"recipientEmail,omitempty"`
	Address            *Address `json:"address,omitempty"`
}

// Validate checks a contact body; replace requires every field.
func (in *ContactInput) Validate(replace bool) error {
	d := map[string]string{}
	RequireText(d, "/name", in.Name, 200)
	if in.RecipientType != "contact" && in.RecipientType != "vendor" {
		d["/recipientType"] = "must be contact or vendor"
	}
	RequireText(d, "/recipientLegalName", in.RecipientLegalName, 200)
	if in.RecipientEmail != nil {
		CheckEmail(d, "/recipientEmail", *in.RecipientEmail)
	} else if replace {
		d["/recipientEmail"] = "required"
	}
	if in.Address != nil {
		CheckAddress(d, "/address", in.Address)
	} else if replace {
		d["/address"] = "required"
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

// RequireText checks a required string of at most max characters.
func RequireText(d map[string]string, path, s string, max int) {
	switch {
	case strings.TrimSpace(s) == "":
		d[path] = "required"
	case len([]rune(s)) > max:
		d[path] = fmt.Sprintf("must be at most %d characters", max)
	}
}

// CheckEmail checks an email address.
func CheckEmail(d map[string]string, path, s string) {
	if a, err := mail.ParseAddress(s); err != nil || a.Address != s ||
		!strings.Contains(s[strings.LastIndex(s, "@"):], ".") {
		d[path] = "must be an email address"
	}
}

// CheckAddress checks an IAddressModel.
func CheckAddress(d map[string]string, path string, a *Address) {
	for field, v := range map[string]string{"addressLine": a.AddressLine, "addressCity": a.AddressCity,
		"addressState": a.AddressState, "addressZip": a.AddressZip} {
		if strings.TrimSpace(v) == "" {
			d[path+"/"+field] = "required"
		}
	}
	if c := a.AddressCountry; c != "" && (len(c) != 2 || strings.ToUpper(c) != c || !isLetters(c)) {
		d[path+"/addressCountry"] = "must be an ISO 3166-1 alpha-2 code such as US"
	}
}

func isLetters(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
}

// ContactFilter narrows the contact list.
type ContactFilter struct {
	// Name matches part of the name, case-insensitively.
	Name string
}

// ListContacts lists the actor's contacts in creation order.
func ListContacts(
	op *kernel.Op,
	a *kernel.Actor,
	f ContactFilter,
	req kernel.PageRequest,
) (kernel.Page[Contact], error) {
	name := strings.ToLower(f.Name)
	return kernel.List(
		op,
		KindContact,
		kernel.IndexPrefix(IndexContactLE, a.LegalEntityID()),
		req,
		func(c *Contact) bool {
			return name == "" || strings.Contains(strings.ToLower(c.Name), name)
		},
	)
}

// ContactOf loads one of the actor's contacts.
func ContactOf(op *kernel.Op, a *kernel.Actor, id, field string) (*Contact, error) {
	var c Contact
	ok, err := op.Get(KindContact, id, &c)
	if err != nil {
		return nil, err
	}
	if !ok || c.LegalEntityID != a.LegalEntityID() {
		return nil, kernel.NotFound("contact", field, id)
	}
	return &c, nil
}

// CreateContact stores a new contact of the actor's legal entity.
func CreateContact(op *kernel.Op, a *kernel.Actor, in *ContactInput) (*Contact, error) {
	id, err := op.NewID(PrefixContact)
	if err != nil {
		return nil, err
	}
	seq, err := op.NextSeq()
	if err != nil {
		return nil, err
	}
	c := &Contact{ID: id, LegalEntityID: a.LegalEntityID(), CreatedAt: op.Now, Seq: seq}
	in.apply(c)
	return c, op.Save(KindContact, c.ID, c, ContactIndexes(c)...)
}

// ReplaceContact replaces the five writable fields of a contact.
func ReplaceContact(op *kernel.Op, a *kernel.Actor, id string, in *ContactInput) (*Contact, error) {
	c, err := ContactOf(op, a, id, "")
	if err != nil {
		return nil, err
	}
	in.apply(c)
	return c, op.Save(KindContact, c.ID, c, ContactIndexes(c)...)
}

func (in *ContactInput) apply(c *Contact) {
	c.Name, c.RecipientType, c.RecipientLegalName, c.Address = in.Name, in.RecipientType, in.RecipientLegalName, in.Address
	c.RecipientEmail = ""
	if in.RecipientEmail != nil {
		c.RecipientEmail = *in.RecipientEmail
	}
}

// Transaction types a destination can be paid with.
const (
	RailACH               = "ach"
	RailWire              = "wire"
	RailRTP               = "rtp"
	RailInternationalWire = "international_wire"
)

// EligibleRails lists the transaction types a destination can receive: a
// US bank account takes ACH and wire, and RTP when it is a checking
// account; an international account takes international wires. Crypto
// addresses take none of these.
func EligibleRails(d *Destination) []string {
	switch d.Type {
	case DestinationACH:
		if d.AccountType == "savings" {
			return []string{RailACH, RailWire}
		}
		return []string{RailACH, RailWire, RailRTP}
	case DestinationInternationalWire:
		return []string{RailInternationalWire}
	}
	return []string{}
}

// ListDestinations lists the bank destinations of the actor's contacts, or
// of one contact, in creation order. Crypto addresses are kept but not
// listed.
func ListDestinations(
	op *kernel.Op,
	a *kernel.Actor,
	contactID string,
	req kernel.PageRequest,
) (kernel.Page[Destination], error) {
	prefix := kernel.IndexPrefix(indexDestLE, a.LegalEntityID())
	if contactID != "" {
		if _, err := ContactOf(op, a, contactID, "filter:contactId"); err != nil {
			return kernel.Page[Destination]{}, err
		}
		prefix = kernel.IndexPrefix(IndexDestContact, contactID)
	}
	return kernel.List(op, KindDestination, prefix, req,
		func(d *Destination) bool { return d.Type != DestinationCrypto })
}

// DestinationPatch holds the destination fields a PATCH may change; nil
// leaves a field as it is.
type DestinationPatch struct {
	Name          *string `json:"name,omitempty"`
	AccountNumber *string `json:"accountNumber,omitempty"`
	RoutingNumber *string `json:"routingNumber,omitempty"`
	AccountType   *string `json:"accountType,omitempty"`
	BankName      *string `json:"bankName,omitempty"`
	IBAN          *string `json:"iban,omitempty"`
	SWIFT         *string `json:"swift,omitempty"`
	BankCountry   *string `json:"bankCountry,omitempty"`
}

var (
	accountNumberPattern = regexp.MustCompile(`^[0-9]{4,17}$`)
	swiftPattern         = regexp.MustCompile(`^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$`)
)

// Validate checks the format of every field given.
func (p *DestinationPatch) Validate() error {
	d := map[string]string{}
	if p.Name != nil && len([]rune(*p.Name)) > 200 {
		d["/name"] = "must be at most 200 characters"
	}
	if p.AccountNumber != nil && !accountNumberPattern.MatchString(*p.AccountNumber) {
		d["/accountNumber"] = "must be 4 to 17 digits"
	}
	if p.RoutingNumber != nil && !RoutingNumberValid(*p.RoutingNumber) {
		d["/routingNumber"] = "is not a valid ABA routing number (9 digits with a valid checksum)"
	}
	if p.AccountType != nil && *p.AccountType != "checking" && *p.AccountType != "savings" {
		d["/accountType"] = "must be checking or savings"
	}
	if p.BankName != nil && strings.TrimSpace(*p.BankName) == "" {
		d["/bankName"] = "must not be empty"
	}
	if p.IBAN != nil && !IBANValid(*p.IBAN) {
		d["/iban"] = "is not a valid IBAN (country code, check digits and a mod-97 checksum)"
	}
	if p.SWIFT != nil && !swiftPattern.MatchString(*p.SWIFT) {
		d["/swift"] = "must be an 8 or 11 character BIC such as COBADEFFXXX"
	}
	if p.BankCountry != nil &&
		(len(*p.BankCountry) != 2 || strings.ToUpper(*p.BankCountry) != *p.BankCountry || !isLetters(*p.BankCountry)) {
		d["/bankCountry"] = "must be an ISO 3166-1 alpha-2 code"
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

// UpdateDestination changes the name or details of one of the actor's
// bank destinations. Fields of the other destination type are refused.
func UpdateDestination(op *kernel.Op, a *kernel.Actor, id string, p *DestinationPatch) (*Destination, error) {
	var dst Destination
	ok, err := op.Get(KindDestination, id, &dst)
	if err != nil {
		return nil, err
	}
	if !ok || dst.LegalEntityID != a.LegalEntityID() || dst.Type == DestinationCrypto {
		return nil, kernel.NotFound("destination", "", id)
	}
	bank := map[string]*string{
		"/accountNumber": p.AccountNumber,
		"/routingNumber": p.RoutingNumber,
		"/accountType":   p.AccountType,
	}
	intl := map[string]*string{"/iban": p.IBAN, "/swift": p.SWIFT, "/bankCountry": p.BankCountry}
	wrong := intl
	if dst.Type == DestinationInternationalWire {
		wrong = bank
	}
	d := map[string]string{}
	for path, v := range wrong {
		if v != nil {
			d[path] = "does not apply to a " + dst.Type + " destination"
		}
	}
	if len(d) > 0 {
		return nil, kernel.Invalid(d)
	}
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	set(&dst.Name, p.Name)
	set(&dst.AccountNumber, p.AccountNumber)
	set(&dst.RoutingNumber, p.RoutingNumber)
	set(&dst.AccountType, p.AccountType)
	set(&dst.BankName, p.BankName)
	set(&dst.IBAN, p.IBAN)
	set(&dst.SWIFT, p.SWIFT)
	set(&dst.BankCountry, p.BankCountry)
	return &dst, op.Save(KindDestination, dst.ID, &dst, destinationIndexes(&dst)...)
}

// IBANValid checks an IBAN's form and its ISO 7064 mod-97 checksum.
func IBANValid(s string) bool {
	if len(s) < 15 || len(s) > 34 || !isLetters(s[:2]) || strings.ToUpper(s) != s {
		return false
	}
	var digits strings.Builder
	for _, r := range s[4:] + s[:4] {
		switch {
		case r >= '0' && r <= '9':
			digits.WriteRune(r)
		case r >= 'A' && r <= 'Z':
			fmt.Fprintf(&digits, "%d", r-'A'+10)
		default:
			return false
		}
	}
	n, ok := new(big.Int).SetString(digits.String(), 10)
	return ok && new(big.Int).Mod(n, big.NewInt(97)).Int64() == 1
}

func destinationIndexes(d *Destination) []string {
	at, seq := store.Millis(d.CreatedAt), store.Seq(d.Seq)
	return []string{
		kernel.IndexKey(IndexDestContact, d.ContactID, at, seq, d.ID),
		kernel.IndexKey(indexDestLE, d.LegalEntityID, at, seq, d.ID),
	}
}

// ContactIndexes are the index keys of a contact: its legal entity's
// contacts in creation order.
func ContactIndexes(c *Contact) []string {
	return []string{kernel.IndexKey(IndexContactLE, c.LegalEntityID, store.Millis(c.CreatedAt), store.Seq(c.Seq), c.ID)}
}

const indexDestLE = "dest.le"

// IndexDestContact holds a contact's destinations in creation order.
const IndexDestContact = "dest.contact"

// IndexContactLE holds a legal entity's contacts in creation order.
const IndexContactLE = "contact.le"

// SaveDestination stores a new contact destination.
func SaveDestination(op *kernel.Op, d *Destination) error {
	if d.ID == "" {
		id, err := op.NewID(PrefixDestination)
		if err != nil {
			return err
		}
		d.ID = id
	}
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	d.Seq = seq
	if d.CreatedAt.IsZero() {
		d.CreatedAt = op.Now
	}
	return op.Save(KindDestination, d.ID, d, destinationIndexes(d)...)
}
