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
		path := fmt.Sprintf("invoices[%d]", i)
		l.op.SetOrigin(path)
		inv, err := l.invoice(path, s)
		if err != nil {
			return err
		}
		if err := l.at(inv.CreatedAt, func() error { return invoices.AttachDocument(l.op, inv) }); err != nil {
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
// not scheduled has been sent on its issue date, unless it says when.
func (l *loader) invoice(path string, s scenario.Invoice) (*invoices.Invoice, error) {
	id, err := l.id(s.ID, invoices.Prefix)
	if err != nil {
		return nil, err
	}
	detailsID, err := l.id(s.DetailsID, invoices.PrefixDetails)
	if err != nil {
		return nil, err
	}
	acc := l.accs[s.AccountID]
	inv := &invoices.Invoice{
		ID:             id,
		LegalEntityID:  acc.LegalEntityID,
		AccountID:      acc.ID,
		CustomerID:     s.CustomerID,
		ContactID:      s.ContactID,
		DetailsID:      detailsID,
		DocumentID:     s.DocumentID,
		SeriesID:       s.SeriesID,
		Number:         s.Number,
		Timezone:       s.Timezone,
		Currency:       "USD",
		Memo:           s.Memo,
		CollectedCents: s.PaidCents,
		Version:        max(s.Version, 1),
		Seq:            l.seq(),
		Discount:       adjustment(s.Discount),
		Tax:            adjustment(s.Tax),
	}
	if inv.BilledTo, err = l.billedTo(s); err != nil {
		return nil, err
	}
	if inv.Timezone == "" {
		inv.Timezone = "America/New_York"
	}
	loc := inv.Location()
	issued := l.createdAt(s.IssuedAt, l.op.Now)
	inv.IssuedAt = invoices.CalDateOf(issued, loc).Start(loc)
	inv.DueAt = invoices.CalDateOf(l.createdAt(s.DueAt, issued.AddDate(0, 0, 30)), loc).Start(loc)
	inv.CreatedAt = l.createdAt(s.CreatedAt, inv.IssuedAt)
	inv.LineItems = lineItems(s.LineItems)
	if s.ScheduledSend != "" {
		t := l.time(s.ScheduledSend)
		inv.ScheduledSendDate = &t
	}
	if s.PaymentMethods != nil {
		if inv.PaymentMethods, err = l.paymentMethods(path+".paymentMethods", *s.PaymentMethods); err != nil {
			return nil, err
		}
	}
	if s.PaidCents > 0 {
		inv.Transactions = []invoices.Payment{{Type: "external", PaymentMethod: json.RawMessage(`"other"`),
			PaidAt: inv.IssuedAt.Add(72 * time.Hour).Format(time.RFC3339), AmountCents: s.PaidCents}}
	}
	for _, p := range s.Payments {
		method, _ := json.Marshal(p.PaymentMethod)
		pay := invoices.Payment{Type: p.Type, TransactionID: p.TransactionID, PaidAt: p.PaidAt,
			AmountCents: p.AmountCents}
		if p.PaymentMethod != nil {
			pay.PaymentMethod = method
		}
		inv.Transactions = append(inv.Transactions, pay)
		inv.CollectedCents += p.AmountCents
	}
	inv.Status = invoices.StatusOf(inv, s.Void, l.op.Now)
	if inv.Status != invoices.StatusScheduled {
		sent := inv.IssuedAt
		inv.SentAt = &sent
	}
	if s.SentAt != "" {
		sent := l.time(s.SentAt)
		inv.SentAt = &sent
	}
	if s.LastReminderAt != "" {
		at := l.time(s.LastReminderAt)
		inv.LastReminderAt = &at
	}
	if inv.Status == "void" || inv.Status == "paid" {
		closed := l.createdAt(s.ClosedAt, l.op.Now)
		inv.ClosedAt = &closed
	}
	return inv, nil
}

// billedTo is who a scenario invoice is addressed to: as declared, else its
// customer, else its contact.
func (l *loader) billedTo(s scenario.Invoice) (invoices.BilledTo, error) {
	if b := s.BilledTo; b != nil {
		return invoices.BilledTo{Name: b.Name, Email: b.Email, Address: address(b.Address), CCEmails: b.CCEmails}, nil
	}
	if s.CustomerID == "" {
		var c parties.Contact
		_, err := l.op.Get(parties.KindContact, s.ContactID, &c)
		return invoices.BilledTo{Name: c.Name, Email: c.RecipientEmail, Address: c.Address}, err
	}
	var c parties.Customer
	_, err := l.op.Get(parties.KindCustomer, s.CustomerID, &c)
	return invoices.BilledTo{Name: c.Name, Email: c.Email, Address: c.Address}, err
}

// lineItems are a scenario's invoice lines.
func lineItems(in []scenario.LineItem) []invoices.LineItem {
	var out []invoices.LineItem
	for _, li := range in {
		out = append(out, invoices.LineItem{Name: li.Name, Quantity: li.Quantity, PriceCents: li.PriceCents,
			CatalogID: li.CatalogID})
	}
	return out
}

// adjustment is a scenario's discount or tax.
func adjustment(a *scenario.Adjustment) *invoices.Adjustment {
	if a == nil {
		return nil
	}
	return &invoices.Adjustment{Type: a.Type, Percent: a.Percent, AmountCents: a.AmountCents}
}

// paymentMethods checks a scenario's invoice payment methods as the API
// does and returns them as stored.
func (l *loader) paymentMethods(path string, in []map[string]any) (json.RawMessage, error) {
	raw, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	if err := invoices.CheckPaymentMethods(raw); err != nil {
		return nil, l.problem(path, "%v", err)
	}
	return raw, nil
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
