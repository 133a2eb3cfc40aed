package scenario

// The scenario format is these types. Each key's tags describe it once for
// the decoder, the validator, the JSON Schema and the reference in
// docs/scenarios.md:
//
//   - yaml: the key;
//   - doc: what it means (a time is an RFC 3339 instant, a YYYY-MM-DD day
//     or relative to the clock start: -3d, +2h; a duration is 36h, 2d, 1w);
//   - enum: the values it may take, comma-separated;
//   - required:"true": it must be given and not be empty;
//   - default: the value an absent key stands for (the schema's default);
//   - unset: what an absent key means when no one value stands for it;
//   - ref: the kind of thing its value names by id (see refKinds).

// Scenario is one scenario file.
type Scenario struct {
	Name          string         `yaml:"name" doc:"The scenario's name, shown by health and the dashboard." unset:"the file's name"`
	Description   string         `yaml:"description" doc:"What the world holds, in a sentence."`
	ClockStart    string         `yaml:"clockStart" doc:"Where the virtual clock starts: an RFC 3339 instant or a YYYY-MM-DD day. --clock-start overrides it." unset:"now, to the second"`
	Seed          *int64         `yaml:"seed" doc:"Seed of every generated value (ids, names, amounts). --seed overrides it." default:"1"`
	TokenPrices   *TokenPrices   `yaml:"tokenPrices" doc:"How token prices move."`
	Money         *Money         `yaml:"money" doc:"How money moves."`
	AgentRequests *AgentRequests `yaml:"agentRequests" doc:"How read-only keys' deferred writes wait."`
	RateLimit     *RateLimit     `yaml:"rateLimit" doc:"A rate limit on every API key of the world." unset:"none"`
	LegalEntities []LegalEntity  `yaml:"legalEntities" doc:"The businesses of the world; at least one." required:"true"`
	Users         []User         `yaml:"users" doc:"People and their roles."`
	Keys          []Key          `yaml:"keys" doc:"API keys, of a legal entity or of a user."`
	Accounts      []Account      `yaml:"accounts" doc:"Accounts and their virtual accounts."`
	CardGroups    []CardGroup    `yaml:"cardGroups" doc:"Card groups and their spending constraints."`
	Cards         []Card         `yaml:"cards" doc:"Cards."`
	Contacts      []Contact      `yaml:"contacts" doc:"Payees and where they can be paid."`
	Customers     []Customer     `yaml:"customers" doc:"Those the legal entities invoice."`
	Invoices      []Invoice      `yaml:"invoices" doc:"Invoices."`
	// Receivables and spend: see the types at the end of this file.
	InvoiceSeries    []InvoiceSeries   `yaml:"invoiceSeries" doc:"Recurring invoices."`
	InvoiceSettings  []InvoiceSettings `yaml:"invoiceSettings" doc:"Legal entities' invoice settings."`
	UserBankAccounts []UserBankAccount `yaml:"userBankAccounts" doc:"Users' own bank accounts, where expense reimbursements go."`
	CustomMerchants  []CustomMerchant  `yaml:"customMerchants" doc:"Merchants legal entities added themselves."`
	Documents        []Document        `yaml:"documents" doc:"Files legal entities uploaded: receipts and invoice logos."`
	ExpenseReports   []ExpenseReport   `yaml:"expenseReports" doc:"Expense reports in any status."`
	Tasks            []Task            `yaml:"tasks" doc:"Tasks."`
	Transactions     []Transaction     `yaml:"transactions" doc:"Ledger entries."`
	CardEvents       []CardEvent       `yaml:"cardEvents" doc:"Card-network events already recorded: authorizations and their decisions, reversals, clearings, refunds, verifications."`
	Webhooks         []Webhook         `yaml:"webhooks" doc:"Webhook endpoints."`
	Generate         []Generate        `yaml:"generate" doc:"Bulk data made by the seeded faker."`
	Events           []Event           `yaml:"events" doc:"Effects scheduled at later virtual times."`
	// Work under way: see the types at the end of this file.
	InformationRequests []InformationRequest `yaml:"informationRequests" doc:"Information requests already sent, waiting for the contact's details."`
	DeferredWrites      []DeferredWrite      `yaml:"deferredWrites" doc:"Read-only keys' writes waiting for a person's approval."`
	IDCounters          map[string]any       `yaml:"idCounters" doc:"Where the world's id and sequence counters stand, by name (an id prefix such as invoice_, or global), as an export writes them: the world goes on numbering from there, so the ids it makes never repeat one the scenario declares." unset:"every counter at 0"`
	File                string               `yaml:"-"`
	// Hash fingerprints the file's bytes: worlds made from the same bytes,
	// seed and clock start share one loaded snapshot.
	Hash string `yaml:"-"`
	// pos is where each path's key or value is in the file.
	pos map[string]Position `yaml:"-"`
}

// TokenPrices configures the token price walk.
type TokenPrices struct {
	TickInterval string       `yaml:"tickInterval" doc:"How often token prices move: a duration of at least 1m." default:"1h"`
	Tick         int64        `yaml:"tick" doc:"How many moves the prices made before the clock start; the walk goes on from there." default:"0"`
	Prices       []TokenPrice `yaml:"prices" doc:"The prices at the clock start." unset:"the catalogue's"`
}

// TokenPrice is a token's price at the clock start.
type TokenPrice struct {
	Symbol        string `yaml:"symbol" doc:"The token, a symbol of the fixtures catalogue such as BTC." required:"true"`
	Micros        int64  `yaml:"micros" doc:"Its price in millionths of a dollar; positive." required:"true"`
	LastUpdatedAt string `yaml:"lastUpdatedAt" doc:"When it last moved (a time)." unset:"the clock start"`
}

// AgentRequests configures read-only keys' deferred writes.
type AgentRequests struct {
	// ExpiresAfter is how long a pending request waits for a person
	// (virtual time, default 72h).
	ExpiresAfter string `yaml:"expiresAfter" doc:"How long a pending agent request waits for a person (virtual time): a duration of at least 1m." default:"72h"`
}

// RateLimit limits every API key of the world to Requests calls per Window
// of wall time.
type RateLimit struct {
	Requests int    `yaml:"requests" doc:"Calls each API key may make per window; at least 1." required:"true"`
	Window   string `yaml:"window" doc:"The window, in wall time: a duration of at least 1s." required:"true"`
}

// Money configures money movement.
type Money struct {
	// ACHSettlementBusinessDays is how many business days an outgoing ACH
	// transfer stays pending (default 2).
	ACHSettlementBusinessDays *int `yaml:"achSettlementBusinessDays" doc:"Business days an outgoing ACH transfer stays pending, 0 to 10." default:"2"`
}

