package sandbox

import (
	"fmt"
	"sort"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox/scenario"
)

// cardBucket is where a card's transactions post: its account, its virtual
// account (the card's own, its group's or the primary one) and the subtype.
func (l *loader) cardBucket(c *Card) (acc *Account, vaID, subtype string) {
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
		t, err := l.transaction(i, s)
		if err != nil {
			return err
		}
		if err := l.op.PostTransaction(t); err != nil {
			return err
		}
		if s.SettlesAt != "" {
			if err := l.op.ScheduleSettlement(t, At(l.time(s.SettlesAt)), "settled"); err != nil {
				return err
			}
		}
	}
	return nil
}

func (l *loader) transaction(i int, s scenario.Transaction) (*Transaction, error) {
	t := &Transaction{ID: s.ID, Category: s.Category, AmountCents: s.AmountCents, Description: s.Description,
		DetailedStatus: s.DetailedStatus, Memo: s.Memo, DeclineReason: s.DeclineReason,
		CreatedAt: l.createdAt(s.Date, l.op.Now), VirtualAccountID: s.VirtualAccountID, AccountSubtype: "cash"}
	if t.DetailedStatus == "" {
		t.DetailedStatus = "settled"
	}
	if s.CardID != "" {
		card := l.cardByID(s.CardID)
		acc, va, sub := l.cardBucket(card)
		t.AccountID, t.LegalEntityID, t.CardID, t.CardGroupID, t.AccountSubtype = acc.ID, acc.LegalEntityID, card.ID, card.CardGroupID, sub
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
	f := l.op.W.faker("scenario-transaction", int64(i))
	if s.MerchantID != "" {
		m, _ := l.op.W.Catalog.Merchant(s.MerchantID)
		t.Merchant = merchantData(m)
	}
	fillRail(f, t, s.Rail)
	if t.Description == "" {
		t.Description = describe(t)
	}
	if t.Date = t.CreatedAt; t.DetailedStatus == "declined" && t.DeclineReason == "" {
		t.DeclineReason = "insufficient_funds"
	}
	return t, nil
}

func (l *loader) cardByID(id string) *Card {
	for _, c := range l.cards {
		if c.ID == id {
			return c
		}
	}
	return nil
}

func merchantData(m *fixtures.Merchant) *MerchantData {
	return &MerchantData{Description: m.Name, CategoryCode: m.MCC, MerchantID: m.ID,
		Location: &MerchantLocation{City: m.City, State: m.State, Country: m.Country, Zip: m.Zip}}
}

// describe is the statement line of a transaction without one.
func describe(t *Transaction) string {
	switch {
	case t.Merchant != nil:
		return t.Merchant.Description
	case t.SEPAInfo != nil:
		return "SEPA deposit from " + t.SEPAInfo.SenderName
	case t.PIXInfo != nil:
		return "PIX deposit from " + t.PIXInfo.SenderName
	case t.SPEIInfo != nil:
		return "SPEI deposit from " + t.SPEIInfo.SenderName
	case t.FPSInfo != nil:
		return "Faster Payments deposit from " + t.FPSInfo.SenderName
	case t.AmountCents > 0:
		return fmt.Sprintf("Incoming %s", railName(t.Category))
	}
	return fmt.Sprintf("Outgoing %s", railName(t.Category))
}

func railName(category string) string {
	return map[string]string{"ach": "ACH transfer", "wire": "wire transfer", "international_wire": "international wire",
		"rtp": "RTP payment", "fee": "Slash fee", "internal": "internal transfer", "card": "card payment"}[category]
}

// fillRail adds the rail-specific details a real transaction carries.
func fillRail(f *gofakeit.Faker, t *Transaction, rail string) {
	switch {
	case rail == "sepa":
		t.SEPAInfo = &SEPAInfo{SenderName: f.Company(), RecipientName: "Slash Global USD", Reference: "INV-" + f.DigitN(6),
			IBAN: "DE89370400440532013000", IBANLast4: "3000", BIC: "COBADEFFXXX", UETR: f.UUID(), PaymentScheme: "SEPA_CREDIT_TRANSFER"}
	case rail == "pix":
		t.PIXInfo = &PIXInfo{SenderName: f.Company(), Description: "Pagamento", Reference: f.DigitN(10), TrackingNumber: "E" + f.DigitN(20)}
	case rail == "spei":
		t.SPEIInfo = &SPEIInfo{SenderName: f.Company(), Description: "Pago de factura", Reference: f.DigitN(7), CLABE: "002010077777777771", TrackingNumber: f.DigitN(12)}
	case rail == "fps":
		t.FPSInfo = &FPSInfo{SenderName: f.Company(), RecipientName: "Slash Global USD", Reference: "PO" + f.DigitN(5),
			AccountNumber: "31926819", Last4: "6819", SortCode: "60-16-13", UETR: f.UUID()}
	case t.Category == "ach":
		t.ACHInfo = &ACHInfo{CounterpartyBank: f.RandomString([]string{"Chase", "Bank of America", "Wells Fargo", "Citibank"}),
			ReceiverID: f.DigitN(15), CompanyID: "1" + f.DigitN(9), CompanyDiscretionaryData: "", CompanyEntryDescription: "PAYMENT",
			TraceNumber: f.DigitN(15), EntryClassCode: "CCD", PaymentRelatedInfo: ""}
		t.Memo = firstNonEmpty(t.Memo, t.ACHInfo.CompanyEntryDescription)
	case t.Category == "wire" || t.Category == "international_wire":
		t.WireInfo = &WireInfo{CounterpartyBank: f.RandomString([]string{"JPMorgan Chase", "Citibank", "HSBC", "Barclays"}),
			TypeCode: "10", SubtypeCode: "00", OMAD: t.CreatedAt.Format("20060102") + "B1QGC" + f.DigitN(8),
			IMAD: t.CreatedAt.Format("20060102") + "MMQFMP" + f.DigitN(6), SenderReference: "REF" + f.DigitN(8), BusinessFunctionCode: "CTR"}
		t.Memo = firstNonEmpty(t.Memo, t.WireInfo.SenderReference)
	}
	if t.Category != "card" {
		t.ReferenceNumber = f.DigitN(12)
	}
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
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
		cur, err := l.op.totals(owner, bucket)
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
		t := &Transaction{LegalEntityID: acc.LegalEntityID, AccountID: acc.ID, VirtualAccountID: va.ID, AccountSubtype: "cash",
			Category: "internal", AmountCents: diff, Description: desc, DetailedStatus: "settled", CreatedAt: va.CreatedAt}
		if err := l.op.PostTransaction(t); err != nil {
			return err
		}
	}
	return nil
}
