package seed

import (
	"bytes"
	"cmp"
	"encoding/json"
	"reflect"
	"slices"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/agentrequests"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/cards"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/expenses"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// Export writes the world op reads as a scenario that loads into a world
// holding the same records: every one declared explicitly, with its id,
// dates and statuses, at the world's seed and with the clock starting
// where the world's is now. Keys are written as the scenario declared
// them, without the suffix a world created next to others adds. Nothing
// is generated on load: the transactions a generate entry made are
// written one by one.
func Export(op *kernel.Op) (*scenario.Scenario, error) {
	x := &exporter{op: op, sc: &scenario.Scenario{}}
	meta := op.W.Meta()
	seed := meta.Seed
	x.sc.Name, x.sc.ClockStart, x.sc.Seed = meta.Scenario, stamp(op.Now), &seed
	if src := op.W.Source(); src != nil {
		x.sc.Description = src.Description
	}
	steps := []func() error{x.settings, x.people, x.accounts, x.cardGroups, x.cards, x.contacts, x.customers,
		x.transactions, x.cardEvents, x.webhooks, x.receivables, x.documents, x.invoices, x.expenses, x.endpoints,
		x.agentRequests, x.informationRequests, x.future, x.idCounters}
	for _, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
	}
	return x.sc, nil
}

// exporter gathers a world's records into a scenario.
type exporter struct {
	op *kernel.Op
	sc *scenario.Scenario
	// filled is railFilled's answer by category, worked out once each.
	filled map[string]bool
}

// stamp writes an instant as a scenario time, to the nanosecond.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// stampPtr is stamp of an optional instant ("" for none).
func stampPtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return stamp(*t)
}

// records reads every record of a kind, in the order they were made when
// the record has a seq.
func records[T any](op *kernel.Op, kind string) ([]T, error) {
	var out []T
	req := kernel.PageRequest{Size: 1000}
	for {
		page, err := kernel.ListRecords[T](op, kind, req, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, page.Items...)
		if page.Next == "" {
			break
		}
		req.After = page.Next
	}
	slices.SortStableFunc(out, func(a, b T) int { return cmp.Compare(seqOf(&a), seqOf(&b)) })
	return out, nil
}

// seqOf is a record's Seq field, 0 when it has none.
func seqOf(v any) int64 {
	f := reflect.ValueOf(v).Elem().FieldByName("Seq")
	if !f.IsValid() || f.Kind() != reflect.Int64 {
		return 0
	}
	return f.Int()
}

// freeForm turns stored JSON into a scenario's free-form mapping: whole
// numbers stay whole. Nothing stored gives nil.
func freeForm(raw []byte) (map[string]any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return plainNumbers(m).(map[string]any), nil
}

// freeFormOf is freeForm of a value's JSON.
func freeFormOf(v any) (map[string]any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return freeForm(raw)
}

// plainNumbers replaces JSON numbers by int64 or float64.
func plainNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = plainNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = plainNumbers(e)
		}
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

// settings writes the world's money, agent-request, rate-limit and token
// settings.
func (x *exporter) settings() error {
	rails, err := ledger.CurrentRailSettings(x.op)
	if err != nil {
		return err
	}
	if rails.ACHSettlementBusinessDays != ledger.DefaultACHSettlementBusinessDays {
		days := rails.ACHSettlementBusinessDays
		x.sc.Money = &scenario.Money{ACHSettlementBusinessDays: &days}
	}
	if d := agentrequests.Expiry(x.op); d != agentrequests.DefaultExpiry {
		x.sc.AgentRequests = &scenario.AgentRequests{ExpiresAfter: d.String()}
	}
	if r, ok := agentrequests.RateLimit(x.op.W); ok {
		x.sc.RateLimit = &scenario.RateLimit{Requests: r.Requests, Window: r.Window.String()}
	}
	interval, tick, prices, err := ledger.TokenWalk(x.op)
	if err != nil {
		return err
	}
	tp := &scenario.TokenPrices{Tick: tick}
	if interval != time.Hour {
		tp.TickInterval = interval.String()
	}
	for _, p := range prices {
		tp.Prices = append(tp.Prices, scenario.TokenPrice{Symbol: p.Symbol, Micros: p.Micros,
			LastUpdatedAt: stamp(p.LastUpdatedAt)})
	}
	x.sc.TokenPrices = tp
	return nil
}

