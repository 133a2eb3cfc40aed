package inforequests

import (
	"encoding/json"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Information request statuses.
const (
	StatusPending   = "pending"
	StatusSubmitted = "submitted"
	StatusCanceled  = "canceled"
)

// RequestedInformation says what a contact is asked for.
type RequestedInformation struct {
	DestinationTypes []string `json:"destinationTypes,omitempty"`
	Address          *bool    `json:"address,omitempty"`
	Tax              *bool    `json:"tax,omitempty"`
}

// Wants reports whether a destination type is asked for.
func (r RequestedInformation) Wants(destinationType string) bool {
	for _, t := range r.DestinationTypes {
		if t == destinationType {
			return true
		}
	}
	return false
}

// Request asks a contact, by email, to fill a secure form with
// payment destinations, an address or a tax id.
type Request struct {
	ID                   string               `json:"id"`
	LegalEntityID        string               `json:"legalEntityId"`
	ContactID            string               `json:"contactId"`
	Status               string               `json:"status"`
	RequestedInformation RequestedInformation `json:"requestedInformation"`
	SentToEmail          string               `json:"sentToEmail"`
	CCEmails             []string             `json:"ccEmails"`
	RequesterName        string               `json:"requesterName"`
	Note                 *string              `json:"note,omitempty"`
	SentAt               time.Time            `json:"sentAt"`
	FirstSubmittedAt     *time.Time           `json:"firstSubmittedAt,omitempty"`
	LastSubmittedAt      *time.Time           `json:"lastSubmittedAt,omitempty"`
	CanceledAt           *time.Time           `json:"canceledAt,omitempty"`
	CreatedAt            time.Time            `json:"createdAt"`
	// FormToken is the secret part of the secure-form link.
	FormToken string `json:"formToken"`
	// MessageID is the outbox email that carried the link.
	MessageID string `json:"messageId,omitempty"`
	Seq       int64  `json:"seq"`
}

const (
	kindInfoRequest  = "info_request"
	indexInfoContact = "info.contact"
	indexInfoLE      = "info.le"
	indexInfoToken   = "info.token"
	// SubmitEvent is the scheduled event of a scenario's "the contact
	// submits" (RunScheduledSubmission).
	SubmitEvent            = "information_request.submit"
	emailInformationReqest = "information_request"
)

// EmailInformationRequest is the outbox kind of an information request.
const EmailInformationRequest = emailInformationReqest

func infoIndexes(ir *Request) []string {
	at, seq := store.Millis(ir.CreatedAt), store.Seq(ir.Seq)
	return []string{
		kernel.IndexKey(indexInfoContact, ir.ContactID, at, seq, ir.ID),
		kernel.IndexKey(indexInfoLE, ir.LegalEntityID, at, seq, ir.ID),
		kernel.IndexKey(indexInfoToken, ir.FormToken, ir.ID),
	}
}

// Input is a validated create request.
type Input struct {
	ContactID            string
	RequestedInformation RequestedInformation
	RequesterName        string
	CCEmails             []string
	Note                 *string
}

// FormPath is where a request's secure form is served, relative to the
// sandbox's address: a world other than the default one is named in it.
func FormPath(worldID, token string) string {
	return kernel.SandboxPath(worldID, "/forms/information-requests/"+token)
}

// PendingInfoRequest finds the contact's pending request, if any.
func PendingInfoRequest(op *kernel.Op, contactID string) (*Request, error) {
	reqs, err := kernel.All[Request](op, kindInfoRequest, kernel.IndexPrefix(indexInfoContact, contactID))
	if err != nil {
		return nil, err
	}
	for i := range reqs {
		if reqs[i].Status == StatusPending {
			return &reqs[i], nil
		}
	}
	return nil, nil
}

// CreateInformationRequest checks the contact, enforces one pending request
// per contact, stores the request and emails the contact (and cc) the link
// to the secure form.
func CreateInformationRequest(op *kernel.Op, a *kernel.Actor, in Input) (*Request, error) {
	var c parties.Contact
	ok, err := op.Get(parties.KindContact, in.ContactID, &c)
	if err != nil {
		return nil, err
	}
	if !ok || c.LegalEntityID != a.LegalEntityID() {
		return nil, kernel.NotFound("contact", "contactId", in.ContactID)
	}
	if c.RecipientEmail == "" {
		return nil, kernel.InvalidField("/contactId", "the contact has no email address to send the request to")
	}
	if pending, err := PendingInfoRequest(op, c.ID); err != nil || pending != nil {
		if err != nil {
			return nil, err
		}
		return nil, kernel.Errorf(kernel.CodeConflict, "contact %s already has a pending information request %s", c.ID,
			pending.ID).
			With("field", "contactId").
			With("id", c.ID).
			With("pendingInformationRequestId", pending.ID)
	}
	id, err := op.NewID(Prefix)
	if err != nil {
		return nil, err
	}
	seq, err := op.NextSeq()
	if err != nil {
		return nil, err
	}
	cc := in.CCEmails
	if cc == nil {
		cc = []string{}
	}
	ir := &Request{ID: id, LegalEntityID: a.LegalEntityID(), ContactID: c.ID, Status: StatusPending,
		RequestedInformation: in.RequestedInformation, SentToEmail: c.RecipientEmail, CCEmails: cc,
		RequesterName: in.RequesterName, Note: in.Note, SentAt: op.Now, CreatedAt: op.Now, Seq: seq,
		FormToken: kernel.DeriveID(op.W.Seed, "ifr_", seq)}
	if err := emailInfoRequest(op, a.LegalEntity.Name, &c, ir); err != nil {
		return nil, err
	}
	return ir, op.Save(kindInfoRequest, ir.ID, ir, infoIndexes(ir)...)
}

// InfoRequest loads a request by id.
func InfoRequest(op *kernel.Op, id string) (*Request, bool, error) {
	var ir Request
	ok, err := op.Get(kindInfoRequest, id, &ir)
	return &ir, ok, err
}

// InfoRequestByToken finds a request by its form token.
func InfoRequestByToken(op *kernel.Op, token string) (*Request, bool, error) {
	if token == "" || strings.ContainsRune(token, '\x1f') {
		return nil, false, nil
	}
	p, err := kernel.List[Request](op, kindInfoRequest, kernel.IndexPrefix(indexInfoToken, token),
		kernel.PageRequest{Size: 1}, nil)
	if err != nil || len(p.Items) == 0 {
		return nil, false, err
	}
	return &p.Items[0], true, nil
}

// List lists a legal entity's requests, newest first ("" for every
// legal entity).
func List(
	op *kernel.Op,
	legalEntityID string,
	req kernel.PageRequest,
) (kernel.Page[Request], error) {
	req.Desc = true
	prefix := kernel.IndexPrefix(indexInfoLE)
	if legalEntityID != "" {
		prefix = kernel.IndexPrefix(indexInfoLE, legalEntityID)
	}
	return kernel.List[Request](op, kindInfoRequest, prefix, req, nil)
}

// CancelInformationRequest cancels a pending request; its queued transfers
// are canceled with it.
func CancelInformationRequest(op *kernel.Op, id string) (*Request, error) {
	ir, ok, err := InfoRequest(op, id)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, kernel.NotFound("information request", "id", id)
	}
	if ir.Status != StatusPending {
		return nil, kernel.Errorf(kernel.CodeConflict, "information request %s is %s; only a pending one can be canceled",
			id, ir.Status).
			With("status", ir.Status)
	}
	now := op.Now
	ir.Status, ir.CanceledAt = StatusCanceled, &now
	if err := cancelQueuedACH(op, ir); err != nil {
		return nil, err
	}
	return ir, op.Save(kindInfoRequest, ir.ID, ir, infoIndexes(ir)...)
}

