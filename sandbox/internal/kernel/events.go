package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/clock"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Event statuses.
const (
	StatusScheduled = "scheduled"
	StatusDone      = "done"
	StatusFailed    = "failed"
	StatusCanceled  = "canceled"
)

// Event is a future effect: it runs, in time order, when the world's clock
// reaches At.
type Event struct {
	ID      string          `json:"id"`
	Kind    string          `json:"kind"`
	At      time.Time       `json:"at"`
	Status  string          `json:"status"`
	Payload json.RawMessage `json:"payload,omitempty"`
	Summary string          `json:"summary,omitempty"`
	Error   string          `json:"error,omitempty"`
	RanAt   *time.Time      `json:"ranAt,omitempty"`
	Seq     int64           `json:"seq"`
}

// EventHandler runs an event inside the operation that fires it; it returns
// a one-line summary of what happened.
type EventHandler func(op *Op, ev *Event) (string, error)

// EventKinds lists the kinds of scheduled event the world runs, sorted.
func (op *Op) EventKinds() []string {
	kinds := make([]string, 0, len(op.W.wiring.Events))
	for k := range op.W.wiring.Events {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return kinds
}

// HandlesEvent reports whether the world runs scheduled events of kind.
func (op *Op) HandlesEvent(kind string) bool { return op.W.HandlesEvent(kind) }

// IndexEventDue holds the scheduled events by due time; IndexEventDone
// holds the ones that ran or were canceled, in the order they were made.
const (
	IndexEventDue  = "event.due"
	IndexEventDone = "event.done"
)

// eventIndexes are the index keys of a scheduled event.
func eventIndexes(ev *Event) []string { return []string{eventIndex(ev)} }

func eventIndex(ev *Event) string {
	if ev.Status == StatusScheduled {
		return IndexKey(IndexEventDue, store.Millis(ev.At), store.Seq(ev.Seq), ev.ID)
	}
	return IndexKey(IndexEventDone, store.Seq(ev.Seq), ev.ID)
}

// Schedule adds an event of kind at the given time with a JSON payload.
func (op *Op) Schedule(kind string, at time.Time, payload any) (*Event, error) {
	if !op.HandlesEvent(kind) {
		return nil, fmt.Errorf("unknown event kind %q", kind)
	}
	raw, err := json.Marshal(payload)
	if err != nil {
		return nil, err
	}
	id, err := op.NewID(Events.Prefix)
	if err != nil {
		return nil, err
	}
	return op.ScheduleAs(id, kind, at, raw)
}

// ScheduleAs adds an event as a world it was exported from scheduled it:
// with its id, kind, instant and JSON payload. Its sequence number is a
// new one.
func (op *Op) ScheduleAs(id, kind string, at time.Time, payload json.RawMessage) (*Event, error) {
	if !op.HandlesEvent(kind) {
		return nil, fmt.Errorf("unknown event kind %q", kind)
	}
	seq, err := op.NextSeq()
	if err != nil {
		return nil, err
	}
	if at.Before(op.Now) {
		at = op.Now
	}
	ev := &Event{ID: id, Kind: kind, At: at.UTC(), Status: StatusScheduled, Payload: payload, Seq: seq}
	return ev, op.Save(Events.Name, id, ev, eventIndex(ev))
}

// CancelEvent marks a scheduled event canceled so it never runs.
func (op *Op) CancelEvent(id string) error {
	var ev Event
	ok, err := op.Get(Events.Name, id, &ev)
	if err != nil || !ok || ev.Status != StatusScheduled {
		return err
	}
	ev.Status = StatusCanceled
	now := op.Now
	ev.RanAt = &now
	return op.Save(Events.Name, id, &ev, eventIndex(&ev))
}

// nextDue returns the earliest scheduled event at or before limit.
func (op *Op) nextDue(limit time.Time) (*Event, error) {
	p, err := List[Event](op, Events.Name, IndexPrefix(IndexEventDue), PageRequest{Size: 1}, nil)
	if err != nil || len(p.Items) == 0 {
		return nil, err
	}
	ev := p.Items[0]
	if ev.At.After(limit) {
		return nil, nil
	}
	return &ev, nil
}

// Events lists scheduled events (in due order) or finished ones (most recent
// first).
func (w *World) Events(status string, req PageRequest) (Page[Event], error) {
	var page Page[Event]
	err := w.View(func(op *Op) error {
		var err error
		if status == StatusScheduled {
			page, err = List[Event](op, Events.Name, IndexPrefix(IndexEventDue), req, nil)
		} else {
			req.Desc = true
			page, err = List[Event](op, Events.Name, IndexPrefix(IndexEventDone), req, nil)
		}
		return err
	})
	return page, err
}

// NextEventAt returns when the next scheduled event is due.
func (w *World) NextEventAt() (time.Time, bool, error) {
	var at time.Time
	var found bool
	err := w.View(func(op *Op) error {
		ev, err := op.nextDue(time.Unix(1<<40, 0))
		if ev != nil {
			at, found = ev.At, true
		}
		return err
	})
	return at, found, err
}

// NextEventAtExcept returns when the next scheduled event whose kind is not
// among skip is due: the next token price tick does not count as news.
func (w *World) NextEventAtExcept(skip []string) (time.Time, bool, error) {
	var at time.Time
	var found bool
	err := w.View(func(op *Op) error {
		p, err := List[Event](op, Events.Name, IndexPrefix(IndexEventDue), PageRequest{Size: 1}, func(e *Event) bool {
			return !slices.Contains(skip, e.Kind)
		})
		if err == nil && len(p.Items) > 0 {
			at, found = p.Items[0].At, true
		}
		return err
	})
	return at, found, err
}

// HandlesEvent reports whether the world runs scheduled events of a kind.
func (w *World) HandlesEvent(kind string) bool { return w.wiring.Events[kind] != nil }

// MaxAdvanceEvents is the most events one advance runs: a year of the
// demo's hourly price ticks with its business besides.
const MaxAdvanceEvents = 20_000

// Advance moves the clock to target, running every event due on the way in
// time order, each at its own virtual instant, at most MaxAdvanceEvents of
// them. It returns the events that ran.
func (w *World) Advance(target time.Time) ([]Event, error) {
	return w.AdvanceContext(context.Background(), target, MaxAdvanceEvents)
}

// AdvanceContext is Advance that runs at most max events and stops between
// two events when ctx ends. Either way the world stays whole: every event
// that ran is committed, the clock stands at the last one's instant, and
// the error says so.
func (w *World) AdvanceContext(ctx context.Context, target time.Time, max int) ([]Event, error) {
	return w.AdvanceEach(ctx, target, max, nil)
}

// AdvanceEach is AdvanceContext that calls each (when not nil) with every
// event as soon as it has run, so long advances can report progress.
func (w *World) AdvanceEach(ctx context.Context, target time.Time, max int, each func(Event)) ([]Event, error) {
	return w.AdvanceFrom(ctx, func(time.Time) (time.Time, error) { return target, nil }, max, each)
}

// AdvanceFrom is AdvanceEach to the instant target works out from the
// clock as the advance finds it, once no other advance runs: a relative
// advance ("by 36h") measured from a clock read earlier would find the
// clock already past its target when a snapshot restored meanwhile moved
// it on. An error of target ends the advance before anything ran.
func (w *World) AdvanceFrom(ctx context.Context, target func(now time.Time) (time.Time, error), max int,
	each func(Event)) ([]Event, error) {
	w.advancing.Lock()
	defer w.advancing.Unlock()
	now := w.Now()
	to, err := target(now)
	if err != nil {
		return nil, err
	}
	return w.advance(ctx, now, to, max, each)
}

// advance runs the events due by target from the clock now; the caller
// holds w.advancing.
func (w *World) advance(ctx context.Context, now, target time.Time, max int, each func(Event)) ([]Event, error) {
	if err := clock.InRange(target); err != nil {
		return nil, InvalidField("/to", err.Error())
	}
	if target.Before(now) {
		return nil, Errorf(CodeInvalidRequest, "the clock never moves backwards: %s is before %s",
			target.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339)).With("to", target.UTC().Format(time.RFC3339))
	}
	var ran []Event
	for {
		if ctx.Err() != nil {
			return ran, w.stopped(CodeUnavailable,
				"the advance was interrupted (the client went away or the server is stopping)", len(ran))
		}
		if len(ran) >= max {
			next, ok, err := w.NextEventAt()
			if err != nil {
				return ran, err
			}
			if ok && !next.After(target) {
				return ran, w.stopped(CodeInvalidRequest, fmt.Sprintf("advancing to %s runs more than %d events: advance by less",
					target.UTC().Format(time.RFC3339), max), len(ran))
			}
		}
		ev, err := w.runNext(target)
		if err != nil {
			return ran, err
		}
		if ev == nil {
			break
		}
		ran = append(ran, *ev)
		if each != nil {
			each(*ev)
		}
	}
	return ran, w.Update(func(op *Op) error {
		if target.After(op.Now) {
			return op.setClock(target)
		}
		return nil
	})
}

