package seed

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

func address(a *scenario.Address) *parties.Address {
	if a == nil {
		return nil
	}
	return &parties.Address{AddressLine: a.AddressLine, AddressLine2: a.AddressLine2, AddressCity: a.AddressCity,
		AddressState: a.AddressState, AddressZip: a.AddressZip, AddressCountry: a.AddressCountry}
}

func (l *loader) contacts() error {
	for i, s := range l.sc.Contacts {
		l.op.SetOrigin(fmt.Sprintf("contacts[%d]", i))
		c := &parties.Contact{ID: s.ID, LegalEntityID: s.LegalEntityID, Name: s.Name, RecipientType: s.RecipientType,
			RecipientLegalName: s.RecipientLegalName, RecipientEmail: s.RecipientEmail, Address: address(s.Address),
			CreatedAt: l.createdAt(s.CreatedAt, l.op.Now.AddDate(0, -2, 0)), Seq: l.seq(),
			ACHDebitRecurring: s.AchDebitRecurring}
		if c.RecipientType == "" {
			c.RecipientType = "vendor"
		}
		if c.RecipientLegalName == "" {
			c.RecipientLegalName = c.Name
		}
		if err := l.op.Save(parties.KindContact, c.ID, c, parties.ContactIndexes(c)...); err != nil {
			return err
		}
		for _, ds := range s.Destinations {
			d := &parties.Destination{ID: ds.ID, ContactID: c.ID, LegalEntityID: c.LegalEntityID, Type: ds.Type, Name: ds.Name,
				AccountNumber: ds.AccountNumber, RoutingNumber: ds.RoutingNumber, AccountType: ds.AccountType,
				IBAN: ds.IBAN, SWIFT: ds.SWIFT, BankName: ds.BankName, BankCountry: ds.BankCountry,
				Address: ds.Address, Chain: ds.Chain, Currency: ds.Currency, ReturnCode: ds.ReturnCode,
				CreatedAt: l.createdAt(ds.CreatedAt, c.CreatedAt)}
			if err := parties.SaveDestination(l.op, d); err != nil {
				return err
			}
		}
	}
	return nil
}