// LegalEntity declares a business.
type LegalEntity struct {
	ID             string `yaml:"id" doc:"Its id, le_ then letters and digits." required:"true"`
	Name           string `yaml:"name" doc:"Its name." required:"true"`
	Structure      string `yaml:"structure" doc:"Its legal structure." enum:"person,llc,lp,llp,gp,partnership,cooperative,ccorp,scorp,other"`
	V2Enabled      *bool  `yaml:"v2Enabled" doc:"Whether it may use the second-generation API." default:"true"`
	CardGroupModel string `yaml:"cardGroupModel" doc:"Whether card groups belong to the legal entity or to a virtual account." enum:"legal_entity,virtual_account" default:"legal_entity"`
	Enterprise     bool   `yaml:"enterprise" doc:"Whether it is an enterprise customer." default:"false"`
	CryptoOfframp  bool   `yaml:"cryptoOfframp" doc:"Whether it may use the crypto off-ramp." default:"false"`
	CreatedAt      string `yaml:"createdAt" doc:"When it was created (a time)." unset:"a year before the clock start"`
}

// User declares a person and their roles.
type User struct {
	ID    string `yaml:"id" doc:"Their id, u_ then anything." required:"true"`
	Name  string `yaml:"name" doc:"Their name." required:"true"`
	Email string `yaml:"email" doc:"Their email address."`
	Roles []Role `yaml:"roles" doc:"Their roles, one per legal entity."`
}

// Role is a user's role on a legal entity.
type Role struct {
	LegalEntityID string `yaml:"legalEntityId" doc:"The legal entity." required:"true" ref:"legal_entity"`
	Role          string `yaml:"role" doc:"What they may do there." enum:"admin,member,viewer,bookkeeper" default:"admin"`
	Active        *bool  `yaml:"active" doc:"Whether the role is active." default:"true"`
}

// Key declares an API key.
type Key struct {
	Key           string `yaml:"key" doc:"The key itself, as callers send it; unique." required:"true"`
	Name          string `yaml:"name" doc:"A label for it."`
	Kind          string `yaml:"kind" doc:"Whose key it is: a legal entity's (legalEntityId) or a user's (userId)." required:"true" enum:"legal_entity,user"`
	ReadOnly      bool   `yaml:"readOnly" doc:"Whether its writes wait for a person's approval as agent requests." default:"false"`
	LegalEntityID string `yaml:"legalEntityId" doc:"The legal entity of a legal_entity key." ref:"legal_entity"`
	UserID        string `yaml:"userId" doc:"The user of a user key." ref:"user"`
}

// Account declares an account and its virtual accounts.
type Account struct {
	ID              string           `yaml:"id" doc:"Its id." unset:"generated"`
	LegalEntityID   string           `yaml:"legalEntityId" doc:"The legal entity that owns it." required:"true" ref:"legal_entity"`
	Name            string           `yaml:"name" doc:"Its name." required:"true"`
	Type            string           `yaml:"type" doc:"A debit account or a charge card account." enum:"debit,charge_card" default:"debit"`
	Status          string           `yaml:"status" doc:"Whether it is open." enum:"open,closed" default:"open"`
	Commercial      *bool            `yaml:"commercial" doc:"Whether it is a commercial account." default:"true"`
	BalanceCents    int64            `yaml:"balanceCents" doc:"Its posted balance in cents after every transaction of the scenario, reached by an opening balance." default:"0"`
	CreatedAt       string           `yaml:"createdAt" doc:"When it was opened (a time)." unset:"a year before the clock start"`
	VirtualAccounts []VirtualAccount `yaml:"virtualAccounts" doc:"Its virtual accounts besides the primary one every account gets."`
	AccountNumber   string           `yaml:"accountNumber" doc:"Its account number (quote it to keep leading zeros)." unset:"generated"`
	RoutingNumber   string           `yaml:"routingNumber" doc:"Its routing number (quote it)." unset:"generated"`
	// Primary names the primary virtual account every account gets.
	Primary *PrimaryVirtualAccount `yaml:"primaryVirtualAccount" doc:"Its primary virtual account, whose balance is the account's less its other virtual accounts'." unset:"one named Primary account"`

	// CreditLimitCents is a charge card's credit limit (default $100,000).
	CreditLimitCents *int64   `yaml:"creditLimitCents" doc:"A charge_card account's credit limit in cents." default:"10000000"`
	Breaks           []string `yaml:"breaks" doc:"Rules of the world this record breaks on purpose, which validate --deep then accepts silently: a rule as the checker names it (such as balance.overdrawn), or its family (balance)."`
}

// VirtualAccount declares a sub-account.
type VirtualAccount struct {
	ID           string `yaml:"id" doc:"Its id." unset:"generated"`
	Name         string `yaml:"name" doc:"Its name." required:"true"`
	BalanceCents int64  `yaml:"balanceCents" doc:"Its posted balance in cents." default:"0"`
	Closed       bool   `yaml:"closed" doc:"Whether it is closed." default:"false"`
	CreatedAt    string `yaml:"createdAt" doc:"When it was opened (a time)." unset:"its account's creation"`
	// ClosedAt and the numbers restore a virtual account exactly.
	ClosedAt       string         `yaml:"closedAt" doc:"When it was closed (a time); only with closed." unset:"the clock start"`
	AccountNumber  string         `yaml:"accountNumber" doc:"Its account number (quote it to keep leading zeros)." unset:"generated"`
	CommissionRule map[string]any `yaml:"commissionRule" doc:"Its commission rule, as the API's commissionRule."`
	Breaks         []string       `yaml:"breaks" doc:"Rules of the world this record breaks on purpose, which validate --deep then accepts silently: a rule as the checker names it (such as date.beforeAccount), or its family (date)."`
}

// PrimaryVirtualAccount declares the primary virtual account of an account.
type PrimaryVirtualAccount struct {
	ID        string `yaml:"id" doc:"Its id." unset:"generated"`
	Name      string `yaml:"name" doc:"Its name." default:"Primary account"`
	CreatedAt string `yaml:"createdAt" doc:"When it was opened (a time)." unset:"its account's creation"`
}

// CardGroup declares a card group.
type CardGroup struct {
	ID                 string         `yaml:"id" doc:"Its id." unset:"generated"`
	LegalEntityID      string         `yaml:"legalEntityId" doc:"The legal entity that owns it." required:"true" ref:"legal_entity"`
	Name               string         `yaml:"name" doc:"Its name." required:"true"`
	VirtualAccountID   string         `yaml:"virtualAccountId" doc:"The virtual account its cards spend from (virtual_account card group model)." ref:"virtual_account"`
	SpendingConstraint map[string]any `yaml:"spendingConstraint" doc:"Its spending constraint, as the API's spendingConstraint (see docs/cards.md); checked when the world loads."`
	CreatedAt          string         `yaml:"createdAt" doc:"When it was created (a time)." unset:"six months before the clock start"`
	Status             string         `yaml:"status" doc:"Its status." enum:"active,archived" default:"active"`
}

