package ledger

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// FeeInfo links a Slash fee transaction to the transaction it was charged
// for.
type FeeInfo struct {
	RelatedTransaction RelatedTransaction `json:"relatedTransaction"`
}

// RelatedTransaction names a fee's transaction and its amount.
type RelatedTransaction struct {
	ID     string `json:"id"`
	Amount int64  `json:"amount"`
}

// RTPInfo carries a Real-Time Payments transfer's details.
type RTPInfo struct {
	CounterpartyBank string `json:"counterpartyBank,omitempty"`
	EndToEndID       string `json:"endToEndId,omitempty"`
	RoutingNumber    string `json:"routingNumber,omitempty"`
	OriginatorName   string `json:"originatorName,omitempty"`
	Description      string `json:"description,omitempty"`
}

// Rail timings.
const (
	// DefaultACHSettlementBusinessDays is how long an outgoing ACH stays
	// pending unless the scenario says otherwise.
	DefaultACHSettlementBusinessDays = 2
	// WireSettlement is how long a wire, in or out, stays pending.
	WireSettlement = 30 * time.Minute
	// InternationalWireFeeCents is the fee of an outgoing international
	// wire.
	InternationalWireFeeCents = 2500
)

// Scheduled event kinds of the rails.
const (
	EventKindACHSettle      = "ach.settle"
	EventKindACHReturn      = "ach.return"
	EventKindWireSettle     = "wire.settle"
	EventKindIncomingSettle = "incoming_transfer.settle"
)

// ReturnReasons names the ACH return codes the sandbox knows.
var ReturnReasons = map[string]string{
	"R01": "Insufficient funds", "R02": "Account closed", "R03": "No account/unable to locate account",
	"R04": "Invalid account number", "R10": "Customer advises not authorized", "R16": "Account frozen",
	"R20": "Non-transaction account", "R29": "Corporate customer advises not authorized",
}

// MagicReturnAccounts are destination account numbers whose ACH transfers
// are returned after they settle, with the given code.
var MagicReturnAccounts = map[string]string{"99990001": "R01", "99990002": "R02", "99990003": "R03"}

func returnReason(code string) string {
	if r, ok := ReturnReasons[code]; ok {
		return r
	}
	return "Returned"
}

// ReturnCodeOf is the return code ACH transfers to a destination meet ("" when
// they are not returned).
func ReturnCodeOf(d *parties.Destination) string {
	if d.ReturnCode != "" {
		return d.ReturnCode
	}
	return MagicReturnAccounts[d.AccountNumber]
}

// RailSettings are a world's money-movement settings, from its scenario.
type RailSettings struct {
	ACHSettlementBusinessDays int `json:"achSettlementBusinessDays"`
}

// RailSettingsKey stores the world's RailSettings.
var RailSettingsKey = store.Key("m", "money")

// CurrentRailSettings returns the world's money-movement settings.
func CurrentRailSettings(op *kernel.Op) (RailSettings, error) {
	s := RailSettings{ACHSettlementBusinessDays: DefaultACHSettlementBusinessDays}
	_, err := op.Tx.Get(RailSettingsKey, &s)
	return s, err
}

// AddBusinessDays moves t forward by n business days (Monday to Friday,
// in UTC; no bank holidays), keeping the time of day.
func AddBusinessDays(t time.Time, n int) time.Time {
	for n > 0 {
		t = t.AddDate(0, 0, 1)
		if wd := t.UTC().Weekday(); wd != time.Saturday && wd != time.Sunday {
			n--
		}
	}
	return t
}

// RailTransferRequest asks to send money out of the ledger to a contact's
// destination.
type RailTransferRequest struct {
	// SourceID is an account or a virtual account of the actor; Field is
	// the request field that named it.
	SourceID, Field string
	DestinationID   string
	// InformationRequestID names the information request a queued ACH
	// waits on, instead of a destination.
	InformationRequestID string
	AmountCents          int64
	Memo                 string
}

// RailTransfer is what sending money out returns.
type RailTransfer struct {
	TransferID    string
	TransactionID string
	SettlesAt     time.Time
}

