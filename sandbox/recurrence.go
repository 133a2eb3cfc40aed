package sandbox

import (
	"fmt"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
)

// calDate is a calendar date with no time zone: invoice issue and due
// dates, and recurrence dates, are days in the invoice's time zone.
type calDate struct {
	Y int
	M time.Month
	D int
}

// calDateOf is the date t falls on in loc.
func calDateOf(t time.Time, loc *time.Location) calDate {
	y, m, d := t.In(loc).Date()
	return calDate{y, m, d}
}

// parseCalDate reads YYYY-MM-DD.
func parseCalDate(s string) (calDate, bool) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return calDate{}, false
	}
	return calDate{t.Year(), t.Month(), t.Day()}, true
}

// start is the instant the date begins in loc.
func (c calDate) start(loc *time.Location) time.Time {
	return time.Date(c.Y, c.M, c.D, 0, 0, 0, 0, loc).UTC()
}

// addDays is the date n days later.
func (c calDate) addDays(n int) calDate {
	t := time.Date(c.Y, c.M, c.D+n, 0, 0, 0, 0, time.UTC)
	return calDate{t.Year(), t.Month(), t.Day()}
}

// before reports whether c is earlier than o.
func (c calDate) before(o calDate) bool {
	return c.start(time.UTC).Before(o.start(time.UTC))
}

func (c calDate) weekday() time.Weekday { return c.start(time.UTC).Weekday() }

// String formats the date as YYYY-MM-DD.
func (c calDate) String() string { return fmt.Sprintf("%04d-%02d-%02d", c.Y, c.M, c.D) }

// monthDay is the given day of c's month, clamped to the month's last day.
func (c calDate) monthDay(d int) calDate {
	last := time.Date(c.Y, c.M+1, 0, 0, 0, 0, 0, time.UTC).Day()
	return calDate{c.Y, c.M, min(d, last)}
}

// nextMonth is the first day of the following month.
func (c calDate) nextMonth() calDate {
	t := time.Date(c.Y, c.M+1, 1, 0, 0, 0, 0, time.UTC)
	return calDate{t.Year(), t.Month(), 1}
}

// invoiceZone loads an invoice time zone, which must be canonical.
func invoiceZone(name string) (*time.Location, error) {
	if !fixtures.CanonicalZone(name) {
		return nil, fmt.Errorf("must be a canonical IANA time zone in Area/Location form, e.g. America/New_York")
	}
	return time.LoadLocation(name)
}

// Recurrence rule types of an invoice series.
const (
	RecurWeekly        = "weekly"
	RecurDayOfMonth    = "monthly_day_of_month"
	RecurNthWeekday    = "monthly_nth_weekday"
	nthLast            = -1
	maxRecurrenceSteps = 500
)

// RecurrenceRule says on which dates a series issues an invoice.
// DayOfWeek is 0 (Sunday) to 6; Nth is 1 to 4, or -1 for the last.
type RecurrenceRule struct {
	Type       string `json:"type"`
	DayOfWeek  int    `json:"dayOfWeek,omitempty"`
	DayOfMonth int    `json:"dayOfMonth,omitempty"`
	Nth        int    `json:"nth,omitempty"`
}

// next is the first date on or after from that the rule selects.
func (r RecurrenceRule) next(from calDate) calDate {
	switch r.Type {
	case RecurWeekly:
		return from.addDays((r.DayOfWeek - int(from.weekday()) + 7) % 7)
	case RecurDayOfMonth:
		c := from.monthDay(r.DayOfMonth)
		if c.before(from) {
			c = from.nextMonth().monthDay(r.DayOfMonth)
		}
		return c
	}
	c := r.nthWeekday(from)
	if c.before(from) {
		c = r.nthWeekday(from.nextMonth())
	}
	return c
}

// nthWeekday is the rule's weekday of the month of c.
func (r RecurrenceRule) nthWeekday(c calDate) calDate {
	want := time.Weekday(r.DayOfWeek)
	if r.Nth == nthLast {
		last := c.monthDay(31)
		return last.addDays(-((int(last.weekday()) - int(want) + 7) % 7))
	}
	first := calDate{c.Y, c.M, 1}
	return first.addDays((int(want)-int(first.weekday())+7)%7 + 7*(r.Nth-1))
}

// End conditions of an invoice series.
const (
	EndNever      = "never"
	EndAfterCount = "after_count"
	EndOnDate     = "on_date"
)

// EndCondition says when a series stops: never, after Count occurrences,
// or after the last occurrence on or before Date (in the series' zone).
type EndCondition struct {
	Type  string `json:"type"`
	Count int    `json:"count,omitempty"`
	Date  string `json:"date,omitempty"`
}

// allows reports whether the occurrence numbered n (from 1) on date c is
// within the end condition.
func (e EndCondition) allows(n int, c calDate) bool {
	switch e.Type {
	case EndAfterCount:
		return n <= e.Count
	case EndOnDate:
		end, _ := parseCalDate(e.Date)
		return !end.before(c)
	}
	return true
}
