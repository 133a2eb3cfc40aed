package invoices

import "testing"

func TestRecurrenceRules(t *testing.T) {
	from := CalDate{2026, 1, 15} // a Thursday
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
		{"last Saturday", RecurrenceRule{Type: RecurNthWeekday, Nth: NthLast, DayOfWeek: 6}, "2026-01-31"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := c.rule.Next(from).String(); got != c.want {
				t.Fatalf("next = %s, want %s", got, c.want)
			}
		})
	}
	t.Run("clamped in February", func(t *testing.T) {
		r := RecurrenceRule{Type: RecurDayOfMonth, DayOfMonth: 31}
		if got := r.Next(CalDate{2026, 2, 1}).String(); got != "2026-02-28" {
			t.Fatalf("next = %s, want 2026-02-28", got)
		}
	})
	t.Run("end conditions", func(t *testing.T) {
		d := CalDate{2026, 3, 1}
		if (EndCondition{Type: EndAfterCount, Count: 2}).Allows(3, d) ||
			!(EndCondition{Type: EndAfterCount, Count: 2}).Allows(2, d) {
			t.Fatal("after_count 2 allows a third date or refuses the second")
		}
		if (EndCondition{Type: EndOnDate, Date: "2026-02-28"}).Allows(1, d) ||
			!(EndCondition{Type: EndOnDate, Date: "2026-03-01"}).Allows(1, d) {
			t.Fatal("on_date is not inclusive of its date only")
		}
	})
}