// railOut resolves the source and destination of an outgoing transfer.
func railOut(
	op *kernel.Op,
	a *kernel.Actor,
	r RailTransferRequest,
) (*endpoint, *parties.Destination, *parties.Contact, error) {
	src, err := OwnEndpoint(op, a, r.SourceID, r.Field)
	if err != nil {
		return nil, nil, nil, err
	}
	var d parties.Destination
	ok, err := op.Get(parties.KindDestination, r.DestinationID, &d)
	if err != nil {
		return nil, nil, nil, err
	}
	if !ok || d.LegalEntityID != a.LegalEntityID() {
		return nil, nil, nil, kernel.NotFound("destination", "destinationId", r.DestinationID)
	}
	var c parties.Contact
	if _, err := op.Get(parties.KindContact, d.ContactID, &c); err != nil {
		return nil, nil, nil, err
	}
	if c.ArchivedAt != nil {
		return nil, nil, nil, kernel.InvalidField("/destinationId", fmt.Sprintf("contact %s is archived", c.ID))
	}
	return src, &d, &c, src.Open(r.Field)
}

// SendACH sends an ACH credit to a contact's bank account: a pending debit
// that settles after the world's ACH business days, and that a returning
// destination sends back one business day after it settled.
func SendACH(op *kernel.Op, a *kernel.Actor, r RailTransferRequest) (*RailTransfer, error) {
	src, d, c, err := railOut(op, a, r)
	if err != nil {
		return nil, err
	}
	if d.Type != parties.DestinationACH || d.AccountNumber == "" || d.RoutingNumber == "" {
		return nil, kernel.InvalidField("/destinationId",
			fmt.Sprintf("destination %s is a %s, not a bank account with account and routing numbers", d.ID, d.Type))
	}
	if err := CheckFunds(op, src, r.AmountCents); err != nil {
		return nil, err
	}
	settings, err := CurrentRailSettings(op)
	if err != nil {
		return nil, err
	}
	id, err := op.NewID(PrefixTransfer)
	if err != nil {
		return nil, err
	}
	t := Leg(src, -r.AmountCents, "ach", "pending", "ACH to "+c.Name, r.Memo, id)
	t.CreatedAt = op.Now
	FillRail(op.W.Faker("transfer:"+id, 0), t, "")
	t.ACHInfo.CounterpartyBank = FirstNonEmpty(d.BankName, t.ACHInfo.CounterpartyBank)
	if err := PostTransaction(op, t); err != nil {
		return nil, err
	}
	at := AddBusinessDays(op.Now, settings.ACHSettlementBusinessDays)
	_, err = op.Schedule(EventKindACHSettle, at, AchPayload{TransactionID: t.ID, ReturnCode: ReturnCodeOf(d)})
	return &RailTransfer{TransferID: id, TransactionID: t.ID, SettlesAt: at}, err
}

// SendWire sends a wire to a contact: domestic to a bank account,
// international (with its fee) to an international_wire destination. It
// settles 30 minutes later.
func SendWire(op *kernel.Op, a *kernel.Actor, r RailTransferRequest) (*RailTransfer, error) {
	src, d, c, err := railOut(op, a, r)
	if err != nil {
		return nil, err
	}
	category, fee, text := "wire", int64(0), "Wire to "
	switch {
	case d.Type == parties.DestinationInternationalWire:
		category, fee, text = "international_wire", InternationalWireFeeCents, "International wire to "
	case d.Type != parties.DestinationACH || d.AccountNumber == "" || d.RoutingNumber == "":
		return nil, kernel.InvalidField(
			"/destinationId",
			fmt.Sprintf("destination %s is a %s; a wire needs a bank account or an international_wire destination", d.ID,
				d.Type),
		)
	}
	if err := CheckFunds(op, src, r.AmountCents+fee); err != nil {
		return nil, err
	}
	id, err := op.NewID(PrefixTransfer)
	if err != nil {
		return nil, err
	}
	f := op.W.Faker("transfer:"+id, 0)
	t := Leg(src, -r.AmountCents, category, "pending", text+c.Name, r.Memo, id)
	t.CreatedAt = op.Now
	FillRail(f, t, "")
	t.WireInfo.CounterpartyBank = FirstNonEmpty(d.BankName, t.WireInfo.CounterpartyBank)
	if err := PostTransaction(op, t); err != nil {
		return nil, err
	}
	at := op.Now.Add(WireSettlement)
	if _, err := op.Schedule(EventKindWireSettle, at, settlePayload{TransactionID: t.ID,
		DetailedStatus: "settled"}); err != nil {
		return nil, err
	}
	if fee > 0 {
		ft := Leg(src, -fee, "fee", "settled", "International wire fee", "", id)
		ft.ReferenceNumber = f.DigitN(12)
		ft.FeeInfo = &FeeInfo{RelatedTransaction: RelatedTransaction{ID: t.ID, Amount: t.AmountCents}}
		if err := PostTransaction(op, ft); err != nil {
			return nil, err
		}
	}
	return &RailTransfer{TransferID: id, TransactionID: t.ID, SettlesAt: at}, nil
}

