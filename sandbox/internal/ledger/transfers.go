package ledger

import (
	"fmt"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// TransferRequest asks to move money instantly on the Slash ledger.
type TransferRequest struct {
	// From and To are account (sa_group_…) or virtual account ids; an
	// account stands for its primary virtual account.
	From, To    string
	AmountCents int64
	Memo        string
}

// TransferBetweenVirtualAccounts moves money between two virtual accounts
// of the actor's legal entity (an account id names its primary virtual
// account). It settles at once and returns the transfer id.
func TransferBetweenVirtualAccounts(op *kernel.Op, a *kernel.Actor, r TransferRequest) (string, error) {
	from, err := OwnEndpoint(op, a, r.From, "source")
	if err != nil {
		return "", err
	}
	to, err := OwnEndpoint(op, a, r.To, "destination")
	if err != nil {
		return "", err
	}
	if err := movable(from, to, "source", "destination"); err != nil {
		return "", err
	}
	id, _, err := postInternal(op, internalMove{from: from, to: to, amount: r.AmountCents, memo: r.Memo,
		debitText: "Transfer to " + to.name(), creditText: "Transfer from " + from.name()})
	return id, err
}

// movable checks the two sides of a movement: different, and both open.
func movable(from, to *endpoint, fromField, toField string) error {
	if from.VA.ID == to.VA.ID {
		return kernel.InvalidField("/"+toField,
			fmt.Sprintf("must differ from %s (both name virtual account %s)", fromField, from.VA.ID))
	}
	if err := from.Open(fromField); err != nil {
		return err
	}
	return to.Open(toField)
}

// BookTransfer moves money instantly from an account or virtual account of
// the actor's legal entity to one of any legal entity the same credential
// may act on. A from of another entity the credential may act on is 403
// (send that entity in x-legal-entity); anything it may not see is 404.
func BookTransfer(op *kernel.Op, a *kernel.Actor, r TransferRequest) (string, error) {
	from, ok, err := Endpoint(op, r.From)
	if err != nil {
		return "", err
	}
	if !ok || !a.MayActOn(from.LegalEntityID()) {
		return "", kernel.NotFound(endpointKind(r.From), "from", r.From)
	}
	if from.LegalEntityID() != a.LegalEntityID() {
		return "", kernel.Errorf(kernel.CodeForbidden, "from belongs to legal entity %s; a book transfer is made by the"+
			" legal entity that owns from (send x-legal-entity: %s)",
			from.LegalEntityID(), from.LegalEntityID()).
			With("field", "from").
			With("id", r.From)
	}
	to, ok, err := Endpoint(op, r.To)
	if err != nil {
		return "", err
	}
	if !ok || !a.MayActOn(to.LegalEntityID()) {
		return "", kernel.NotFound(endpointKind(r.To), "to", r.To)
	}
	if err := movable(from, to, "from", "to"); err != nil {
		return "", err
	}
	m := internalMove{from: from, to: to, amount: r.AmountCents, memo: r.Memo,
		debitText: "Book transfer to " + to.name(), creditText: "Book transfer from " + from.name()}
	if from.LegalEntityID() != to.LegalEntityID() {
		fromLE, err := legalEntityName(op, from.LegalEntityID())
		if err != nil {
			return "", err
		}
		toLE, err := legalEntityName(op, to.LegalEntityID())
		if err != nil {
			return "", err
		}
		m.debitText, m.creditText = "Book transfer to "+toLE, "Book transfer from "+fromLE
	}
	id, _, err := postInternal(op, m)
	return id, err
}

// legalEntityName returns a legal entity's name.
func legalEntityName(op *kernel.Op, id string) (string, error) {
	var le kernel.LegalEntity
	_, err := op.Get(kernel.LegalEntities.Name, id, &le)
	return le.Name, err
}