// Card declares a card.
type Card struct {
	ID                 string         `yaml:"id" doc:"Its id." unset:"generated"`
	AccountID          string         `yaml:"accountId" doc:"The account it spends from." required:"true" ref:"account"`
	VirtualAccountID   string         `yaml:"virtualAccountId" doc:"The virtual account it spends from." ref:"virtual_account" unset:"its group's, else the account's primary one"`
	CardGroupID        string         `yaml:"cardGroupId" doc:"Its card group." ref:"card_group"`
	CardProductID      string         `yaml:"cardProductId" doc:"A card product of the fixtures catalogue." ref:"card_product"`
	Name               string         `yaml:"name" doc:"Its name." required:"true"`
	Status             string         `yaml:"status" doc:"Its status." enum:"active,paused,inactive,closed" default:"active"`
	IsSingleUse        bool           `yaml:"isSingleUse" doc:"Whether it closes after one purchase." default:"false"`
	SpendingConstraint map[string]any `yaml:"spendingConstraint" doc:"Its spending constraint, as the API's spendingConstraint (see docs/cards.md); checked when the world loads."`
	UserData           map[string]any `yaml:"userData" doc:"Free-form data kept with the card."`
	Modifiers          []Modifier     `yaml:"modifiers" doc:"Its modifiers."`
	CreatedAt          string         `yaml:"createdAt" doc:"When it was issued (a time)." unset:"three months before the clock start"`
	// Last4 and the expiry restore a card's visible number; the rest of
	// the number and the CVV are always generated.
	Last4       string   `yaml:"last4" doc:"The last four digits of its number (quote them)." unset:"generated"`
	ExpiryMonth string   `yaml:"expiryMonth" doc:"Its expiry month, 01 to 12 (quote it)." unset:"three years after it was issued"`
	ExpiryYear  string   `yaml:"expiryYear" doc:"Its expiry year, four digits (quote it)." unset:"three years after it was issued"`
	IsPhysical  bool     `yaml:"isPhysical" doc:"Whether it is a physical card." default:"false"`
	StatusSince string   `yaml:"statusSince" doc:"When it took a status other than active (a time, not before createdAt nor after the clock start): purchases generated after it decline with the status as reason." unset:"halfway between createdAt and the clock start"`
	Breaks      []string `yaml:"breaks" doc:"Rules of the world this record breaks on purpose, which validate --deep then accepts silently: a rule as the checker names it (such as date.beforeAccount), or its family (date)."`
}

// Modifier is a card modifier.
type Modifier struct {
	Name  string `yaml:"name" doc:"The modifier." required:"true" enum:"only_allow_recurring_payments"`
	Value bool   `yaml:"value" doc:"Whether it is on." default:"false"`
}

// Address is a postal address.
type Address struct {
	AddressLine    string `yaml:"addressLine" doc:"Street and number."`
	AddressLine2   string `yaml:"addressLine2" doc:"Second line."`
	AddressCity    string `yaml:"addressCity" doc:"City."`
	AddressState   string `yaml:"addressState" doc:"State or region."`
	AddressZip     string `yaml:"addressZip" doc:"Postal code."`
	AddressCountry string `yaml:"addressCountry" doc:"Country."`
}

// Contact declares a payee and its destinations.
type Contact struct {
	ID                 string        `yaml:"id" doc:"Its id, le_c_ then anything." required:"true"`
	LegalEntityID      string        `yaml:"legalEntityId" doc:"The legal entity whose contact it is." required:"true" ref:"legal_entity"`
	Name               string        `yaml:"name" doc:"Its name." required:"true"`
	RecipientType      string        `yaml:"recipientType" doc:"Whether it is a contact or a vendor." enum:"contact,vendor" default:"vendor"`
	RecipientLegalName string        `yaml:"recipientLegalName" doc:"Its legal name." unset:"its name"`
	RecipientEmail     string        `yaml:"recipientEmail" doc:"Where payment notices go."`
	Address            *Address      `yaml:"address" doc:"Its postal address."`
	Destinations       []Destination `yaml:"destinations" doc:"Where it can be paid."`
	CreatedAt          string        `yaml:"createdAt" doc:"When it was added (a time)." unset:"two months before the clock start"`
	// AchDebitRecurring marks an active recurring ACH debit authorization.
	AchDebitRecurring bool `yaml:"achDebitRecurring" doc:"Whether it holds an active recurring ACH debit authorization." default:"false"`
}

// Destination declares where a contact can be paid.
type Destination struct {
	ID            string `yaml:"id" doc:"Its id." unset:"generated"`
	Type          string `yaml:"type" doc:"What kind of destination it is." required:"true" enum:"bank_account,international_wire,crypto_address"`
	Name          string `yaml:"name" doc:"A label for it."`
	AccountNumber string `yaml:"accountNumber" doc:"A bank_account's account number (quote it to keep leading zeros)."`
	RoutingNumber string `yaml:"routingNumber" doc:"A bank_account's routing number (quote it)."`
	AccountType   string `yaml:"accountType" doc:"A bank_account's type, such as checking or savings."`
	IBAN          string `yaml:"iban" doc:"An international_wire's IBAN."`
	SWIFT         string `yaml:"swift" doc:"An international_wire's SWIFT code."`
	BankName      string `yaml:"bankName" doc:"The bank's name."`
	BankCountry   string `yaml:"bankCountry" doc:"The bank's country."`
	Address       string `yaml:"address" doc:"A crypto_address's address."`
	Chain         string `yaml:"chain" doc:"A crypto_address's chain."`
	Currency      string `yaml:"currency" doc:"A crypto_address's or international_wire's currency."`
	ReturnCode    string `yaml:"returnCode" doc:"An ACH return code, R01 to R99, that every ACH to this bank_account is returned with."`
	CreatedAt     string `yaml:"createdAt" doc:"When it was added (a time), such as by a submitted information request." unset:"the contact's createdAt"`
}

// Customer declares someone the legal entity invoices.
type Customer struct {
	ID             string         `yaml:"id" doc:"Its id." unset:"generated"`
	LegalEntityID  string         `yaml:"legalEntityId" doc:"The legal entity that invoices it." required:"true" ref:"legal_entity"`
	Name           string         `yaml:"name" doc:"Its name." required:"true"`
	Email          string         `yaml:"email" doc:"Where its invoices go." required:"true"`
	Phone          string         `yaml:"phone" doc:"Its phone number."`
	Address        *Address       `yaml:"address" doc:"Its postal address."`
	Status         string         `yaml:"status" doc:"Whether it is active." enum:"active,archived" default:"active"`
	CustomMetadata map[string]any `yaml:"customMetadata" doc:"Free-form metadata kept with it."`
	CreatedAt      string         `yaml:"createdAt" doc:"When it was added (a time)." unset:"two months before the clock start"`
	// AchDebitRecurring marks an active recurring ACH debit authorization.
	AchDebitRecurring bool `yaml:"achDebitRecurring" doc:"Whether it granted an active recurring ACH debit authorization." default:"false"`
}

