package cards

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

// ClearingDelay is how long an approved authorization stays pending
// before it settles on its own.
const ClearingDelay = 48 * time.Hour

// DefaultCreditLimitCents is a charge-card account's credit limit when its
// scenario names none ($100,000.00).
const DefaultCreditLimitCents = 10_000_000

// AuthorizationRequest is a simulated purchase with a card at a merchant.
type AuthorizationRequest struct {
	CardID      string
	AmountCents int64
	Merchant    Merchant
	// Recurring marks a recurring (subscription) payment.
	Recurring bool
}

// Authorization is the outcome of a simulated purchase.
type Authorization struct {
	Decision    Decision
	Transaction *ledger.Transaction
	Event       *Event
	Card        *Card
}

// CatalogMerchant is a fixtures merchant as a card merchant.
func CatalogMerchant(cat *fixtures.Catalog, id string) (Merchant, bool) {
	m, ok := cat.Merchant(id)
	if !ok {
		return Merchant{}, false
	}
	return Merchant{ID: m.ID, Name: m.Name, MCC: m.MCC, CategoryID: m.CategoryID, City: m.City,
		State: m.State, Country: m.Country, Zip: m.Zip}, true
}

// CheckMerchant checks a merchant described in full (found at pointer at)
// and fills its category from its MCC when it names none.
func CheckMerchant(m *Merchant, at string, cat *fixtures.Catalog) error {
	d := map[string]string{}
	if strings.TrimSpace(m.Name) == "" {
		d[at+"/name"] = "required"
	}
	if !isMCC(m.MCC) {
		d[at+"/mcc"] = "must be a four-digit MCC"
	}
	if !parties.IsCountryCode(m.Country) {
		d[at+"/country"] = "must be a two-letter country code (ISO 3166-1 alpha-2, upper case)"
	}
	if m.CategoryID != "" {
		if _, ok := cat.Category(m.CategoryID); !ok {
			d[at+"/categoryId"] = "unknown merchant category"
		}
	} else if mcc, ok := cat.MCC(m.MCC); ok {
		m.CategoryID = mcc.CategoryID
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

// SimulateAuthorization runs a purchase through the real decision, in this
// order: card status, single use, card modifiers, funds (the virtual
// account's available cash, or a charge card's credit limit), every rule
// of the card's spending constraint, then of its group's, then the
// authorization webhook. The first rule that declines decides. The world
// records a card event and a transaction: pending (settling after
// CardClearingDelay) when approved, declined otherwise. A single-use card
// closes after its first attempt, approved or not.
func SimulateAuthorization(op *kernel.Op, req AuthorizationRequest) (*Authorization, error) {
	ac, err := authContextFor(op, req)
	if err != nil {
		return nil, err
	}
	if ac.authID, err = op.NewID(prefixAuthorization); err != nil {
		return nil, err
	}
	d, err := ac.decide()
	if err != nil {
		return nil, err
	}
	a, err := ac.commit(d)
	if err != nil || !d.Approved {
		return a, err
	}
	return a, ledger.ScheduleSettlement(op, a.Transaction, ledger.At(op.Now.Add(ClearingDelay)), "settled")
}

// authContextFor loads the card a request names and what deciding its
// purchase reads.
func authContextFor(op *kernel.Op, req AuthorizationRequest) (*authContext, error) {
	card, ok, err := ByID(op, req.CardID)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, kernel.NotFound("card", "cardId", req.CardID)
	}
	return authContextOf(op, card, req)
}

// commit records a decided authorization as the world keeps every one: its
// transaction (pending when approved, declined otherwise), a card event
// carrying the decision, and a single-use card closed after its attempt.
func (ac *authContext) commit(d *Decision) (*Authorization, error) {
	op, card, req := ac.op, ac.card, ac.req
	t, err := ac.record(d)
	if err != nil {
		return nil, err
	}
	ev := &Event{CardID: card.ID, LegalEntityID: card.LegalEntityID, Type: EventAuthorization,
		AmountCents: req.AmountCents, Merchant: &req.Merchant, Approved: d.Approved, Decision: d, TransactionID: t.ID,
		Recurring: req.Recurring}
	if err := recordCardEvent(op, ev); err != nil {
		return nil, err
	}
	if card.IsSingleUse && card.Status != StatusClosed {
		before := card.Status
		card.Status = StatusClosed
		if err := storeCard(op, card, before); err != nil {
			return nil, err
		}
	}
	return &Authorization{Decision: *d, Transaction: t, Event: ev, Card: card}, nil
}

// authContext is everything an authorization decision reads.
type authContext struct {
	op      *kernel.Op
	card    *Card
	group   *Group
	account *ledger.Account
	va      *ledger.VirtualAccount
	subtype string
	req     AuthorizationRequest
	// authID is the authorization's id: the transaction's
	// providerAuthorizationId and the authorization webhook's event id.
	authID string
	// cut is the instant the decision is made at: only what happened
	// before it counts (status changes, earlier attempts, spend).
	cut cutoff
	// past marks a decision replayed from history: funds, the magic
	// values and the authorization webhook take no part.
	past bool
	// exclude is a transaction a replay leaves out: the purchase itself.
	exclude string
	// settled records an approved past purchase settled rather than
	// pending.
	settled bool
}

// authContextOf loads a card's group, account and the virtual account its
// purchases post to: its own, else its group's (when on the same account),
// else the account's primary one.
func authContextOf(op *kernel.Op, card *Card, req AuthorizationRequest) (*authContext, error) {
	ac := &authContext{
		op:      op,
		card:    card,
		req:     req,
		cut:     liveCutoff(op),
		account: &ledger.Account{},
		va:      &ledger.VirtualAccount{},
		subtype: "cash",
	}
	ok, err := op.Get(ledger.KindAccount, card.AccountID, ac.account)
	if err != nil {
		return nil, fmt.Errorf("card %s: account %s not found (%w)", card.ID, card.AccountID, err)
	}
	if !ok {
		return nil, fmt.Errorf("card %s: account %s not found", card.ID, card.AccountID)
	}
	if card.CardGroupID != "" {
		g := &Group{}
		if ok, err := op.Get(KindGroup, card.CardGroupID, g); err != nil {
			return nil, err
		} else if ok {
			ac.group = g
		}
	}
	if ac.account.Type == "charge_card" {
		ac.subtype = "credit"
	}
	for _, id := range []string{card.VirtualAccountID, ac.groupVirtualAccount(), ac.account.PrimaryVirtualAccountID} {
		if id == "" {
			continue
		}
		ok, err := op.Get(ledger.KindVirtualAccount, id, ac.va)
		if err != nil {
			return nil, err
		}
		if ok && ac.va.AccountID == ac.account.ID {
			return ac, nil
		}
	}
	return nil, fmt.Errorf("card %s: no virtual account to post to", card.ID)
}

func (ac *authContext) groupVirtualAccount() string {
	if ac.group == nil {
		return ""
	}
	return ac.group.VirtualAccountID
}

// decide runs every check in order; the first decline decides. The
// sandbox's magic values come first, so a test can force any outcome. A
// replayed decision (past) runs the card's and its groups' rules only.
func (ac *authContext) decide() (*Decision, error) {
	if d := checkMagic(ac.req); d != nil && !ac.past {
		return d, nil
	}
	if d := ac.checkStatus(); d != nil {
		return d, nil
	}
	checks := []func() (*Decision, error){ac.checkSingleUse, ac.checkModifiers}
	if !ac.past {
		checks = append(checks, ac.checkFunds)
	}
	for _, s := range ac.scopes() {
		checks = append(checks, s.check)
	}
	if !ac.past {
		checks = append(checks, ac.checkAuthorizationWebhook)
	}
	for _, check := range checks {
		d, err := check()
		if err != nil || d != nil {
			return d, err
		}
	}
	if ac.past {
		return &Decision{Approved: true, Rule: "standardAuthorization", Reason: "approved",
			Detail: "passed the card's status at the time and every spending rule of the card and its group"}, nil
	}
	return &Decision{Approved: true, Rule: "standardAuthorization", Reason: "approved",
		Detail: "passed the card's status, the available funds and every spending rule of the card and its group"}, nil
}

func declineBy(rule, reason, detail string) *Decision {
	return &Decision{Rule: rule, Reason: reason, Detail: detail}
}

func (ac *authContext) checkStatus() *Decision {
	if s := statusAt(ac.card, ac.cut); s != StatusActive {
		return declineBy("card.status", "card_"+s, fmt.Sprintf("card %s is %s", ac.card.ID, s))
	}
	return nil
}

func (ac *authContext) checkSingleUse() (*Decision, error) {
	if !ac.card.IsSingleUse {
		return nil, nil
	}
	used, err := cardEventsWhere(ac.op, ac.card.ID, time.Time{}, func(e *Event) bool {
		return e.Type == EventAuthorization && ac.cut.holds(e.CreatedAt, e.Seq) &&
			(ac.exclude == "" || e.TransactionID != ac.exclude)
	})
	if err != nil || len(used) == 0 {
		return nil, err
	}
	return declineBy("card.isSingleUse", "single_use_card_used",
		"the card is single-use and was already used at "+used[0].CreatedAt.UTC().Format(time.RFC3339)), nil
}

func (ac *authContext) checkModifiers() (*Decision, error) {
	if ac.card.Modifier(ModifierRecurringOnly) && !ac.req.Recurring {
		return declineBy("card.modifiers."+ModifierRecurringOnly, "recurring_payments_only",
			"the card only allows recurring payments and this one is not recurring"), nil
	}
	return nil, nil
}

// checkFunds compares the amount with what the card can draw: a debit
// account's virtual account's available cash, or a charge card account's
// credit limit less its outstanding credit spend.
func (ac *authContext) checkFunds() (*Decision, error) {
	amount := ac.req.AmountCents
	if ac.account.Status != "open" {
		return declineBy("account.status", "account_closed", "account "+ac.account.ID+" is "+ac.account.Status), nil
	}
	if ac.va.ClosedAt != nil {
		return declineBy("virtualAccount.status", "account_closed", "virtual account "+ac.va.ID+" is closed"), nil
	}
	if ac.account.Type == "charge_card" {
		t, err := ledger.AccountTotals(ac.op, ac.account.ID, "credit")
		if err != nil {
			return nil, err
		}
		if left := ac.account.CreditLimitCents + t.Available(); amount > left {
			return declineBy(
				"account.creditLimit",
				"credit_limit_exceeded",
				fmt.Sprintf("%s of credit left under the %s limit of account %s; requested %s", ledger.FormatCents(max(0, left)),
					ledger.FormatCents(ac.account.CreditLimitCents), ac.account.ID, ledger.FormatCents(amount)),
			), nil
		}
		return nil, nil
	}
	t, err := ledger.VirtualAccountTotals(ac.op, ac.va.ID)
	if err != nil {
		return nil, err
	}
	if avail := t.Available(); amount > avail {
		return declineBy(
			"account.balance",
			"insufficient_funds",
			fmt.Sprintf("virtual account %s has %s available; requested %s",
				ac.va.ID, ledger.FormatCents(avail), ledger.FormatCents(amount)),
		), nil
	}
	return nil, nil
}

// record posts the authorization's transaction: pending when approved,
// declined (no balance effect) otherwise.
func (ac *authContext) record(d *Decision) (*ledger.Transaction, error) {
	op, m := ac.op, ac.req.Merchant
	now := op.Now
	authID := ac.authID
	t := &ledger.Transaction{LegalEntityID: ac.card.LegalEntityID, AccountID: ac.account.ID, VirtualAccountID: ac.va.ID,
		AccountSubtype: ac.subtype, CardID: ac.card.ID, CardGroupID: ac.card.CardGroupID, Category: "card",
		AmountCents: -ac.req.AmountCents, Description: m.Name, Merchant: m.data(), AuthorizedAt: &now,
		ProviderAuthorizationID: authID, DetailedStatus: "declined", DeclineReason: d.Reason}
	if d.Approved {
		t.DetailedStatus, t.DeclineReason, t.ApprovalReason = "pending", "", d.Reason
		if ac.settled {
			t.DetailedStatus = "settled"
		}
	}
	return t, ledger.PostTransaction(op, t)
}

// checkAuthorizationWebhook lets the account's authorization webhook take
// part after every standard rule has passed. The receiver's answer decides
// (rule "authorizationWebhook", with its reason); without a valid answer in
// time the configured fallback does, and the decision says so. Without an
// active webhook the purchase goes through.
func (ac *authContext) checkAuthorizationWebhook() (*Decision, error) {
	m := ac.req.Merchant
	ev := AuthorizationEvent{TransactionID: ac.authID, CardID: ac.card.ID, CardName: ac.card.Name,
		AccountID: ac.account.ID, AccountName: ac.account.Name, VirtualAccountID: ac.va.ID, VirtualAccountName: ac.va.Name,
		MerchantName: m.Name, MerchantCategoryCode: m.MCC, MerchantCountry: m.Country, MerchantCity: m.City,
		MerchantState: m.State, MerchantZip: m.Zip, AmountCents: ac.req.AmountCents}
	approved, reason, fallback, err := DecideAuthorization(ac.op, ac.account.ID, ev)
	if err != nil || (approved && reason == "" && !fallback) {
		return nil, err
	}
	d := &Decision{Approved: approved, Rule: "authorizationWebhook", Reason: reason, FallbackApplied: fallback}
	switch {
	case fallback:
		d.Detail = "the authorization webhook gave no valid answer in time; its fallback decided"
	case approved:
		d.Detail = "the account's authorization webhook approved"
	default:
		d.Detail = "the account's authorization webhook declined"
	}
	if d.Reason == "" {
		d.Reason = map[bool]string{true: "approved_by_authorization_webhook",
			false: "authorization_webhook_declined"}[approved]
	}
	return d, nil
}

// ruleScope is one spending constraint taking part in a decision: the
// card's or its group's, with the index its spend is counted on.
type ruleScope struct {
	ac         *authContext
	name       string // card or cardGroup
	owner      string // how details name it
	groupID    string
	constraint *SpendingConstraint
	prefix     string
}

func (ac *authContext) scopes() []ruleScope {
	var out []ruleScope
	if c := ac.card.SpendingConstraint; c != nil {
		out = append(out, ruleScope{ac: ac, name: "card", owner: "the card's", constraint: c,
			prefix: kernel.IndexPrefix(ledger.IndexTxnCard, ac.card.ID)})
	}
	if g := ac.group; g != nil && g.SpendingConstraint != nil {
		out = append(out, ruleScope{ac: ac, name: "cardGroup", owner: "card group " + g.Name + "'s", groupID: g.ID,
			constraint: g.SpendingConstraint, prefix: kernel.IndexPrefix(ledger.IndexTxnGroup, g.ID)})
	}
	return out
}

func (s ruleScope) declineBy(rule, reason, detail string) *Decision {
	return &Decision{Rule: rule, Reason: reason, Detail: detail, Scope: s.name, CardGroupID: s.groupID}
}

// check runs the scope's rules in order: merchant, category, MCC, country,
// transaction size, then each utilization limit.
func (s ruleScope) check() (*Decision, error) {
	if d := s.merchantRules(s.ac.req.Merchant); d != nil {
		return d, nil
	}
	amount := s.ac.req.AmountCents
	if r := s.constraint.SpendingRule; r != nil && r.TransactionSizeLimit != nil {
		if m := r.TransactionSizeLimit.Minimum; m != nil && amount < m.AmountCents {
			return s.declineBy(
				"spendingRule.transactionSizeLimit.minimum",
				"transaction_size_below_minimum",
				fmt.Sprintf("%s is below %s minimum of %s", ledger.FormatCents(amount), s.owner, ledger.FormatCents(m.AmountCents)),
			), nil
		}
		if m := r.TransactionSizeLimit.Maximum; m != nil && amount > m.AmountCents {
			return s.declineBy(
				"spendingRule.transactionSizeLimit.maximum",
				"transaction_size_exceeded",
				fmt.Sprintf("%s is above %s maximum of %s", ledger.FormatCents(amount), s.owner, ledger.FormatCents(m.AmountCents)),
			), nil
		}
	}
	uses, err := limitUses(s.ac.op, s.constraint, s.prefix, s.ac.cut)
	if err != nil {
		return nil, err
	}
	for _, u := range uses {
		if after := u.Spend + amount; after > u.Limit.LimitAmount.AmountCents {
			return s.declineBy(u.Rule, "spending_limit_exceeded", fmt.Sprintf("would bring %s %s spend to %s of %s%s", s.owner,
				u.Limit.Preset, ledger.FormatCents(after), ledger.FormatCents(u.Limit.LimitAmount.AmountCents), windowText(u))), nil
		}
	}
	return nil, nil
}

func windowText(u LimitUse) string {
	if u.Window.Next == nil {
		return " (lifetime)"
	}
	loc := zoneOf(u.Limit.Timezone)
	return fmt.Sprintf(" (window %s to %s, %s)", u.Window.Start.In(loc).Format("2006-01-02 15:04"),
		u.Window.Next.In(loc).Format("2006-01-02 15:04"), loc)
}

// merchantRules runs the four list rules against a merchant.
func (s ruleScope) merchantRules(m Merchant) *Decision {
	c := s.constraint
	if r := c.MerchantRule; r != nil {
		if d := s.list("merchantRule", "merchant_blocked", r.Restriction, r.Merchants, m.ID,
			"merchant "+m.Name+merchantIDText(m)); d != nil {
			return d
		}
	}
	if r := c.MerchantCategoryRule; r != nil {
		if d := s.list("merchantCategoryRule", "merchant_category_blocked", r.Restriction, r.MerchantCategories,
			m.CategoryID, "merchant category "+orNone(m.CategoryID)); d != nil {
			return d
		}
	}
	if r := c.MerchantCategoryCodeRule; r != nil {
		if d := s.list("merchantCategoryCodeRule", "merchant_category_code_blocked", r.Restriction,
			r.MerchantCategoryCodes, m.MCC, "MCC "+m.MCC); d != nil {
			return d
		}
	}
	if r := c.CountryRule; r != nil {
		if d := s.list("countryRule", "country_blocked", r.Restriction, r.Countries, m.Country,
			"country "+m.Country); d != nil {
			return d
		}
	}
	return nil
}

// list applies an allowlist or a blacklist to one value.
func (s ruleScope) list(rule, reason, restriction string, items []string, value, what string) *Decision {
	listed := value != "" && slices.Contains(items, value)
	switch {
	case restriction == "blacklist" && listed:
		return s.declineBy(rule, reason, what+" is on "+s.owner+" blacklist")
	case restriction != "blacklist" && !listed:
		return s.declineBy(rule, reason, what+" is not on "+s.owner+" allowlist")
	}
	return nil
}

func merchantIDText(m Merchant) string {
	if m.ID == "" {
		return " (not a catalogue merchant)"
	}
	return " (" + m.ID + ")"
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// Magic values of the card simulation: amounts and merchant names that
// always decline, whatever the card's rules say.
var magicAmounts = map[int64]string{
	66600: "suspected_fraud",    // $666.00
	40400: "do_not_honor",       // $404.00
	99999: "insufficient_funds", // $999.99
}

// MagicDeclinePrefix starts a merchant name that always declines; the rest
// of the name is the decline reason ("DECLINE_expired_card").
const MagicDeclinePrefix = "DECLINE_"

// checkMagic declines the sandbox's magic amounts and merchant names.
func checkMagic(req AuthorizationRequest) *Decision {
	if reason, ok := magicAmounts[req.AmountCents]; ok {
		return declineBy("sandbox.magicAmount", reason,
			fmt.Sprintf("%s always declines with %s in the sandbox", ledger.FormatCents(req.AmountCents), reason))
	}
	if rest, ok := strings.CutPrefix(req.Merchant.Name, MagicDeclinePrefix); ok && rest != "" {
		return declineBy("sandbox.magicMerchant", strings.ToLower(rest),
			"merchant names starting "+MagicDeclinePrefix+" always decline in the sandbox")
	}
	return nil
}
