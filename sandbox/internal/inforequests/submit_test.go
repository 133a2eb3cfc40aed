package inforequests_test

import (
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/inforequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

// bank is a valid US bank account answer.
func bank() *inforequests.BankAccountDetails {
	return &inforequests.BankAccountDetails{HolderName: "Brightside Cleaning LLC", RoutingNumber: "021000021",
		AccountNumber: "123456789", AccountType: "checking", BankName: "Chase"}
}

// address is a valid US address answer.
func address() *parties.Address {
	return &parties.Address{AddressLine: "12 Elm St", AddressCity: "Austin", AddressState: "TX", AddressZip: "78701",
		AddressCountry: "US"}
}

func TestSubmissionValidate(t *testing.T) {
	bankAndAddress := inforequests.RequestedInformation{DestinationTypes: []string{"bank_account"}, Address: ptr(true)}
	cases := []struct {
		name   string
		asked  inforequests.RequestedInformation
		s      inforequests.Submission
		field  string
		detail string
	}{
		{"a requested item left out", bankAndAddress, inforequests.Submission{BankAccount: bank()}, "address",
			"an address is required"},
		{"an item not requested", bankAndAddress, inforequests.Submission{BankAccount: bank(), Address: address(),
			Tax: &inforequests.TaxDetails{Type: "ein", Number: "12-3456789"}}, "tax", "a tax id was not requested"},
		{"a routing number with a wrong checksum", bankAndAddress, inforequests.Submission{Address: address(),
			BankAccount: func() *inforequests.BankAccountDetails { b := bank(); b.RoutingNumber = "021000022"; return b }()},
			"bankAccount.routingNumber", "not a valid 9-digit ABA routing number (checksum)"},
		{"a money-market account", bankAndAddress, inforequests.Submission{Address: address(),
			BankAccount: func() *inforequests.BankAccountDetails { b := bank(); b.AccountType = "mm"; return b }()},
			"bankAccount.accountType", "choose checking or savings"},
		{"a US ZIP of four digits", bankAndAddress, inforequests.Submission{BankAccount: bank(),
			Address: func() *parties.Address { a := address(); a.AddressZip = "7870"; return a }()},
			"address.addressZip", "must be a US ZIP code (12345 or 12345-6789)"},
		{"an IBAN with a wrong checksum", inforequests.RequestedInformation{DestinationTypes: []string{
			"international_wire"}}, inforequests.Submission{InternationalWire: &inforequests.WireDetails{
			BeneficiaryName: "Bluefin", IBAN: "DE89 3704 0044 0532 0130 01", SWIFT: "cobadeff", BankName: "Commerzbank",
			BankCountry: "de"}}, "internationalWire.iban", "not a valid IBAN (checksum)"},
		{"an Ethereum address on Solana", inforequests.RequestedInformation{DestinationTypes: []string{
			"crypto_address"}}, inforequests.Submission{CryptoAddress: &inforequests.CryptoDetails{
			Address: "0x52908400098527886E0F7030069857D2E4169EE7", Chain: "solana", Currency: "usdc"}},
			"cryptoAddress.address", "not a valid solana address"},
		{"an SSN for an EIN", inforequests.RequestedInformation{Tax: ptr(true)}, inforequests.Submission{
			Tax: &inforequests.TaxDetails{Type: "ein", Number: "123-45-6789"}}, "tax.number", "not a valid EIN"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.s.Validate(c.asked)
			if got, ok := d[c.field]; !ok || got != c.detail {
				t.Errorf("problems %v, want %s: %q", d, c.field, c.detail)
			}
		})
	}
	// Spaces and lower case, as people type them, are accepted.
	wire := inforequests.Submission{InternationalWire: &inforequests.WireDetails{BeneficiaryName: "Bluefin",
		IBAN: "de89 3704 0044 0532 0130 00", SWIFT: "cobadeff", BankName: "Commerzbank", BankCountry: "de"}}
	wires := inforequests.RequestedInformation{DestinationTypes: []string{"international_wire"}}
	if d := wire.Validate(wires); len(d) > 0 {
		t.Errorf("a wire typed with spaces and lower case: %v", d)
	}
}