// people writes the legal entities, users and API keys.
func (x *exporter) people() error {
	les, err := records[kernel.LegalEntity](x.op, kernel.LegalEntities.Name)
	if err != nil {
		return err
	}
	for _, le := range les {
		s := scenario.LegalEntity{ID: le.ID, Name: le.Name, Structure: le.Structure, CardGroupModel: le.CardGroupModel,
			Enterprise: le.Enterprise, CryptoOfframp: le.CryptoOfframp, CreatedAt: stamp(le.CreatedAt)}
		if !le.V2Enabled {
			s.V2Enabled = &le.V2Enabled
		}
		x.sc.LegalEntities = append(x.sc.LegalEntities, s)
	}
	users, err := records[kernel.User](x.op, kernel.Users.Name)
	if err != nil {
		return err
	}
	for _, u := range users {
		s := scenario.User{ID: u.ID, Name: u.Name, Email: u.Email}
		for _, r := range u.Roles {
			role := scenario.Role{LegalEntityID: r.LegalEntityID, Role: r.Role}
			if !r.Active {
				role.Active = &r.Active
			}
			s.Roles = append(s.Roles, role)
		}
		x.sc.Users = append(x.sc.Users, s)
	}
	keys, err := records[kernel.APIKey](x.op, kernel.APIKeys.Name)
	if err != nil {
		return err
	}
	for _, k := range keys {
		x.sc.Keys = append(x.sc.Keys, scenario.Key{Key: cmp.Or(k.BaseKey, k.Key), Name: k.Name, Kind: k.Kind,
			ReadOnly: k.ReadOnly, LegalEntityID: k.LegalEntityID, UserID: k.UserID})
	}
	return nil
}

// accounts writes the accounts and their virtual accounts, each with its
// posted balance: the load reaches it with no opening balance, the
// world's own transactions being written too.
func (x *exporter) accounts() error {
	accs, err := records[ledger.Account](x.op, ledger.KindAccount)
	if err != nil {
		return err
	}
	vas, err := records[ledger.VirtualAccount](x.op, ledger.KindVirtualAccount)
	if err != nil {
		return err
	}
	for _, a := range accs {
		s := scenario.Account{ID: a.ID, LegalEntityID: a.LegalEntityID, Name: a.Name, Type: a.Type, Status: a.Status,
			CreatedAt: stamp(a.CreatedAt), AccountNumber: a.AccountNumber, RoutingNumber: a.RoutingNumber}
		if !a.Commercial {
			s.Commercial = &a.Commercial
		}
		if a.Type == "charge_card" {
			s.CreditLimitCents = &a.CreditLimitCents
		}
		for _, va := range vas {
			if va.AccountID != a.ID {
				continue
			}
			owner, bucket := va.ID, "virtual"
			if a.Type == "charge_card" && va.Primary {
				owner, bucket = a.ID, "cash"
			}
			t, err := ledger.TotalsOf(x.op, owner, bucket)
			if err != nil {
				return err
			}
			s.BalanceCents += t.Posted
			if va.Primary {
				s.Primary = &scenario.PrimaryVirtualAccount{ID: va.ID, Name: va.Name, CreatedAt: stamp(va.CreatedAt)}
				continue
			}
			rule, err := freeForm(va.CommissionRule)
			if err != nil {
				return err
			}
			s.VirtualAccounts = append(s.VirtualAccounts, scenario.VirtualAccount{ID: va.ID, Name: va.Name,
				BalanceCents: t.Posted, Closed: va.ClosedAt != nil, CreatedAt: stamp(va.CreatedAt),
				ClosedAt: stampPtr(va.ClosedAt), AccountNumber: va.AccountNumber, CommissionRule: rule})
		}
		x.sc.Accounts = append(x.sc.Accounts, s)
	}
	return nil
}

