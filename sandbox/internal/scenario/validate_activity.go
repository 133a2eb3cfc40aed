package scenario

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// MaxFailedAttempts is the most refused attempts a declared delivery has
// had: the next one is its last (the engine makes 13).
const MaxFailedAttempts = 12

// activity checks the work under way: what the tags cannot say.
func (v *validator) activity() {
	for i, ir := range v.sc.InformationRequests {
		v.informationRequest(fmt.Sprintf("informationRequests[%d]", i), ir)
	}
	for i, inv := range v.sc.Invoices {
		if inv.Emailed && inv.ScheduledSend != "" {
			v.add(fmt.Sprintf("invoices[%d].emailed", i),
				"an invoice scheduled to be sent (scheduledSendAt) has not been emailed yet")
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
	v.underWay()
}

func (v *validator) informationRequest(p string, ir InformationRequest) {
	r := ir.RequestedInformation
	if len(r.DestinationTypes) == 0 && !r.Address && !r.Tax {
		v.add(p+".requestedInformation", "must ask for at least one of destinationTypes, address, tax")
	}
	v.time(p+".sentAt", ir.SentAt)
	if ir.QueuedACH != nil {
		v.queuedACH(p+".queuedAch", ir, *ir.QueuedACH)
	}
	for i, q := range ir.QueuedACHs {
		v.queuedACH(fmt.Sprintf("%s.queuedAchs[%d]", p, i), ir, q)
	}
}

func (v *validator) queuedACH(p string, ir InformationRequest, q QueuedACH) {
	r := ir.RequestedInformation
	switch {
	case ir.ID != "" && q.TransactionID == "":
		v.add(p+".transactionId", "is required with the request's id: the held transaction is declared among "+
			"transactions")
	case ir.ID == "" && q.TransactionID != "":
		v.add(p+".transactionId", "is for a request declared with its id (as an export writes it)")
	}
	if !slices.Contains(r.DestinationTypes, "bank_account") {
		v.add(p, "needs the request to ask for a bank_account destination")
	}
	contactOwner, _ := v.owner("contact", ir.ContactID)
	if o, ok := v.accountOwner(q.From); ok {
		v.sameEntity(p+".from", contactOwner, o)
	}
	if q.AmountCents <= 0 {
		v.add(p+".amountCents", "must be a positive amount in cents")
	}
}

// accountOwner returns the legal entity of an account or virtual account.
func (v *validator) accountOwner(id string) (string, bool) {
	if o, ok := v.owner("account", id); ok {
		return o, true
	}
	return v.owner("virtual_account", id)
}

func (v *validator) deferredWrite(p string, d DeferredWrite) {
	if i := slices.IndexFunc(v.sc.Keys, func(k Key) bool { return k.Key == d.Key }); i >= 0 {
		switch k := v.sc.Keys[i]; {
		case !k.ReadOnly:
			v.add(p+".key", "key %q is not read-only: only a read-only key's writes wait for approval", d.Key)
		case k.Kind == "user" && d.LegalEntityID == "":
			v.add(p+".legalEntityId", "is required with a user key (the x-legal-entity it sends)")
		case k.Kind == "legal_entity" && d.LegalEntityID != "":
			v.add(p+".legalEntityId", "is for a user key; a legal_entity key acts on its own legal entity")
		}
	}
	if d.Path != "" && !strings.HasPrefix(d.Path, "/") {
		v.add(p+".path", "must be an API path starting with /, such as /card/card_123")
	}
	v.time(p+".at", d.At)
}

// eventEntity says what kind of thing a webhook event is about.
func eventEntity(event string) string {
	switch {
	case strings.HasPrefix(event, "card.") || strings.HasPrefix(event, "card_creation."):
		return "card"
	case strings.HasPrefix(event, "aggregated_transaction."):
		return "transaction"
	case strings.HasPrefix(event, "expense_report."):
		return "expense_report"
	}
	return ""
}

func (v *validator) failing(p string, w Webhook) {
	f := w.Failing
	p += ".failing"
	if w.Status != "" && w.Status != "active" {
		v.add(p, "needs an active endpoint (a %s one sends nothing)", w.Status)
	}
	if f.Since != "" {
		if t, err := ParseTime(f.Since, time.Unix(0, 0)); err != nil {
			v.add(p+".since", "%v", err)
		} else if IsRelative(f.Since) && t.After(time.Unix(0, 0)) {
			v.add(p+".since", "must be before the clock start, such as -40m")
		}
	}
	if f.Attempts < 1 || f.Attempts > MaxFailedAttempts {
		v.add(p+".attempts", "must be between 1 and %d", MaxFailedAttempts)
	}
	// An endpoint hears of its own legal entity's cards, transactions and
	// expense reports, each named by the events about its kind.
	for j, e := range f.Events {
		ep, want := fmt.Sprintf("%s.events[%d].entityId", p, j), eventEntity(e.Event)
		for _, kind := range refUnions["webhook_entity"] {
			owner, ok := v.owner(kind, e.EntityID)
			switch {
			case !ok:
			case want != "" && kind != want:
				v.add(ep, "%s is a %s, and %s is about a %s", e.EntityID, refKinds[kind], e.Event, refKinds[want])
			default:
				v.sameEntity(ep, w.LegalEntityID, owner)
			}
		}
	}
}
