package cards

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Card statuses.
const (
	StatusActive   = "active"
	StatusPaused   = "paused"
	StatusInactive = "inactive"
	StatusClosed   = "closed"
)

// Statuses lists every card status.
var Statuses = []string{StatusActive, StatusPaused, StatusInactive, StatusClosed}

// ModifierRecurringOnly is the one card modifier of the real service.
const ModifierRecurringOnly = "only_allow_recurring_payments"

// ModifierNames lists the card modifiers.
var ModifierNames = []string{ModifierRecurringOnly}

// MaxUserData is the largest userData object, in bytes of compact JSON.
const MaxUserData = 4096

// Patch is one property of a partial update: absent, null, or a value.
type Patch[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// CheckName checks a card or card group name found at pointer.
func CheckName(pointer, name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return kernel.InvalidField(pointer, "must not be empty")
	case len(name) > 255:
		return kernel.InvalidField(pointer, "must be at most 255 characters")
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return kernel.InvalidField(pointer, "must not contain control characters")
	}
	return nil
}

// CheckUserData checks userData: a JSON object of at most 4 KB. It returns
// the object compacted.
func CheckUserData(pointer string, raw json.RawMessage) (json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, kernel.InvalidField(pointer, "must be a JSON object")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, kernel.InvalidField(pointer, "must be a JSON object")
	}
	if buf.Len() > MaxUserData {
		return nil, kernel.InvalidField(pointer,
			fmt.Sprintf("must be at most %d bytes of JSON, got %d", MaxUserData, buf.Len()))
	}
	return buf.Bytes(), nil
}

// Filter holds the card list's filters and order; zero values mean
// "any" and creation order, oldest first.
type Filter struct {
	AccountID        string
	VirtualAccountID string
	CardGroup        string
	CardGroupName    string
	Status           string
	// Modifier is "name:true" or "name:false".
	Modifier string
	// Sort is createdAt (the default) or name.
	Sort string
	Desc bool
}

// Validate checks the filter's values.
func (f *Filter) Validate() error {
	d := map[string]string{}
	if f.CardGroup != "" && f.CardGroupName != "" {
		d["filter:cardGroupName"] = "filter:cardGroupId and filter:cardGroupName are mutually exclusive"
	}
	if f.Status != "" && !slices.Contains(Statuses, f.Status) {
		d["filter:status"] = "must be one of active, paused, inactive, closed"
	}
	if f.Modifier != "" {
		name, value, ok := strings.Cut(f.Modifier, ":")
		if !ok || !slices.Contains(ModifierNames, name) || (value != "true" && value != "false") {
			d["filter:modifier"] = `must be "only_allow_recurring_payments:true" or "only_allow_recurring_payments:false"`
		}
	}
	if f.Sort != "" && f.Sort != "createdAt" && f.Sort != "name" {
		d["sort"] = "must be createdAt or name"
	}
	if len(d) > 0 {
		return kernel.Invalid(d)
	}
	return nil
}

func (f *Filter) match(c *Card, groups map[string]bool) bool {
	eq := func(want, got string) bool { return want == "" || want == got }
	if !eq(f.AccountID, c.AccountID) || !eq(f.VirtualAccountID, c.VirtualAccountID) ||
		!eq(f.CardGroup, c.CardGroupID) || !eq(f.Status, c.Status) {
		return false
	}
	if groups != nil && !groups[c.CardGroupID] {
		return false
	}
	if f.Modifier != "" {
		name, value, _ := strings.Cut(f.Modifier, ":")
		return c.Modifier(name) == (value == "true")
	}
	return true
}

// sortName orders card names without regard to case.
func sortName(name string) string { return strings.ToLower(name) }

// Modifier reports a card modifier's value (false when it is not set).
func (c *Card) Modifier(name string) bool {
	for _, m := range c.Modifiers {
		if m.Name == name {
			return m.Value
		}
	}
	return false
}

