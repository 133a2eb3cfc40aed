package invoices

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

// KindSettings is the record kind of a legal entity's invoice
// settings.
const KindSettings = "invoice_settings"

// MaxLogoBytes is the largest invoice logo accepted (2 MiB).
const MaxLogoBytes = 2 << 20

// Branding colours invoices.
type Branding struct {
	BackgroundColor string `json:"backgroundColor,omitempty"`
	TitleColor      string `json:"titleColor,omitempty"`
}

// Settings is how a legal entity's invoices look and read.
type Settings struct {
	ID                      string          `json:"id"`
	LegalEntityID           string          `json:"legalEntityId"`
	CompanyName             string          `json:"companyName"`
	Email                   string          `json:"email"`
	Address                 parties.Address `json:"address"`
	DefaultMemo             string          `json:"defaultMemo,omitempty"`
	InvoiceTerms            string          `json:"invoiceTerms,omitempty"`
	DefaultPaymentTermsDays *int            `json:"defaultPaymentTermsDays,omitempty"`
	LogoDocumentID          string          `json:"logoDocumentId,omitempty"`
	UnitPriceDecimalPlaces  *int            `json:"unitPriceDecimalPlaces,omitempty"`
	Branding                *Branding       `json:"branding,omitempty"`
	Timestamp               time.Time       `json:"timestamp"`
}

// SettingsInput is the body of PUT /invoice/settings: it replaces
// the settings whole.
type SettingsInput struct {
	CompanyName             string           `json:"companyName"`
	Email                   string           `json:"email"`
	Address                 *parties.Address `json:"address,omitempty"`
	DefaultMemo             *string          `json:"defaultMemo,omitempty"`
	InvoiceTerms            *string          `json:"invoiceTerms,omitempty"`
	DefaultPaymentTermsDays *int             `json:"defaultPaymentTermsDays,omitempty"`
	LogoDocumentID          *string          `json:"logoDocumentId,omitempty"`
	UnitPriceDecimalPlaces  *int             `json:"unitPriceDecimalPlaces,omitempty"`
	Branding                *Branding        `json:"branding,omitempty"`
}

var hexColour = regexp.MustCompile(`^#[0-9A-Fa-f]{6}$`)

