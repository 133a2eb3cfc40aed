package api

import (
	"bytes"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesInvoiceSettings(r *mux.Router, docs *openapi.Registry) {
	describeInvoiceSettings(docs)
	web.Route(r, web.Gen1, http.MethodGet, "/invoice/settings", "invoice.settings.get", a.getInvoiceSettings)
	web.Route(r, web.Gen1, http.MethodPut, "/invoice/settings", "invoice.settings.replace", a.replaceInvoiceSettings)
	a.shows("invoice.settings.replace", currentInvoiceSettings)
	web.Route(r, web.Gen1, http.MethodPost, "/invoice/settings/logo", "invoice.settings.logo.upload", a.uploadLogo)
	web.Route(r, web.Gen1, http.MethodGet, "/invoice/validate-number", "invoice.number.validate", a.validateNumber)
}

// describeInvoiceSettings adds the descriptions of these routes, and
// the components they name, to docs.
func describeInvoiceSettings(docs *openapi.Registry) {
	docs.Component("InvoiceSettings", invoiceSettingsView{})
	docs.Component("InvoiceSettingsData", settingsData{})
	le := []openapi.Param{legalEntityFilter}
	colour := openapi.Schema{"type": "string", "pattern": "^#[0-9A-Fa-f]{6}$"}
	docs.Describe("invoice.settings.get", openapi.Op{Summary: "The legal entity's invoice settings",
		Description: "Until they are set they are derived from the legal entity.", Query: le, Response: settingsBody{}})
	docs.Describe("invoice.settings.replace", openapi.Op{Summary: "Replace the invoice settings", Query: le,
		Response: settingsBody{},
		Body: object(openapi.Schema{"companyName": openapi.Schema{"type": "string", "minLength": 1, "maxLength": 200},
			"email": openapi.Schema{"type": "string", "format": "email"}, "address": openapi.Ref("Address"),
			"defaultMemo":             openapi.Schema{"type": "string", "maxLength": 500},
			"invoiceTerms":            openapi.Schema{"type": "string", "maxLength": 2000},
			"defaultPaymentTermsDays": openapi.Schema{"type": "integer", "minimum": 0}, "logoDocumentId": stringType,
			"unitPriceDecimalPlaces": openapi.Schema{"type": "integer", "minimum": 2, "maximum": 6},
			"branding":               object(openapi.Schema{"backgroundColor": colour, "titleColor": colour})},
			"companyName", "email", "address")})
	docs.Describe("invoice.settings.logo.upload", openapi.Op{Summary: "Upload the invoice logo",
		Description: "A PNG, JPEG, SVG or WebP image of at most 2 MB; its url serves the bytes.",
		Query:       le, BodyType: multipartBody, Body: upload, Response: uploadedDocument{}})
	docs.Describe("invoice.number.validate", openapi.Op{Summary: "Whether an invoice number is free",
		Description: "Invoice numbers are unique per legal entity.", Response: numberAvailability{},
		Query: []openapi.Param{
			legalEntityFilter,
			{Name: "invoiceNumber", Required: true, Schema: openapi.Ref("InvoiceNumber")},
		}})
}

// settingsBody is the {invoiceSettings} body of the settings operations.
type settingsBody struct {
	InvoiceSettings invoiceSettingsView `json:"invoiceSettings"`
}

// uploadedDocument answers an upload: the document and where it is served.
type uploadedDocument struct {
	DocumentID string `json:"documentId"`
	URL        string `json:"url"`
}

// numberAvailability is the body of GET /invoice/validate-number.
type numberAvailability struct {
	IsAvailable bool `json:"isAvailable"`
}

type settingsData struct {
	CompanyName             string             `json:"companyName"`
	Email                   string             `json:"email"`
	Address                 parties.Address    `json:"address"`
	DefaultMemo             string             `json:"defaultMemo,omitempty"`
	InvoiceTerms            string             `json:"invoiceTerms,omitempty"`
	DefaultPaymentTermsDays *int               `json:"defaultPaymentTermsDays,omitempty"`
	LogoDocumentID          string             `json:"logoDocumentId,omitempty"`
	UnitPriceDecimalPlaces  *int               `json:"unitPriceDecimalPlaces,omitempty"`
	Branding                *invoices.Branding `json:"branding,omitempty"`
}

type invoiceSettingsView struct {
	Entity        string       `json:"$entity" enum:"invoice_settings"`
	ID            string       `json:"id"`
	LegalEntityID string       `json:"legalEntityId"`
	Settings      settingsData `json:"settings"`
	Timestamp     string       `json:"timestamp" format:"date-time"`
}

func settingsOf(s *invoices.Settings) settingsBody {
	return settingsBody{InvoiceSettings: invoiceSettingsView{Entity: "invoice_settings", ID: s.ID,
		LegalEntityID: s.LegalEntityID,
		Timestamp:     timestamp(s.Timestamp), Settings: settingsData{CompanyName: s.CompanyName, Email: s.Email,
			Address:     s.Address,
			DefaultMemo: s.DefaultMemo, InvoiceTerms: s.InvoiceTerms, DefaultPaymentTermsDays: s.DefaultPaymentTermsDays,
			LogoDocumentID: s.LogoDocumentID, UnitPriceDecimalPlaces: s.UnitPriceDecimalPlaces, Branding: s.Branding}}}
}

func (a *API) getInvoiceSettings(r *http.Request) (any, error) {
	return a.readOp(r, func(op *kernel.Op, c *call) (any, error) {
		s, err := invoices.SettingsOf(op, c.Actor.LegalEntityID())
		if err != nil {
			return nil, err
		}
		return settingsOf(s), nil
	})
}

func (a *API) replaceInvoiceSettings(r *http.Request) (any, error) {
	var body invoices.SettingsInput
	return a.doWrite(r, write{
		gen: web.Gen1,
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
			s, err := invoices.ReplaceSettings(op, c.Actor, &body)
			if err != nil {
				return nil, err
			}
			return settingsOf(s), nil
		},
	})
}

