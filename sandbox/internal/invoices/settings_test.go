package invoices_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

// settingsInput is a valid settings body.
func settingsInput() *invoices.SettingsInput {
	return &invoices.SettingsInput{CompanyName: "Acme Robotics", Email: "ar@acme.test",
		Address: &parties.Address{AddressLine: "1 Main St", AddressCity: "San Jose", AddressState: "CA",
			AddressZip: "95113", AddressCountry: "US"},
		DefaultMemo: ptr("Net 15, thank you.")}
}

// Until a legal entity sets them, its settings are derived: its name, its
// first admin's email and an address that stays the same.
func TestInvoiceSettingsAreDerivedUntilSet(t *testing.T) {
	w := enginetest.Demo(t)
	var first, again *invoices.Settings
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		var err error
		if first, err = invoices.SettingsOf(op, "le_globex"); err != nil {
			return err
		}
		again, err = invoices.SettingsOf(op, "le_globex")
		return err
	}))
	if first.CompanyName != "Globex Logistics LLC" || first.Email != "alice@acme.test" ||
		first.ID != "invoice_settings_globex" || first.Address.AddressCountry != "US" || first.Address.AddressLine == "" {
		t.Errorf("derived settings %+v", first)
	}
	if first.Address != again.Address {
		t.Errorf("the derived address changed between reads: %+v, then %+v", first.Address, again.Address)
	}
}

func TestInvoiceSettingsInputValidate(t *testing.T) {
	cases := []struct {
		name   string
		change func(in *invoices.SettingsInput)
		field  string
		detail string
	}{
		{"no company name", func(in *invoices.SettingsInput) { in.CompanyName = "  " }, "/companyName",
			"required"},
		{"an email without a domain", func(in *invoices.SettingsInput) { in.Email = "ar@acme" }, "/email",
			"must be an email address"},
		{"no address", func(in *invoices.SettingsInput) { in.Address = nil }, "/address", "required"},
		{"an address without a city", func(in *invoices.SettingsInput) { in.Address.AddressCity = "" },
			"/address/addressCity", "required"},
		{"a country name", func(in *invoices.SettingsInput) { in.Address.AddressCountry = "USA" },
			"/address/addressCountry", "must be an ISO 3166-1 alpha-2 code such as US"},
		{"negative payment terms", func(in *invoices.SettingsInput) { in.DefaultPaymentTermsDays = ptr(-1) },
			"/defaultPaymentTermsDays", "must be at least 0"},
		{"one decimal place", func(in *invoices.SettingsInput) { in.UnitPriceDecimalPlaces = ptr(1) },
			"/unitPriceDecimalPlaces", "must be from 2 to 6"},
		{"a colour by name", func(in *invoices.SettingsInput) {
			in.Branding = &invoices.Branding{TitleColor: "red"}
		}, "/branding/titleColor", "must be a colour like #1A2B3C"},
		{"terms too long", func(in *invoices.SettingsInput) { in.InvoiceTerms = ptr(strings.Repeat("x", 2001)) },
			"/invoiceTerms", "must be at most 2000 characters"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := settingsInput()
			c.change(in)
			enginetest.WantError(t, in.Validate(), kernel.CodeInvalidRequest, map[string]string{c.field: c.detail})
		})
	}
	if err := settingsInput().Validate(); err != nil {
		t.Errorf("a valid body: %v", err)
	}
}

// New settings replace the old ones whole; their default memo goes on the
// next invoice that gives none, and their name on its email.
func TestReplacedSettingsReachTheNextInvoice(t *testing.T) {
	w := enginetest.Demo(t)
	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := invoices.ReplaceSettings(op, a, settingsInput())
		return err
	}))
	inv := create(t, w, input("ACME-2301", "2026-06-15", "2026-07-15"))
	if inv.Memo != "Net 15, thank you." {
		t.Errorf("memo %q, want the new default", inv.Memo)
	}
	own := input("ACME-2302", "2026-06-15", "2026-07-15")
	own.Details.Memo = ptr("Rush order")
	if got := create(t, w, own).Memo; got != "Rush order" {
		t.Errorf("memo %q, want the invoice's own", got)
	}
	m := emails(t, w, inv.ID, invoices.MessageInvoice)
	if len(m) != 1 || m[0].Subject != "Invoice ACME-2301 from Acme Robotics" {
		t.Errorf("emails %+v, want one from the new company name", m)
	}
	var s *invoices.Settings
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		var err error
		s, err = invoices.SettingsOf(op, "le_acme")
		return err
	}))
	if s.InvoiceTerms != "" || s.DefaultPaymentTermsDays != nil || !s.Timestamp.Equal(w.Now()) {
		t.Errorf("terms %q, payment terms %v, timestamp %v: the old settings were kept, not replaced", s.InvoiceTerms,
			s.DefaultPaymentTermsDays, s.Timestamp)
	}
}

