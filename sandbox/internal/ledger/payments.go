package ledger

import (
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
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
		kernel.IndexKey(indexHandleLE, h.LegalEntityID, store.Seq(h.Seq), h.ID),
		kernel.IndexKey(indexHandleName, h.Handle, h.ID),
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
	words := strings.FieldsFunc(strings.ToLower(name),
		func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for len(words) > 1 && corporateSuffixes[words[len(words)-1]] {
		words = words[:len(words)-1]
	}
	if len(words) == 0 {
		return "slash-user"
	}
	return strings.Join(words, "-")
}

// CreateHandle gives a legal entity its handle, named after it and made
// unique with a number when the name is taken.
func CreateHandle(op *kernel.Op, leName string, acc *Account) error {
	base := HandleName(leName)
	name := base
	for n := 2; ; n++ {
		_, taken, err := HandleByName(op, name)
		if err != nil {
			return err
		}
		if !taken {
			break
		}
		name = base + "-" + strconv.Itoa(n)
	}
	id, err := op.NewID(PrefixHandle)
	if err != nil {
		return err
	}
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	h := &Handle{
		ID:            id,
		Handle:        name,
		AccountID:     acc.ID,
		LegalEntityID: acc.LegalEntityID,
		CreatedAt:     acc.CreatedAt,
		Seq:           seq,
	}
	return op.Save(kindHandle, h.ID, h, handleIndexes(h)...)
}

// Handles lists the actor's handles (usually one).
func Handles(op *kernel.Op, a *kernel.Actor) ([]Handle, error) {
	return kernel.All[Handle](op, kindHandle, kernel.IndexPrefix(indexHandleLE, a.LegalEntityID()))
}

// HandleByName finds a handle of any legal entity by its name; a leading
// "@" and letter case are ignored.
func HandleByName(op *kernel.Op, name string) (*Handle, bool, error) {
	name = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(name), "@"))
	if name == "" {
		return nil, false, nil
	}
	p, err := kernel.List[Handle](op, kindHandle, kernel.IndexPrefix(indexHandleName, name), kernel.PageRequest{Size: 1},
		nil)
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
func Pay(op *kernel.Op, a *kernel.Actor, r PayRequest) (*Payment, error) {
	src, err := sourceHandle(op, a, r.SourceHandleID)
	if err != nil {
		return nil, err
	}
	dst, ok, err := HandleByName(op, r.SlashHandle)
	if err == nil && !ok {
		var h Handle
		if ok, err = op.Get(kindHandle, r.SlashHandle, &h); ok {
			dst = &h
		}
	}
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, kernel.NotFound("handle", "slashHandle", r.SlashHandle)
	}
	if dst.ID == src.ID {
		return nil, kernel.InvalidField("/slashHandle", "is the paying handle itself; a payment needs another recipient")
	}
	from, _, err := Endpoint(op, src.AccountID)
	if err != nil {
		return nil, err
	}
	to, _, err := Endpoint(op, dst.AccountID)
	if err != nil {
		return nil, err
	}
	if err := movable(from, to, "sourceHandleId", "slashHandle"); err != nil {
		return nil, err
	}
	id, debit, err := postInternal(op, internalMove{from: from, to: to, amount: r.AmountCents, memo: r.Memo,
		debitText: "Payment to @" + dst.Handle, creditText: "Payment from @" + src.Handle})
	if err != nil {
		return nil, err
	}
	return &Payment{TransferID: id, TransactionID: debit.ID, Recipient: *dst}, nil
}

// sourceHandle is the handle a payment is made from: the named one, which
// must be the actor's, or the actor's own.
func sourceHandle(op *kernel.Op, a *kernel.Actor, id string) (*Handle, error) {
	if id == "" {
		hs, err := Handles(op, a)
		if err != nil {
			return nil, err
		}
		if len(hs) == 0 {
			return nil, kernel.Errorf(kernel.CodeNotFound, "legal entity %s has no Slash handle", a.LegalEntityID())
		}
		return &hs[0], nil
	}
	var h Handle
	ok, err := op.Get(kindHandle, id, &h)
	if err != nil {
		return nil, err
	}
	if !ok || h.LegalEntityID != a.LegalEntityID() {
		return nil, kernel.NotFound("handle", "sourceHandleId", id)
	}
	return &h, nil
}
