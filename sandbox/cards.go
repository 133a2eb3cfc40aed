package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
)

// Card statuses.
const (
	CardActive   = "active"
	CardPaused   = "paused"
	CardInactive = "inactive"
	CardClosed   = "closed"
)

// CardStatuses lists every card status.
var CardStatuses = []string{CardActive, CardPaused, CardInactive, CardClosed}

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
		return InvalidField(pointer, "must not be empty")
	case len(name) > 255:
		return InvalidField(pointer, "must be at most 255 characters")
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return InvalidField(pointer, "must not contain control characters")
	}
	return nil
}

// CheckUserData checks userData: a JSON object of at most 4 KB. It returns
// the object compacted.
func CheckUserData(pointer string, raw json.RawMessage) (json.RawMessage, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, InvalidField(pointer, "must be a JSON object")
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, InvalidField(pointer, "must be a JSON object")
	}
	if buf.Len() > MaxUserData {
		return nil, InvalidField(pointer, fmt.Sprintf("must be at most %d bytes of JSON, got %d", MaxUserData, buf.Len()))
	}
	return buf.Bytes(), nil
}

// CardFilter holds the card list's filters and order; zero values mean
// "any" and creation order, oldest first.
type CardFilter struct {
	AccountID        string
	VirtualAccountID string
	CardGroupID      string
	CardGroupName    string
	Status           string
	// Modifier is "name:true" or "name:false".
	Modifier string
	// Sort is createdAt (the default) or name.
	Sort string
	Desc bool
}

// Validate checks the filter's values.
func (f *CardFilter) Validate() error {
	d := map[string]string{}
	if f.CardGroupID != "" && f.CardGroupName != "" {
		d["filter:cardGroupName"] = "filter:cardGroupId and filter:cardGroupName are mutually exclusive"
	}
	if f.Status != "" && !slices.Contains(CardStatuses, f.Status) {
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
		return Invalid(d)
	}
	return nil
}