// cardGroups writes the card groups.
func (x *exporter) cardGroups() error {
	groups, err := records[cards.Group](x.op, cards.KindGroup)
	if err != nil {
		return err
	}
	for _, g := range groups {
		c, err := constraintOf(g.SpendingConstraint)
		if err != nil {
			return err
		}
		x.sc.CardGroups = append(x.sc.CardGroups, scenario.CardGroup{ID: g.ID, LegalEntityID: g.LegalEntityID,
			Name: g.Name, VirtualAccountID: g.VirtualAccountID, SpendingConstraint: c, CreatedAt: stamp(g.CreatedAt),
			Status: g.Status})
	}
	return nil
}

func constraintOf(c *cards.SpendingConstraint) (map[string]any, error) { return optionalMap(c) }

// cards writes the cards: their last four digits and expiry, never the
// rest of the number or the CVV.
func (x *exporter) cards() error {
	all, err := records[cards.Card](x.op, cards.Kind)
	if err != nil {
		return err
	}
	for _, c := range all {
		con, err := constraintOf(c.SpendingConstraint)
		if err != nil {
			return err
		}
		data, err := freeForm(c.UserData)
		if err != nil {
			return err
		}
		s := scenario.Card{ID: c.ID, AccountID: c.AccountID, VirtualAccountID: c.VirtualAccountID,
			CardGroupID: c.CardGroupID, CardProductID: c.CardProductID, Name: c.Name, Status: c.Status,
			IsSingleUse: c.IsSingleUse, SpendingConstraint: con, UserData: data, CreatedAt: stamp(c.CreatedAt),
			Last4: c.Last4(), ExpiryMonth: c.ExpiryMonth, ExpiryYear: c.ExpiryYear, IsPhysical: c.IsPhysical}
		if h := c.StatusHistory; c.Status != cards.StatusActive && len(h) > 0 {
			s.StatusSince = stamp(h[len(h)-1].At)
		}
		for _, m := range c.Modifiers {
			s.Modifiers = append(s.Modifiers, scenario.Modifier{Name: m.Name, Value: m.Value})
		}
		x.sc.Cards = append(x.sc.Cards, s)
	}
	return nil
}

// contacts writes the contacts and their destinations.
func (x *exporter) contacts() error {
	contacts, err := records[parties.Contact](x.op, parties.KindContact)
	if err != nil {
		return err
	}
	dests, err := records[parties.Destination](x.op, parties.KindDestination)
	if err != nil {
		return err
	}
	for _, c := range contacts {
		s := scenario.Contact{ID: c.ID, LegalEntityID: c.LegalEntityID, Name: c.Name, RecipientType: c.RecipientType,
			RecipientLegalName: c.RecipientLegalName, RecipientEmail: c.RecipientEmail, Address: addressOf(c.Address),
			CreatedAt: stamp(c.CreatedAt), AchDebitRecurring: c.ACHDebitRecurring}
		for _, d := range dests {
			if d.ContactID == c.ID {
				s.Destinations = append(s.Destinations, scenario.Destination{ID: d.ID, Type: d.Type, Name: d.Name,
					AccountNumber: d.AccountNumber, RoutingNumber: d.RoutingNumber, AccountType: d.AccountType,
					IBAN: d.IBAN, SWIFT: d.SWIFT, BankName: d.BankName, BankCountry: d.BankCountry, Address: d.Address,
					Chain: d.Chain, Currency: d.Currency, ReturnCode: d.ReturnCode, CreatedAt: destinationSince(c, d)})
			}
		}
		x.sc.Contacts = append(x.sc.Contacts, s)
	}
	return nil
}

