package cards

import (
	"fmt"
	"sync"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Window is the current period of a utilization limit: spend made at or
// after Start counts. A collective limit never resets: its Start is zero
// and it has no Next.
type Window struct {
	Start time.Time
	Next  *time.Time
}

// calDay is a calendar day, free of any zone.
type calDay struct {
	y int
	m time.Month
	d int
}

func dayOf(t time.Time) calDay {
	y, m, d := t.Date()
	return calDay{y, m, d}
}

// at is the midnight that starts the day in loc.
func (d calDay) at(loc *time.Location) time.Time { return time.Date(d.y, d.m, d.d, 0, 0, 0, 0, loc) }

func (d calDay) add(n int) calDay { return dayOf(time.Date(d.y, d.m, d.d+n, 0, 0, 0, 0, time.UTC)) }

// num counts days since 1970-01-01.
func (d calDay) num() int64 { return d.at(time.UTC).Unix() / 86400 }

func (d calDay) before(o calDay) bool { return d.num() < o.num() }

// clamped is day d of a month, or the month's last day when it is shorter.
func clamped(y int, m time.Month, d int) calDay {
	first := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return calDay{first.Year(), first.Month(), min(d, last)}
}

// midnightOf is the start of t's day in t's location.
func midnightOf(t time.Time) time.Time { return dayOf(t).at(t.Location()) }

// zones keeps the zones limits have named, loaded once each.
var zones sync.Map

// zoneOf loads a limit's zone; UTC when it names none.
func zoneOf(name string) *time.Location {
	if name == "" {
		return time.UTC
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC
	}
	zones.Store(name, loc)
	return loc
}

// weekAnchor is the Monday weekly limits without a startDate count from.
var weekAnchor = calDay{2024, time.January, 1}

// LimitWindow is the window of a limit that holds now. Windows start at
// midnight in the limit's zone: daily every day; weekly every seven days
// from startDate, else every Monday; monthly on startDate's day of the
// month (clamped to short months), else on the 1st; yearly on startDate's
// anniversary, else on January 1st. Collective never resets.
func LimitWindow(l *UtilizationLimit, now time.Time) Window {
	loc := zoneOf(l.Timezone)
	today := dayOf(now.In(loc))
	var start *calDay
	if s, err := time.Parse(time.DateOnly, l.StartDate); err == nil && l.StartDate != "" {
		d := dayOf(s)
		start = &d
	}
	var cur, next calDay
	switch l.Preset {
	case "daily":
		cur, next = today, today.add(1)
	case "weekly":
		anchor := weekAnchor
		if start != nil {
			anchor = *start
		}
		diff := today.num() - anchor.num()
		weeks := diff / 7
		if diff%7 < 0 {
			weeks--
		}
		cur = anchor.add(int(weeks * 7))
		next = cur.add(7)
	case "monthly":
		dom := 1
		if start != nil {
			dom = start.d
		}
		cur = clamped(today.y, today.m, dom)
		if today.before(cur) {
			cur = clamped(today.y, today.m-1, dom)
		}
		next = clamped(cur.y, cur.m+1, dom)
	case "yearly":
		month, dom := time.January, 1
		if start != nil {
			month, dom = start.m, start.d
		}
		cur = clamped(today.y, month, dom)
		if today.before(cur) {
			cur = clamped(today.y-1, month, dom)
		}
		next = clamped(cur.y+1, month, dom)
	default:
		return Window{}
	}
	n := next.at(loc)
	return Window{Start: cur.at(loc), Next: &n}
}

// spendSince sums the spend of the transactions under an index prefix
// (txn.card or txn.group) created at or after from and before cut. It
// walks the index newest first and stops at the first entry before from,
// reading each transaction's spend from its entry (loading the record only
// for an entry that keeps none).
func spendSince(op *kernel.Op, prefix string, from time.Time, cut cutoff) (int64, error) {
	floor, ceiling := prefix+store.Millis(from), cut.key(prefix)
	var total int64
	var loadErr error
	err := op.Tx.Scan(prefix, "", true, func(key, val string) bool {
		if key < floor {
			return false
		}
		if key >= ceiling {
			return true
		}
		if n, ok := ledger.CardSpendOf(val); ok {
			total += n
			return true
		}
		id, _ := kernel.SplitIndexValue(val)
		t, ok, err := ledger.FindTransaction(op, id)
		if err != nil {
			loadErr = fmt.Errorf("index %q names missing transaction %q: %w", key, id, err)
			return false
		}
		if !ok {
			loadErr = fmt.Errorf("index %q names missing transaction %q", key, id)
			return false
		}
		total += t.CardSpend()
		return true
	})
	if err == nil {
		err = loadErr
	}
	return total, err
}

// LimitUse is one utilization limit with the spend inside its window.
type LimitUse struct {
	// Rule names the limit, e.g. spendingRule.utilizationLimitV2[1].
	Rule   string
	Limit  UtilizationLimit
	Window Window
	Spend  int64
}

// Remaining is what may still be spent in the window (negative when the
// window is already over its limit).
func (u LimitUse) Remaining() int64 { return u.Limit.LimitAmount.AmountCents - u.Spend }

// limitUses computes every utilization limit of a constraint, in the
// windows that hold at cut, against the transactions under an index prefix
// made before cut.
func limitUses(op *kernel.Op, c *SpendingConstraint, prefix string, cut cutoff) ([]LimitUse, error) {
	if c == nil || c.SpendingRule == nil {
		return nil, nil
	}
	var uses []LimitUse
	add := func(rule string, l UtilizationLimit) error {
		w := LimitWindow(&l, cut.at)
		spend, err := spendSince(op, prefix, w.Start, cut)
		uses = append(uses, LimitUse{Rule: rule, Limit: l, Window: w, Spend: spend})
		return err
	}
	if l := c.SpendingRule.UtilizationLimit; l != nil {
		if err := add("spendingRule.utilizationLimit", *l); err != nil {
			return nil, err
		}
	}
	for i, l := range c.SpendingRule.UtilizationLimitV2 {
		if err := add(fmt.Sprintf("spendingRule.utilizationLimitV2[%d]", i), l); err != nil {
			return nil, err
		}
	}
	return uses, nil
}

// Utilization is what a card or card group has spent against its limits.
type Utilization struct {
	Spend int64
	// Available is what is left under the limit (nil without a limit).
	Available *int64
	// NextReset is when the window resets (nil without a limit and for a
	// collective one).
	NextReset *time.Time
	// Limits is every limit with its own window and spend.
	Limits []LimitUse
}

// utilizationOf reports the binding limit: the one with the least left.
// Without any limit the spend is lifetime spend.
func utilizationOf(op *kernel.Op, c *SpendingConstraint, prefix string) (Utilization, error) {
	uses, err := limitUses(op, c, prefix, liveCutoff(op))
	if err != nil {
		return Utilization{}, err
	}
	if len(uses) == 0 {
		spend, err := spendSince(op, prefix, time.Time{}, liveCutoff(op))
		return Utilization{Spend: spend}, err
	}
	binding := uses[0]
	for _, u := range uses[1:] {
		if u.Remaining() < binding.Remaining() {
			binding = u
		}
	}
	left := max(0, binding.Remaining())
	return Utilization{Spend: binding.Spend, Available: &left, NextReset: binding.Window.Next, Limits: uses}, nil
}

// CardUtilization is the utilization of a card that is in no card group;
// a grouped card's spend counts toward its group.
func CardUtilization(op *kernel.Op, a *kernel.Actor, id string) (Utilization, error) {
	card, err := CardOf(op, a, id, "")
	if err != nil {
		return Utilization{}, err
	}
	if card.CardGroupID != "" {
		return Utilization{}, kernel.Errorf(kernel.CodeInvalidRequest,
			"card %s belongs to card group %s: its spend counts toward the group; read GET /card-group/%s/utilization",
			card.ID, card.CardGroupID, card.CardGroupID).With("cardGroupId", card.CardGroupID)
	}
	return utilizationOf(op, card.SpendingConstraint, kernel.IndexPrefix(ledger.IndexTxnCard, card.ID))
}

// GroupUtilization is the utilization of a card group: the spend of the
// purchases its cards made while in the group.
func GroupUtilization(op *kernel.Op, a *kernel.Actor, id string) (Utilization, error) {
	g, err := GroupOf(op, a, id, "")
	if err != nil {
		return Utilization{}, err
	}
	return utilizationOf(op, g.SpendingConstraint, kernel.IndexPrefix(ledger.IndexTxnGroup, g.ID))
}