// List lists the actor's cards by creation date or by name.
func List(op *kernel.Op, a *kernel.Actor, f Filter, req kernel.PageRequest) (kernel.Page[Card], error) {
	if err := f.Validate(); err != nil {
		return kernel.Page[Card]{}, err
	}
	le := a.LegalEntityID()
	prefix := kernel.IndexPrefix(IndexCardLE, le)
	if f.Sort == "name" {
		prefix = kernel.IndexPrefix(IndexCardName, le)
	}
	var groups map[string]bool
	if f.CardGroupName != "" {
		gs, err := kernel.All[Group](op, KindGroup, kernel.IndexPrefix(IndexGroupLE, le))
		if err != nil {
			return kernel.Page[Card]{}, err
		}
		groups = map[string]bool{}
		for _, g := range gs {
			if g.Name == f.CardGroupName {
				groups[g.ID] = true
			}
		}
	}
	req.Desc = f.Desc
	return kernel.List(op, Kind, prefix, req, func(c *Card) bool { return f.match(c, groups) })
}

// ByID loads a card whatever its legal entity.
func ByID(op *kernel.Op, id string) (*Card, bool, error) {
	var c Card
	ok, err := op.Get(Kind, id, &c)
	return &c, ok, err
}

// CardOf loads one of the actor's cards; field names the request field the
// id came from ("" for the path).
func CardOf(op *kernel.Op, a *kernel.Actor, id, field string) (*Card, error) {
	c, ok, err := ByID(op, id)
	if err != nil {
		return nil, err
	}
	if !ok || c.LegalEntityID != a.LegalEntityID() {
		return nil, kernel.NotFound("card", field, id)
	}
	return c, nil
}

// storeCard saves a changed card, its status change in its history, and
// tells webhook receivers: card.update for every change, card.delete as
// well when it has just been closed.
func storeCard(op *kernel.Op, c *Card, statusBefore string) error {
	if err := recordStatusChange(op, c, statusBefore); err != nil {
		return err
	}
	if err := op.Save(Kind, c.ID, c, Indexes(c)...); err != nil {
		return err
	}
	if err := op.Emit(c.LegalEntityID, deliveries.EventCardUpdate, c.ID); err != nil {
		return err
	}
	if c.Status == StatusClosed && statusBefore != StatusClosed {
		return op.Emit(c.LegalEntityID, deliveries.EventCardDelete, c.ID)
	}
	return nil
}

// NewCard is what creating a card takes.
type NewCard struct {
	AccountID        string
	VirtualAccountID string
	CardGroupID      string
	CardProductID    string
	Name             string
	IsSingleUse      bool
	UserData         json.RawMessage
	Constraint       *SpendingConstraint
}

// CheckAccountGiven refuses a new card without an account when p holds a
// user-scoped key: only a legal-entity key has an account to default to.
func CheckAccountGiven(p *kernel.Principal, accountID string) error {
	if accountID == "" && p.Key.Kind == kernel.KeyUser {
		return kernel.InvalidField("/accountId", "required with a user-scoped API key")
	}
	return nil
}

// Create issues a virtual card. A legal-entity key may omit the
// account: the entity's first open commercial account is used.
func Create(op *kernel.Op, a *kernel.Actor, n NewCard) (*Card, error) {
	if err := CheckAccountGiven(&a.Principal, n.AccountID); err != nil {
		return nil, err
	}
	acc, err := cardAccount(op, a, n.AccountID)
	if err != nil {
		return nil, err
	}
	card := &Card{AccountID: acc.ID, LegalEntityID: acc.LegalEntityID, Name: n.Name, Status: StatusActive,
		IsSingleUse: n.IsSingleUse, UserData: n.UserData, SpendingConstraint: n.Constraint}
	if n.VirtualAccountID != "" {
		va, err := cardVirtualAccount(op, a, n.VirtualAccountID, "virtualAccountId")
		if err != nil {
			return nil, err
		}
		if va.AccountID != acc.ID {
			return nil, kernel.InvalidField("/virtualAccountId",
				fmt.Sprintf("belongs to account %s, not %s", va.AccountID, acc.ID))
		}
		card.VirtualAccountID = va.ID
	}
	if n.CardGroupID != "" {
		g, err := GroupOf(op, a, n.CardGroupID, "cardGroupId")
		if err != nil {
			return nil, err
		}
		card.CardGroupID = g.ID
	}
	if n.CardProductID != "" {
		p, ok := op.W.Catalog.CardProduct(n.CardProductID)
		if !ok {
			return nil, kernel.NotFound("card product", "cardProductId", n.CardProductID)
		}
		if p.Status != "active" {
			return nil, kernel.InvalidField("/cardProductId", "card product "+p.ID+" is inactive")
		}
		card.CardProductID = p.ID
	}
	if err := Issue(op, card, ""); err != nil {
		return nil, err
	}
	return card, op.Emit(card.LegalEntityID, deliveries.EventCardCreation, card.ID)
}