func (a *API) validateNumber(r *http.Request) (any, error) {
	n := r.URL.Query().Get("invoiceNumber")
	if p := invoices.NumberProblem(n); p != "" {
		return nil, kernel.InvalidField("invoiceNumber", "required: "+p)
	}
	return a.readOp(r, func(op *kernel.Op, c *call) (any, error) {
		ok, err := invoices.NumberAvailable(op, c.Actor, n)
		return numberAvailability{IsAvailable: ok}, err
	})
}

// absURL makes a sandbox path absolute on the host the request came to.
func absURL(r *http.Request, path string) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + path
}

func (a *API) uploadLogo(r *http.Request) (any, error) {
	return a.doUpload(r, invoices.CheckLogo, func(op *kernel.Op, c *call, f *uploaded) (any, error) {
		doc, err := invoices.UploadLogo(op, c.Actor, f.data, f.name, f.contentType)
		if err != nil {
			return nil, err
		}
		return uploadedDocument{DocumentID: doc.ID, URL: absURL(r, kernel.SandboxPath(op.W.ID, "/documents/"+doc.ID))}, nil
	})
}

// uploaded is the file of a multipart upload.
type uploaded struct {
	data              []byte
	name, contentType string
}

// doUpload is the write pipeline for multipart uploads (field "file"):
// authenticate, read the form (413 over the multipart limit, 415 when it is
// not multipart/form-data), check the file (its own 400s and 413s), defer a
// read-only key's upload, then store it in one operation.
func (a *API) doUpload(r *http.Request, check func([]byte) (string, error),
	run func(op *kernel.Op, c *call, f *uploaded) (any, error)) (any, error) {
	c, err := a.auth(r, authOpts{gen: web.Gen1})
	if err != nil {
		return nil, err
	}
	if err := checkLEFilter(r, c); err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, web.ReadError(err, fmt.Sprintf("the upload is larger than %d bytes", web.MaxMultipartBody))
	}
	f, err := multipartFile(r.Header.Get("Content-Type"), raw)
	if err != nil {
		return nil, err
	}
	if f.contentType, err = check(f.data); err != nil {
		return nil, err
	}
	if c.P.Key.ReadOnly && !approved(r) {
		return a.deferWrite(r, c, raw)
	}
	var out any
	err = c.W.Update(func(op *kernel.Op) error {
		out, err = run(op, c, f)
		return err
	})
	return out, err
}

// multipartFile finds the "file" field of a multipart/form-data body.
func multipartFile(contentType string, raw []byte) (*uploaded, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || mt != "multipart/form-data" || params["boundary"] == "" {
		return nil, kernel.Errorf(kernel.CodeUnsupportedMediaType,
			"Content-Type must be multipart/form-data with a boundary, got %q", contentType)
	}
	mr := multipart.NewReader(bytes.NewReader(raw), params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil, kernel.InvalidField("file", "required: a multipart form field named file")
		}
		if err != nil {
			return nil, kernel.InvalidField("body", "malformed multipart body: "+err.Error())
		}
		if part.FormName() != "file" {
			continue
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return nil, kernel.InvalidField("file", "could not be read: "+err.Error())
		}
		return &uploaded{data: data, name: part.FileName()}, nil
	}
}

// currentInvoiceSettings are the caller's invoice settings as GET shows
// them.
func currentInvoiceSettings(op *kernel.Op, c *call, _ map[string]string) (any, error) {
	s, err := invoices.SettingsOf(op, c.Actor.LegalEntityID())
	if err != nil {
		return nil, err
	}
	return settingsOf(s), nil
}
