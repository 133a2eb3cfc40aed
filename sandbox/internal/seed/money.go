package seed

import (
	"cmp"
	"fmt"
	"sort"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// cardBucket is where a card's transactions post: its account, its virtual
// account (the card's own, its group's or the primary one) and the subtype.
func (l *loader) cardBucket(c *cards.Card) (acc *ledger.Account, vaID, subtype string) {
	acc = l.accs[c.AccountID]
	vaID = c.VirtualAccountID
	if g := l.groups[c.CardGroupID]; vaID == "" && g != nil {
		vaID = g.VirtualAccountID
	}
	if vaID == "" {
		vaID = acc.PrimaryVirtualAccountID
	}
	subtype = "cash"
	if acc.Type == "charge_card" {
		subtype = "credit"
	}
	return acc, vaID, subtype
}

func (l *loader) transactions() error {
	for i, s := range l.sc.Transactions {
		l.op.SetOrigin(fmt.Sprintf("transactions[%d]", i))
		t, err := l.transaction(i, s)
		if err != nil {
			return err
		}
		if err := ledger.PostTransaction(l.op, t); err != nil {
			return err
		}
		if s.SettlesAt != "" {
			if err := ledger.ScheduleSettlement(l.op, t, ledger.At(l.time(s.SettlesAt)), "settled"); err != nil {
				return err
			}
		}
	}
	return nil
}

func (l *loader) transaction(i int, s scenario.Transaction) (*ledger.Transaction, error) {
	t := &ledger.Transaction{ID: s.ID, Category: s.Category, AmountCents: s.AmountCents, Description: s.Description,
		DetailedStatus: s.DetailedStatus, Memo: s.Memo, DeclineReason: s.DeclineReason,
		CreatedAt: l.createdAt(s.Date, l.op.Now), VirtualAccountID: s.VirtualAccountID, AccountSubtype: "cash"}
	if t.DetailedStatus == "" {
		t.DetailedStatus = "settled"
	}
	if s.CardID != "" {
		card := l.cardByID(s.CardID)
		acc, va, sub := l.cardBucket(card)
		t.AccountID, t.LegalEntityID, t.CardID, t.CardGroupID, t.AccountSubtype = acc.ID, acc.LegalEntityID, card.ID,
			card.CardGroupID, sub
		if t.VirtualAccountID == "" {
			t.VirtualAccountID = va
		}
		if t.Category == "" {
			t.Category = "card"
		}
	} else {
		acc := l.accs[s.AccountID]
		t.AccountID, t.LegalEntityID = acc.ID, acc.LegalEntityID
		if t.VirtualAccountID == "" {
			t.VirtualAccountID = acc.PrimaryVirtualAccountID
		}
	}
	if t.Category == "" {
		t.Category = "ach"
	}
	f := l.op.W.Faker("scenario-transaction", int64(i))
	if s.MerchantID != "" {
		m, _ := l.op.W.Catalog.Merchant(s.MerchantID)
		t.Merchant = merchantData(m)
	}
	if s.Details == nil {
		ledger.FillRail(f, t, s.Rail)
	}
	if err := l.exact(i, s, t); err != nil {
		return nil, err
	}
	if t.Description == "" {
		t.Description = ledger.Describe(t)
	}
	if t.Date = t.CreatedAt; t.DetailedStatus == "declined" && t.DeclineReason == "" {
		t.DeclineReason = "insufficient_funds"
	}
	if s.CreatedAt != "" {
		t.CreatedAt = l.time(s.CreatedAt)
	}
	return t, nil
}

// railDetails are the rail objects a transaction's details may give.
type railDetails struct {
	WireInfo *ledger.WireInfo `json:"wireInfo"`
	ACHInfo  *ledger.ACHInfo  `json:"achInfo"`
	SEPAInfo *ledger.SEPAInfo `json:"sepaInfo"`
	PIXInfo  *ledger.PIXInfo  `json:"pixInfo"`
	SPEIInfo *ledger.SPEIInfo `json:"speiInfo"`
	FPSInfo  *ledger.FPSInfo  `json:"fpsInfo"`
	RTPInfo  *ledger.RTPInfo  `json:"rtpInfo"`
	FeeInfo  *ledger.FeeInfo  `json:"feeInfo"`
}

// exact sets what a transaction declares to restore it as it was: its
// note, reference, authorization, transfer, merchant and rail details.
func (l *loader) exact(i int, s scenario.Transaction, t *ledger.Transaction) error {
	t.Note, t.ApprovalReason = s.Note, s.ApprovalReason
	t.ReferenceNumber = cmp.Or(s.ReferenceNumber, t.ReferenceNumber)
	t.ProviderAuthorizationID, t.TransferID = s.ProviderAuthorizationID, s.TransferID
	if s.CardGroupID != "" {
		t.CardGroupID = s.CardGroupID
	}
	if s.AuthorizedAt != "" {
		at := l.time(s.AuthorizedAt)
		t.AuthorizedAt = &at
	}
	if s.MerchantData != nil {
		md := &ledger.MerchantData{}
		if err := decodeStrict(s.MerchantData, md); err != nil {
			return l.problem(fmt.Sprintf("transactions[%d].merchantData", i), "%v", err)
		}
		if t.Merchant != nil {
			md.MerchantID = t.Merchant.MerchantID
		}
		t.Merchant = md
	}
	if s.Details != nil {
		var d railDetails
		if err := decodeStrict(s.Details, &d); err != nil {
			return l.problem(fmt.Sprintf("transactions[%d].details", i), "%v", err)
		}
		t.WireInfo, t.ACHInfo, t.SEPAInfo, t.PIXInfo = d.WireInfo, d.ACHInfo, d.SEPAInfo, d.PIXInfo
		t.SPEIInfo, t.FPSInfo, t.RTPInfo, t.FeeInfo = d.SPEIInfo, d.FPSInfo, d.RTPInfo, d.FeeInfo
	}
	return nil
}

func (l *loader) cardByID(id string) *cards.Card {
	for _, c := range l.cards {
		if c.ID == id {
			return c
		}
	}
	return nil
}

func merchantData(m *fixtures.Merchant) *ledger.MerchantData {
	return &ledger.MerchantData{Description: m.Name, CategoryCode: m.MCC, MerchantID: m.ID,
		Location: &ledger.MerchantLocation{City: m.City, State: m.State, Country: m.Country, Zip: m.Zip}}
}

// openingBalances posts, per virtual account, the deposit that makes its
// posted balance what the scenario declared, dated before its history.
func (l *loader) openingBalances() error {
	ids := make([]string, 0, len(l.balances))
	for id := range l.balances {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return l.vas[ids[i]].Seq < l.vas[ids[j]].Seq })
	for _, id := range ids {
		va := l.vas[id]
		acc := l.accs[va.AccountID]
		// A virtual account's declared balance is its posted total; a
		// charge card's is its cash balance, its card spend being credit.
		owner, bucket := va.ID, "virtual"
		if acc.Type == "charge_card" && va.Primary {
			owner, bucket = acc.ID, "cash"
		}
		cur, err := ledger.TotalsOf(l.op, owner, bucket)
		if err != nil {
			return err
		}
		diff := l.balances[id] - cur.Posted
		if diff == 0 {
			continue
		}
		desc := "Opening balance"
		if diff < 0 {
			desc = "Opening balance adjustment"
		}
		t := &ledger.Transaction{
			LegalEntityID:    acc.LegalEntityID,
			AccountID:        acc.ID,
			VirtualAccountID: va.ID,
			AccountSubtype:   "cash",
			Category:         "internal",
			AmountCents:      diff,
			Description:      desc,
			DetailedStatus:   "settled",
			CreatedAt:        va.CreatedAt,
		}
		if err := ledger.PostTransaction(l.op, t); err != nil {
			return err
		}
	}
	return nil
}

