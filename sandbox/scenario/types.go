package scenario

// Scenario is one scenario file.
type Scenario struct {
	Name          string         `yaml:"name"`
	Description   string         `yaml:"description"`
	ClockStart    string         `yaml:"clockStart"`
	Seed          *int64         `yaml:"seed"`
	TokenPrices   *TokenPrices   `yaml:"tokenPrices"`
	Money         *Money         `yaml:"money"`
	AgentRequests *AgentRequests `yaml:"agentRequests"`
	RateLimit     *RateLimit     `yaml:"rateLimit"`
	LegalEntities []LegalEntity  `yaml:"legalEntities"`
	Users         []User         `yaml:"users"`
	Keys          []Key          `yaml:"keys"`
	Accounts      []Account      `yaml:"accounts"`
	CardGroups    []CardGroup    `yaml:"cardGroups"`
	Cards         []Card         `yaml:"cards"`
	Contacts      []Contact      `yaml:"contacts"`
	Customers     []Customer     `yaml:"customers"`
	Invoices      []Invoice      `yaml:"invoices"`
	// Receivables and spend: see the types at the end of this file.
	InvoiceSeries    []InvoiceSeries   `yaml:"invoiceSeries"`
	InvoiceSettings  []InvoiceSettings `yaml:"invoiceSettings"`
	UserBankAccounts []UserBankAccount `yaml:"userBankAccounts"`
	CustomMerchants  []CustomMerchant  `yaml:"customMerchants"`
	ExpenseReports   []ExpenseReport   `yaml:"expenseReports"`
	Tasks            []Task            `yaml:"tasks"`
	Transactions     []Transaction     `yaml:"transactions"`
	Webhooks         []Webhook         `yaml:"webhooks"`
	Generate         []Generate        `yaml:"generate"`
	Events           []Event           `yaml:"events"`
	// Work under way: see activity.go.
	InformationRequests []InformationRequest `yaml:"informationRequests"`
	DeferredWrites      []DeferredWrite      `yaml:"deferredWrites"`
	File                string               `yaml:"-"`
	// Hash fingerprints the file's bytes: worlds made from the same bytes,
	// seed and clock start share one loaded snapshot.
	Hash  string         `yaml:"-"`
	lines map[string]int `yaml:"-"`
}

// TokenPrices configures the token price walk.
type TokenPrices struct {
	TickInterval string `yaml:"tickInterval"`
}

// AgentRequests configures read-only keys' deferred writes.
type AgentRequests struct {
	// ExpiresAfter is how long a pending request waits for a person
	// (virtual time, default 72h).
	ExpiresAfter string `yaml:"expiresAfter"`
}

// RateLimit limits every API key of the world to Requests calls per Window
// of wall time.
type RateLimit struct {
	Requests int    `yaml:"requests"`
	Window   string `yaml:"window"`
}

// Money configures money movement.
type Money struct {
	// ACHSettlementBusinessDays is how many business days an outgoing ACH
	// transfer stays pending (default 2).
	ACHSettlementBusinessDays *int `yaml:"achSettlementBusinessDays"`
}

// LegalEntity declares a business.
type LegalEntity struct {
	ID             string `yaml:"id"`
	Name           string `yaml:"name"`
	Structure      string `yaml:"structure"`
	V2Enabled      *bool  `yaml:"v2Enabled"`
	CardGroupModel string `yaml:"cardGroupModel"`
	Enterprise     bool   `yaml:"enterprise"`
	CryptoOfframp  bool   `yaml:"cryptoOfframp"`
	CreatedAt      string `yaml:"createdAt"`
}

// User declares a person and their roles.
type User struct {
	ID    string `yaml:"id"`
	Name  string `yaml:"name"`
	Email string `yaml:"email"`
	Roles []Role `yaml:"roles"`
}

// Role is a user's role on a legal entity.
type Role struct {
	LegalEntityID string `yaml:"legalEntityId"`
	Role          string `yaml:"role"`
	Active        *bool  `yaml:"active"`
}

