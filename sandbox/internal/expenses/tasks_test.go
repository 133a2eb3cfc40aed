package expenses

import (
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
)

func TestIBANAndTaskAttributeFilters(t *testing.T) {
	for iban, want := range map[string]bool{"DE89370400440532013000": true, "GB82WEST12345698765432": true,
		"DE89370400440532013001": false, "de89370400440532013000": false, "DE89": false} {
		if got := parties.IBANValid(iban); got != want {
			t.Errorf("IBANValid(%s) = %v, want %v", iban, got, want)
		}
	}
	data := map[string]any{"amountCents": float64(18900), "merchantName": "Corner Deli", "currency": "USD"}
	for _, c := range []struct {
		f    TaskAttrFilter
		want bool
	}{
		{TaskAttrFilter{"amountCents", "gte", "18900"}, true},
		{TaskAttrFilter{"amountCents", "gt", "18900"}, false},
		{TaskAttrFilter{"amountCents", "lt", "100000"}, true},
		{TaskAttrFilter{"merchantName", "contains", "deli"}, true},
		{TaskAttrFilter{"currency", "in", "EUR,USD"}, true},
		{TaskAttrFilter{"currency", "eq", "EUR"}, false},
		{TaskAttrFilter{"memo", "eq", ""}, false},
	} {
		if got := c.f.match(data); got != c.want {
			t.Errorf("%+v matched %v, want %v", c.f, got, c.want)
		}
	}
}