func addressOf(a *parties.Address) *scenario.Address {
	if a == nil {
		return nil
	}
	return &scenario.Address{AddressLine: a.AddressLine, AddressLine2: a.AddressLine2, AddressCity: a.AddressCity,
		AddressState: a.AddressState, AddressZip: a.AddressZip, AddressCountry: a.AddressCountry}
}

// customers writes the customers.
func (x *exporter) customers() error {
	all, err := records[parties.Customer](x.op, parties.KindCustomer)
	if err != nil {
		return err
	}
	for _, c := range all {
		meta, err := freeForm(c.CustomMetadata)
		if err != nil {
			return err
		}
		x.sc.Customers = append(x.sc.Customers, scenario.Customer{ID: c.ID, LegalEntityID: c.LegalEntityID,
			Name: c.Name, Email: c.Email, Phone: c.Phone, Address: addressOf(c.Address), Status: c.Status,
			CustomMetadata: meta, CreatedAt: stamp(c.CreatedAt), AchDebitRecurring: c.ACHDebitRecurring})
	}
	return nil
}

// transactions writes every transaction as it is.
func (x *exporter) transactions() error {
	all, err := records[ledger.Transaction](x.op, ledger.KindTransaction)
	if err != nil {
		return err
	}
	for _, t := range all {
		s := scenario.Transaction{ID: t.ID, AccountID: t.AccountID, VirtualAccountID: t.VirtualAccountID,
			CardID: t.CardID, Category: t.Category, AmountCents: t.AmountCents, Description: t.Description,
			DetailedStatus: t.DetailedStatus, Date: stamp(t.Date), Memo: t.Memo, DeclineReason: t.DeclineReason,
			CardGroupID: t.CardGroupID, Note: t.Note, ReferenceNumber: t.ReferenceNumber,
			ApprovalReason: t.ApprovalReason, ProviderAuthorizationID: t.ProviderAuthorizationID,
			AuthorizedAt: stampPtr(t.AuthorizedAt), TransferID: t.TransferID}
		if !t.CreatedAt.Equal(t.Date) {
			s.CreatedAt = stamp(t.CreatedAt)
		}
		if err := x.merchant(&s, t.Merchant); err != nil {
			return err
		}
		details, err := railsOf(&t)
		if err != nil {
			return err
		}
		if len(details) > 0 || x.railFilled(t.Category) {
			s.Details = details
		}
		x.sc.Transactions = append(x.sc.Transactions, s)
	}
	return nil
}

// railFilled reports whether a transaction of a category declared
// without details gets generated ones (rail details, a reference number, a
// memo): one that has none then declares its details empty.
func (x *exporter) railFilled(category string) bool {
	if filled, ok := x.filled[category]; ok {
		return filled
	}
	if x.filled == nil {
		x.filled = map[string]bool{}
	}
	x.filled[category] = x.probeRail(category)
	return x.filled[category]
}

// probeRail fills the rail of a bare transaction of a category and
// reports whether anything was filled.
func (x *exporter) probeRail(category string) bool {
	probe := ledger.Transaction{Category: category}
	ledger.FillRail(x.op.W.Faker("export-probe", 0), &probe, "")
	if probe.ReferenceNumber != "" || probe.Memo != "" {
		return true
	}
	details, _ := railsOf(&probe)
	return len(details) > 0
}

// railsOf is a transaction's rail details as a scenario declares them:
// the rail objects it has, by their API names.
func railsOf(t *ledger.Transaction) (map[string]any, error) {
	details, err := freeFormOf(railDetails{WireInfo: t.WireInfo, ACHInfo: t.ACHInfo, SEPAInfo: t.SEPAInfo,
		PIXInfo: t.PIXInfo, SPEIInfo: t.SPEIInfo, FPSInfo: t.FPSInfo, RTPInfo: t.RTPInfo, FeeInfo: t.FeeInfo})
	for k, v := range details {
		if v == nil {
			delete(details, k)
		}
	}
	return details, err
}