// Key declares an API key.
type Key struct {
	Key           string `yaml:"key"`
	Name          string `yaml:"name"`
	Kind          string `yaml:"kind"`
	ReadOnly      bool   `yaml:"readOnly"`
	LegalEntityID string `yaml:"legalEntityId"`
	UserID        string `yaml:"userId"`
}

// Account declares an account and its virtual accounts.
type Account struct {
	ID              string           `yaml:"id"`
	LegalEntityID   string           `yaml:"legalEntityId"`
	Name            string           `yaml:"name"`
	Type            string           `yaml:"type"`
	Status          string           `yaml:"status"`
	Commercial      *bool            `yaml:"commercial"`
	BalanceCents    int64            `yaml:"balanceCents"`
	CreatedAt       string           `yaml:"createdAt"`
	VirtualAccounts []VirtualAccount `yaml:"virtualAccounts"`

	// CreditLimitCents is a charge card's credit limit (default $100,000).
	CreditLimitCents *int64 `yaml:"creditLimitCents"`
}

// VirtualAccount declares a sub-account.
type VirtualAccount struct {
	ID           string `yaml:"id"`
	Name         string `yaml:"name"`
	BalanceCents int64  `yaml:"balanceCents"`
	Closed       bool   `yaml:"closed"`
	CreatedAt    string `yaml:"createdAt"`
}

// CardGroup declares a card group.
type CardGroup struct {
	ID                 string         `yaml:"id"`
	LegalEntityID      string         `yaml:"legalEntityId"`
	Name               string         `yaml:"name"`
	VirtualAccountID   string         `yaml:"virtualAccountId"`
	SpendingConstraint map[string]any `yaml:"spendingConstraint"`
	CreatedAt          string         `yaml:"createdAt"`
}

// Card declares a card.
type Card struct {
	ID                 string         `yaml:"id"`
	AccountID          string         `yaml:"accountId"`
	VirtualAccountID   string         `yaml:"virtualAccountId"`
	CardGroupID        string         `yaml:"cardGroupId"`
	CardProductID      string         `yaml:"cardProductId"`
	Name               string         `yaml:"name"`
	Status             string         `yaml:"status"`
	IsSingleUse        bool           `yaml:"isSingleUse"`
	SpendingConstraint map[string]any `yaml:"spendingConstraint"`
	UserData           map[string]any `yaml:"userData"`
	Modifiers          []Modifier     `yaml:"modifiers"`
	CreatedAt          string         `yaml:"createdAt"`
}

// Modifier is a card modifier.
type Modifier struct {
	Name  string `yaml:"name"`
	Value bool   `yaml:"value"`
}

// Address is a postal address.
type Address struct {
	AddressLine    string `yaml:"addressLine"`
	AddressLine2   string `yaml:"addressLine2"`
	AddressCity    string `yaml:"addressCity"`
	AddressState   string `yaml:"addressState"`
	AddressZip     string `yaml:"addressZip"`
	AddressCountry string `yaml:"addressCountry"`
}

// Contact declares a payee and its destinations.
type Contact struct {
	ID                 string        `yaml:"id"`
	LegalEntityID      string        `yaml:"legalEntityId"`
	Name               string        `yaml:"name"`
	RecipientType      string        `yaml:"recipientType"`
	RecipientLegalName string        `yaml:"recipientLegalName"`
	RecipientEmail     string        `yaml:"recipientEmail"`
	Address            *Address      `yaml:"address"`
	Destinations       []Destination `yaml:"destinations"`
	CreatedAt          string        `yaml:"createdAt"`
	// AchDebitRecurring marks an active recurring ACH debit authorization.
	AchDebitRecurring bool `yaml:"achDebitRecurring"`
}

// Destination declares where a contact can be paid.
type Destination struct {
	ID            string `yaml:"id"`
	Type          string `yaml:"type"`
	Name          string `yaml:"name"`
	AccountNumber string `yaml:"accountNumber"`
	RoutingNumber string `yaml:"routingNumber"`
	AccountType   string `yaml:"accountType"`
	IBAN          string `yaml:"iban"`
	SWIFT         string `yaml:"swift"`
	BankName      string `yaml:"bankName"`
	BankCountry   string `yaml:"bankCountry"`
	Address       string `yaml:"address"`
	Chain         string `yaml:"chain"`
	Currency      string `yaml:"currency"`
	ReturnCode    string `yaml:"returnCode"`
}

