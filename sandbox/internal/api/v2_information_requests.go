package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/mail"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/inforequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (a *API) routesInformationRequests(r *mux.Router, docs *openapi.Registry) {
	describeInformationRequests(docs)
	web.Route(r, web.Gen2, http.MethodPost, "/v2/information-requests", "v2.information_request.create",
		a.createInformationRequest)
}

// describeInformationRequests adds the descriptions of these routes, and
// the components they name, to docs.
func describeInformationRequests(docs *openapi.Registry) {
	only := openapi.Schema{"type": "boolean", "enum": []any{true}, "description": "Only true; leave it out otherwise."}
	requested := object(
		openapi.Schema{"destinationTypes": openapi.Schema{"type": "array", "minItems": 1, "uniqueItems": true,
			"items": oneOfStrings(parties.DestinationACH, parties.DestinationInternationalWire, parties.DestinationCrypto)},
			"address": only, "tax": only},
	)
	requested["minProperties"] = 1
	docs.Component("RequestedInformation", requested)
	docs.Component("InformationRequest", informationRequest{})
	emails := openapi.Schema{
		"type":        "array",
		"uniqueItems": true,
		"items":       openapi.Schema{"type": "string", "format": "email"},
	}
	docs.Describe("v2.information_request.create", openapi.Op{Summary: "Email a contact a secure form for payment details",
		Description: "A contact has at most one pending request. A request that asks for bank_account can have ACH" +
			" transfers queued on it until the contact answers.",
		Headers: []openapi.Param{
			{
				Name:     "X-Idempotency-Key",
				Required: true,
				Schema:   openapi.Schema{"type": "string", "minLength": 1, "maxLength": 255},
				Description: "Consumed once a valid request reaches the operation, whatever the outcome: any reuse is 409 and" +
					" nothing is replayed.",
			},
		},
		Body: object(openapi.Schema{"contactId": openapi.Schema{"type": "string", "pattern": "^le_c_"},
			"requestedInformation": openapi.Ref("RequestedInformation"),
			"requesterName": described(openapi.Schema{"type": "string", "minLength": 1},
				"Shown to the contact in the email and the form."),
			"ccEmails": emails, "note": described(stringType, "Shown to the contact.")},
			"contactId", "requestedInformation", "requesterName"),
		Response: informationRequest{}})
}

// informationRequest is the InformationRequest response: exactly the
// fields the spec lists.
type informationRequest struct {
	ID                   string                            `json:"id"`
	ContactID            string                            `json:"contactId"`
	Status               string                            `json:"status" enum:"pending,submitted,canceled"`
	RequestedInformation inforequests.RequestedInformation `json:"requestedInformation" ref:"RequestedInformation"`
	SentToEmail          string                            `json:"sentToEmail" format:"email"`
	CCEmails             []string                          `json:"ccEmails" format:"email"`
	RequesterName        string                            `json:"requesterName"`
	Note                 *string                           `json:"note,omitempty"`
	SentAt               string                            `json:"sentAt" format:"date-time"`
	FirstSubmittedAt     *string                           `json:"firstSubmittedAt,omitempty" format:"date-time"`
	LastSubmittedAt      *string                           `json:"lastSubmittedAt,omitempty" format:"date-time"`
	CanceledAt           *string                           `json:"canceledAt,omitempty" format:"date-time"`
	CreatedAt            string                            `json:"createdAt" format:"date-time"`
}

func optionalTime(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := timestamp(*t)
	return &s
}

// InformationRequestView renders a request in the spec's shape.
func InformationRequestView(ir *inforequests.Request) any {
	return informationRequest{
		ID:                   ir.ID,
		ContactID:            ir.ContactID,
		Status:               ir.Status,
		RequestedInformation: ir.RequestedInformation,
		SentToEmail:          ir.SentToEmail,
		CCEmails:             ir.CCEmails,
		RequesterName:        ir.RequesterName,
		Note:                 ir.Note,
		SentAt:               timestamp(ir.SentAt),
		FirstSubmittedAt:     optionalTime(ir.FirstSubmittedAt),
		LastSubmittedAt:      optionalTime(ir.LastSubmittedAt),
		CanceledAt:           optionalTime(ir.CanceledAt),
		CreatedAt:            timestamp(ir.CreatedAt),
	}
}

func (a *API) createInformationRequest(r *http.Request) (any, error) {
	var in inforequests.Input
	return a.doWrite(r, write{
		gen:  web.Gen2,
		idem: idemConsume,
		input: func(c *call, raw []byte) error {
			var err error
			in, err = parseInfoRequest(raw)
			return err
		},
		run: func(op *kernel.Op, c *call) (any, error) {
			ir, err := inforequests.CreateInformationRequest(op, c.Actor, in)
			if err != nil {
				return nil, err
			}
			return InformationRequestView(ir), nil
		},
	})
}

