package sandbox

import "testing"

func TestRecurrenceRules(t *testing.T) {
	from := calDate{2026, 1, 15} // a Thursday
	cases := []struct {
		name string
		rule RecurrenceRule
		want string
	}{
		{"weekly, same day", RecurrenceRule{Type: RecurWeekly, DayOfWeek: 4}, "2026-01-15"},
		{"weekly, next Monday", RecurrenceRule{Type: RecurWeekly, DayOfWeek: 1}, "2026-01-19"},
		{"day of month ahead", RecurrenceRule{Type: RecurDayOfMonth, DayOfMonth: 20}, "2026-01-20"},
		{"day of month passed", RecurrenceRule{Type: RecurDayOfMonth, DayOfMonth: 10}, "2026-02-10"},
		{"31st clamped to January's end", RecurrenceRule{Type: RecurDayOfMonth, DayOfMonth: 31}, "2026-01-31"},
		{"second Tuesday passed", RecurrenceRule{Type: RecurNthWeekday, Nth: 2, DayOfWeek: 2}, "2026-02-10"},
		{"fourth Friday", RecurrenceRule{Type: RecurNthWeekday, Nth: 4, DayOfWeek: 5}, "2026-01-23"},
		{"last Saturday", RecurrenceRule{Type: RecurNthWeekday, Nth: nthLast, DayOfWeek: 6}, "2026-01-31"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.rule.next(from).String(); got != c.want {
				t.Fatalf("next = %s, want %s", got, c.want)
			}
		})
	}
	t.Run("clamped in February", func(t *testing.T) {
		r := RecurrenceRule{Type: RecurDayOfMonth, DayOfMonth: 31}
		if got := r.next(calDate{2026, 2, 1}).String(); got != "2026-02-28" {
			t.Fatalf("next = %s, want 2026-02-28", got)
		}
	})
	t.Run("end conditions", func(t *testing.T) {
		d := calDate{2026, 3, 1}
		if (EndCondition{Type: EndAfterCount, Count: 2}).allows(3, d) || !(EndCondition{Type: EndAfterCount, Count: 2}).allows(2, d) {
			t.Fatal("after_count 2 allows a third date or refuses the second")
		}
		if (EndCondition{Type: EndOnDate, Date: "2026-02-28"}).allows(1, d) || !(EndCondition{Type: EndOnDate, Date: "2026-03-01"}).allows(1, d) {
			t.Fatal("on_date is not inclusive of its date only")
		}
	})
}

func TestIBANAndTaskAttributeFilters(t *testing.T) {
	for iban, want := range map[string]bool{"DE89370400440532013000": true, "GB82WEST12345698765432": true,
		"DE89370400440532013001": false, "de89370400440532013000": false, "DE89": false} {
		if got := IBANValid(iban); got != want {
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