// Customer declares someone the legal entity invoices.
type Customer struct {
	ID             string         `yaml:"id"`
	LegalEntityID  string         `yaml:"legalEntityId"`
	Name           string         `yaml:"name"`
	Email          string         `yaml:"email"`
	Phone          string         `yaml:"phone"`
	Address        *Address       `yaml:"address"`
	Status         string         `yaml:"status"`
	CustomMetadata map[string]any `yaml:"customMetadata"`
	CreatedAt      string         `yaml:"createdAt"`
	// AchDebitRecurring marks an active recurring ACH debit authorization.
	AchDebitRecurring bool `yaml:"achDebitRecurring"`
}

// Invoice declares an invoice.
type Invoice struct {
	ID            string     `yaml:"id"`
	AccountID     string     `yaml:"accountId"`
	CustomerID    string     `yaml:"customerId"`
	Number        string     `yaml:"number"`
	IssuedAt      string     `yaml:"issuedAt"`
	DueAt         string     `yaml:"dueAt"`
	Timezone      string     `yaml:"timezone"`
	LineItems     []LineItem `yaml:"lineItems"`
	Memo          string     `yaml:"memo"`
	PaidCents     int64      `yaml:"paidCents"`
	Void          bool       `yaml:"void"`
	ScheduledSend string     `yaml:"scheduledSendAt"`
	// Emailed puts the invoice's email in the outbox, sent on its issue
	// date.
	Emailed bool `yaml:"emailed"`
}

// LineItem is an invoice line.
type LineItem struct {
	Name       string  `yaml:"name"`
	Quantity   float64 `yaml:"quantity"`
	PriceCents int64   `yaml:"priceCents"`
}

// Transaction declares a ledger entry.
type Transaction struct {
	ID               string `yaml:"id"`
	AccountID        string `yaml:"accountId"`
	VirtualAccountID string `yaml:"virtualAccountId"`
	CardID           string `yaml:"cardId"`
	Category         string `yaml:"category"`
	AmountCents      int64  `yaml:"amountCents"`
	Description      string `yaml:"description"`
	DetailedStatus   string `yaml:"detailedStatus"`
	Date             string `yaml:"date"`
	SettlesAt        string `yaml:"settlesAt"`
	MerchantID       string `yaml:"merchantId"`
	Memo             string `yaml:"memo"`
	DeclineReason    string `yaml:"declineReason"`
	Rail             string `yaml:"rail"`
}

// Webhook declares an event-delivery endpoint.
type Webhook struct {
	ID            string `yaml:"id"`
	LegalEntityID string `yaml:"legalEntityId"`
	URL           string `yaml:"url"`
	Name          string `yaml:"name"`
	Status        string `yaml:"status"`
	CreatedAt     string `yaml:"createdAt"`
	// Failing declares deliveries the endpoint has been refusing.
	Failing *WebhookFailing `yaml:"failing"`
}

// Generate asks for bulk data made by the seeded faker.
type Generate struct {
	Kind          string   `yaml:"kind"`
	Count         int      `yaml:"count"`
	Over          string   `yaml:"over"`
	LegalEntityID string   `yaml:"legalEntityId"`
	Cards         []string `yaml:"cards"`
	AccountID     string   `yaml:"accountId"`
}

// Event schedules an effect at a relative or absolute time.
type Event struct {
	At   string         `yaml:"at"`
	Kind string         `yaml:"kind"`
	With map[string]any `yaml:"with"`
}