// Invoice declares an invoice.
type Invoice struct {
	ID            string     `yaml:"id" doc:"Its id." unset:"generated"`
	AccountID     string     `yaml:"accountId" doc:"The account it is paid into." required:"true" ref:"account"`
	CustomerID    string     `yaml:"customerId" doc:"The customer it bills; it or contactId is required." ref:"customer"`
	Number        string     `yaml:"number" doc:"Its number: capitals, digits, - and _, at most 50; unique per legal entity." required:"true"`
	IssuedAt      string     `yaml:"issuedAt" doc:"When it was issued (a time)." unset:"the clock start"`
	DueAt         string     `yaml:"dueAt" doc:"When it is due (a time)." unset:"30 days after it was issued"`
	Timezone      string     `yaml:"timezone" doc:"The IANA time zone its dates are in." default:"America/New_York"`
	LineItems     []LineItem `yaml:"lineItems" doc:"Its lines; at least one." required:"true"`
	Memo          string     `yaml:"memo" doc:"A memo printed on it."`
	PaidCents     int64      `yaml:"paidCents" doc:"How much of it is paid, in cents." default:"0"`
	Void          bool       `yaml:"void" doc:"Whether it is void." default:"false"`
	ScheduledSend string     `yaml:"scheduledSendAt" doc:"When it will be sent (a time); it stays scheduled until then."`
	Emailed       bool       `yaml:"emailed" doc:"Whether its email is in the outbox, sent on its issue date; not with scheduledSendAt." default:"false"`
	Breaks        []string   `yaml:"breaks" doc:"Rules of the world this record breaks on purpose, which validate --deep then accepts silently: a rule as the checker names it (such as invoice.status), or its family (invoice)."`
	// The keys below restore an invoice exactly, as the API shows it.
	ContactID      string            `yaml:"contactId" doc:"The contact it bills (an invoice a series issued to a contact)." ref:"contact"`
	DetailsID      string            `yaml:"detailsId" doc:"The id of its details, invoice_details_ then anything." unset:"generated" ref:"external"`
	DocumentID     string            `yaml:"documentId" doc:"The id of its generated document, doc_ then anything." unset:"generated" ref:"external"`
	SeriesID       string            `yaml:"seriesId" doc:"The series that issued it; that series is declared with a status, so it does not issue it again." ref:"invoice_series"`
	Version        int               `yaml:"version" doc:"Its version: 1, and one more for each update." default:"1"`
	BilledTo       *BilledTo         `yaml:"billedTo" doc:"Who it is addressed to." unset:"its customer's name, email and address"`
	Discount       *Adjustment       `yaml:"discount" doc:"Its discount."`
	Tax            *Adjustment       `yaml:"tax" doc:"Its tax."`
	PaymentMethods *[]map[string]any `yaml:"paymentMethods" doc:"The payment methods it offers, as the API takes them: method and config; [] is an empty list, as the API keeps it."`
	Payments       []InvoicePayment  `yaml:"payments" doc:"The payments reconciled to it, in order; they make what is paid, so not with paidCents." unset:"one external payment of paidCents, when given"`
	CreatedAt      string            `yaml:"createdAt" doc:"When it was created (a time)." unset:"its issue date"`
	SentAt         string            `yaml:"sentAt" doc:"When it was sent (a time)." unset:"its issue date, unless it is scheduled"`
	LastReminderAt string            `yaml:"lastReminderAt" doc:"When a reminder was last sent (a time)." unset:"never"`
	ClosedAt       string            `yaml:"closedAt" doc:"When it was paid in full or voided (a time)." unset:"the clock start, when it is paid or void"`
}

// BilledTo is who an invoice is addressed to.
type BilledTo struct {
	Name     string   `yaml:"name" doc:"The name." required:"true"`
	Email    string   `yaml:"email" doc:"Where it was sent." required:"true"`
	Address  *Address `yaml:"address" doc:"The postal address."`
	CCEmails []string `yaml:"ccEmails" doc:"Who else received it."`
}

// Adjustment is an invoice discount or tax.
type Adjustment struct {
	Type        string   `yaml:"type" doc:"How it is counted; a tax is a percentage." required:"true" enum:"percentage,fixed"`
	Percent     *float64 `yaml:"percent" doc:"The percentage of a percentage: 0 to 100."`
	AmountCents *int64   `yaml:"amountCents" doc:"The amount of a fixed discount, in cents."`
}

// InvoicePayment is a payment reconciled to an invoice.
type InvoicePayment struct {
	Type          string `yaml:"type" doc:"A transaction of the ledger (internal) or a payment made elsewhere (external)." required:"true" enum:"internal,external"`
	TransactionID string `yaml:"transactionId" doc:"The credit that paid it, for an internal payment." ref:"transaction"`
	PaymentMethod any    `yaml:"paymentMethod" doc:"How an external payment was made: other, or a payment method object (method, config)." types:"string,object"`
	PaidAt        string `yaml:"paidAt" doc:"When an external payment was made, as the API took it: an RFC 3339 time or a YYYY-MM-DD day."`
	AmountCents   int64  `yaml:"amountCents" doc:"How much it paid, in cents." required:"true"`
}

// LineItem is an invoice line.
type LineItem struct {
	Name       string  `yaml:"name" doc:"What is billed." required:"true"`
	Quantity   float64 `yaml:"quantity" doc:"How many."`
	PriceCents int64   `yaml:"priceCents" doc:"The unit price in cents."`
	CatalogID  string  `yaml:"catalogItemId" doc:"The catalog item it bills, as the API took it." ref:"external"`
}

// Transaction declares a ledger entry.
type Transaction struct {
	ID               string `yaml:"id" doc:"Its id, for events and tasks to name." unset:"generated"`
	AccountID        string `yaml:"accountId" doc:"The account it moves money on; it or cardId is required." ref:"account"`
	VirtualAccountID string `yaml:"virtualAccountId" doc:"The virtual account it moves money on." ref:"virtual_account" unset:"the card's, else the account's primary one"`
	CardID           string `yaml:"cardId" doc:"The card it was made with." ref:"card"`
	Category         string `yaml:"category" doc:"Its category." enum:"card,ach,wire,international_wire,rtp,fee,internal" unset:"card with a card, else ach"`
	AmountCents      int64  `yaml:"amountCents" doc:"Its amount in cents: negative leaves the account, positive comes in; never zero." required:"true"`
	Description      string `yaml:"description" doc:"Its description." unset:"made from its merchant or rail"`
	DetailedStatus   string `yaml:"detailedStatus" doc:"Its detailed status." enum:"pending,pending_approval,canceled,failed,settled,declined,refund,reversed,returned,dispute" default:"settled"`
	Date             string `yaml:"date" doc:"When it was made (a time)." unset:"the clock start"`
	SettlesAt        string `yaml:"settlesAt" doc:"When a pending transaction settles (a time)."`
	MerchantID       string `yaml:"merchantId" doc:"A merchant of the fixtures catalogue." ref:"merchant"`
	Memo             string `yaml:"memo" doc:"A memo."`
	DeclineReason    string `yaml:"declineReason" doc:"Why a declined transaction was declined." unset:"insufficient_funds when declined"`
	Rail             string `yaml:"rail" doc:"An international_wire's local rail." enum:"sepa,pix,spei,fps"`
	// The keys below restore a transaction exactly, as the API shows it.
	CreatedAt               string         `yaml:"createdAt" doc:"When it was recorded (a time)." unset:"its date"`
	CardGroupID             string         `yaml:"cardGroupId" doc:"The card group its card was in when it was made." ref:"card_group" unset:"its card's"`
	Note                    string         `yaml:"note" doc:"A note, as PATCH /transaction/{id}/note sets it."`
	ReferenceNumber         string         `yaml:"referenceNumber" doc:"Its reference number."`
	ApprovalReason          string         `yaml:"approvalReason" doc:"Why it was approved."`
	ProviderAuthorizationID string         `yaml:"providerAuthorizationId" doc:"The card network's authorization id." ref:"external"`
	AuthorizedAt            string         `yaml:"authorizedAt" doc:"When it was authorized (a time)."`
	TransferID              string         `yaml:"transferId" doc:"The transfer that made it, shared by its debit and credit." ref:"external"`
	MerchantData            map[string]any `yaml:"merchantData" doc:"Its merchant, as the API's merchantData: description, categoryCode, location." unset:"its merchantId's"`
	Details                 map[string]any `yaml:"details" doc:"Its rail's details, as the API shows them: wireInfo, achInfo, sepaInfo, pixInfo, speiInfo, fpsInfo, rtpInfo or feeInfo." unset:"generated for its category and rail"`
	Breaks                  []string       `yaml:"breaks" doc:"Rules of the world this record breaks on purpose, which validate --deep then accepts silently: a rule as the checker names it (such as spendingRule.transactionSizeLimit.maximum), or its family (spendingRule)."`
}