// pendingBrightside is the demo's pending request to Brightside and the
// ACH queued on it.
func pendingBrightside(t *testing.T, w *kernel.World) (*inforequests.Request, *ledger.Transaction) {
	t.Helper()
	var ir *inforequests.Request
	var txn *ledger.Transaction
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		var err error
		if ir, err = inforequests.PendingInfoRequest(op, "le_c_brightside"); err != nil || ir == nil {
			t.Fatalf("Brightside has no pending request (%v)", err)
		}
		queued, err := inforequests.QueuedACHOf(op, ir.ID)
		if err != nil || len(queued) != 1 {
			t.Fatalf("%d ACH queued on the request (%v), want 1", len(queued), err)
		}
		txn, _, err = ledger.FindTransaction(op, queued[0].TransactionID)
		return err
	}))
	return ir, txn
}

// transaction reads a transaction as it is stored now.
func transaction(t *testing.T, w *kernel.World, id string) *ledger.Transaction {
	t.Helper()
	var txn *ledger.Transaction
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		var err error
		txn, _, err = ledger.FindTransaction(op, id)
		return err
	}))
	return txn
}

// The queued ACH waits, held, until the contact answers; the answer puts
// the bank account and address on the contact and sends the ACH, which
// settles two business days later.
func TestSubmittingReleasesTheQueuedACH(t *testing.T) {
	w := enginetest.Demo(t)
	ir, held := pendingBrightside(t, w)
	if held.DetailedStatus != "pending" || held.AmountCents != -185000 {
		t.Fatalf("the queued ACH is %s for %d cents, want pending -185000", held.DetailedStatus, held.AmountCents)
	}
	// Nothing moves while the request waits, however long.
	_, err := w.Advance(w.Now().Add(5 * 24 * time.Hour))
	enginetest.Must(t, err)
	if got := transaction(t, w, held.ID); got.DetailedStatus != "pending" {
		t.Fatalf("five days on the held ACH is %s, want pending", got.DetailedStatus)
	}

	submittedAt := w.Now()
	enginetest.Must(t, w.Update(func(op *kernel.Op) error {
		_, err := inforequests.SubmitInformation(op, ir.ID, &inforequests.Submission{BankAccount: bank(),
			Address: address()})
		return err
	}))
	got := stored(t, w, ir.ID)
	if got.Status != inforequests.StatusSubmitted || got.FirstSubmittedAt == nil ||
		!got.FirstSubmittedAt.Equal(submittedAt) || !got.LastSubmittedAt.Equal(submittedAt) {
		t.Errorf("after the answer: %s, first %v, last %v; want submitted at %v", got.Status, got.FirstSubmittedAt,
			got.LastSubmittedAt, submittedAt)
	}
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		dests, err := inforequests.DestinationsOf(op, "le_c_brightside")
		if err == nil && (len(dests) != 1 || dests[0].Type != parties.DestinationACH ||
			dests[0].RoutingNumber != "021000021" || dests[0].AccountNumber != "123456789") {
			t.Errorf("Brightside's destinations %+v, want the bank account submitted", dests)
		}
		var c parties.Contact
		if _, err := op.Get(parties.KindContact, "le_c_brightside", &c); err != nil {
			return err
		}
		if c.Address == nil || c.Address.AddressCity != "Austin" {
			t.Errorf("Brightside's address %+v, want the one submitted", c.Address)
		}
		return err
	}))
	sent := transaction(t, w, held.ID)
	if sent.DetailedStatus != "pending" || sent.Description != "ACH to Brightside Office Cleaning" {
		t.Errorf("released ACH %s %q", sent.DetailedStatus, sent.Description)
	}

	settles := ledger.AddBusinessDays(submittedAt, ledger.DefaultACHSettlementBusinessDays)
	_, err = w.Advance(settles.Add(-time.Second))
	enginetest.Must(t, err)
	if got := transaction(t, w, held.ID); got.DetailedStatus != "pending" {
		t.Errorf("a second before %v the ACH is %s, want pending", settles, got.DetailedStatus)
	}
	_, err = w.Advance(settles)
	enginetest.Must(t, err)
	if got := transaction(t, w, held.ID); got.DetailedStatus != "settled" {
		t.Errorf("at %v the ACH is %s, want settled", settles, got.DetailedStatus)
	}
}