func emailInfoRequest(op *kernel.Op, company string, c *parties.Contact, ir *Request) error {
	m := infoEmail(op, company, c, ir)
	if err := op.SendEmail(m); err != nil {
		return err
	}
	ir.MessageID = m.ID
	return nil
}

// infoEmail is the email that carries a request's link to the contact.
func infoEmail(op *kernel.Op, company string, c *parties.Contact, ir *Request) *kernel.Message {
	link := FormPath(op.W.ID, ir.FormToken)
	asked := DescribeRequested(ir.RequestedInformation)
	note := ""
	if ir.Note != nil && *ir.Note != "" {
		note = "\n\nNote from " + ir.RequesterName + ": " + *ir.Note
	}
	m := &kernel.Message{Kind: EmailInformationRequest, To: []string{c.RecipientEmail}, CC: ir.CCEmails,
		Subject: fmt.Sprintf("%s requests your %s", company, asked),
		Text: fmt.Sprintf("Hello %s,\n\n%s at %s asks you to provide your %s through a secure form:\n\n%s%s\n", c.Name,
			ir.RequesterName, company, asked, link, note),
		HTML:      infoEmailHTML(c.Name, ir.RequesterName, company, asked, link, note),
		Links:     map[string]string{"secureForm": link},
		RelatedID: ir.ID, LegalEntityID: ir.LegalEntityID}
	return m
}