// CardEvent declares a card-network event already recorded, as
// GET /card/{cardId}/events shows it.
type CardEvent struct {
	ID                    string         `yaml:"id" doc:"Its id, card_event_ then anything." required:"true"`
	CardID                string         `yaml:"cardId" doc:"The card it happened to." required:"true" ref:"card"`
	Type                  string         `yaml:"type" doc:"What happened." required:"true" enum:"authorization,reversal,clearing,refund,verification"`
	AmountCents           int64          `yaml:"amountCents" doc:"Its amount in cents." default:"0"`
	Merchant              map[string]any `yaml:"merchant" doc:"Its merchant: id, name, mcc, city, state, country, zip."`
	Approved              bool           `yaml:"approved" doc:"Whether it was approved." default:"false"`
	Decision              map[string]any `yaml:"decision" doc:"How an authorization ended: approved, rule, reason, detail, scope, cardGroupId, fallbackApplied."`
	TransactionID         string         `yaml:"transactionId" doc:"The transaction it made or changed." ref:"transaction"`
	OriginalTransactionID string         `yaml:"originalTransactionId" doc:"The purchase a refund gives money back for." ref:"transaction"`
	Last4                 string         `yaml:"last4" doc:"The card's last four digits when it happened (quote them)." unset:"the card's"`
	CardName              string         `yaml:"cardName" doc:"The card's name when it happened." unset:"the card's"`
	At                    string         `yaml:"at" doc:"When it happened (a time)." unset:"the clock start"`
}

// Webhook declares an event-delivery endpoint.
type Webhook struct {
	ID            string          `yaml:"id" doc:"Its id." unset:"generated"`
	LegalEntityID string          `yaml:"legalEntityId" doc:"The legal entity whose events it receives." required:"true" ref:"legal_entity"`
	URL           string          `yaml:"url" doc:"Where deliveries are posted." required:"true"`
	Name          string          `yaml:"name" doc:"Its name." required:"true"`
	Status        string          `yaml:"status" doc:"Whether it receives deliveries; backing-off needs backingOffUntil." enum:"active,paused,backing-off,disabled" default:"active"`
	CreatedAt     string          `yaml:"createdAt" doc:"When it was added (a time)." unset:"a month before the clock start"`
	Failing       *WebhookFailing `yaml:"failing" doc:"Deliveries it has been refusing since before the clock start; only an active endpoint's." unset:"none"`
	// The endpoint's delivery state, as an exported world writes it.
	StatusSince         string            `yaml:"statusSince" doc:"When a paused or disabled endpoint became so (a time)." unset:"createdAt"`
	BackingOffUntil     string            `yaml:"backingOffUntil" doc:"When a backing-off endpoint is active again (a time); a webhook.resume event with its id in resumeEventId makes it so."`
	ResumeEventID       string            `yaml:"resumeEventId" doc:"The id of the scheduled webhook.resume (in events) that ends its backoff." ref:"event"`
	ConsecutiveFailures int               `yaml:"consecutiveFailures" doc:"Deliveries that failed for good since its last success; six disable it." default:"0"`
	ArchivedAt          string            `yaml:"archivedAt" doc:"When it was archived (a time): it is then hidden from the list and disabled." unset:"not archived"`
	StatusReason        string            `yaml:"statusReason" doc:"The reason given with its last status change."`
	Deliveries          []WebhookDelivery `yaml:"deliveries" doc:"Its deliveries, oldest first, written as they stand: nothing is sent on load but a pending one." unset:"none but failing's"`
}

// WebhookDelivery is one event sent, or to be sent, to an endpoint, with
// every attempt made.
type WebhookDelivery struct {
	ID            string           `yaml:"id" doc:"Its id, whdel_ then anything." required:"true"`
	EventID       string           `yaml:"eventId" doc:"The id of the event it carries." required:"true" ref:"external"`
	Event         string           `yaml:"event" doc:"The event." required:"true" enum:"card.update,card.delete,card_creation.event,aggregated_transaction.create,aggregated_transaction.update,expense_report.create,expense_report.update"`
	EntityID      string           `yaml:"entityId" doc:"What the event is about." required:"true" ref:"external"`
	Status        string           `yaml:"status" doc:"Where it stands; a retrying one names its next attempt's webhook.retry in retryEventId." required:"true" enum:"queued,pending,retrying,succeeded,failed,canceled"`
	Source        string           `yaml:"source" doc:"Why it exists." enum:"event,trigger,redeliver,duplicate" default:"event"`
	RelatedID     string           `yaml:"relatedId" doc:"The delivery it redelivers or duplicates." ref:"external"`
	Attempts      []WebhookAttempt `yaml:"attempts" doc:"The requests made for it, in order."`
	NextAttemptAt string           `yaml:"nextAttemptAt" doc:"When a retrying one is attempted again (a time)."`
	RetryEventID  string           `yaml:"retryEventId" doc:"The id of the scheduled webhook.retry (in events) of a retrying one." ref:"event"`
	CreatedAt     string           `yaml:"createdAt" doc:"When it was made (a time)." required:"true"`
	CompletedAt   string           `yaml:"completedAt" doc:"When it succeeded, failed for good or was canceled (a time)."`
}

// WebhookAttempt is one request made for a delivery.
type WebhookAttempt struct {
	At             string            `yaml:"at" doc:"When it was sent (a time)." required:"true"`
	URL            string            `yaml:"url" doc:"Where it was sent." required:"true"`
	RequestHeaders map[string]string `yaml:"requestHeaders" doc:"The headers it sent."`
	RequestBody    string            `yaml:"requestBody" doc:"The body it sent."`
	ResponseStatus int               `yaml:"responseStatus" doc:"The status answered; 0 when no answer came." default:"0"`
	ResponseBody   string            `yaml:"responseBody" doc:"The start of the answer's body."`
	LatencyMs      int64             `yaml:"latencyMs" doc:"How long it took, in milliseconds." default:"0"`
	Error          string            `yaml:"error" doc:"Why no answer came."`
	Succeeded      bool              `yaml:"succeeded" doc:"Whether it was answered with a 2xx." default:"false"`
}