// A wrong answer changes nothing: the request stays pending and the ACH
// held.
func TestAWrongAnswerLeavesTheRequestPending(t *testing.T) {
	w := enginetest.Demo(t)
	ir, held := pendingBrightside(t, w)
	b := bank()
	b.AccountNumber = "12ab"
	err := w.Update(func(op *kernel.Op) error {
		_, err := inforequests.SubmitInformation(op, ir.ID, &inforequests.Submission{BankAccount: b,
			Address: address()})
		return err
	})
	enginetest.WantError(t, err, kernel.CodeInvalidRequest,
		map[string]string{"bankAccount.accountNumber": "must be 4 to 17 digits"})
	if got := stored(t, w, ir.ID); got.Status != inforequests.StatusPending || got.FirstSubmittedAt != nil {
		t.Errorf("after a refused answer the request is %s, first submitted %v", got.Status, got.FirstSubmittedAt)
	}
	if got := transaction(t, w, held.ID); got.DetailedStatus != "pending" ||
		got.Description != "ACH to Brightside Office Cleaning (queued: awaiting bank details)" {
		t.Errorf("after a refused answer the ACH is %s, %q", got.DetailedStatus, got.Description)
	}
}

// Canceling a request cancels its held ACH (nothing is debited); after
// that it takes no answer, no second cancel and no new queued ACH.
func TestCancelingCancelsTheQueuedACH(t *testing.T) {
	w := enginetest.Demo(t)
	ir, held := pendingBrightside(t, w)
	enginetest.Must(t, w.Update(func(op *kernel.Op) error {
		_, err := inforequests.CancelInformationRequest(op, ir.ID)
		return err
	}))
	if got := stored(t, w, ir.ID); got.Status != inforequests.StatusCanceled || got.CanceledAt == nil {
		t.Errorf("canceled request %s, canceledAt %v", got.Status, got.CanceledAt)
	}
	if got := transaction(t, w, held.ID); got.DetailedStatus != "canceled" {
		t.Errorf("the held ACH is %s, want canceled", got.DetailedStatus)
	}
	enginetest.WantError(t, w.Update(func(op *kernel.Op) error {
		_, err := inforequests.SubmitInformation(op, ir.ID, &inforequests.Submission{BankAccount: bank(),
			Address: address()})
		return err
	}), kernel.CodeConflict, map[string]string{"status": "canceled"})
	enginetest.WantError(t, w.Update(func(op *kernel.Op) error {
		_, err := inforequests.CancelInformationRequest(op, ir.ID)
		return err
	}), kernel.CodeConflict, map[string]string{"status": "canceled"})
	enginetest.WantError(t, enginetest.As(t, w, "sk_sandbox_acme", func(op *kernel.Op, a *kernel.Actor) error {
		_, err := inforequests.SendQueuedACH(op, a, ledger.RailTransferRequest{SourceID: "sa_group_acmeoperating",
			Field: "/sourceAccountId", AmountCents: 1000}, ir.ID)
		return err
	}), kernel.CodeInvalidRequest, map[string]string{"/informationRequestId": "the information request was canceled"})
}