// AchPayload is the payload of an ACH settlement event and of the return
// that follows it when ReturnCode is set.
type AchPayload struct {
	TransactionID string `json:"transactionId"`
	ReturnCode    string `json:"returnCode,omitempty"`
}

// RunACHSettle settles a pending ACH transfer and, when its payload
// carries a return code, schedules its return one business day later.
func RunACHSettle(op *kernel.Op, ev *kernel.Event) (string, error) {
	var p AchPayload
	if err := json.Unmarshal(ev.Payload, &p); err != nil {
		return "", err
	}
	t, ok, err := FindTransaction(op, p.TransactionID)
	if err != nil {
		return "", fmt.Errorf("transaction %s: not found (%w)", p.TransactionID, err)
	}
	if !ok {
		return "", fmt.Errorf("transaction %s: not found", p.TransactionID)
	}
	if t.Status != StatusPending {
		return fmt.Sprintf("transaction %s already %s", t.ID, t.DetailedStatus), nil
	}
	if err := SetTransactionStatus(op, t, "settled"); err != nil {
		return "", err
	}
	if p.ReturnCode == "" {
		return fmt.Sprintf("ACH %s settled", t.ID), nil
	}
	at := AddBusinessDays(op.Now, 1)
	if _, err := op.Schedule(EventKindACHReturn, at, p); err != nil {
		return "", err
	}
	return fmt.Sprintf("ACH %s settled; it will be returned %s (%s)", t.ID, p.ReturnCode, at.Format(time.RFC3339)), nil
}

// RunACHReturn credits a settled ACH back with a second, returned
// transaction. When its virtual account was closed meanwhile, the money
// comes back to the account's primary virtual account.
func RunACHReturn(op *kernel.Op, ev *kernel.Event) (string, error) {
	var p AchPayload
	if err := json.Unmarshal(ev.Payload, &p); err != nil {
		return "", err
	}
	orig, ok, err := FindTransaction(op, p.TransactionID)
	if err != nil {
		return "", fmt.Errorf("transaction %s: not found (%w)", p.TransactionID, err)
	}
	if !ok {
		return "", fmt.Errorf("transaction %s: not found", p.TransactionID)
	}
	if orig.DetailedStatus != "settled" {
		return fmt.Sprintf("transaction %s is %s; nothing to return", orig.ID, orig.DetailedStatus), nil
	}
	e, ok, err := Endpoint(op, orig.VirtualAccountID)
	if err != nil {
		return "", fmt.Errorf("virtual account %s: not found (%w)", orig.VirtualAccountID, err)
	}
	if !ok {
		return "", fmt.Errorf("virtual account %s: not found", orig.VirtualAccountID)
	}
	if e.VA.ClosedAt != nil {
		if e, _, err = Endpoint(op, e.Account.ID); err != nil {
			return "", err
		}
	}
	reason := p.ReturnCode + " " + returnReason(p.ReturnCode)
	t := Leg(e, -orig.AmountCents, "ach", "returned", fmt.Sprintf("Returned: %s (%s)", orig.Description, reason),
		orig.Memo, orig.TransferID)
	t.ReferenceNumber = orig.ReferenceNumber
	if orig.ACHInfo != nil {
		info := *orig.ACHInfo
		info.CompanyDiscretionaryData, info.PaymentRelatedInfo = p.ReturnCode, reason
		t.ACHInfo = &info
	}
	if err := PostTransaction(op, t); err != nil {
		return "", err
	}
	return fmt.Sprintf("ACH %s returned %s as %s", orig.ID, p.ReturnCode, t.ID), nil
}

