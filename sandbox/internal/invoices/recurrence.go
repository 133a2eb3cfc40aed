package invoices

import (
	"fmt"
	"time"

	"github.com/slash-sandbox/slash-sandbox/fixtures"
)

// CalDate is a calendar date with no time zone: invoice issue and due
// dates, and recurrence dates, are days in the invoice's time zone.
type CalDate struct {
	Y int
	M time.Month
	D int
}

// CalDateOf is the date t falls on in loc.
func CalDateOf(t time.Time, loc *time.Location) CalDate {
	y, m, d := t.In(loc).Date()
	return CalDate{y, m, d}
}

// ParseCalDate reads YYYY-MM-DD.
func ParseCalDate(s string) (CalDate, bool) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return CalDate{}, false
	}
	return CalDate{t.Year(), t.Month(), t.Day()}, true
}

// Start is the instant the date begins in loc.
func (c CalDate) Start(loc *time.Location) time.Time {
	return time.Date(c.Y, c.M, c.D, 0, 0, 0, 0, loc).UTC()
}

// AddDays is the date n days later.
func (c CalDate) AddDays(n int) CalDate {
	t := time.Date(c.Y, c.M, c.D+n, 0, 0, 0, 0, time.UTC)
	return CalDate{t.Year(), t.Month(), t.Day()}
}

// Before reports whether c is earlier than o.
func (c CalDate) Before(o CalDate) bool {
	return c.Start(time.UTC).Before(o.Start(time.UTC))
}

func (c CalDate) weekday() time.Weekday { return c.Start(time.UTC).Weekday() }

// String formats the date as YYYY-MM-DD.
func (c CalDate) String() string { return fmt.Sprintf("%04d-%02d-%02d", c.Y, c.M, c.D) }

// monthDay is the given day of c's month, clamped to the month's last day.
func (c CalDate) monthDay(d int) CalDate {
	last := time.Date(c.Y, c.M+1, 0, 0, 0, 0, 0, time.UTC).Day()
	return CalDate{c.Y, c.M, min(d, last)}
}

// nextMonth is the first day of the following month.
func (c CalDate) nextMonth() CalDate {
	t := time.Date(c.Y, c.M+1, 1, 0, 0, 0, 0, time.UTC)
	return CalDate{t.Year(), t.Month(), 1}
}

// Zone loads an invoice time zone, which must be canonical.
func Zone(name string) (*time.Location, error) {
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
	NthLast            = -1
	MaxRecurrenceSteps = 500
)

// RecurrenceRule says on which dates a series issues an invoice.
// DayOfWeek is 0 (Sunday) to 6; Nth is 1 to 4, or -1 for the last.
type RecurrenceRule struct {
	Type       string `json:"type"`
	DayOfWeek  int    `json:"dayOfWeek,omitempty"`
	DayOfMonth int    `json:"dayOfMonth,omitempty"`
	Nth        int    `json:"nth,omitempty"`
}

// Next is the first date on or after from that the rule selects.
func (r RecurrenceRule) Next(from CalDate) CalDate {
	switch r.Type {
	case RecurWeekly:
		return from.AddDays((r.DayOfWeek - int(from.weekday()) + 7) % 7)
	case RecurDayOfMonth:
		c := from.monthDay(r.DayOfMonth)
		if c.Before(from) {
			c = from.nextMonth().monthDay(r.DayOfMonth)
		}
		return c
	}
	c := r.nthWeekday(from)
	if c.Before(from) {
		c = r.nthWeekday(from.nextMonth())
	}
	return c
}

// nthWeekday is the rule's weekday of the month of c.
func (r RecurrenceRule) nthWeekday(c CalDate) CalDate {
	want := time.Weekday(r.DayOfWeek)
	if r.Nth == NthLast {
		last := c.monthDay(31)
		return last.AddDays(-((int(last.weekday()) - int(want) + 7) % 7))
	}
	first := CalDate{c.Y, c.M, 1}
	return first.AddDays((int(want)-int(first.weekday())+7)%7 + 7*(r.Nth-1))
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

// Allows reports whether the occurrence numbered n (from 1) on date c is
// within the end condition.
func (e EndCondition) Allows(n int, c CalDate) bool {
	switch e.Type {
	case EndAfterCount:
		return n <= e.Count
	case EndOnDate:
		end, _ := ParseCalDate(e.Date)
		return !end.Before(c)
	}
	return true
}
