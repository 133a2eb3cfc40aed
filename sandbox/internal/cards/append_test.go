package cards

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// A card writes its own stored form, exactly the compaction of what
// json.Marshal gives, whichever optional fields it has; with a spending
// constraint, user data, modifiers, a status history or strings that need
// escaping it leaves the work to json.Marshal.
func TestCardAppendsItsStoredForm(t *testing.T) {
	plain := []string{"", "card_group_acmetravel", "subaccount_acmeengineering", "card_product_visa_commercial"}
	names := []string{"Bench card", "Team lunch", "Ops <ads> & more", "Café", `say "hi"`}
	appended, left := 0, 0
	for i := range 600 {
		pick := func(k int) string { return plain[(i>>(2*k))%len(plain)] }
		c := Card{ID: "card_3y6yczyy4rqsj28", LegalEntityID: "le_acme", AccountID: "sa_group_acmeoperating",
			VirtualAccountID: pick(0), CardGroupID: pick(1), CardProductID: pick(2), Name: names[i%len(names)],
			Status: []string{"active", "paused", "closed"}[i%3], PAN: "4111115997888635", CVV: "728", ExpiryMonth: "06",
			ExpiryYear: "2029", IsPhysical: i&64 != 0, IsSingleUse: i&128 != 0,
			CreatedAt: time.Date(2026, 6, 15, 14, 0, 0, i*1000, time.UTC), Seq: int64(i)}
		switch i % 13 {
		case 1:
			c.SpendingConstraint = &SpendingConstraint{
				CountryRule: &CountryRule{Countries: []string{"US"}, Restriction: "allowlist"},
			}
		case 2:
			c.UserData = json.RawMessage(`{"costCenter":"OPS-7"}`)
		case 3:
			c.Modifiers = []Modifier{{Name: "only_allow_recurring_payments", Value: true}}
		case 4:
			c.StatusHistory = []StatusChange{{At: c.CreatedAt.Add(time.Hour), Seq: 7, From: "active", To: "paused"}}
		}
		wrote, err := store.CheckStoredForm(&c)
		if err != nil {
			t.Fatalf("card %d: %v", i, err)
		}
		if wrote {
			appended++
		} else {
			left++
		}
	}
	if appended < 150 || left < 150 {
		t.Fatalf("%d cards appended their stored form and %d left it to json.Marshal; the test should see many of both",
			appended, left)
	}
}

// AppendStored knows every field of Card: a field added to it must be
// added there too, and here.
func TestCardAppendKnowsEveryField(t *testing.T) {
	var tags []string
	for f := range reflect.TypeFor[Card]().Fields() {
		tags = append(tags, f.Tag.Get("json"))
	}
	want := []string{"id", "legalEntityId", "accountId", "virtualAccountId,omitempty", "cardGroupId,omitempty",
		"cardProductId,omitempty", "name", "status", "pan", "cvv", "expiryMonth", "expiryYear", "isPhysical",
		"isSingleUse", "spendingConstraint,omitempty", "userData,omitempty", "modifiers,omitempty", "createdAt", "seq",
		"statusHistory,omitempty"}
	if !slices.Equal(tags, want) {
		t.Fatalf("Card's fields are\n%v\nAppendStored knows\n%v", tags, want)
	}
}
