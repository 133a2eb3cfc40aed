package scenario

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Work under way when the world starts: an information request emailed to
// a contact (with an ACH queued on it), a read-only key's write waiting for
// a person, an endpoint whose deliveries are failing. Each is written as
// if it had happened through the API.

// InformationRequest declares an information request already sent: the
// contact's email, with the link to the secure form, is in the outbox.
type InformationRequest struct {
	ContactID            string               `yaml:"contactId"`
	RequesterName        string               `yaml:"requesterName"`
	RequestedInformation RequestedInformation `yaml:"requestedInformation"`
	Note                 string               `yaml:"note"`
	SentAt               string               `yaml:"sentAt"`
	// QueuedACH is an ACH to the contact held until the form brings its
	// bank account.
	QueuedACH *QueuedACH `yaml:"queuedAch"`
}

// RequestedInformation is what the contact is asked for.
type RequestedInformation struct {
	DestinationTypes []string `yaml:"destinationTypes"`
	Address          bool     `yaml:"address"`
	Tax              bool     `yaml:"tax"`
}

// QueuedACH is an ACH waiting on an information request: the money is held
// from the account (or virtual account) as a pending debit.
type QueuedACH struct {
	From        string `yaml:"from"`
	AmountCents int64  `yaml:"amountCents"`
	Memo        string `yaml:"memo"`
}

// DeferredWrite declares a write a read-only key asked for, waiting for a
// person to approve it: an agent request, as if the key had sent it.
type DeferredWrite struct {
	Key    string         `yaml:"key"`
	Method string         `yaml:"method"`
	Path   string         `yaml:"path"`
	Body   map[string]any `yaml:"body"`
	// LegalEntityID is the x-legal-entity a user key sends.
	LegalEntityID string `yaml:"legalEntityId"`
	At            string `yaml:"at"`
}

// WebhookFailing declares an endpoint that has not been answering: its
// first event's delivery was attempted Attempts times since Since, each
// refused, and waits for its next attempt; the other events queue behind
// it, as deliveries to one endpoint go out one at a time.
type WebhookFailing struct {
	Since    string         `yaml:"since"`
	Attempts int            `yaml:"attempts"`
	Events   []WebhookEvent `yaml:"events"`
}

// WebhookEvent is one event an endpoint is told about.
type WebhookEvent struct {
	Event    string `yaml:"event"`
	EntityID string `yaml:"entityId"`
}

// MaxFailedAttempts is the most refused attempts a declared delivery has
// had: the next one is its last (the engine makes 13).
const MaxFailedAttempts = 12

var destinationTypes = []string{"bank_account", "international_wire", "crypto_address"}

// activity checks the work under way.
func (v *validator) activity() {
	for i, ir := range v.sc.InformationRequests {
		p := fmt.Sprintf("informationRequests[%d]", i)
		owner := ""
		if v.required(p+".contactId", ir.ContactID) {
			owner, _ = v.ref(p+".contactId", "contact", ir.ContactID)
		}
		v.required(p+".requesterName", ir.RequesterName)
		r := ir.RequestedInformation
		if len(r.DestinationTypes) == 0 && !r.Address && !r.Tax {
			v.add(p+".requestedInformation", "must ask for at least one of destinationTypes, address, tax")
		}
		for j, t := range r.DestinationTypes {
			v.enum(fmt.Sprintf("%s.requestedInformation.destinationTypes[%d]", p, j), t, destinationTypes...)
		}
		v.time(p+".sentAt", ir.SentAt)
		if q := ir.QueuedACH; q != nil {
			v.queuedACH(p+".queuedAch", q, owner, slices.Contains(r.DestinationTypes, "bank_account"))
		}
	}
	for i, inv := range v.sc.Invoices {
		if inv.Emailed && inv.ScheduledSend != "" {
			v.add(fmt.Sprintf("invoices[%d].emailed", i), "an invoice scheduled to be sent (scheduledSendAt) has not been emailed yet")
		}
	}
	for i, d := range v.sc.DeferredWrites {
		v.deferredWrite(fmt.Sprintf("deferredWrites[%d]", i), d)
	}
	for i, w := range v.sc.Webhooks {
		if w.Failing != nil {
			v.failing(fmt.Sprintf("webhooks[%d]", i), w)
		}
	}
}

func (v *validator) queuedACH(p string, q *QueuedACH, owner string, wantsBank bool) {
	if !wantsBank {
		v.add(p, "needs the request to ask for a bank_account destination")
	}
	if v.required(p+".from", q.From) {
		kind := "account"
		if _, ok := v.ids["virtual_account"][q.From]; ok {
			kind = "virtual_account"
		}
		if got, ok := v.ref(p+".from", kind, q.From); ok {
			v.sameEntity(p+".from", owner, got)
		}
	}
	if q.AmountCents <= 0 {
		v.add(p+".amountCents", "must be a positive amount in cents")
	}
}

var writeMethods = []string{"POST", "PUT", "PATCH", "DELETE"}

func (v *validator) deferredWrite(p string, d DeferredWrite) {
	if v.required(p+".key", d.Key) {
		i := slices.IndexFunc(v.sc.Keys, func(k Key) bool { return k.Key == d.Key })
		switch {
		case i < 0:
			v.add(p+".key", "names key %q, which the scenario does not declare", d.Key)
		case !v.sc.Keys[i].ReadOnly:
			v.add(p+".key", "key %q is not read-only: only a read-only key's writes wait for approval", d.Key)
		case v.sc.Keys[i].Kind == "user" && d.LegalEntityID == "":
			v.add(p+".legalEntityId", "is required with a user key (the x-legal-entity it sends)")
		}
	}
	if v.required(p+".method", d.Method) {
		v.enum(p+".method", d.Method, writeMethods...)
	}
	if v.required(p+".path", d.Path) && !strings.HasPrefix(d.Path, "/") {
		v.add(p+".path", "must be an API path starting with /, such as /card/card_123")
	}
	v.ref(p+".legalEntityId", "legal_entity", d.LegalEntityID)
	v.time(p+".at", d.At)
}

func (v *validator) failing(p string, w Webhook) {
	f := w.Failing
	p += ".failing"
	if w.Status != "" && w.Status != "active" {
		v.add(p, "needs an active endpoint (a %s one sends nothing)", w.Status)
	}
	if v.required(p+".since", f.Since) {
		if t, err := ParseTime(f.Since, time.Unix(0, 0)); err != nil {
			v.add(p+".since", "%v", err)
		} else if IsRelative(f.Since) && t.After(time.Unix(0, 0)) {
			v.add(p+".since", "must be before the clock start, such as -40m")
		}
	}
	if f.Attempts < 1 || f.Attempts > MaxFailedAttempts {
		v.add(p+".attempts", "must be between 1 and %d", MaxFailedAttempts)
	}
	if len(f.Events) == 0 {
		v.add(p+".events", "needs at least one event, the one whose delivery is failing")
	}
	for j, e := range f.Events {
		ep := fmt.Sprintf("%s.events[%d]", p, j)
		v.required(ep+".event", e.Event)
		v.required(ep+".entityId", e.EntityID)
	}
}
