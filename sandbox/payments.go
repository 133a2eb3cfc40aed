package sandbox

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/slash-sandbox/slash-sandbox/sandbox/store"
)

// Handle is the Slash handle of a legal entity: the name other Slash users
// pay it by, and the account that receives those payments.
type Handle struct {
	ID            string    `json:"id"`
	Handle        string    `json:"handle"`
	AccountID     string    `json:"accountId"`
	LegalEntityID string    `json:"legalEntityId"`
	CreatedAt     time.Time `json:"createdAt"`
	Seq           int64     `json:"seq"`
}

const (
	kindHandle      = "handle"
	indexHandleLE   = "handle.le"
	indexHandleName = "handle.name"
)

func handleIndexes(h *Handle) []string {
	return []string{
		IndexKey(indexHandleLE, h.LegalEntityID, store.Seq(h.Seq), h.ID),
		IndexKey(indexHandleName, h.Handle, h.ID),
	}
}

// corporateSuffixes are left out of handle names.
var corporateSuffixes = map[string]bool{"inc": true, "llc": true, "ltd": true, "corp": true, "co": true, "gmbh": true,
	"plc": true, "lp": true, "llp": true, "sa": true, "ag": true, "bv": true, "pty": true, "company": true,
	"corporation": true, "incorporated": true, "limited": true}

// HandleName derives a handle from a legal entity's name: lower case words
// joined by dashes, without a trailing corporate suffix ("Acme Robotics
// Inc." is "acme-robotics").
func HandleName(name string) string {
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for len(words) > 1 && corporateSuffixes[words[len(words)-1]] {
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return "slash-user"
	}
	return strings.Join(words, "-")
}

// moneyMovement stores the scenario's money settings and gives every legal
// entity with a commercial account its Slash handle.
func (l *loader) moneyMovement() error {
	settings := RailSettings{ACHSettlementBusinessDays: DefaultACHSettlementBusinessDays}
	if m := l.sc.Money; m != nil && m.ACHSettlementBusinessDays != nil {
		settings.ACHSettlementBusinessDays = *m.ACHSettlementBusinessDays
	}
	if err := l.op.Tx.Put(railSettingsKey, settings); err != nil {
		return err
	}
	for _, le := range l.sc.LegalEntities {
		for _, s := range l.sc.Accounts {
			acc := l.accs[s.ID]
			if acc == nil || acc.LegalEntityID != le.ID || !acc.Commercial || acc.Status != "open" {
				continue
			}
			if err := l.op.createHandle(le.Name, acc); err != nil {
				return err
			}
			break
		}
	}
	return nil
}

// createHandle gives a legal entity its handle, named after it and made
// unique with a number when the name is taken.
func (op *Op) createHandle(leName string, acc *Account) error {
	base := HandleName(leName)
	name := base
	for n := 2; ; n++ {
		_, taken, err := op.HandleByName(name)
		if err != nil {
			return err
		}
		if !taken {
			break
		}
		name = base + "-" + strconv.Itoa(n)
	}
	id, err := op.newID(PrefixHandle)
	if err != nil {
		return err
	}
	seq, err := op.nextSeq()
	if err != nil {
		return err
	}
	h := &Handle{ID: id, Handle: name, AccountID: acc.ID, LegalEntityID: acc.LegalEntityID, CreatedAt: acc.CreatedAt, Seq: seq}
	return op.save(kindHandle, h.ID, h, handleIndexes(h)...)
}

// Handles lists the actor's handles (usually one).
func (op *Op) Handles(a *Actor) ([]Handle, error) {
	return all[Handle](op, kindHandle, IndexPrefix(indexHandleLE, a.LegalEntityID()))
}

// HandleByName finds a handle of any legal entity by its name; a leading
// "@" and letter case are ignored.
func (op *Op) HandleByName(name string) (*Handle, bool, error) {
	name = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(name), "@"))
	if name == "" {
		return nil, false, nil
	}
	p, err := list[Handle](op, kindHandle, IndexPrefix(indexHandleName, name), PageRequest{Size: 1}, nil)
	if err != nil || len(p.Items) == 0 {
		return nil, false, err
	}
	return &p.Items[0], true, nil
}

// PayRequest sends money to a Slash handle.
type PayRequest struct {
	// SlashHandle names the recipient: its handle (with or without "@") or
	// its handle id.
	SlashHandle string
	AmountCents int64
	// SourceHandleID picks the paying handle; "" means the actor's own.
	SourceHandleID string
	Memo           string
}

// Payment is a made payment: its transfer and the payer's debit.
type Payment struct {
	TransferID    string
	TransactionID string
	Recipient     Handle
}

// Pay sends money from one of the actor's handles to any handle of the
// world, instantly: the payer's account is debited and the recipient's
// credited.
func (op *Op) Pay(a *Actor, r PayRequest) (*Payment, error) {
	src, err := op.sourceHandle(a, r.SourceHandleID)
	if err != nil {
		return nil, err
	}
	dst, ok, err := op.HandleByName(r.SlashHandle)
	if err == nil && !ok {
		var h Handle
		if ok, err = op.get(kindHandle, r.SlashHandle, &h); ok {
			dst = &h
		}
	}
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, NotFound("handle", "slashHandle", r.SlashHandle)
	}
	if dst.ID == src.ID {
		return nil, InvalidField("/slashHandle", "is the paying handle itself; a payment needs another recipient")
	}
	from, _, err := op.endpoint(src.AccountID)
	if err != nil {
		return nil, err
	}
	to, _, err := op.endpoint(dst.AccountID)
	if err != nil {
		return nil, err
	}
	if err := movable(from, to, "sourceHandleId", "slashHandle"); err != nil {
		return nil, err
	}
	id, debit, err := op.postInternal(internalMove{from: from, to: to, amount: r.AmountCents, memo: r.Memo,
		debitText: "Payment to @" + dst.Handle, creditText: "Payment from @" + src.Handle})
	if err != nil {
		return nil, err
	}
	return &Payment{TransferID: id, TransactionID: debit.ID, Recipient: *dst}, nil
}

// sourceHandle is the handle a payment is made from: the named one, which
// must be the actor's, or the actor's own.
func (op *Op) sourceHandle(a *Actor, id string) (*Handle, error) {
	if id == "" {
		hs, err := op.Handles(a)
		if err != nil {
			return nil, err
		}
		if len(hs) == 0 {
			return nil, Errorf(CodeNotFound, "legal entity %s has no Slash handle", a.LegalEntityID())
		}
		return &hs[0], nil
	}
	var h Handle
	ok, err := op.get(kindHandle, id, &h)
	if err != nil {
		return nil, err
	}
	if !ok || h.LegalEntityID != a.LegalEntityID() {
		return nil, NotFound("handle", "sourceHandleId", id)
	}
	return &h, nil
}