// parseInfoRequest checks an InformationRequestCreate body against every
// rule of the spec, reporting one detail per failing JSON pointer.
func parseInfoRequest(raw []byte) (inforequests.Input, error) {
	var in inforequests.Input
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var body map[string]any
	if err := dec.Decode(&body); err != nil || body == nil || dec.More() {
		return in, kernel.InvalidField("", "the body must be a JSON object")
	}
	d := map[string]string{}
	for k := range body {
		if k != "contactId" && k != "requestedInformation" && k != "requesterName" && k != "ccEmails" && k != "note" {
			d["/"+pointerEscape(k)] = "is not an allowed property"
		}
	}
	in.ContactID = requiredString(d, body, "contactId")
	if in.ContactID != "" && !strings.HasPrefix(in.ContactID, parties.PrefixContact) {
		d["/contactId"] = "must be a contact id beginning with le_c_"
	}
	in.RequesterName = requiredString(d, body, "requesterName")
	in.RequestedInformation = requested(d, body["requestedInformation"], body)
	in.CCEmails = ccEmails(d, body)
	if v, ok := body["note"]; ok {
		if s, isString := v.(string); isString {
			in.Note = &s
		} else {
			d["/note"] = "must be a string"
		}
	}
	if len(d) > 0 {
		return in, kernel.Invalid(d)
	}
	return in, nil
}

func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func requiredString(d map[string]string, body map[string]any, name string) string {
	v, ok := body[name]
	if !ok {
		d["/"+name] = "required"
		return ""
	}
	s, isString := v.(string)
	switch {
	case !isString:
		d["/"+name] = "must be a string"
	case s == "":
		d["/"+name] = "must not be empty"
	}
	return s
}

func requested(d map[string]string, v any, body map[string]any) inforequests.RequestedInformation {
	var out inforequests.RequestedInformation
	if _, ok := body["requestedInformation"]; !ok {
		d["/requestedInformation"] = "required"
		return out
	}
	obj, ok := v.(map[string]any)
	if !ok {
		d["/requestedInformation"] = "must be an object"
		return out
	}
	if len(obj) == 0 {
		d["/requestedInformation"] = "must have at least one of destinationTypes, address, tax"
	}
	for k, val := range obj {
		p := "/requestedInformation/" + pointerEscape(k)
		switch k {
		case "destinationTypes":
			out.DestinationTypes = destinationTypes(d, p, val)
		case "address", "tax":
			b, isBool := val.(bool)
			switch {
			case !isBool:
				d[p] = "must be a boolean"
			case !b:
				d[p] = "only true is allowed; leave it out instead"
			default:
				t := true
				if k == "address" {
					out.Address = &t
				} else {
					out.Tax = &t
				}
			}
		default:
			d[p] = "is not an allowed property"
		}
	}
	return out
}

func destinationTypes(d map[string]string, p string, v any) []string {
	items, ok := v.([]any)
	if !ok {
		d[p] = "must be an array"
		return nil
	}
	if len(items) == 0 {
		d[p] = "must have at least 1 item"
	}
	seen := map[string]bool{}
	var out []string
	for i, it := range items {
		ip := p + "/" + strconv.Itoa(i)
		s, isString := it.(string)
		switch {
		case !isString:
			d[ip] = "must be a string"
		case s != parties.DestinationACH && s != parties.DestinationInternationalWire && s != parties.DestinationCrypto:
			d[ip] = "must be one of bank_account, international_wire, crypto_address"
		case seen[s]:
			d[ip] = fmt.Sprintf("duplicate of an earlier item (%s)", s)
		default:
			out = append(out, s)
		}
		seen[s] = true
	}
	return out
}

func ccEmails(d map[string]string, body map[string]any) []string {
	v, ok := body["ccEmails"]
	if !ok {
		return nil
	}
	items, isArray := v.([]any)
	if !isArray {
		d["/ccEmails"] = "must be an array"
		return nil
	}
	out := []string{}
	seen := map[string]bool{}
	for i, it := range items {
		ip := "/ccEmails/" + strconv.Itoa(i)
		s, isString := it.(string)
		addr, err := mail.ParseAddress(s)
		switch {
		case !isString:
			d[ip] = "must be a string"
		case err != nil || addr.Address != s || !strings.Contains(s[strings.Index(s, "@"):], "."):
			d[ip] = "must be an email address"
		case seen[strings.ToLower(s)]:
			d[ip] = "duplicate of an earlier item"
		default:
			out = append(out, s)
		}
		seen[strings.ToLower(s)] = true
	}
	return out
}