// InvoiceSeries declares a recurring invoice. startDate is a time whose
// date, in the series' time zone, starts the series; dates already passed
// are issued when the scenario loads.
type InvoiceSeries struct {
	ID               string     `yaml:"id"`
	AccountID        string     `yaml:"accountId"`
	CustomerID       string     `yaml:"customerId"`
	ContactID        string     `yaml:"contactId"`
	Recurrence       Recurrence `yaml:"recurrence"`
	PaymentTermsDays int        `yaml:"paymentTermsDays"`
	Timezone         string     `yaml:"timezone"`
	StartDate        string     `yaml:"startDate"`
	End              *SeriesEnd `yaml:"end"`
	LineItems        []LineItem `yaml:"lineItems"`
	Memo             string     `yaml:"memo"`
}

// Recurrence is a series' rule: weekly on dayOfWeek (0 Sunday … 6),
// monthly_day_of_month on dayOfMonth, or monthly_nth_weekday on the nth
// (1–4 or last) dayOfWeek.
type Recurrence struct {
	Type       string `yaml:"type"`
	DayOfWeek  *int   `yaml:"dayOfWeek"`
	DayOfMonth *int   `yaml:"dayOfMonth"`
	Nth        any    `yaml:"nth"`
}

// SeriesEnd is when a series stops: never, after_count (count) or on_date
// (date, YYYY-MM-DD).
type SeriesEnd struct {
	Type  string `yaml:"type"`
	Count int    `yaml:"count"`
	Date  string `yaml:"date"`
}

// InvoiceSettings declares a legal entity's invoice settings.
type InvoiceSettings struct {
	LegalEntityID           string   `yaml:"legalEntityId"`
	CompanyName             string   `yaml:"companyName"`
	Email                   string   `yaml:"email"`
	Address                 *Address `yaml:"address"`
	DefaultMemo             string   `yaml:"defaultMemo"`
	InvoiceTerms            string   `yaml:"invoiceTerms"`
	DefaultPaymentTermsDays *int     `yaml:"defaultPaymentTermsDays"`
}

// UserBankAccount declares a user's own bank account, where expense
// reimbursements go. A payout to an account whose status is not active
// fails. Users without one get a generated active checking account.
type UserBankAccount struct {
	ID              string `yaml:"id"`
	UserID          string `yaml:"userId"`
	AccountName     string `yaml:"accountName"`
	InstitutionName string `yaml:"institutionName"`
	Mask            string `yaml:"mask"`
	Subtype         string `yaml:"subtype"`
	Status          string `yaml:"status"`
}

// CustomMerchant declares a merchant a legal entity added itself.
type CustomMerchant struct {
	ID            string `yaml:"id"`
	LegalEntityID string `yaml:"legalEntityId"`
	MerchantName  string `yaml:"merchantName"`
	AddedByUserID string `yaml:"addedByUserId"`
}

// ExpenseReport declares an expense report in any status. merchantId is a
// catalogue merchant or a custom one.
type ExpenseReport struct {
	ID                string `yaml:"id"`
	LegalEntityID     string `yaml:"legalEntityId"`
	SubmittedByUserID string `yaml:"submittedByUserId"`
	AmountCents       int64  `yaml:"amountCents"`
	Currency          string `yaml:"currency"`
	FxRateToUsd       string `yaml:"fxRateToUsd"`
	TransactionDate   string `yaml:"transactionDate"`
	SubmittedAt       string `yaml:"submittedAt"`
	MerchantID        string `yaml:"merchantId"`
	Memo              string `yaml:"memo"`
	DestinationID     string `yaml:"destinationId"`
	NoReceiptReason   string `yaml:"noReceiptReason"`
	Status            string `yaml:"status"`
	ReviewedByUserID  string `yaml:"reviewedByUserId"`
	RejectionReason   string `yaml:"rejectionReason"`
}

// Task declares a task. A payment_approval task names its transaction,
// whose details fill its data.
type Task struct {
	ID               string         `yaml:"id"`
	LegalEntityID    string         `yaml:"legalEntityId"`
	Type             string         `yaml:"type"`
	Status           string         `yaml:"status"`
	Assignees        []string       `yaml:"assignees"`
	OriginatorUserID string         `yaml:"originatorUserId"`
	TransactionID    string         `yaml:"transactionId"`
	Data             map[string]any `yaml:"data"`
	CreatedAt        string         `yaml:"createdAt"`
}