// Validate checks the settings body.
func (in *SettingsInput) Validate() error {
	d := map[string]string{}
	parties.RequireText(d, "/companyName", in.CompanyName, 200)
	if strings.TrimSpace(in.Email) == "" {
		d["/email"] = "required"
	} else {
		parties.CheckEmail(d, "/email", in.Email)
	}
	if in.Address == nil {
		d["/address"] = "required"
	} else {
		parties.CheckAddress(d, "/address", in.Address)
	}
	if in.DefaultMemo != nil && len([]rune(*in.DefaultMemo)) > 500 {
		d["/defaultMemo"] = "must be at most 500 characters"
	}
	if in.InvoiceTerms != nil && len([]rune(*in.InvoiceTerms)) > 2000 {
		d["/invoiceTerms"] = "must be at most 2000 characters"
	}
	if in.DefaultPaymentTermsDays != nil && *in.DefaultPaymentTermsDays < 0 {
		d["/defaultPaymentTermsDays"] = "must be at least 0"
	}
	if p := in.UnitPriceDecimalPlaces; p != nil && (*p < 2 || *p > 6) {
		d["/unitPriceDecimalPlaces"] = "must be from 2 to 6"
	}
	if b := in.Branding; b != nil {
		for path, c := range map[string]string{"/branding/backgroundColor": b.BackgroundColor,
			"/branding/titleColor": b.TitleColor} {
			if c != "" && !hexColour.MatchString(c) {
				d[path] = "must be a colour like #1A2B3C"
			}
		}
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

// SettingsOf returns a legal entity's invoice settings. Until they
// are set, they are derived: the legal entity's name, its first admin's
// email and a generated address.
func SettingsOf(op *kernel.Op, legalEntityID string) (*Settings, error) {
	var s Settings
	ok, err := op.Get(KindSettings, legalEntityID, &s)
	if err != nil || ok {
		return &s, err
	}
	var le kernel.LegalEntity
	if _, err := op.Get(kernel.LegalEntities.Name, legalEntityID, &le); err != nil {
		return nil, err
	}
	s = Settings{
		ID:            "invoice_settings_" + strings.TrimPrefix(legalEntityID, kernel.LegalEntities.Prefix),
		LegalEntityID: legalEntityID,
		CompanyName:   le.Name,
		Email:         "invoices@" + strings.TrimPrefix(legalEntityID, kernel.LegalEntities.Prefix) + ".example",
		Timestamp:     le.CreatedAt,
	}
	users, err := op.LegalEntityUsers(legalEntityID)
	if err != nil {
		return nil, err
	}
	for _, u := range users {
		if u.RoleOn(legalEntityID) == "admin" && u.Email != "" {
			s.Email = u.Email
			break
		}
	}
	f := op.W.Faker("invoice-settings:"+legalEntityID, 0)
	a := f.Address()
	s.Address = parties.Address{
		AddressLine:    a.Street,
		AddressCity:    a.City,
		AddressState:   f.StateAbr(),
		AddressZip:     a.Zip,
		AddressCountry: "US",
	}
	return &s, nil
}

// ReplaceSettings stores new settings for the actor's legal entity.
func ReplaceSettings(op *kernel.Op, a *kernel.Actor, in *SettingsInput) (*Settings, error) {
	cur, err := SettingsOf(op, a.LegalEntityID())
	if err != nil {
		return nil, err
	}
	s := &Settings{ID: cur.ID, LegalEntityID: cur.LegalEntityID, CompanyName: in.CompanyName, Email: in.Email,
		Address: *in.Address, DefaultPaymentTermsDays: in.DefaultPaymentTermsDays,
		UnitPriceDecimalPlaces: in.UnitPriceDecimalPlaces,
		Branding:               in.Branding, Timestamp: op.Now}
	if in.DefaultMemo != nil {
		s.DefaultMemo = *in.DefaultMemo
	}
	if in.InvoiceTerms != nil {
		s.InvoiceTerms = *in.InvoiceTerms
	}
	if in.LogoDocumentID != nil {
		doc, err := DocumentOf(op, s.LegalEntityID, *in.LogoDocumentID, "/logoDocumentId")
		if err != nil {
			return nil, err
		}
		if doc.Type != DocumentInvoiceLogo {
			return nil, kernel.InvalidField("/logoDocumentId", "document "+doc.ID+" is not an invoice logo")
		}
		s.LogoDocumentID = doc.ID
	}
	return s, op.Save(KindSettings, s.LegalEntityID, s)
}

// CheckLogo checks an invoice logo upload: PNG, JPEG, SVG or WebP by
// content, at most MaxLogoBytes. It returns the content type.
func CheckLogo(data []byte) (string, error) {
	if len(data) == 0 {
		return "", kernel.InvalidField("file", "required: a non-empty file")
	}
	if len(data) > MaxLogoBytes {
		return "", kernel.Errorf(kernel.CodePayloadTooLarge, "the logo is %d bytes; at most %d (2 MiB) are accepted",
			len(data), MaxLogoBytes).
			With("file", fmt.Sprintf("%d bytes, limit %d", len(data), MaxLogoBytes))
	}
	ct := SniffFileType(data)
	if ct == "" || ct == "application/pdf" {
		return "", kernel.InvalidField("file", "must be a PNG, JPEG, SVG or WebP image (checked by content)")
	}
	return ct, nil
}

// UploadLogo stores a checked logo and makes it the actor's invoice
// logo.
func UploadLogo(op *kernel.Op, a *kernel.Actor, data []byte, filename, contentType string) (*Document, error) {
	doc := &Document{LegalEntityID: a.LegalEntityID(), Type: DocumentInvoiceLogo, Source: DocumentUploaded,
		ContentType: contentType, Filename: filename, Data: data}
	if err := SaveDocument(op, doc); err != nil {
		return nil, err
	}
	s, err := SettingsOf(op, a.LegalEntityID())
	if err != nil {
		return nil, err
	}
	s.LogoDocumentID, s.Timestamp = doc.ID, op.Now
	return doc, op.Save(KindSettings, s.LegalEntityID, s)
}