// cardAccount is the account a new card draws on: the named one, else the
// first open commercial account of the legal entity.
func cardAccount(op *kernel.Op, a *kernel.Actor, id string) (*ledger.Account, error) {
	if id != "" {
		acc, err := ledger.AccountOf(op, a, id, "accountId")
		if err == nil && acc.Status != "open" {
			err = kernel.InvalidField("/accountId", "account "+id+" is "+acc.Status)
		}
		return acc, err
	}
	accs, err := ledger.Accounts(op, a)
	if err != nil {
		return nil, err
	}
	for i := range accs {
		if accs[i].Commercial && accs[i].Status == "open" {
			return &accs[i], nil
		}
	}
	return nil, kernel.InvalidField("/accountId", "the legal entity has no open commercial account; name one")
}

// cardVirtualAccount loads one of the actor's open virtual accounts named
// by a request field.
func cardVirtualAccount(op *kernel.Op, a *kernel.Actor, id, field string) (*ledger.VirtualAccount, error) {
	var va ledger.VirtualAccount
	ok, err := op.Get(ledger.KindVirtualAccount, id, &va)
	if err != nil {
		return nil, err
	}
	if !ok || va.LegalEntityID != a.LegalEntityID() {
		return nil, kernel.NotFound("virtual account", field, id)
	}
	if va.ClosedAt != nil {
		return nil, kernel.InvalidField("/"+field, "virtual account "+id+" is closed")
	}
	return &va, nil
}

// CardUpdate is a partial update of a card.
type CardUpdate struct {
	Name        Patch[string]
	Status      Patch[string]
	CardGroupID Patch[string]
	UserData    Patch[json.RawMessage]
	Constraint  Patch[*SpendingConstraint]
}

// Update changes what the update names; null removes the card from its
// group, its userData or its whole spending constraint.
func Update(op *kernel.Op, a *kernel.Actor, id string, u CardUpdate) (*Card, error) {
	card, err := CardOf(op, a, id, "")
	if err != nil {
		return nil, err
	}
	before := card.Status
	if u.Name.Set {
		card.Name = u.Name.Value
	}
	if u.Status.Set {
		card.Status = u.Status.Value
	}
	if u.CardGroupID.Set {
		card.CardGroupID = ""
		if !u.CardGroupID.Null {
			g, err := GroupOf(op, a, u.CardGroupID.Value, "cardGroupId")
			if err != nil {
				return nil, err
			}
			card.CardGroupID = g.ID
		}
	}
	if u.UserData.Set {
		card.UserData = u.UserData.Value
	}
	if u.Constraint.Set {
		card.SpendingConstraint = u.Constraint.Value
	}
	return card, storeCard(op, card, before)
}

// ReplaceConstraint replaces a card's whole spending constraint.
func ReplaceConstraint(
	op *kernel.Op,
	a *kernel.Actor,
	id string,
	c *SpendingConstraint,
) (*SpendingConstraint, error) {
	card, err := CardOf(op, a, id, "")
	if err != nil {
		return nil, err
	}
	card.SpendingConstraint = c
	return c, storeCard(op, card, card.Status)
}

// PatchConstraint merges a partial constraint into a card's.
func PatchConstraint(op *kernel.Op, a *kernel.Actor, id string, patch []byte) (*SpendingConstraint, error) {
	card, err := CardOf(op, a, id, "")
	if err != nil {
		return nil, err
	}
	c, err := MergeConstraint(card.SpendingConstraint, patch, "", op.Now, op.W.Catalog)
	if err != nil {
		return nil, err
	}
	card.SpendingConstraint = c
	return c, storeCard(op, card, card.Status)
}

// RequireEnterprise refuses an enterprise feature to other legal entities.
func RequireEnterprise(a *kernel.Actor, feature string) error {
	if a.LegalEntity.Enterprise {
		return nil
	}
	return kernel.Errorf(kernel.CodeForbidden,
		"%s are an enterprise feature; legal entity %s is not on an enterprise plan", feature, a.LegalEntityID())
}

// Modifiers returns a card's modifiers (enterprise only).
func Modifiers(op *kernel.Op, a *kernel.Actor, id string) ([]Modifier, error) {
	if err := RequireEnterprise(a, "card modifiers"); err != nil {
		return nil, err
	}
	card, err := CardOf(op, a, id, "")
	if err != nil {
		return nil, err
	}
	return card.Modifiers, nil
}