func (f *CardFilter) match(c *Card, groups map[string]bool) bool {
	eq := func(want, got string) bool { return want == "" || want == got }
	if !eq(f.AccountID, c.AccountID) || !eq(f.VirtualAccountID, c.VirtualAccountID) ||
		!eq(f.CardGroupID, c.CardGroupID) || !eq(f.Status, c.Status) {
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

// Cards lists the actor's cards by creation date or by name.
func (op *Op) Cards(a *Actor, f CardFilter, req PageRequest) (Page[Card], error) {
	if err := f.Validate(); err != nil {
		return Page[Card]{}, err
	}
	le := a.LegalEntityID()
	prefix := IndexPrefix(indexCardLE, le)
	if f.Sort == "name" {
		prefix = IndexPrefix(indexCardName, le)
	}
	var groups map[string]bool
	if f.CardGroupName != "" {
		gs, err := all[CardGroup](op, kindCardGroup, IndexPrefix(indexGroupLE, le))
		if err != nil {
			return Page[Card]{}, err
		}
		groups = map[string]bool{}
		for _, g := range gs {
			if g.Name == f.CardGroupName {
				groups[g.ID] = true
			}
		}
	}
	req.Desc = f.Desc
	return list(op, kindCard, prefix, req, func(c *Card) bool { return f.match(c, groups) })
}

// CardByID loads a card whatever its legal entity.
func (op *Op) CardByID(id string) (*Card, bool, error) {
	var c Card
	ok, err := op.get(kindCard, id, &c)
	return &c, ok, err
}

// CardOf loads one of the actor's cards; field names the request field the
// id came from ("" for the path).
func (op *Op) CardOf(a *Actor, id, field string) (*Card, error) {
	c, ok, err := op.CardByID(id)
	if err != nil {
		return nil, err
	}
	if !ok || c.LegalEntityID != a.LegalEntityID() {
		return nil, NotFound("card", field, id)
	}
	return c, nil
}

// storeCard saves a changed card and tells webhook receivers: card.update
// for every change, card.delete as well when it has just been closed.
func (op *Op) storeCard(c *Card, statusBefore string) error {
	if err := op.save(kindCard, c.ID, c, cardIndexes(c)...); err != nil {
		return err
	}
	if err := op.Emit(c.LegalEntityID, EventCardUpdate, c.ID); err != nil {
		return err
	}
	if c.Status == CardClosed && statusBefore != CardClosed {
		return op.Emit(c.LegalEntityID, EventCardDelete, c.ID)
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

// CreateCard issues a virtual card. A legal-entity key may omit the
// account: the entity's first open commercial account is used.
func (op *Op) CreateCard(a *Actor, n NewCard) (*Card, error) {
	if n.AccountID == "" && a.Key.Kind == KeyUser {
		return nil, InvalidField("/accountId", "required with a user-scoped API key")
	}
	acc, err := op.cardAccount(a, n.AccountID)
	if err != nil {
		return nil, err
	}
	card := &Card{AccountID: acc.ID, LegalEntityID: acc.LegalEntityID, Name: n.Name, Status: CardActive,
		IsSingleUse: n.IsSingleUse, UserData: n.UserData, SpendingConstraint: n.Constraint}
	if n.VirtualAccountID != "" {
		va, err := op.cardVirtualAccount(a, n.VirtualAccountID, "virtualAccountId")
		if err != nil {
			return nil, err
		}
		if va.AccountID != acc.ID {
			return nil, InvalidField("/virtualAccountId", fmt.Sprintf("belongs to account %s, not %s", va.AccountID, acc.ID))
		}
		card.VirtualAccountID = va.ID
	}
	if n.CardGroupID != "" {
		g, err := op.CardGroupOf(a, n.CardGroupID, "cardGroupId")
		if err != nil {
			return nil, err
		}
		card.CardGroupID = g.ID
	}
	if n.CardProductID != "" {
		p, ok := op.W.Catalog.CardProduct(n.CardProductID)
		if !ok {
			return nil, NotFound("card product", "cardProductId", n.CardProductID)
		}
		if p.Status != "active" {
			return nil, InvalidField("/cardProductId", "card product "+p.ID+" is inactive")
		}
		card.CardProductID = p.ID
	}
	if err := op.IssueCard(card, ""); err != nil {
		return nil, err
	}
	return card, op.Emit(card.LegalEntityID, EventCardCreation, card.ID)
}

// cardAccount is the account a new card draws on: the named one, else the
// first open commercial account of the legal entity.
func (op *Op) cardAccount(a *Actor, id string) (*Account, error) {
	if id != "" {
		acc, err := op.Account(a, id, "accountId")
		if err == nil && acc.Status != "open" {
			err = InvalidField("/accountId", "account "+id+" is "+acc.Status)
		}
		return acc, err
	}
	accs, err := op.Accounts(a)
	if err != nil {
		return nil, err
	}
	for i := range accs {
		if accs[i].Commercial && accs[i].Status == "open" {
			return &accs[i], nil
		}
	}
	return nil, InvalidField("/accountId", "the legal entity has no open commercial account; name one")
}

// cardVirtualAccount loads one of the actor's open virtual accounts named
// by a request field.
func (op *Op) cardVirtualAccount(a *Actor, id, field string) (*VirtualAccount, error) {
	var va VirtualAccount
	ok, err := op.get(kindVirtualAccount, id, &va)
	if err != nil {
		return nil, err
	}
	if !ok || va.LegalEntityID != a.LegalEntityID() {
		return nil, NotFound("virtual account", field, id)
	}
	if va.ClosedAt != nil {
		return nil, InvalidField("/"+field, "virtual account "+id+" is closed")
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

// UpdateCard changes what the update names; null removes the card from its
// group, its userData or its whole spending constraint.
func (op *Op) UpdateCard(a *Actor, id string, u CardUpdate) (*Card, error) {
	card, err := op.CardOf(a, id, "")
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
			g, err := op.CardGroupOf(a, u.CardGroupID.Value, "cardGroupId")
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
	return card, op.storeCard(card, before)
}

// ReplaceCardConstraint replaces a card's whole spending constraint.
func (op *Op) ReplaceCardConstraint(a *Actor, id string, c *SpendingConstraint) (*SpendingConstraint, error) {
	card, err := op.CardOf(a, id, "")
	if err != nil {
		return nil, err
	}
	card.SpendingConstraint = c
	return c, op.storeCard(card, card.Status)
}

// PatchCardConstraint merges a partial constraint into a card's.
func (op *Op) PatchCardConstraint(a *Actor, id string, patch []byte) (*SpendingConstraint, error) {
	card, err := op.CardOf(a, id, "")
	if err != nil {
		return nil, err
	}
	c, err := MergeConstraint(card.SpendingConstraint, patch, "", op.Now, op.W.Catalog)
	if err != nil {
		return nil, err
	}
	card.SpendingConstraint = c
	return c, op.storeCard(card, card.Status)
}

// RequireEnterprise refuses an enterprise feature to other legal entities.
func RequireEnterprise(a *Actor, feature string) error {
	if a.LegalEntity.Enterprise {
		return nil
	}
	return Errorf(CodeForbidden, "%s are an enterprise feature; legal entity %s is not on an enterprise plan",
		feature, a.LegalEntityID())
}

// CardModifiers returns a card's modifiers (enterprise only).
func (op *Op) CardModifiers(a *Actor, id string) ([]CardModifier, error) {
	if err := RequireEnterprise(a, "card modifiers"); err != nil {
		return nil, err
	}
	card, err := op.CardOf(a, id, "")
	if err != nil {
		return nil, err
	}
	return card.Modifiers, nil
}

// SetCardModifier sets one modifier of a card by name (enterprise only).
func (op *Op) SetCardModifier(a *Actor, id string, m CardModifier) error {
	if err := RequireEnterprise(a, "card modifiers"); err != nil {
		return err
	}
	card, err := op.CardOf(a, id, "")
	if err != nil {
		return err
	}
	i := slices.IndexFunc(card.Modifiers, func(x CardModifier) bool { return x.Name == m.Name })
	if i < 0 {
		card.Modifiers = append(card.Modifiers, m)
	} else {
		card.Modifiers[i] = m
	}
	return op.storeCard(card, card.Status)
}

// CardProducts pages through the fixtures' card products.
func (op *Op) CardProducts(req PageRequest) (Page[fixtures.CardProduct], error) {
	prefix := IndexPrefix("card_product")
	if !ValidCursorKey(req.After, prefix) {
		return Page[fixtures.CardProduct]{}, InvalidField("cursor", "does not belong to this list")
	}
	size := req.Size
	if size <= 0 {
		size = PageSize
	}
	page := Page[fixtures.CardProduct]{Items: []fixtures.CardProduct{}}
	products := slices.Clone(op.W.Catalog.CardProducts)
	slices.SortFunc(products, func(x, y fixtures.CardProduct) int { return strings.Compare(x.ID, y.ID) })
	for _, p := range products {
		key := IndexKey("card_product", p.ID)
		if req.After != "" && key <= req.After {
			continue
		}
		if len(page.Items) == size {
			page.Next = IndexKey("card_product", page.Items[size-1].ID)
			break
		}
		page.Items = append(page.Items, p)
	}
	return page, nil
}