// IncomingRails are the rails money can arrive by: domestic ACH, wire and
// RTP, and the Global USD deposit rails SEPA, PIX, SPEI and FPS.
var IncomingRails = []string{"ach", "wire", "rtp", "sepa", "pix", "spei", "fps"}

// IncomingTransfer is money arriving from outside Slash.
type IncomingTransfer struct {
	// TargetID is the account or virtual account credited; Field is the
	// request field that named it.
	TargetID, Field string
	Rail            string
	AmountCents     int64
	SenderName      string
	Reference       string
}

// incomingSettlesAt is when money arriving now by a rail settles: ACH and
// the Global USD rails the next business day, a wire 30 minutes later, RTP
// at once (zero time).
func incomingSettlesAt(rail string, now time.Time) time.Time {
	switch rail {
	case "rtp":
		return time.Time{}
	case "wire":
		return now.Add(WireSettlement)
	}
	return AddBusinessDays(now, 1)
}

// SimulateIncoming credits an account or virtual account of any legal
// entity with money arriving by a rail: a pending credit carrying the
// rail's details that settles after the rail's delay (RTP posts at once).
func SimulateIncoming(op *kernel.Op, r IncomingTransfer) (*Transaction, error) {
	e, ok, err := Endpoint(op, r.TargetID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, kernel.NotFound(endpointKind(r.TargetID), r.Field, r.TargetID)
	}
	if err := e.Open(r.Field); err != nil {
		return nil, err
	}
	category := map[string]string{"ach": "ach", "wire": "wire", "rtp": "rtp"}[r.Rail]
	if category == "" {
		category = "international_wire"
	}
	settles := incomingSettlesAt(r.Rail, op.Now)
	detailed := "pending"
	if settles.IsZero() {
		detailed = "settled"
	}
	seq, err := op.Counter("incoming")
	if err != nil {
		return nil, err
	}
	f := op.W.Faker("incoming", seq)
	t := Leg(e, r.AmountCents, category, detailed, "", "", "")
	t.CreatedAt = op.Now
	FillRail(f, t, r.Rail)
	sender := FirstNonEmpty(r.SenderName, f.Company())
	describeIncoming(t, parties.RoutingNumber(f), sender, r.Reference)
	if err := PostTransaction(op, t); err != nil {
		return nil, err
	}
	if detailed == "pending" {
		if _, err := op.Schedule(EventKindIncomingSettle, settles, settlePayload{TransactionID: t.ID,
			DetailedStatus: "settled"}); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// describeIncoming puts the sender and reference where each rail carries
// them, and writes the statement line.
func describeIncoming(t *Transaction, routing, sender, ref string) {
	switch {
	case t.SEPAInfo != nil:
		t.SEPAInfo.SenderName, t.SEPAInfo.Reference = sender, FirstNonEmpty(ref, t.SEPAInfo.Reference)
	case t.PIXInfo != nil:
		t.PIXInfo.SenderName, t.PIXInfo.Reference = sender, FirstNonEmpty(ref, t.PIXInfo.Reference)
	case t.SPEIInfo != nil:
		t.SPEIInfo.SenderName, t.SPEIInfo.Reference = sender, FirstNonEmpty(ref, t.SPEIInfo.Reference)
	case t.FPSInfo != nil:
		t.FPSInfo.SenderName, t.FPSInfo.Reference = sender, FirstNonEmpty(ref, t.FPSInfo.Reference)
	case t.ACHInfo != nil:
		t.ACHInfo.PaymentRelatedInfo = ref
		t.Memo = FirstNonEmpty(ref, t.Memo)
	case t.WireInfo != nil:
		t.WireInfo.SenderReference = FirstNonEmpty(ref, t.WireInfo.SenderReference)
		t.Memo = t.WireInfo.SenderReference
	case t.Category == "rtp":
		t.RTPInfo = &RTPInfo{CounterpartyBank: "The Clearing House RTP", EndToEndID: "E2E" + routing + t.ReferenceNumber,
			RoutingNumber: routing, OriginatorName: sender, Description: ref}
		t.Memo = ref
	}
	t.Description = Describe(t)
	if t.SEPAInfo == nil && t.PIXInfo == nil && t.SPEIInfo == nil && t.FPSInfo == nil {
		t.Description = fmt.Sprintf("%s from %s",
			map[string]string{"ach": "ACH", "wire": "Wire", "rtp": "RTP payment"}[t.Category], sender)
	}
}

// FirstNonEmpty is a, or b when a is empty.
func FirstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// FillRail adds the rail-specific details a real transaction carries.
func FillRail(f *gofakeit.Faker, t *Transaction, rail string) {
	switch {
	case rail == "sepa":
		t.SEPAInfo = &SEPAInfo{SenderName: f.Company(), RecipientName: "Slash Global USD", Reference: "INV-" + f.DigitN(6),
			IBAN: "DE89370400440532013000", IBANLast4: "3000", BIC: "COBADEFFXXX", UETR: f.UUID(),
			PaymentScheme: "SEPA_CREDIT_TRANSFER"}
	case rail == "pix":
		t.PIXInfo = &PIXInfo{
			SenderName:     f.Company(),
			Description:    "Pagamento",
			Reference:      f.DigitN(10),
			TrackingNumber: "E" + f.DigitN(20),
		}
	case rail == "spei":
		t.SPEIInfo = &SPEIInfo{
			SenderName:     f.Company(),
			Description:    "Pago de factura",
			Reference:      f.DigitN(7),
			CLABE:          "002010077777777771",
			TrackingNumber: f.DigitN(12),
		}
	case rail == "fps":
		t.FPSInfo = &FPSInfo{SenderName: f.Company(), RecipientName: "Slash Global USD", Reference: "PO" + f.DigitN(5),
			AccountNumber: "31926819", Last4: "6819", SortCode: "60-16-13", UETR: f.UUID()}
	case t.Category == "ach":
		t.ACHInfo = &ACHInfo{
			CounterpartyBank:         f.RandomString([]string{"Chase", "Bank of America", "Wells Fargo", "Citibank"}),
			ReceiverID:               f.DigitN(15),
			CompanyID:                "1" + f.DigitN(9),
			CompanyDiscretionaryData: "",
			CompanyEntryDescription:  "PAYMENT",
			TraceNumber:              f.DigitN(15),
			EntryClassCode:           "CCD",
			PaymentRelatedInfo:       "",
		}
		t.Memo = FirstNonEmpty(t.Memo, t.ACHInfo.CompanyEntryDescription)
	case t.Category == "wire" || t.Category == "international_wire":
		t.WireInfo = &WireInfo{CounterpartyBank: f.RandomString([]string{"JPMorgan Chase", "Citibank", "HSBC", "Barclays"}),
			TypeCode: "10", SubtypeCode: "00", OMAD: t.CreatedAt.Format("20060102") + "B1QGC" + f.DigitN(8),
			IMAD: t.CreatedAt.Format("20060102") + "MMQFMP" + f.DigitN(6), SenderReference: "REF" + f.DigitN(8),
			BusinessFunctionCode: "CTR"}
		t.Memo = FirstNonEmpty(t.Memo, t.WireInfo.SenderReference)
	}
	if t.Category != "card" {
		t.ReferenceNumber = f.DigitN(12)
	}
}

// Describe is the statement line of a transaction without one.
func Describe(t *Transaction) string {
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
		return fmt.Sprintf("Incoming %s", RailName(t.Category))
	}
	return fmt.Sprintf("Outgoing %s", RailName(t.Category))
}

// RailName is how a statement line names a transaction category ("ACH
// transfer" for ach); an unknown category reads as "".
func RailName(category string) string {
	return map[string]string{"ach": "ACH transfer", "wire": "wire transfer", "international_wire": "international wire",
		"rtp": "RTP payment", "fee": "Slash fee", "internal": "internal transfer", "card": "card payment"}[category]
}