// moneyMovement stores the scenario's money settings and gives every legal
// entity with a commercial account its Slash handle.
func (l *loader) moneyMovement() error {
	settings := ledger.RailSettings{ACHSettlementBusinessDays: ledger.DefaultACHSettlementBusinessDays}
	if m := l.sc.Money; m != nil && m.ACHSettlementBusinessDays != nil {
		settings.ACHSettlementBusinessDays = *m.ACHSettlementBusinessDays
	}
	if err := l.op.Tx.Put(ledger.RailSettingsKey, settings); err != nil {
		return err
	}
	for _, le := range l.sc.LegalEntities {
		for _, s := range l.sc.Accounts {
			acc := l.accs[s.ID]
			if acc == nil || acc.LegalEntityID != le.ID || !acc.Commercial || acc.Status != "open" {
				continue
			}
			if err := ledger.CreateHandle(l.op, le.Name, acc); err != nil {
				return err
			}
			break
		}
	}
	return nil
}

// cardEvents stores the card-network events already recorded.
func (l *loader) cardEvents() error {
	for i, s := range l.sc.CardEvents {
		path := fmt.Sprintf("cardEvents[%d]", i)
		card := l.cardByID(s.CardID)
		e := &cards.Event{ID: s.ID, CardID: s.CardID, LegalEntityID: card.LegalEntityID, Type: s.Type,
			AmountCents: s.AmountCents, Approved: s.Approved, TransactionID: s.TransactionID,
			OriginalTransactionID: s.OriginalTransactionID, Last4: cmp.Or(s.Last4, card.Last4()),
			CardName: cmp.Or(s.CardName, card.Name), CreatedAt: l.time(s.At)}
		if s.Merchant != nil {
			e.Merchant = &cards.Merchant{}
			if err := decodeStrict(s.Merchant, e.Merchant); err != nil {
				return l.problem(path+".merchant", "%v", err)
			}
		}
		if s.Decision != nil {
			e.Decision = &cards.Decision{}
			if err := decodeStrict(s.Decision, e.Decision); err != nil {
				return l.problem(path+".decision", "%v", err)
			}
		}
		if err := cards.SaveEvent(l.op, e); err != nil {
			return err
		}
	}
	return nil
}
