package cards

import (
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// StatusChange is one change of a card's status, kept with the card so
// its status at any past instant is known.
type StatusChange struct {
	At time.Time `json:"at"`
	// Seq orders the change among the records made at the same instant;
	// 0 puts it before all of them.
	Seq  int64  `json:"seq,omitempty"`
	From string `json:"from"`
	To   string `json:"to"`
}

// liveSeq is above every sequence number: a live decision sees every
// record made up to its instant.
const liveSeq = 999_999_999_999

// cutoff is the instant a decision is made at: the records made before it
// count. A record made in the same millisecond counts when its sequence
// number is below seq.
type cutoff struct {
	at  time.Time
	seq int64
}

// liveCutoff is a live decision's cutoff: everything made up to now.
func liveCutoff(op *kernel.Op) cutoff { return cutoff{at: op.Now, seq: liveSeq} }

// holds reports whether a record made at (at, seq) came before the cutoff.
func (c cutoff) holds(at time.Time, seq int64) bool {
	a, b := at.UnixMilli(), c.at.UnixMilli()
	return a < b || a == b && seq < c.seq
}

// key is the first index key under prefix (an index ordered by time, then
// sequence number) that the cutoff leaves out.
func (c cutoff) key(prefix string) string {
	return prefix + store.Millis(c.at) + store.Sep + store.Seq(c.seq)
}

// StatusAt is a card's status at instant t: the status its recorded
// changes had given it before t (a change made at t itself is not yet in
// force). Before its first change a card had the status that change left;
// a card that did not yet exist at t answers its status at creation.
func StatusAt(c *Card, t time.Time) string { return statusAt(c, cutoff{at: t}) }

// statusAt is a card's status after the changes made before cut.
func statusAt(c *Card, cut cutoff) string {
	if len(c.StatusHistory) == 0 {
		return c.Status
	}
	s := c.StatusHistory[0].From
	for _, ch := range c.StatusHistory {
		if !cut.holds(ch.At, ch.Seq) {
			break
		}
		s = ch.To
	}
	return s
}

// recordStatusChange adds a change of status made now to the card's
// history (nothing when the status did not change).
func recordStatusChange(op *kernel.Op, c *Card, before string) error {
	if c.Status == before {
		return nil
	}
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	c.StatusHistory = append(c.StatusHistory, StatusChange{At: op.Now, Seq: seq, From: before, To: c.Status})
	return nil
}

// Replay decides a purchase at op.Now as a live authorization at that
// instant would have, from what the world held then: the card's status at
// the time (StatusAt), single use (the authorization attempts made before),
// its modifiers, and every rule of the card's and its group's spending
// constraints, utilization limits counting only the spend of transactions
// made before op.Now. Transaction exclude (the purchase being replayed,
// when it is one) is left out, and records of its own instant made before
// it count. History cannot know a past balance or what an authorization
// webhook's receiver answered then, so funds, the webhook and the
// sandbox's magic values take no part. The constraints are the card's and
// group's current ones.
func Replay(op *kernel.Op, req AuthorizationRequest, exclude string) (*Decision, error) {
	ac, err := replayContext(op, req, exclude)
	if err != nil {
		return nil, err
	}
	return ac.decide()
}

// replayContext is what replaying a purchase at op.Now reads.
func replayContext(op *kernel.Op, req AuthorizationRequest, exclude string) (*authContext, error) {
	ac, err := authContextFor(op, req)
	if err != nil {
		return nil, err
	}
	ac.past, ac.exclude, ac.cut = true, exclude, cutoff{at: op.Now}
	if exclude != "" {
		t, ok, err := ledger.FindTransaction(op, exclude)
		if err != nil {
			return nil, err
		}
		if ok && t.CreatedAt.UnixMilli() == op.Now.UnixMilli() {
			ac.cut.seq = t.Seq
		}
	}
	return ac, nil
}

// RecordPast writes a purchase made at op.Now, in the past, into the
// world's history: decided as Replay decides it, and recorded as
// SimulateAuthorization records a live one (the transaction, pending when
// approved and declined otherwise; a card event with the decision; a
// single-use card closed after its attempt). An approved purchase is left
// pending with nothing scheduled, or settled at once when settled is set
// (a purchase whose clearing is long past, written once instead of twice):
// the caller gives it the rest of its life (settling, reversing,
// refunding).
func RecordPast(op *kernel.Op, req AuthorizationRequest, settled bool) (*Authorization, error) {
	ac, err := replayContext(op, req, "")
	if err != nil {
		return nil, err
	}
	ac.settled = settled
	d, err := ac.decide()
	if err != nil {
		return nil, err
	}
	if ac.authID, err = op.NewID(prefixAuthorization); err != nil {
		return nil, err
	}
	return ac.commit(d)
}

// PurchaseOf rebuilds the purchase a card transaction records, as Replay
// takes it: from the transaction's authorization event when it has one
// (the merchant as it was decided, whether it was recurring), else from
// the transaction itself (its merchant, categorised by the catalogue's
// merchant or MCC). It reports false for a transaction that is no card
// purchase (a refund, a bank transfer).
func PurchaseOf(op *kernel.Op, t *ledger.Transaction) (AuthorizationRequest, bool, error) {
	if t.Category != "card" || t.CardID == "" || t.AmountCents >= 0 {
		return AuthorizationRequest{}, false, nil
	}
	req := AuthorizationRequest{CardID: t.CardID, AmountCents: -t.AmountCents}
	evs, err := cardEventsWhere(op, t.CardID, t.CreatedAt, func(e *Event) bool {
		return e.Type == EventAuthorization && e.TransactionID == t.ID && e.Merchant != nil
	})
	if err != nil {
		return req, false, err
	}
	if len(evs) > 0 {
		req.Merchant, req.Recurring, req.AmountCents = *evs[0].Merchant, evs[0].Recurring, evs[0].AmountCents
		return req, true, nil
	}
	if m := merchantOfTransaction(t); m != nil {
		req.Merchant = *m
	}
	if m, ok := CatalogMerchant(op.W.Catalog, req.Merchant.ID); ok {
		req.Merchant.CategoryID = m.CategoryID
	} else if mcc, ok := op.W.Catalog.MCC(req.Merchant.MCC); ok {
		req.Merchant.CategoryID = mcc.CategoryID
	}
	return req, true, nil
}

// MerchantsAllowed reports, for each merchant, whether a purchase there
// passes the merchant, category, MCC and country rules of the card's and
// its group's spending constraints, the rules that look at the merchant
// alone.
func MerchantsAllowed(op *kernel.Op, card *Card, ms []Merchant) ([]bool, error) {
	ac, err := authContextOf(op, card, AuthorizationRequest{CardID: card.ID})
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(ms))
	for i, m := range ms {
		out[i] = true
		for _, s := range ac.scopes() {
			out[i] = out[i] && s.merchantRules(m) == nil
		}
	}
	return out, nil
}
