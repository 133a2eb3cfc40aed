package clock

import (
	"fmt"
	"sync"
	"time"
)

// Mode says how virtual time moves between explicit advances.
type Mode string

const (
	// Frozen time moves only when advanced.
	Frozen Mode = "frozen"
	// Real time follows the wall clock from the moment the mode was set.
	Real Mode = "real"
	// Scaled time follows the wall clock multiplied by a factor.
	Scaled Mode = "scaled"
)

// The range of virtual time: a clock starts and is advanced only within it,
// so every instant a world stores, with the years scheduled work may reach
// beyond it, stays one that dates encode (years 0 to 9999).
var (
	Earliest = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)
	Latest   = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
)

// MaxScale is the fastest a scaled clock runs: a virtual day in under a
// wall second, and centuries of running before it nears the end of the
// range.
const MaxScale = 100_000

// InRange checks that t lies in [Earliest, Latest).
func InRange(t time.Time) error {
	if t.Before(Earliest) || !t.Before(Latest) {
		return fmt.Errorf("must be from %s up to (not including) %s", Earliest.Format(time.RFC3339),
			Latest.Format(time.RFC3339))
	}
	return nil
}

// Wall is the source of wall time used by the real and scaled modes.
type Wall func() time.Time

// State is the serialisable part of a clock: what a snapshot keeps.
type State struct {
	Mode  Mode      `json:"mode"`
	Now   time.Time `json:"now"`
	Scale float64   `json:"scale,omitempty"`
}

// Clock is a world's virtual clock. It is safe for concurrent use.
type Clock struct {
	mu     sync.Mutex
	wall   Wall
	mode   Mode
	base   time.Time // virtual time at anchor
	anchor time.Time // wall time when base was taken
	scale  float64
}

// New returns a frozen clock at start. wall may be nil for a clock that is
// only ever frozen.
func New(start time.Time, wall Wall) *Clock {
	if wall == nil {
		wall = time.Now
	}
	return &Clock{wall: wall, mode: Frozen, base: start.UTC(), scale: 1}
}

// ParseMode checks a mode name.
func ParseMode(s string) (Mode, error) {
	switch Mode(s) {
	case Frozen, Real, Scaled:
		return Mode(s), nil
	}
	return "", fmt.Errorf("unknown clock mode %q (want frozen, real or scaled)", s)
}

// Now returns the current virtual time, in UTC, truncated to the millisecond.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked()
}

func (c *Clock) nowLocked() time.Time {
	if c.mode == Frozen {
		return c.base
	}
	elapsed := c.wall().Sub(c.anchor)
	if c.mode == Scaled {
		elapsed = time.Duration(float64(elapsed) * c.scale)
	}
	if elapsed < 0 {
		elapsed = 0
	}
	return c.base.Add(elapsed).Truncate(time.Millisecond)
}

// SetMode switches mode without moving virtual time.
func (c *Clock) SetMode(m Mode, scale float64) error {
	if _, err := ParseMode(string(m)); err != nil {
		return err
	}
	if m == Scaled && (scale <= 0 || scale > MaxScale) {
		return fmt.Errorf("scaled mode needs a scale above 0 and at most %d, got %v", MaxScale, scale)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.base = c.nowLocked()
	c.anchor = c.wall()
	c.mode = m
	c.scale = 1
	if m == Scaled {
		c.scale = scale
	}
	return nil
}

// Set moves the clock to t. Moving backwards is refused.
func (c *Clock) Set(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.nowLocked()
	if t.Before(now) {
		return fmt.Errorf("the clock never moves backwards: %s is before %s",
			t.UTC().Format(time.RFC3339), now.Format(time.RFC3339))
	}
	c.base = t.UTC()
	c.anchor = c.wall()
	return nil
}

// State returns the serialisable state.
func (c *Clock) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := State{Mode: c.mode, Now: c.nowLocked()}
	if c.mode == Scaled {
		s.Scale = c.scale
	}
	return s
}

// Restore replaces the clock's state, moving backwards if asked: it is how a
// snapshot is restored.
func (c *Clock) Restore(s State) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.mode = s.Mode
	if c.mode == "" {
		c.mode = Frozen
	}
	c.base = s.Now.UTC()
	c.anchor = c.wall()
	c.scale = s.Scale
	if c.scale <= 0 {
		c.scale = 1
	}
}
