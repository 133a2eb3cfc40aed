package inforequests

import (
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

// Submission is what a contact fills in the secure form.
type Submission struct {
	BankAccount       *BankAccountDetails `json:"bankAccount,omitempty"`
	InternationalWire *WireDetails        `json:"internationalWire,omitempty"`
	CryptoAddress     *CryptoDetails      `json:"cryptoAddress,omitempty"`
	Address           *parties.Address    `json:"address,omitempty"`
	Tax               *TaxDetails         `json:"tax,omitempty"`
}

// BankAccountDetails is a US bank account.
type BankAccountDetails struct {
	HolderName    string `json:"holderName"`
	RoutingNumber string `json:"routingNumber"`
	AccountNumber string `json:"accountNumber"`
	AccountType   string `json:"accountType"`
	BankName      string `json:"bankName,omitempty"`
}

// WireDetails is an international wire beneficiary.
type WireDetails struct {
	BeneficiaryName string `json:"beneficiaryName"`
	IBAN            string `json:"iban"`
	SWIFT           string `json:"swift"`
	BankName        string `json:"bankName"`
	BankCountry     string `json:"bankCountry"`
}

// CryptoDetails is a stablecoin address.
type CryptoDetails struct {
	Address  string `json:"address"`
	Chain    string `json:"chain"`
	Currency string `json:"currency"`
}

// TaxDetails is a tax identifier.
type TaxDetails struct {
	Type   string `json:"type"`
	Number string `json:"number"`
}

// Chains and currencies a crypto address may use.
var (
	CryptoChains = []string{
		"ethereum",
		"base",
		"polygon",
		"arbitrum",
		"optimism",
		"avalanche",
		"solana",
		"tron",
		"stellar",
	}
	CryptoCurrencies = []string{"usdc", "usdt"}
	TaxIDTypes       = []string{"ein", "ssn", "itin", "vat", "other"}
	evmAddress       = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
	base58Address    = regexp.MustCompile(`^[1-9A-HJ-NP-Za-km-z]{32,44}$`)
	tronAddress      = regexp.MustCompile(`^T[1-9A-HJ-NP-Za-km-z]{33}$`)
	stellarAddress   = regexp.MustCompile(`^G[A-Z2-7]{55}$`)
	swiftCode        = regexp.MustCompile(`^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$`)
	accountNumber    = regexp.MustCompile(`^[0-9]{4,17}$`)
	usZip            = regexp.MustCompile(`^[0-9]{5}(-[0-9]{4})?$`)
	taxPatterns      = map[string]*regexp.Regexp{
		"ein": regexp.MustCompile(`^[0-9]{2}-?[0-9]{7}$`), "ssn": regexp.MustCompile(`^[0-9]{3}-?[0-9]{2}-?[0-9]{4}$`),
		"itin": regexp.MustCompile(`^9[0-9]{2}-?[0-9]{2}-?[0-9]{4}$`), "vat": regexp.MustCompile(`^[A-Z]{2}[A-Z0-9]{2,13}$`),
	}
)

// CryptoAddressValid checks an address's form for its chain.
func CryptoAddressValid(chain, address string) bool {
	switch chain {
	case "solana":
		return base58Address.MatchString(address)
	case "tron":
		return tronAddress.MatchString(address)
	case "stellar":
		return stellarAddress.MatchString(address)
	}
	return evmAddress.MatchString(address)
}

// Validate checks a submission against what was requested; problems are
// keyed by form field ("bankAccount.routingNumber").
func (s *Submission) Validate(r RequestedInformation) map[string]string {
	d := map[string]string{}
	need := func(asked bool, present bool, field, label string) bool {
		switch {
		case asked && !present:
			d[field] = label + " is required"
		case !asked && present:
			d[field] = label + " was not requested"
		}
		return asked && present
	}
	if need(r.Wants(parties.DestinationACH), s.BankAccount != nil, "bankAccount", "a US bank account") {
		s.BankAccount.check(d)
	}
	if need(r.Wants(parties.DestinationInternationalWire), s.InternationalWire != nil, "internationalWire",
		"international wire details") {
		s.InternationalWire.check(d)
	}
	if need(r.Wants(parties.DestinationCrypto), s.CryptoAddress != nil, "cryptoAddress", "a crypto address") {
		s.CryptoAddress.check(d)
	}
	if need(r.Address != nil && *r.Address, s.Address != nil, "address", "an address") {
		checkFormAddress(s.Address, d)
	}
	if need(r.Tax != nil && *r.Tax, s.Tax != nil, "tax", "a tax id") {
		s.Tax.check(d)
	}
	return d
}

func (b *BankAccountDetails) check(d map[string]string) {
	if strings.TrimSpace(b.HolderName) == "" {
		d["bankAccount.holderName"] = "enter the account holder's name"
	}
	if !parties.RoutingNumberValid(b.RoutingNumber) {
		d["bankAccount.routingNumber"] = "not a valid 9-digit ABA routing number (checksum)"
	}
	if !accountNumber.MatchString(b.AccountNumber) {
		d["bankAccount.accountNumber"] = "must be 4 to 17 digits"
	}
	if b.AccountType != "checking" && b.AccountType != "savings" {
		d["bankAccount.accountType"] = "choose checking or savings"
	}
}

func (w *WireDetails) check(d map[string]string) {
	if strings.TrimSpace(w.BeneficiaryName) == "" {
		d["internationalWire.beneficiaryName"] = "enter the beneficiary's name"
	}
	if !parties.IBANValid(normalIBAN(w.IBAN)) {
		d["internationalWire.iban"] = "not a valid IBAN (checksum)"
	}
	if !swiftCode.MatchString(strings.ToUpper(w.SWIFT)) {
		d["internationalWire.swift"] = "must be an 8 or 11 character SWIFT/BIC code"
	}
	if strings.TrimSpace(w.BankName) == "" {
		d["internationalWire.bankName"] = "enter the bank's name"
	}
	if !parties.IsCountryCode(strings.ToUpper(w.BankCountry)) {
		d["internationalWire.bankCountry"] = "must be a two-letter country code"
	}
}

func (c *CryptoDetails) check(d map[string]string) {
	if !contains(CryptoChains, c.Chain) {
		d["cryptoAddress.chain"] = "choose one of " + strings.Join(CryptoChains, ", ")
	} else if !CryptoAddressValid(c.Chain, c.Address) {
		d["cryptoAddress.address"] = "not a valid " + c.Chain + " address"
	}
	if !contains(CryptoCurrencies, c.Currency) {
		d["cryptoAddress.currency"] = "choose usdc or usdt"
	}
}

// checkFormAddress checks the form's address section.
func checkFormAddress(a *parties.Address, d map[string]string) {
	for field, v := range map[string]string{"addressLine": a.AddressLine, "addressCity": a.AddressCity,
		"addressState": a.AddressState} {
		if strings.TrimSpace(v) == "" {
			d["address."+field] = "required"
		}
	}
	if !parties.IsCountryCode(a.AddressCountry) {
		d["address.addressCountry"] = "must be a two-letter country code"
	}
	if a.AddressCountry == "US" && !usZip.MatchString(a.AddressZip) {
		d["address.addressZip"] = "must be a US ZIP code (12345 or 12345-6789)"
	} else if strings.TrimSpace(a.AddressZip) == "" {
		d["address.addressZip"] = "required"
	}
}

func (t *TaxDetails) check(d map[string]string) {
	if !contains(TaxIDTypes, t.Type) {
		d["tax.type"] = "choose one of " + strings.Join(TaxIDTypes, ", ")
		return
	}
	if p, ok := taxPatterns[t.Type]; ok && !p.MatchString(strings.ToUpper(t.Number)) {
		d["tax.number"] = "not a valid " + strings.ToUpper(t.Type)
	} else if strings.TrimSpace(t.Number) == "" {
		d["tax.number"] = "required"
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// NeverSubmits reports whether a contact's email is one of the magic
// addresses whose owner never answers: local part starting with "never".
func NeverSubmits(email string) bool { return strings.HasPrefix(strings.ToLower(email), "never") }

// SubmitInformation records a contact's answer to a pending or submitted
// request: destinations are stored on the contact, the address and tax id
// on the contact itself, and queued transfers are released. A nil
// submission is filled with generated, valid details.
func SubmitInformation(op *kernel.Op, id string, s *Submission) (*Request, error) {
	ir, ok, err := InfoRequest(op, id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, kernel.NotFound("information request", "informationRequestId", id)
	}
	if ir.Status == StatusCanceled {
		return nil, kernel.Errorf(kernel.CodeConflict, "information request %s was canceled", id).With("status", ir.Status)
	}
	if s == nil {
		if NeverSubmits(ir.SentToEmail) {
			return nil, kernel.Errorf(kernel.CodeConflict, "%s never submits (a magic address of the sandbox)", ir.SentToEmail)
		}
		s = generatedSubmission(op, ir)
	}
	if d := s.Validate(ir.RequestedInformation); len(d) > 0 {
		return nil, kernel.Invalid(d)
	}
	dests, err := storeSubmission(op, ir, s)
	if err != nil {
		return nil, err
	}
	now := op.Now
	if ir.FirstSubmittedAt == nil {
		ir.FirstSubmittedAt = &now
	}
	ir.LastSubmittedAt, ir.Status = &now, StatusSubmitted
	if err := releaseQueuedACH(op, ir, dests); err != nil {
		return nil, err
	}
	return ir, op.Save(kindInfoRequest, ir.ID, ir, infoIndexes(ir)...)
}

// storeSubmission writes the submitted details onto the contact.
func storeSubmission(op *kernel.Op, ir *Request, s *Submission) ([]*parties.Destination, error) {
	var c parties.Contact
	ok, err := op.Get(parties.KindContact, ir.ContactID, &c)
	if err != nil {
		return nil, fmt.Errorf("contact %s of request %s: %w", ir.ContactID, ir.ID, err)
	}
	if !ok {
		return nil, fmt.Errorf("contact %s of request %s: not found", ir.ContactID, ir.ID)
	}
	var dests []*parties.Destination
	if b := s.BankAccount; b != nil {
		dests = append(
			dests,
			&parties.Destination{Type: parties.DestinationACH, Name: b.HolderName, RoutingNumber: b.RoutingNumber,
				AccountNumber: b.AccountNumber, AccountType: b.AccountType, BankName: b.BankName},
		)
	}
	if w := s.InternationalWire; w != nil {
		dests = append(dests, &parties.Destination{Type: parties.DestinationInternationalWire, Name: w.BeneficiaryName,
			IBAN: normalIBAN(w.IBAN), SWIFT: strings.ToUpper(w.SWIFT), BankName: w.BankName,
			BankCountry: strings.ToUpper(w.BankCountry)})
	}
	if k := s.CryptoAddress; k != nil {
		dests = append(dests,
			&parties.Destination{Type: parties.DestinationCrypto, Address: k.Address, Chain: k.Chain, Currency: k.Currency})
	}
	for _, d := range dests {
		d.ContactID, d.LegalEntityID = c.ID, c.LegalEntityID
		if err := parties.SaveDestination(op, d); err != nil {
			return nil, err
		}
	}
	if s.Address != nil {
		c.Address = s.Address
	}
	if s.Tax != nil {
		data := map[string]any{}
		json.Unmarshal(c.Data, &data)
		data["tax"] = map[string]string{"type": s.Tax.Type, "number": s.Tax.Number}
		c.Data, _ = json.Marshal(data)
	}
	return dests, op.Save(parties.KindContact, c.ID, &c, parties.ContactIndexes(&c)...)
}

// generatedSubmission makes valid details for every requested item.
func generatedSubmission(op *kernel.Op, ir *Request) *Submission {
	f := op.W.Faker("info-submission:"+ir.ID, ir.Seq)
	r := ir.RequestedInformation
	s := &Submission{}
	if r.Wants(parties.DestinationACH) {
		s.BankAccount = &BankAccountDetails{
			HolderName:    f.Company(),
			RoutingNumber: parties.RoutingNumber(f),
			AccountNumber: f.DigitN(12),
			AccountType:   "checking",
			BankName:      "Chase",
		}
	}
	if r.Wants(parties.DestinationInternationalWire) {
		s.InternationalWire = &WireDetails{
			BeneficiaryName: f.Company(),
			IBAN:            germanIBAN(f.DigitN(8), f.DigitN(10)),
			SWIFT:           "DEUTDEFF",
			BankName:        "Deutsche Bank",
			BankCountry:     "DE",
		}
	}
	if r.Wants(parties.DestinationCrypto) {
		s.CryptoAddress = &CryptoDetails{Address: "0x" + f.HexUint(160)[2:], Chain: "ethereum", Currency: "usdc"}
	}
	if r.Address != nil && *r.Address {
		s.Address = &parties.Address{
			AddressLine:    f.Street(),
			AddressCity:    f.City(),
			AddressState:   f.StateAbr(),
			AddressZip:     f.Zip()[:5],
			AddressCountry: "US",
		}
	}
	if r.Tax != nil && *r.Tax {
		s.Tax = &TaxDetails{Type: "ein", Number: f.DigitN(2) + "-" + f.DigitN(7)}
	}
	return s
}

// germanIBAN builds a DE IBAN with valid check digits from a bank code and
// an account number.
func germanIBAN(blz, account string) string {
	bban := blz + account
	n, _ := new(big.Int).SetString(bban+"131400", 10)
	check := 98 - new(big.Int).Mod(n, big.NewInt(97)).Int64()
	return fmt.Sprintf("DE%02d%s", check, bban)
}

// normalIBAN removes the spaces people type in an IBAN and upper-cases it.
func normalIBAN(s string) string { return strings.ToUpper(strings.ReplaceAll(s, " ", "")) }