// Generate asks for bulk data made by the seeded faker.
type Generate struct {
	Kind          string   `yaml:"kind" doc:"What to make: card purchases or bank transfers." required:"true" enum:"card_transactions,bank_transactions"`
	Count         int      `yaml:"count" doc:"How many, 1 to 1,000,000 (and at most 1,000,000 over all entries)." required:"true"`
	Over          string   `yaml:"over" doc:"How far back they spread: a duration." default:"90d"`
	LegalEntityID string   `yaml:"legalEntityId" doc:"Only cards or accounts of this legal entity." ref:"legal_entity" unset:"every legal entity"`
	Cards         []string `yaml:"cards" doc:"Only these cards." ref:"card" unset:"every card"`
	AccountID     string   `yaml:"accountId" doc:"Only this account." ref:"account" unset:"every account"`
}

// Event schedules an effect at a relative or absolute time.
type Event struct {
	ID   string         `yaml:"id" doc:"Its id, evt_ then anything: an exported world's events keep theirs, which the records that wait for them name." unset:"generated"`
	At   string         `yaml:"at" doc:"When it runs (a time, not before the clock start)." unset:"the clock start"`
	Kind string         `yaml:"kind" doc:"What happens (see the event kinds in docs/scenarios.md)." required:"true"`
	With map[string]any `yaml:"with" doc:"What it acts on: the keys its kind takes (see the event kinds in docs/scenarios.md)."`
}

// InvoiceSeries declares a recurring invoice. startDate is a time whose
// date, in the series' time zone, starts the series; dates already passed
// are issued when the scenario loads.
type InvoiceSeries struct {
	ID               string     `yaml:"id" doc:"Its id." unset:"generated"`
	AccountID        string     `yaml:"accountId" doc:"The account its invoices are paid into." required:"true" ref:"account"`
	CustomerID       string     `yaml:"customerId" doc:"The customer it bills; it or contactId is required." ref:"customer"`
	ContactID        string     `yaml:"contactId" doc:"The contact it bills." ref:"contact"`
	Recurrence       Recurrence `yaml:"recurrence" doc:"When it issues an invoice." required:"true"`
	PaymentTermsDays int        `yaml:"paymentTermsDays" doc:"Days from issue to due date; 0 or more." default:"0"`
	Timezone         string     `yaml:"timezone" doc:"The canonical IANA time zone its dates are in." default:"America/New_York"`
	StartDate        string     `yaml:"startDate" doc:"A time whose date, in the series' zone, starts it; dates already passed are issued on load." unset:"the clock start"`
	End              *SeriesEnd `yaml:"end" doc:"When it stops." unset:"never"`
	LineItems        []LineItem `yaml:"lineItems" doc:"The lines of each invoice; at least one." required:"true"`
	Memo             string     `yaml:"memo" doc:"A memo printed on each invoice."`
	// The keys below restore a series exactly, as the API shows it.
	Status           string           `yaml:"status" doc:"Its status. Given, the series is written as it is and issues nothing on load: the invoices it issued are declared with its seriesId." enum:"active,ended,cancelled" unset:"active, its dates already passed issued on load"`
	Discount         *Adjustment      `yaml:"discount" doc:"The discount of each invoice."`
	Tax              *Adjustment      `yaml:"tax" doc:"The tax of each invoice."`
	CCEmails         []string         `yaml:"ccEmails" doc:"Who else receives each invoice."`
	PaymentMethods   []map[string]any `yaml:"paymentMethods" doc:"The payment methods each invoice offers, as the API takes them: method and config."`
	Occurrences      int              `yaml:"occurrences" doc:"How many of its dates are used, issued or skipped; with status." default:"0"`
	LastDate         string           `yaml:"lastDate" doc:"The YYYY-MM-DD day of the last date it used; with status."`
	NextScheduledAt  string           `yaml:"nextScheduledAt" doc:"When an active series issues its next invoice (a time); with status." unset:"none"`
	PendingInvoiceID string           `yaml:"pendingInvoiceId" doc:"The scheduled invoice it sends at nextScheduledAt." ref:"invoice"`
	CreatedAt        string           `yaml:"createdAt" doc:"When it was created (a time)." unset:"the clock start"`
}

// Recurrence is a series' rule: weekly on dayOfWeek (0 Sunday … 6),
// monthly_day_of_month on dayOfMonth, or monthly_nth_weekday on the nth
// (1–4 or last) dayOfWeek.
type Recurrence struct {
	Type       string `yaml:"type" doc:"The rule." required:"true" enum:"weekly,monthly_day_of_month,monthly_nth_weekday"`
	DayOfWeek  *int   `yaml:"dayOfWeek" doc:"The weekday of weekly and monthly_nth_weekday: 0 (Sunday) to 6."`
	DayOfMonth *int   `yaml:"dayOfMonth" doc:"The day of monthly_day_of_month: 1 to 31."`
	Nth        any    `yaml:"nth" doc:"Which weekday of the month monthly_nth_weekday means: 1 to 4 or last." types:"integer,string"`
}

// SeriesEnd is when a series stops: never, after_count (count) or on_date
// (date, YYYY-MM-DD).
type SeriesEnd struct {
	Type  string `yaml:"type" doc:"When it stops." enum:"never,after_count,on_date"`
	Count int    `yaml:"count" doc:"How many invoices after_count issues; at least 1."`
	Date  string `yaml:"date" doc:"The YYYY-MM-DD day on_date stops on."`
}

// InvoiceSettings declares a legal entity's invoice settings.
type InvoiceSettings struct {
	LegalEntityID           string   `yaml:"legalEntityId" doc:"The legal entity." required:"true" ref:"legal_entity"`
	CompanyName             string   `yaml:"companyName" doc:"The name its invoices carry." required:"true"`
	Email                   string   `yaml:"email" doc:"The address its invoices come from." required:"true"`
	Address                 *Address `yaml:"address" doc:"The postal address its invoices carry." required:"true"`
	DefaultMemo             string   `yaml:"defaultMemo" doc:"The memo of invoices that give none."`
	InvoiceTerms            string   `yaml:"invoiceTerms" doc:"Terms printed on its invoices."`
	DefaultPaymentTermsDays *int     `yaml:"defaultPaymentTermsDays" doc:"Days from issue to due date of invoices that give none."`
	UpdatedAt               string   `yaml:"updatedAt" doc:"When they were last changed (a time)." unset:"the clock start"`
	LogoDocumentID          string   `yaml:"logoDocumentId" doc:"Its invoice logo: a document of type invoice_logo of the legal entity." ref:"document"`
}