// An ACH can be queued only on a request of the caller's legal entity
// that asks for a bank account; once the request is answered it goes
// straight to the bank account collected.
func TestSendQueuedACH(t *testing.T) {
	w := enginetest.Demo(t)
	send := func(key, id string, cents int64) (*ledger.RailTransfer, error) {
		var rt *ledger.RailTransfer
		err := enginetest.As(t, w, key, func(op *kernel.Op, a *kernel.Actor) error {
			var err error
			rt, err = inforequests.SendQueuedACH(op, a, ledger.RailTransferRequest{SourceID: "sa_group_acmeoperating",
				Field: "/sourceAccountId", AmountCents: cents, Memo: "June"}, id)
			return err
		})
		return rt, err
	}
	taxOnly := request(t, w, inforequests.Input{ContactID: "le_c_pixelforge", RequesterName: "Alice",
		RequestedInformation: inforequests.RequestedInformation{Tax: ptr(true)}})
	_, err := send("sk_sandbox_acme", taxOnly.ID, 1000)
	enginetest.WantError(t, err, kernel.CodeInvalidRequest, map[string]string{
		"/informationRequestId": "the information request does not ask for a bank account"})
	ir, _ := pendingBrightside(t, w)
	_, err = send("sk_sandbox_globex", ir.ID, 1000)
	enginetest.WantError(t, err, kernel.CodeNotFound, map[string]string{"field": "informationRequestId", "id": ir.ID})

	enginetest.Must(t, w.Update(func(op *kernel.Op) error {
		_, err := inforequests.SubmitInformation(op, ir.ID, &inforequests.Submission{BankAccount: bank(),
			Address: address()})
		return err
	}))
	rt, err := send("sk_sandbox_acme", ir.ID, 2500)
	enginetest.Must(t, err)
	if want := ledger.AddBusinessDays(w.Now(), ledger.DefaultACHSettlementBusinessDays); !rt.SettlesAt.Equal(want) {
		t.Errorf("an ACH on an answered request settles at %v, want %v", rt.SettlesAt, want)
	}
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		queued, err := inforequests.QueuedACHOf(op, ir.ID)
		if err == nil && len(queued) != 1 {
			t.Errorf("%d ACH queued on the request, want only the first: the second was sent directly", len(queued))
		}
		return err
	}))
}

// A contact at a "never…" address never answers on its own: the sandbox's
// generated answer is refused for it, and given for anyone else.
func TestGeneratedAnswers(t *testing.T) {
	w := enginetest.Demo(t)
	never := request(t, w, ask("le_c_neverreplies"))
	enginetest.WantError(t, w.Update(func(op *kernel.Op) error {
		_, err := inforequests.SubmitInformation(op, never.ID, nil)
		return err
	}), kernel.CodeConflict, nil)
	if got := stored(t, w, never.ID); got.Status != inforequests.StatusPending {
		t.Errorf("the request to never@quiet.test is %s, want pending", got.Status)
	}

	ir := request(t, w, inforequests.Input{ContactID: "le_c_pixelforge", RequesterName: "Alice",
		RequestedInformation: inforequests.RequestedInformation{DestinationTypes: []string{"bank_account",
			"international_wire", "crypto_address"}, Address: ptr(true), Tax: ptr(true)}})
	enginetest.Must(t, w.Update(func(op *kernel.Op) error {
		_, err := inforequests.SubmitInformation(op, ir.ID, nil)
		return err
	}))
	if got := stored(t, w, ir.ID); got.Status != inforequests.StatusSubmitted {
		t.Errorf("the generated answer left the request %s", got.Status)
	}
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		dests, err := inforequests.DestinationsOf(op, "le_c_pixelforge")
		types := map[string]bool{}
		for _, d := range dests {
			types[d.Type] = true
		}
		if err == nil && (len(dests) != 3 || !types["bank_account"] || !types["international_wire"] ||
			!types["crypto_address"]) {
			t.Errorf("generated destinations %+v, want one of each type asked", dests)
		}
		return err
	}))
}
