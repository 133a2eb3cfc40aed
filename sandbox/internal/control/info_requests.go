package control

import (
	"bytes"
	"embed"
	"html/template"
	"net/http"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/inforequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

//go:embed templates/form.html
var formFS embed.FS

var formTemplate = template.Must(template.New("form.html").Funcs(template.FuncMap{"sentence": sentence}).
	ParseFS(formFS, "templates/form.html"))

// sentence ends a sentence with s: a full stop after it, unless s already
// ends with one ("Acme Robotics Inc." is not followed by a second).
func sentence(s string) string {
	if strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") {
		return s
	}
	return s + "."
}

func (c *Control) routesInfoRequests(s *mux.Router) {
	route := func(method, path, name string, fn web.Func) { web.Route(s, web.Gen2, method, path, name, fn) }
	route(http.MethodGet, "/information-requests", "sandbox.information_requests.list", c.listInfoRequests)
	route(http.MethodGet, "/information-requests/{id}", "sandbox.information_requests.get", c.getInfoRequest)
	route(http.MethodPost, "/information-requests/{id}/cancel", "sandbox.information_requests.cancel", c.cancelInfoRequest)
	route(http.MethodPost, "/simulate/information-request-submission", "sandbox.simulate.information_request_submission",
		c.simulateSubmission)
	route(http.MethodGet, "/forms/information-requests/{token}", "sandbox.form.information_request", c.form)
	route(http.MethodPost, "/forms/information-requests/{token}", "sandbox.form.information_request.submit", c.submitForm)
}

// infoControlView adds what the control API knows to the public shape.
type infoControlView struct {
	Request       any    `json:"informationRequest" ref:"InformationRequest"`
	LegalEntityID string `json:"legalEntityId"`
	FormURL       string `json:"formUrl"`
	MessageID     string `json:"messageId,omitempty"`
}

func (c *Control) infoControl(w *kernel.World, ir *inforequests.Request) infoControlView {
	return infoControlView{
		Request:       c.InfoView(ir),
		LegalEntityID: ir.LegalEntityID,
		FormURL:       inforequests.FormPath(w.ID, ir.FormToken),
		MessageID:     ir.MessageID,
	}
}

func (c *Control) listInfoRequests(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var page kernel.Page[inforequests.Request]
	err = w.View(func(op *kernel.Op) error {
		page, err = inforequests.List(op, r.URL.Query().Get("legalEntityId"), kernel.PageRequest{Size: 500})
		return err
	})
	items := make([]infoControlView, len(page.Items))
	for i := range page.Items {
		items[i] = c.infoControl(w, &page.Items[i])
	}
	return itemList[infoControlView]{Items: items}, err
}

