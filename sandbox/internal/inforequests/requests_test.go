package inforequests_test

import (
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/inforequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

func ptr[T any](v T) *T { return &v }

// ask is a request to a contact for a US bank account and an address.
func ask(contactID string) inforequests.Input {
	return inforequests.Input{ContactID: contactID, RequesterName: "Alice Chen",
		RequestedInformation: inforequests.RequestedInformation{DestinationTypes: []string{"bank_account"},
			Address: ptr(true)},
		CCEmails: []string{"alice@acme.test"}, Note: ptr("Moving payments to ACH.")}
}

// request creates a request as Acme.
func request(t *testing.T, w *kernel.World, in inforequests.Input) *inforequests.Request {
	t.Helper()
	var ir *inforequests.Request
	enginetest.Must(t, enginetest.As(t, w, "sk_sandbox_acme", func(op *kernel.Op, a *kernel.Actor) error {
		var err error
		ir, err = inforequests.CreateInformationRequest(op, a, in)
		return err
	}))
	return ir
}

// stored reads a request as it is stored now.
func stored(t *testing.T, w *kernel.World, id string) *inforequests.Request {
	t.Helper()
	var ir *inforequests.Request
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		var err error
		ir, _, err = inforequests.InfoRequest(op, id)
		return err
	}))
	return ir
}

// A new request is pending, sent to the contact's email, and the email
// carries the link to its secure form.
func TestCreateInformationRequestEmailsTheForm(t *testing.T) {
	w := enginetest.Demo(t)
	ir := request(t, w, ask("le_c_pixelforge"))
	if !strings.HasPrefix(ir.ID, "le_c_info_req_") || ir.Status != inforequests.StatusPending ||
		ir.SentToEmail != "hello@pixelforge.test" || !ir.SentAt.Equal(w.Now()) || ir.FirstSubmittedAt != nil {
		t.Errorf("created %+v", ir)
	}
	page, err := w.Outbox(kernel.OutboxFilter{RelatedID: ir.ID}, kernel.PageRequest{})
	enginetest.Must(t, err)
	if len(page.Items) != 1 {
		t.Fatalf("%d emails about the request, want 1", len(page.Items))
	}
	m := page.Items[0]
	form := inforequests.FormPath(w.ID, ir.FormToken)
	if m.Kind != inforequests.EmailInformationRequest || m.To[0] != "hello@pixelforge.test" ||
		m.CC[0] != "alice@acme.test" || m.Subject != "Acme Robotics Inc. requests your US bank account and address" ||
		m.Links["secureForm"] != form || !strings.Contains(m.Text, form) ||
		!strings.Contains(m.Text, "Note from Alice Chen: Moving payments to ACH.") {
		t.Errorf("email %s to %v cc %v, %q, links %v:\n%s", m.Kind, m.To, m.CC, m.Subject, m.Links, m.Text)
	}
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		found, ok, err := inforequests.InfoRequestByToken(op, ir.FormToken)
		if err == nil && (!ok || found.ID != ir.ID) {
			t.Errorf("the form token finds %v (%v), want %s", found, ok, ir.ID)
		}
		return err
	}))
}

func TestCreateInformationRequestRefuses(t *testing.T) {
	w := enginetest.Demo(t)
	var pendingID string
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		ir, err := inforequests.PendingInfoRequest(op, "le_c_brightside")
		if ir != nil {
			pendingID = ir.ID
		}
		return err
	}))
	if pendingID == "" {
		t.Fatal("the demo's request to Brightside is not pending")
	}
	cases := []struct {
		name    string
		contact string
		code    kernel.Code
		details map[string]string
	}{
		{"a second pending request", "le_c_brightside", kernel.CodeConflict, map[string]string{
			"field": "contactId", "id": "le_c_brightside", "pendingInformationRequestId": pendingID}},
		{"a contact without an email", "le_c_walkincourier", kernel.CodeInvalidRequest, map[string]string{
			"/contactId": "the contact has no email address to send the request to"}},
		{"another legal entity's contact", "le_c_tankerfuel", kernel.CodeNotFound, map[string]string{
			"field": "contactId", "id": "le_c_tankerfuel"}},
		{"an unknown contact", "le_c_nobody", kernel.CodeNotFound, map[string]string{"id": "le_c_nobody"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			enginetest.WantError(t, enginetest.As(t, w, "sk_sandbox_acme", func(op *kernel.Op, a *kernel.Actor) error {
				_, err := inforequests.CreateInformationRequest(op, a, ask(c.contact))
				return err
			}), c.code, c.details)
		})
	}
	// Once the pending one is canceled, the contact may be asked again.
	enginetest.Must(t, w.Update(func(op *kernel.Op) error {
		_, err := inforequests.CancelInformationRequest(op, pendingID)
		return err
	}))
	if ir := request(t, w, ask("le_c_brightside")); ir.Status != inforequests.StatusPending {
		t.Errorf("a new request after the cancel is %s", ir.Status)
	}
}

func TestDescribeRequested(t *testing.T) {
	for want, r := range map[string]inforequests.RequestedInformation{
		"details":        {},
		"tax id":         {Tax: ptr(true)},
		"crypto address": {DestinationTypes: []string{"crypto_address"}},
		"US bank account, international wire details, address and tax id": {
			DestinationTypes: []string{"bank_account", "international_wire"}, Address: ptr(true), Tax: ptr(true)},
	} {
		if got := inforequests.DescribeRequested(r); got != want {
			t.Errorf("DescribeRequested(%+v) = %q, want %q", r, got, want)
		}
	}
}