// SetModifier sets one modifier of a card by name (enterprise only).
func SetModifier(op *kernel.Op, a *kernel.Actor, id string, m Modifier) error {
	if err := RequireEnterprise(a, "card modifiers"); err != nil {
		return err
	}
	card, err := CardOf(op, a, id, "")
	if err != nil {
		return err
	}
	i := slices.IndexFunc(card.Modifiers, func(x Modifier) bool { return x.Name == m.Name })
	if i < 0 {
		card.Modifiers = append(card.Modifiers, m)
	} else {
		card.Modifiers[i] = m
	}
	return storeCard(op, card, card.Status)
}

// CardProducts pages through the fixtures' card products.
func CardProducts(op *kernel.Op, req kernel.PageRequest) (kernel.Page[fixtures.CardProduct], error) {
	prefix := kernel.IndexPrefix("card_product")
	if !kernel.ValidCursorKey(req.After, prefix) {
		return kernel.Page[fixtures.CardProduct]{}, kernel.InvalidField("cursor", "does not belong to this list")
	}
	size := req.Size
	if size <= 0 {
		size = kernel.PageSize
	}
	page := kernel.Page[fixtures.CardProduct]{Items: []fixtures.CardProduct{}}
	products := slices.Clone(op.W.Catalog.CardProducts)
	slices.SortFunc(products, func(x, y fixtures.CardProduct) int { return strings.Compare(x.ID, y.ID) })
	for _, p := range products {
		key := kernel.IndexKey("card_product", p.ID)
		if req.After != "" && key <= req.After {
			continue
		}
		if len(page.Items) == size {
			page.Next = kernel.IndexKey("card_product", page.Items[size-1].ID)
			break
		}
		page.Items = append(page.Items, p)
	}
	return page, nil
}

// Indexes are the index keys of a card: by legal entity, by name
// within the legal entity, by account and, when it has one, by card group.
func Indexes(c *Card) []string {
	at, seq := store.Millis(c.CreatedAt), store.Seq(c.Seq)
	keys := []string{
		kernel.IndexKey(IndexCardLE, c.LegalEntityID, at, seq, c.ID),
		kernel.IndexKey(IndexCardName, c.LegalEntityID, sortName(c.Name), c.Name, seq, c.ID),
		kernel.IndexKey(IndexCardAccount, c.AccountID, at, seq, c.ID),
	}
	if c.CardGroupID != "" {
		keys = append(keys, kernel.IndexKey(IndexCardGroup, c.CardGroupID, at, seq, c.ID))
	}
	return keys
}

// IndexCardGroup holds a card group's cards in creation order.
const IndexCardGroup = "card.group"

// IndexCardAccount holds an account's cards in creation order.
const IndexCardAccount = "card.account"

// IndexCardName holds a legal entity's cards ordered by name.
const IndexCardName = "card.name"

// IndexCardLE holds a legal entity's cards in creation order.
const IndexCardLE = "card.le"

// twoDigits are the months as an expiry shows them, "01" to "12".
var twoDigits = [...]string{"00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12"}

// Issue fills a new card's id, number, expiry and product and stores it.
func Issue(op *kernel.Op, card *Card, declaredID string) error {
	id := declaredID
	if id == "" {
		var err error
		if id, err = op.NewID(Prefix); err != nil {
			return err
		}
	}
	seq, err := op.NextSeq()
	if err != nil {
		return err
	}
	card.ID, card.Seq = id, seq
	if card.CreatedAt.IsZero() {
		card.CreatedAt = op.Now
	}
	if card.CardProductID == "" {
		products := op.W.Catalog.CardProducts
		card.CardProductID = products[kernel.Derive(op.W.Seed, "product:"+id, 0)%2].ID
	}
	product, _ := op.W.Catalog.CardProduct(card.CardProductID)
	f := op.W.Faker("card:"+id, seq)
	card.PAN = LuhnComplete(product.Prefix + f.DigitN(uint(15-len(product.Prefix))))
	card.CVV = f.DigitN(3)
	exp := card.CreatedAt.AddDate(3, 0, 0)
	card.ExpiryMonth = twoDigits[exp.Month()]
	card.ExpiryYear = strconv.Itoa(exp.Year())
	return op.Save(Kind, card.ID, card, Indexes(card)...)
}