func (c *Control) getInfoRequest(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var ir *inforequests.Request
	err = w.View(func(op *kernel.Op) error {
		var ok bool
		ir, ok, err = inforequests.InfoRequest(op, mux.Vars(r)["id"])
		if err == nil && !ok {
			err = kernel.NotFound("information request", "id", mux.Vars(r)["id"])
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return c.infoControl(w, ir), nil
}

func (c *Control) cancelInfoRequest(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var ir *inforequests.Request
	err = w.Update(func(op *kernel.Op) error {
		ir, err = inforequests.CancelInformationRequest(op, mux.Vars(r)["id"])
		return err
	})
	if err != nil {
		return nil, err
	}
	return c.infoControl(w, ir), nil
}

type simulateSubmissionRequest struct {
	InformationRequestID string                   `json:"informationRequestId"`
	Details              *inforequests.Submission `json:"details,omitempty"`
}

// simulateSubmission answers a request without a browser: with explicit
// details, or generated valid ones when details are left out.
func (c *Control) simulateSubmission(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	var req simulateSubmissionRequest
	if err := web.Decode(r, &req, true); err != nil {
		return nil, err
	}
	if req.InformationRequestID == "" {
		return nil, kernel.InvalidField("/informationRequestId", "required")
	}
	var ir *inforequests.Request
	err = w.Update(func(op *kernel.Op) error {
		ir, err = inforequests.SubmitInformation(op, req.InformationRequestID, req.Details)
		return err
	})
	if err != nil {
		return nil, err
	}
	return c.infoControl(w, ir), nil
}

// formPage is what the form template shows.
type formPage struct {
	Title, Message, Company, Asked, Requester, ContactName, Note string
	Want                                                         struct{ Bank, Wire, Crypto, Address, Tax bool }
	Values, Errors                                               map[string]string
}

type formField struct{ Name, Label, Value, Error string }

// F describes one input of the form.
func (p formPage) F(name, label string) formField {
	return formField{Name: name, Label: label, Value: p.Values[name], Error: p.Errors[name]}
}

// V is a submitted value.
func (p formPage) V(name string) string { return p.Values[name] }

// htmlPage renders the form template with a status.
func htmlPage(status int, p formPage) (any, error) {
	var buf bytes.Buffer
	if err := formTemplate.Execute(&buf, p); err != nil {
		return nil, err
	}
	return &web.Response{Status: status, Raw: buf.Bytes(), ContentType: "text/html; charset=utf-8", Header: http.Header{
			"Content-Security-Policy": {formPolicy}, "X-Content-Type-Options": {"nosniff"}, "Referrer-Policy": {"same-origin"}}},
		nil
}

// formPolicy is the secure form's Content-Security-Policy: its own inline
// style and empty icon, no script at all, posts only to itself and never
// framed.
const formPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'; frame-ancestors" +
	" 'none'; base-uri 'none'"

// formFor finds the request behind a form link; an unknown or canceled one
// answers with a clear page rather than an error body.
func (c *Control) formFor(r *http.Request) (*kernel.World, *inforequests.Request, *formPage, any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	token := mux.Vars(r)["token"]
	var ir *inforequests.Request
	var page formPage
	err = w.View(func(op *kernel.Op) error {
		var ok bool
		if ir, ok, err = inforequests.InfoRequestByToken(op, token); err != nil || !ok {
			ir = nil
			return err
		}
		page, err = formPageOf(op, ir)
		return err
	})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	switch {
	case ir == nil:
		resp, err := htmlPage(http.StatusNotFound,
			formPage{Title: "Link not found", Message: "This secure-form link is not valid. Ask the sender for a new request."})
		return nil, nil, nil, resp, err
	case ir.Status == inforequests.StatusCanceled:
		resp, err := htmlPage(
			http.StatusGone,
			formPage{
				Title:   "Request canceled",
				Message: "This information request was canceled by " + sentence(page.Company) + " There is nothing to fill in.",
			},
		)
		return nil, nil, nil, resp, err
	}
	return w, ir, &page, nil, nil
}

func formPageOf(op *kernel.Op, ir *inforequests.Request) (formPage, error) {
	p := formPage{
		Title:     "Secure form",
		Requester: ir.RequesterName,
		Values:    map[string]string{},
		Errors:    map[string]string{},
	}
	le, contact, err := inforequests.Parties(op, ir)
	if err != nil {
		return p, err
	}
	p.Company, p.ContactName, p.Asked = le, contact, inforequests.DescribeRequested(ir.RequestedInformation)
	if ir.Note != nil {
		p.Note = *ir.Note
	}
	ri := ir.RequestedInformation
	p.Want.Bank, p.Want.Wire, p.Want.Crypto = ri.Wants(parties.DestinationACH),
		ri.Wants(parties.DestinationInternationalWire), ri.Wants(parties.DestinationCrypto)
	p.Want.Address, p.Want.Tax = ri.Address != nil && *ri.Address, ri.Tax != nil && *ri.Tax
	p.Values["bankAccount.accountType"] = "checking"
	return p, nil
}

func (c *Control) form(r *http.Request) (any, error) {
	_, ir, page, resp, err := c.formFor(r)
	if resp != nil || err != nil {
		return resp, err
	}
	if ir.Status == inforequests.StatusSubmitted {
		page.Title = "Update your details"
	}
	return htmlPage(http.StatusOK, *page)
}

// submitForm takes the browser's form post: on a problem the form comes
// back with each field's message; on success a thank-you page.
func (c *Control) submitForm(r *http.Request) (any, error) {
	w, ir, page, resp, err := c.formFor(r)
	if resp != nil || err != nil {
		return resp, err
	}
	if err := r.ParseForm(); err != nil {
		return nil, kernel.InvalidField("body", "not a form submission: "+err.Error())
	}
	for k := range r.PostForm {
		page.Values[k] = strings.TrimSpace(r.PostForm.Get(k))
	}
	s := submissionOf(page)
	err = w.Update(func(op *kernel.Op) error {
		_, err := inforequests.SubmitInformation(op, ir.ID, s)
		return err
	})
	if e, ok := kernel.AsError(err); ok && e.Code == kernel.CodeInvalidRequest {
		page.Errors = e.Details
		return htmlPage(http.StatusBadRequest, *page)
	}
	if err != nil {
		return nil, err
	}
	return htmlPage(
		http.StatusOK,
		formPage{
			Title:   "Thank you",
			Message: "Your details were sent securely to " + sentence(page.Company) + " You can close this page.",
		},
	)
}

// submissionOf reads the form's fields into a submission: a section is
// present when the form showed it.
func submissionOf(p *formPage) *inforequests.Submission {
	v := func(k string) string { return p.Values[k] }
	s := &inforequests.Submission{}
	if p.Want.Bank {
		s.BankAccount = &inforequests.BankAccountDetails{
			HolderName:    v("bankAccount.holderName"),
			RoutingNumber: v("bankAccount.routingNumber"),
			AccountNumber: v("bankAccount.accountNumber"),
			AccountType:   v("bankAccount.accountType"),
			BankName:      v("bankAccount.bankName"),
		}
	}
	if p.Want.Wire {
		s.InternationalWire = &inforequests.WireDetails{
			BeneficiaryName: v("internationalWire.beneficiaryName"),
			IBAN:            v("internationalWire.iban"),
			SWIFT:           v("internationalWire.swift"),
			BankName:        v("internationalWire.bankName"),
			BankCountry:     v("internationalWire.bankCountry"),
		}
	}
	if p.Want.Crypto {
		s.CryptoAddress = &inforequests.CryptoDetails{
			Address:  v("cryptoAddress.address"),
			Chain:    v("cryptoAddress.chain"),
			Currency: v("cryptoAddress.currency"),
		}
	}
	if p.Want.Address {
		s.Address = &parties.Address{
			AddressLine:    v("address.addressLine"),
			AddressLine2:   v("address.addressLine2"),
			AddressCity:    v("address.addressCity"),
			AddressState:   v("address.addressState"),
			AddressZip:     v("address.addressZip"),
			AddressCountry: strings.ToUpper(v("address.addressCountry")),
		}
	}
	if p.Want.Tax {
		s.Tax = &inforequests.TaxDetails{Type: v("tax.type"), Number: v("tax.number")}
	}
	return s
}
