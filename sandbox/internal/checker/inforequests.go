package checker

import (
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/inforequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

// checkInformationRequests reports information requests that their
// contact contradicts: the contact must exist, belong to the request's
// legal entity, have been added before the request was sent and be the
// address the email went to; a contact has at most one pending request.
func checkInformationRequests(c *check, op *kernel.Op) error {
	pending := map[string]string{}
	return each(c, op, inforequests.Kind, func(ir *inforequests.Request, path string) error {
		what := "information request " + ir.ID
		ct, err := get[parties.Contact](c, op, parties.KindContact, ir.ContactID)
		if err != nil {
			return err
		}
		if ct == nil {
			c.report(path, "informationRequest.contact", "%s asks contact %s, which does not exist", what, ir.ContactID)
			return nil
		}
		if ct.LegalEntityID != ir.LegalEntityID {
			c.report(path, "informationRequest.legalEntity", "%s of %s asks contact %s of %s", what, ir.LegalEntityID,
				ct.ID, ct.LegalEntityID)
		}
		if ir.SentAt.Before(ct.CreatedAt) {
			c.report(path, "informationRequest.beforeContact", "%s was sent %s, before contact %s (%s) was added (%s)",
				what, day(ir.SentAt), ct.ID, ct.Name, day(ct.CreatedAt))
		}
		if ir.SentToEmail != ct.RecipientEmail {
			c.report(path, "informationRequest.email", "%s was sent to %q, but contact %s's address is %q", what,
				ir.SentToEmail, ct.ID, ct.RecipientEmail)
		}
		if ir.Status == inforequests.StatusPending {
			if other, ok := pending[ct.ID]; ok {
				c.report(path, "informationRequest.pending", "%s is pending while %s, for the same contact %s, is too: "+
					"a contact has one pending request at a time", what, other, ct.ID)
			}
			pending[ct.ID] = ir.ID
		}
		return nil
	})
}