func (l *loader) customers() error {
	for i, s := range l.sc.Customers {
		l.op.SetOrigin(fmt.Sprintf("customers[%d]", i))
		id, err := l.id(s.ID, parties.PrefixCustomer)
		if err != nil {
			return err
		}
		c := &parties.Customer{ID: id, LegalEntityID: s.LegalEntityID, Name: s.Name, Email: s.Email, Phone: s.Phone,
			Address: address(s.Address), CustomMetadata: l.rawJSON(s.CustomMetadata), Status: s.Status,
			CreatedAt: l.createdAt(s.CreatedAt, l.op.Now.AddDate(0, -2, 0)), Seq: l.seq(),
			ACHDebitRecurring: s.AchDebitRecurring}
		if c.Status == "" {
			c.Status = "active"
		}
		if err := l.op.Save(parties.KindCustomer, c.ID, c, parties.CustomerIndexes(c)...); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) invoices() error {
	for i, s := range l.sc.Invoices {
		l.op.SetOrigin(fmt.Sprintf("invoices[%d]", i))
		inv, err := l.invoice(s)
		if err != nil {
			return err
		}
		if err := invoices.AttachDocument(l.op, inv); err != nil {
			return err
		}
		if err := invoices.Store(l.op, inv); err != nil {
			return err
		}
		if s.Emailed {
			l.emailed = append(l.emailed, inv)
		}
	}
	return nil
}

// invoice builds a scenario invoice. Its issue and due dates become the
// start of their days in the invoice's zone, as with the API; anything
// not scheduled has been sent on its issue date.
func (l *loader) invoice(s scenario.Invoice) (*invoices.Invoice, error) {
	id, err := l.id(s.ID, invoices.Prefix)
	if err != nil {
		return nil, err
	}
	detailsID, err := l.op.NewID(invoices.PrefixDetails)
	if err != nil {
		return nil, err
	}
	acc := l.accs[s.AccountID]
	var cust parties.Customer
	if _, err := l.op.Get(parties.KindCustomer, s.CustomerID, &cust); err != nil {
		return nil, err
	}
	inv := &invoices.Invoice{
		ID:             id,
		LegalEntityID:  acc.LegalEntityID,
		AccountID:      acc.ID,
		CustomerID:     s.CustomerID,
		DetailsID:      detailsID,
		Number:         s.Number,
		Timezone:       s.Timezone,
		Currency:       "USD",
		Memo:           s.Memo,
		CollectedCents: s.PaidCents,
		Version:        1,
		Seq:            l.seq(),
		BilledTo:       invoices.BilledTo{Name: cust.Name, Email: cust.Email, Address: cust.Address},
	}
	if inv.Timezone == "" {
		inv.Timezone = "America/New_York"
	}
	loc := inv.Location()
	issued := l.createdAt(s.IssuedAt, l.op.Now)
	inv.IssuedAt = invoices.CalDateOf(issued, loc).Start(loc)
	inv.DueAt = invoices.CalDateOf(l.createdAt(s.DueAt, issued.AddDate(0, 0, 30)), loc).Start(loc)
	inv.CreatedAt = inv.IssuedAt
	for _, li := range s.LineItems {
		inv.LineItems = append(inv.LineItems,
			invoices.LineItem{Name: li.Name, Quantity: li.Quantity, PriceCents: li.PriceCents})
	}
	if s.ScheduledSend != "" {
		t := l.time(s.ScheduledSend)
		inv.ScheduledSendDate = &t
	}
	if s.PaidCents > 0 {
		inv.Transactions = []invoices.Payment{{Type: "external", PaymentMethod: json.RawMessage(`"other"`),
			PaidAt: inv.IssuedAt.Add(72 * time.Hour).Format(time.RFC3339), AmountCents: s.PaidCents}}
	}
	inv.Status = invoices.StatusOf(inv, s.Void, l.op.Now)
	if inv.Status != invoices.StatusScheduled {
		sent := inv.IssuedAt
		inv.SentAt = &sent
	}
	if inv.Status == "void" || inv.Status == "paid" {
		closed := l.op.Now
		inv.ClosedAt = &closed
	}
	return inv, nil
}

func (l *loader) webhooks() error {
	for _, s := range l.sc.Webhooks {
		id, err := l.id(s.ID, deliveries.PrefixWebhook)
		if err != nil {
			return err
		}
		w := &deliveries.Webhook{ID: id, LegalEntityID: s.LegalEntityID, URL: s.URL, Name: s.Name, Status: s.Status,
			CreatedAt: l.createdAt(s.CreatedAt, l.op.Now.AddDate(0, -1, 0)), Seq: l.seq()}
		if w.Status == "" {
			w.Status = "active"
		}
		l.endpointState(w, s)
		if err := l.op.Save(deliveries.KindWebhook, w.ID, w, deliveries.WebhookIndexes(w)...); err != nil {
			return err
		}
		if err := l.deliveries(w, s); err != nil {
			return err
		}
		if s.Failing != nil {
			if err := l.refusals(w, s.Failing); err != nil {
				return err
			}
		}
	}
	return nil
}

func (l *loader) tokens() error {
	interval := time.Hour
	if l.sc.TokenPrices != nil && l.sc.TokenPrices.TickInterval != "" {
		interval, _ = scenario.ParseDuration(l.sc.TokenPrices.TickInterval)
	}
	start := ledger.InitTokens
	if l.declaresTick() {
		start = ledger.InitTokenPrices
	}
	if err := start(l.op, interval); err != nil || l.sc.TokenPrices == nil {
		return err
	}
	var prices []ledger.TokenPrice
	for _, p := range l.sc.TokenPrices.Prices {
		prices = append(prices, ledger.TokenPrice{Symbol: p.Symbol, Micros: p.Micros,
			LastUpdatedAt: l.createdAt(p.LastUpdatedAt, l.op.Now)})
	}
	return ledger.SetTokenWalk(l.op, l.sc.TokenPrices.Tick, prices)
}

func (l *loader) events() error {
	for i, s := range l.sc.Events {
		path := fmt.Sprintf("events[%d]", i)
		if !l.op.HandlesEvent(s.Kind) {
			return l.problem(path+".kind", "unknown event kind %q (known: %v)", s.Kind, l.op.EventKinds())
		}
		at := l.time(s.At)
		if at.Before(l.op.Now) {
			return l.problem(path+".at", "a scheduled event must not be in the past")
		}
		if s.ID != "" {
			if err := l.scheduleDeclared(s, at); err != nil {
				return l.problem(path, "%v", err)
			}
			continue
		}
		if s.With == nil {
			s.With = map[string]any{}
		}
		if _, err := l.op.Schedule(s.Kind, at, s.With); err != nil {
			return l.problem(path, "%v", err)
		}
	}
	return nil
}