// Document declares a file a legal entity uploaded: a receipt, which an
// expense report names in documentIds, or an invoice logo, which invoice
// settings name in logoDocumentId.
type Document struct {
	ID            string `yaml:"id" doc:"Its id, doc_ then letters and digits." required:"true"`
	LegalEntityID string `yaml:"legalEntityId" doc:"The legal entity that uploaded it." required:"true" ref:"legal_entity"`
	Type          string `yaml:"type" doc:"What it is." required:"true" enum:"receipt,invoice_logo"`
	Filename      string `yaml:"filename" doc:"Its file name as uploaded."`
	Data          string `yaml:"data" doc:"Its bytes, in standard base64: a PNG, JPEG, WebP or PDF receipt of at most 4 MiB, a PNG, JPEG, SVG or WebP logo of at most 2 MiB, checked by content as an upload is." required:"true"`
	CreatedAt     string `yaml:"createdAt" doc:"When it was uploaded (a time)." unset:"the clock start"`
}

// UserBankAccount declares a user's own bank account, where expense
// reimbursements go. A payout to an account whose status is not active
// fails. Users without one get a generated active checking account.
type UserBankAccount struct {
	ID              string `yaml:"id" doc:"Its id, ub_ then anything." required:"true"`
	UserID          string `yaml:"userId" doc:"The user whose account it is." required:"true" ref:"user"`
	AccountName     string `yaml:"accountName" doc:"Its name." unset:"Personal Checking (or Savings)"`
	InstitutionName string `yaml:"institutionName" doc:"The bank's name." unset:"a generated bank"`
	Mask            string `yaml:"mask" doc:"The last digits of its number." default:"0000"`
	Subtype         string `yaml:"subtype" doc:"Checking or savings." enum:"checking,savings" default:"checking"`
	Status          string `yaml:"status" doc:"Its link status; a payout to an account that is not active fails." enum:"active,login_required,inactive,unknown_error" default:"active"`
	CreatedAt       string `yaml:"createdAt" doc:"When it was linked (a time)." unset:"six months before the clock start"`
}

// CustomMerchant declares a merchant a legal entity added itself.
type CustomMerchant struct {
	ID            string `yaml:"id" doc:"Its id, custom_merchant_ then anything." required:"true"`
	LegalEntityID string `yaml:"legalEntityId" doc:"The legal entity that added it." required:"true" ref:"legal_entity"`
	MerchantName  string `yaml:"merchantName" doc:"Its name." required:"true"`
	AddedByUserID string `yaml:"addedByUserId" doc:"The user who added it." ref:"user"`
	CreatedAt     string `yaml:"createdAt" doc:"When it was added (a time)." unset:"a month before the clock start"`
}

// ExpenseReport declares an expense report in any status. merchantId is a
// catalogue merchant or a custom one.
type ExpenseReport struct {
	ID                string   `yaml:"id" doc:"Its id, expense_report_ then anything." unset:"generated"`
	LegalEntityID     string   `yaml:"legalEntityId" doc:"The legal entity it is submitted to." required:"true" ref:"legal_entity"`
	SubmittedByUserID string   `yaml:"submittedByUserId" doc:"The user who submitted it." required:"true" ref:"user"`
	AmountCents       int64    `yaml:"amountCents" doc:"What was spent, in cents of its currency; positive." required:"true"`
	Currency          string   `yaml:"currency" doc:"The currency spent." default:"USD"`
	FxRateToUsd       string   `yaml:"fxRateToUsd" doc:"The rate to USD, as a decimal string; required for another currency than USD."`
	TransactionDate   string   `yaml:"transactionDate" doc:"When the money was spent (a time)."`
	SubmittedAt       string   `yaml:"submittedAt" doc:"When it was submitted (a time)."`
	MerchantID        string   `yaml:"merchantId" doc:"A merchant of the fixtures catalogue or a declared custom merchant." required:"true" ref:"merchant_or_custom"`
	Memo              string   `yaml:"memo" doc:"What it was for."`
	DestinationID     string   `yaml:"destinationId" doc:"The submitter's user bank account the reimbursement goes to." ref:"user_bank_account" unset:"the submitter's first"`
	NoReceiptReason   string   `yaml:"noReceiptReason" doc:"Why there is no receipt, for a report without documentIds." default:"Receipt lost"`
	Status            string   `yaml:"status" doc:"Its status." enum:"pending_review,cancelled,rejected,payment_processing,payment_completed,payment_failed" default:"pending_review"`
	ReviewedByUserID  string   `yaml:"reviewedByUserId" doc:"Who reviewed it; required once reviewed, and not the submitter." ref:"user"`
	RejectionReason   string   `yaml:"rejectionReason" doc:"Why it was rejected; required when rejected."`
	DocumentIDs       []string `yaml:"documentIds" doc:"Its receipts: documents of type receipt of its legal entity." ref:"document"`
	FxRateUpdatedAt   string   `yaml:"fxRateUpdatedAt" doc:"When its rate to USD was read (a time)."`
	ReviewID          string   `yaml:"reviewId" doc:"Its review's id, expense_report_review_ then anything; once reviewed." unset:"generated"`
	ReviewedAt        string   `yaml:"reviewedAt" doc:"When it was reviewed (a time); once reviewed." unset:"a day after its submission, at the latest the clock start (the clock start for payment_processing)"`
	TransactionID     string   `yaml:"transactionId" doc:"Its reimbursement, once approved: a declared transaction, which the load does not post again." ref:"transaction" unset:"a reimbursement posted on load"`
	PayoutAt          string   `yaml:"payoutAt" doc:"When the reimbursement of a payment_processing report completes, or fails when its destination is not active (a time)." unset:"a day after its review"`
	UpdatedAt         string   `yaml:"updatedAt" doc:"When it last changed (a time)." unset:"the clock start"`
}

// Task declares a task. A payment_approval task names its transaction,
// whose details fill the data it does not declare; an expense_submission
// task names its expense report, which then opens no task of its own.
type Task struct {
	ID               string         `yaml:"id" doc:"Its id, task_ then anything." unset:"generated"`
	LegalEntityID    string         `yaml:"legalEntityId" doc:"The legal entity whose task it is." required:"true" ref:"legal_entity"`
	Type             string         `yaml:"type" doc:"What it asks, such as payment_approval or expense_submission (a report opens its own expense_submission task unless one names it)." required:"true"`
	Status           string         `yaml:"status" doc:"Its status." enum:"action_required,pending,completed,rejected,expired,canceled" default:"action_required"`
	Assignees        []string       `yaml:"assignees" doc:"The users it is assigned to." ref:"user"`
	OriginatorUserID string         `yaml:"originatorUserId" doc:"The user it comes from." ref:"user"`
	TransactionID    string         `yaml:"transactionId" doc:"A payment_approval's transaction, pending_approval while the task needs action." ref:"transaction"`
	ExpenseReportID  string         `yaml:"expenseReportId" doc:"An expense_submission's expense report, of the same legal entity; required for one." ref:"expense_report"`
	Data             map[string]any `yaml:"data" doc:"Free-form data; what a payment_approval's or expense_submission's does not declare is filled from its transaction or report."`
	CreatedAt        string         `yaml:"createdAt" doc:"When it was created (a time)." unset:"a day before the clock start"`
	UpdatedAt        string         `yaml:"updatedAt" doc:"When it last changed (a time)." unset:"the clock start"`
}