// merchant writes a transaction's merchant: by its catalogue id when the
// catalogue's data is what the transaction shows, else as that data.
func (x *exporter) merchant(s *scenario.Transaction, m *ledger.MerchantData) error {
	if m == nil {
		return nil
	}
	s.MerchantID = m.MerchantID
	if cm, ok := x.op.W.Catalog.Merchant(m.MerchantID); ok && reflect.DeepEqual(merchantData(cm), m) {
		return nil
	}
	data, err := freeFormOf(m)
	s.MerchantData = data
	return err
}

// webhooks writes the webhook endpoints.
func (x *exporter) webhooks() error {
	all, err := records[deliveries.Webhook](x.op, deliveries.KindWebhook)
	if err != nil {
		return err
	}
	for _, w := range all {
		x.sc.Webhooks = append(x.sc.Webhooks, scenario.Webhook{ID: w.ID, LegalEntityID: w.LegalEntityID, URL: w.URL,
			Name: w.Name, Status: w.Status, CreatedAt: stamp(w.CreatedAt)})
	}
	return nil
}

// receivables writes the invoice settings, the users' bank accounts and
// the custom merchants.
func (x *exporter) receivables() error {
	settings, err := records[invoices.Settings](x.op, invoices.KindSettings)
	if err != nil {
		return err
	}
	for _, s := range settings {
		x.sc.InvoiceSettings = append(x.sc.InvoiceSettings, scenario.InvoiceSettings{LegalEntityID: s.LegalEntityID,
			CompanyName: s.CompanyName, Email: s.Email, Address: addressOf(&s.Address), DefaultMemo: s.DefaultMemo,
			InvoiceTerms: s.InvoiceTerms, DefaultPaymentTermsDays: s.DefaultPaymentTermsDays,
			UpdatedAt: stamp(s.Timestamp), LogoDocumentID: s.LogoDocumentID})
	}
	banks, err := records[expenses.UserBankAccount](x.op, expenses.KindUserBankAccount)
	if err != nil {
		return err
	}
	for _, b := range banks {
		x.sc.UserBankAccounts = append(x.sc.UserBankAccounts, scenario.UserBankAccount{ID: b.ID, UserID: b.UserID,
			AccountName: b.AccountName, InstitutionName: b.InstitutionName, Mask: b.Mask, Subtype: b.Subtype,
			Status: b.Status, CreatedAt: stamp(b.CreatedAt)})
	}
	merchants, err := records[expenses.CustomMerchant](x.op, expenses.KindCustomMerchant)
	if err != nil {
		return err
	}
	for _, m := range merchants {
		x.sc.CustomMerchants = append(x.sc.CustomMerchants, scenario.CustomMerchant{ID: m.ID,
			LegalEntityID: m.LegalEntityID, MerchantName: m.MerchantName, AddedByUserID: m.AddedByUserID,
			CreatedAt: stamp(m.CreatedAt)})
	}
	return nil
}

// cardEvents writes the card-network events.
func (x *exporter) cardEvents() error {
	all, err := records[cards.Event](x.op, cards.KindEvent)
	if err != nil {
		return err
	}
	for _, e := range all {
		s := scenario.CardEvent{ID: e.ID, CardID: e.CardID, Type: e.Type, AmountCents: e.AmountCents,
			Approved: e.Approved, TransactionID: e.TransactionID, OriginalTransactionID: e.OriginalTransactionID,
			Last4: e.Last4, CardName: e.CardName, At: stamp(e.CreatedAt)}
		if s.Merchant, err = optionalMap(e.Merchant); err != nil {
			return err
		}
		if s.Decision, err = optionalMap(e.Decision); err != nil {
			return err
		}
		x.sc.CardEvents = append(x.sc.CardEvents, s)
	}
	return nil
}

// optionalMap is freeFormOf of a value that may be nil.
func optionalMap[T any](v *T) (map[string]any, error) {
	if v == nil {
		return nil, nil
	}
	return freeFormOf(v)
}