// DescribeRequested renders what is asked for in words.
func DescribeRequested(r RequestedInformation) string {
	var parts []string
	names := map[string]string{
		parties.DestinationACH:               "US bank account",
		parties.DestinationInternationalWire: "international wire details",
		parties.DestinationCrypto:            "crypto address",
	}
	for _, t := range r.DestinationTypes {
		parts = append(parts, names[t])
	}
	if r.Address != nil && *r.Address {
		parts = append(parts, "address")
	}
	if r.Tax != nil && *r.Tax {
		parts = append(parts, "tax id")
	}
	switch len(parts) {
	case 0:
		return "details"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// RunScheduledSubmission submits generated details for a scenario's
// "the contact submits" event.
func RunScheduledSubmission(op *kernel.Op, ev *kernel.Event) (string, error) {
	var p struct {
		InformationRequestID string `json:"informationRequestId"`
		ContactID            string `json:"contactId"`
	}
	if err := json.Unmarshal(ev.Payload, &p); err != nil {
		return "", err
	}
	id := p.InformationRequestID
	if id == "" && p.ContactID != "" {
		pending, err := PendingInfoRequest(op, p.ContactID)
		if err != nil {
			return "", err
		}
		if pending == nil {
			return "contact " + p.ContactID + " has no pending information request", nil
		}
		id = pending.ID
	}
	ir, err := SubmitInformation(op, id, nil)
	if err != nil {
		return "", err
	}
	return "information request " + ir.ID + " submitted", nil
}

// infoEmailHTML is the email's HTML body.
func infoEmailHTML(contact, requester, company, asked, link, note string) string {
	esc := html.EscapeString
	body := fmt.Sprintf(`<!doctype html><html><body style="font-family:sans-serif;max-width:560px">`+
		`<p>Hello %s,</p><p>%s at <strong>%s</strong> asks you to provide your %s through a secure form.</p>`+
		`<p><a href="%s" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;border-radius:6px;`+
		`text-decoration:none">Open the secure form</a></p>`,
		esc(contact), esc(requester), esc(company), esc(asked), esc(link))
	if note != "" {
		body += `<blockquote>` + esc(strings.TrimSpace(note)) + `</blockquote>`
	}
	return body + `<p style="color:#666">Sent by the Slash sandbox: nothing left this machine.</p></body></html>`
}

// Parties names the legal entity and the contact of a request.
func Parties(op *kernel.Op, ir *Request) (legalEntity, contact string, err error) {
	var le kernel.LegalEntity
	var c parties.Contact
	if _, err = op.Get(kernel.LegalEntities.Name, ir.LegalEntityID, &le); err != nil {
		return "", "", err
	}
	_, err = op.Get(parties.KindContact, ir.ContactID, &c)
	return le.Name, c.Name, err
}

// DestinationsOf lists a contact's destinations in creation order.
func DestinationsOf(op *kernel.Op, contactID string) ([]parties.Destination, error) {
	return kernel.All[parties.Destination](op, parties.KindDestination,
		kernel.IndexPrefix(parties.IndexDestContact, contactID))
}

// Restore writes a request as a world it was exported from holds it: its
// id, status, times and form token are kept, and the email that carried
// it is put in the outbox again with its id, dated when it was sent. It
// is numbered after the records written before it.
func Restore(op *kernel.Op, company string, c *parties.Contact, ir *Request, messageID string) error {
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	ir.Seq = seq
	if ir.FormToken == "" {
		ir.FormToken = kernel.DeriveID(op.W.Seed, "ifr_", seq)
	}
	to := *c
	to.RecipientEmail = ir.SentToEmail
	now := op.Now
	op.Now = ir.SentAt
	m := infoEmail(op, company, &to, ir)
	if messageID == "" {
		err = op.SendEmail(m)
	} else {
		err = op.SendEmailAs(messageID, m)
	}
	op.Now = now
	if err != nil {
		return err
	}
	ir.MessageID = m.ID
	return op.Save(kindInfoRequest, ir.ID, ir, infoIndexes(ir)...)
}