// Work under way when the world starts: an information request emailed to
// a contact (with an ACH queued on it), a read-only key's write waiting for
// a person, an endpoint whose deliveries are failing (Webhook.Failing).
// Each is written as if it had happened through the API.

// InformationRequest declares an information request already sent: the
// contact's email, with the link to the secure form, is in the outbox.
type InformationRequest struct {
	ContactID            string               `yaml:"contactId" doc:"The contact asked; the email goes to its recipientEmail." required:"true" ref:"contact"`
	RequesterName        string               `yaml:"requesterName" doc:"Who asks, as the email names them." required:"true"`
	RequestedInformation RequestedInformation `yaml:"requestedInformation" doc:"What the contact is asked for; at least one thing." required:"true"`
	Note                 string               `yaml:"note" doc:"A note the email carries."`
	SentAt               string               `yaml:"sentAt" doc:"When it was sent (a time)." unset:"the clock start"`
	QueuedACH            *QueuedACH           `yaml:"queuedAch" doc:"An ACH to the contact held until the form brings its bank account; the request must ask for a bank_account destination."`
	QueuedACHs           []QueuedACH          `yaml:"queuedAchs" doc:"ACHs held on it like queuedAch, when there are several."`
	Breaks               []string             `yaml:"breaks" doc:"Rules of the world this record breaks on purpose, which validate --deep then accepts silently: a rule as the checker names it (such as informationRequest.beforeContact), or its family (informationRequest)."`
	// The request as it stands, as an exported world writes it.
	ID               string   `yaml:"id" doc:"Its id, le_c_info_req_ then anything: written as it stands, with the email that carried it." unset:"generated"`
	Status           string   `yaml:"status" doc:"Where it stands; only a pending one can be submitted." enum:"pending,submitted,canceled" default:"pending"`
	SentToEmail      string   `yaml:"sentToEmail" doc:"The address it was sent to." unset:"the contact's recipientEmail"`
	CCEmails         []string `yaml:"ccEmails" doc:"The addresses copied."`
	FormToken        string   `yaml:"formToken" doc:"The secret part of its secure form's link." unset:"generated"`
	MessageID        string   `yaml:"messageId" doc:"The id of the outbox email that carried the link, msg_ then anything." ref:"external" unset:"generated"`
	FirstSubmittedAt string   `yaml:"firstSubmittedAt" doc:"When the contact first submitted the form (a time)."`
	LastSubmittedAt  string   `yaml:"lastSubmittedAt" doc:"When the contact last submitted the form (a time)."`
	CanceledAt       string   `yaml:"canceledAt" doc:"When it was canceled (a time)."`
}

// RequestedInformation is what the contact is asked for.
type RequestedInformation struct {
	DestinationTypes []string `yaml:"destinationTypes" doc:"The kinds of destination the contact may give." enum:"bank_account,international_wire,crypto_address"`
	Address          bool     `yaml:"address" doc:"Whether its postal address is asked for." default:"false"`
	Tax              bool     `yaml:"tax" doc:"Whether its tax details are asked for." default:"false"`
}

// QueuedACH is an ACH waiting on an information request: the money is held
// from the account (or virtual account) as a pending debit.
type QueuedACH struct {
	From        string `yaml:"from" doc:"The account or virtual account the money is held from, of the contact's legal entity." required:"true" ref:"account_or_virtual_account"`
	AmountCents int64  `yaml:"amountCents" doc:"How much, in cents; positive." required:"true"`
	Memo        string `yaml:"memo" doc:"A memo."`
	// As an exported world writes it.
	TransactionID string `yaml:"transactionId" doc:"The held transaction, declared among transactions: nothing is posted again, and from, amountCents and memo are its own." ref:"transaction" unset:"posted on load"`
	Released      bool   `yaml:"released" doc:"Whether it was sent on to the bank account the form brought." default:"false"`
}

// DeferredWrite declares a write a read-only key asked for, waiting for a
// person to approve it: an agent request, as if the key had sent it.
type DeferredWrite struct {
	Key           string         `yaml:"key" doc:"The read-only API key that asked." required:"true" ref:"key"`
	Method        string         `yaml:"method" doc:"The write's HTTP method." required:"true" enum:"POST,PUT,PATCH,DELETE"`
	Path          string         `yaml:"path" doc:"The API path it calls, starting with /, such as /card/card_123." required:"true"`
	Body          map[string]any `yaml:"body" doc:"The JSON body it sends." unset:"none"`
	LegalEntityID string         `yaml:"legalEntityId" doc:"The x-legal-entity a user key sends; required with a user key, not given with a legal_entity key." ref:"legal_entity"`
	At            string         `yaml:"at" doc:"When it asked (a time)." unset:"the clock start"`
	// The request as it stands, as an exported world writes it.
	ID             string         `yaml:"id" doc:"Its id, dfa_ then anything; a pending one's expiry is the agent_request.expire event (in events) naming it, if any." unset:"generated"`
	Status         string         `yaml:"status" doc:"Where it stands." enum:"pending,approved,rejected,expired,executed,failed,running" default:"pending"`
	Display        map[string]any `yaml:"display" doc:"What a person is shown: title, description, sections, as GET /agent-request shows it." unset:"made from the write when first read"`
	Query          string         `yaml:"query" doc:"The write's query string."`
	IdempotencyKey string         `yaml:"idempotencyKey" doc:"The X-Idempotency-Key it sent."`
	ContentType    string         `yaml:"contentType" doc:"The Content-Type it sent." default:"application/json"`
	Result         string         `yaml:"result" doc:"The JSON an executed write answered, as text."`
	FailureStatus  int            `yaml:"failureStatus" doc:"The status a failed write met." default:"0"`
	Failure        string         `yaml:"failure" doc:"The JSON a failed write met, as text."`
	UpdatedAt      string         `yaml:"updatedAt" doc:"When it last changed (a time)." unset:"at"`
	ExpiresAt      string         `yaml:"expiresAt" doc:"When a pending one expires (a time)." unset:"at plus agentRequests.expiresAfter"`
}

// WebhookFailing declares an endpoint that has not been answering: its
// first event's delivery was attempted Attempts times since Since, each
// refused, and waits for its next attempt; the other events queue behind
// it, as deliveries to one endpoint go out one at a time.
type WebhookFailing struct {
	Since    string         `yaml:"since" doc:"When the first attempt was refused: a time before the clock start, such as -40m." required:"true"`
	Attempts int            `yaml:"attempts" doc:"How many attempts were refused, 1 to 12; the engine makes 13 in all." required:"true"`
	Events   []WebhookEvent `yaml:"events" doc:"The events the endpoint is told about, oldest first: the first one's delivery is failing, the others wait behind it." required:"true"`
}

// WebhookEvent is one event an endpoint is told about.
type WebhookEvent struct {
	Event    string `yaml:"event" doc:"The event." required:"true" enum:"card.update,card.delete,card_creation.event,aggregated_transaction.create,aggregated_transaction.update,expense_report.create,expense_report.update"`
	EntityID string `yaml:"entityId" doc:"The declared card, transaction or expense report it is about, as its event says, of the endpoint's legal entity." required:"true" ref:"webhook_entity"`
}