func TestInvoiceLogo(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nrest")
	// padded is the PNG grown to n bytes.
	padded := func(n int) []byte { return append(bytes.Clone(png), make([]byte, n-len(png))...) }
	for name, c := range map[string]struct {
		data []byte
		code kernel.Code
		ct   string
	}{
		"a PNG":                {png, "", "image/png"},
		"an SVG after a BOM":   {[]byte("\xef\xbb\xbf <svg xmlns='http://www.w3.org/2000/svg'/>"), "", "image/svg+xml"},
		"a WebP":               {[]byte("RIFF\x00\x00\x00\x00WEBPVP8 "), "", "image/webp"},
		"a PDF":                {[]byte("%PDF-1.7"), kernel.CodeInvalidRequest, ""},
		"HTML named logo.png":  {[]byte("<html><script>"), kernel.CodeInvalidRequest, ""},
		"nothing":              {nil, kernel.CodeInvalidRequest, ""},
		"one byte over 2 MiB":  {padded(invoices.MaxLogoBytes + 1), kernel.CodePayloadTooLarge, ""},
		"exactly 2 MiB of PNG": {padded(invoices.MaxLogoBytes), "", "image/png"},
	} {
		t.Run(name, func(t *testing.T) {
			ct, err := invoices.CheckLogo(c.data)
			if c.code == "" {
				if err != nil || ct != c.ct {
					t.Errorf("CheckLogo = %q, %v; want %s", ct, err, c.ct)
				}
				return
			}
			enginetest.WantError(t, err, c.code, nil)
		})
	}

	w := enginetest.Demo(t)
	inv := create(t, w, input("ACME-2303", "2026-06-15", "2026-07-15"))
	var logo *invoices.Document
	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		var err error
		logo, err = invoices.UploadLogo(op, a, png, "logo.png", "image/png")
		return err
	}))
	var s *invoices.Settings
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		var err error
		s, err = invoices.SettingsOf(op, "le_acme")
		return err
	}))
	if s.LogoDocumentID != logo.ID || logo.Size != int64(len(png)) || s.CompanyName != "Acme Robotics Inc." {
		t.Errorf("settings logo %s (uploaded %s, %d bytes), company %q", s.LogoDocumentID, logo.ID, logo.Size,
			s.CompanyName)
	}
	// Only an invoice logo of the legal entity may be named as its logo.
	in := settingsInput()
	in.LogoDocumentID = &inv.DocumentID
	enginetest.WantError(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, err := invoices.ReplaceSettings(op, a, in)
		return err
	}), kernel.CodeInvalidRequest, map[string]string{"/logoDocumentId": "document " + inv.DocumentID +
		" is not an invoice logo"})
	in.LogoDocumentID = &logo.ID
	err := w.Update(func(op *kernel.Op) error {
		_, err := invoices.ReplaceSettings(op, enginetest.ActorInOp(t, op, "sk_sandbox_globex"), in)
		return err
	})
	enginetest.WantError(t, err, kernel.CodeNotFound, map[string]string{"field": "/logoDocumentId", "id": logo.ID})
}

// An invoice's document is rendered from its current state, escaping what
// the customer typed.
func TestInvoiceDocumentShowsTheCurrentInvoice(t *testing.T) {
	w := enginetest.Demo(t)
	in := input("ACME-2304", "2026-06-15", "2026-07-15")
	in.Details.LineItemsAndTotals.LineItems[0].Name = "<script>alert(1)</script>"
	inv := create(t, w, in)
	enginetest.Must(t, enginetest.As(t, w, acmeKey, func(op *kernel.Op, a *kernel.Actor) error {
		_, _, err := invoices.SimulatePayment(op, &invoices.SimulatedPayment{InvoiceID: inv.ID,
			AmountCents: ptr[int64](5000)})
		return err
	}))
	doc, body, err := invoices.DocumentContent(w, inv.DocumentID)
	enginetest.Must(t, err)
	html := string(body)
	if doc.ContentType != "text/html; charset=utf-8" || doc.Filename != "invoice-ACME-2304.html" {
		t.Errorf("document %s %q", doc.ContentType, doc.Filename)
	}
	for _, want := range []string{"Invoice ACME-2304 &middot; paid_partially", "<strong>Total $300.00</strong>",
		"Paid $50.00", "&lt;script&gt;alert(1)&lt;/script&gt;", "Late payments accrue 1.5% per month."} {
		if !strings.Contains(html, want) {
			t.Errorf("the document lacks %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, "<script>") {
		t.Error("the document carries a line's markup unescaped")
	}
}