// stopped is the error of an advance that ended early: what stopped it,
// how many events ran and where the clock stands.
func (w *World) stopped(code Code, why string, ran int) *Error {
	now := w.Now().UTC().Format(time.RFC3339Nano)
	return Errorf(code, "%s; %d events ran and the clock stands at %s", why, ran, now).
		With("eventsRun", fmt.Sprint(ran)).With("clock", now)
}

// runNext runs the earliest event due by target, at its own instant. A
// handler that fails rolls back everything it wrote; the event is then
// recorded as failed in a transaction of its own.
func (w *World) runNext(target time.Time) (*Event, error) {
	var ev *Event
	var handlerErr error
	err := w.Update(func(op *Op) error {
		var err error
		if ev, err = op.nextDue(target); err != nil || ev == nil {
			return err
		}
		if err := op.catchUp(ev.At); err != nil {
			return err
		}
		h := op.W.wiring.Events[ev.Kind]
		summary, err := op.runHandler(h, ev)
		if err != nil {
			handlerErr = err
			return err
		}
		return op.finishEvent(ev, StatusDone, summary, "")
	})
	if handlerErr != nil {
		err = w.Update(func(op *Op) error {
			if err := op.catchUp(ev.At); err != nil {
				return err
			}
			return op.finishEvent(ev, StatusFailed, "", handlerErr.Error())
		})
	}
	return ev, err
}

// catchUp moves the clock to an event's instant. An event scheduled by a
// request that raced with an advance can be due before the clock; it then
// runs now instead of moving the clock backwards.
func (op *Op) catchUp(at time.Time) error {
	if at.After(op.Now) {
		return op.setClock(at)
	}
	return nil
}

func (op *Op) finishEvent(ev *Event, status, summary, errText string) error {
	at := op.Now
	ev.RanAt, ev.Status, ev.Summary, ev.Error = &at, status, summary, errText
	return op.Save(Events.Name, ev.ID, ev, eventIndex(ev))
}

func (op *Op) runHandler(h EventHandler, ev *Event) (summary string, err error) {
	if h == nil {
		return "", fmt.Errorf("no handler for event kind %q", ev.Kind)
	}
	return h(op, ev)
}
