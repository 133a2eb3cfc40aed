package web

import (
	"maps"
	"slices"
	"time"

	"github.com/rs/zerolog"
)

// ProgressEvery is how often long work (a clock advance, a scenario
// loading) logs how far it got.
const ProgressEvery = 2 * time.Second

// Pacer spaces out the progress lines of long work: Due is true at most
// once per ProgressEvery of wall time, the first time one interval after
// the pacer was made.
type Pacer struct {
	now  func() time.Time
	last time.Time
}

// NewPacer starts a pacer on a wall clock (nil: time.Now).
func NewPacer(now func() time.Time) *Pacer {
	if now == nil {
		now = time.Now
	}
	return &Pacer{now: now, last: now()}
}

// Due reports whether a progress line is due, and if so starts the next
// interval.
func (p *Pacer) Due() bool {
	now := p.now()
	if now.Sub(p.last) < ProgressEvery {
		return false
	}
	p.last = now
	return true
}

// Now reads the pacer's wall clock.
func (p *Pacer) Now() time.Time { return p.now() }

// Counts is a count per name as a log field's object, names sorted.
func Counts(counts map[string]int) *zerolog.Event {
	d := zerolog.Dict()
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		d = d.Int(k, counts[k])
	}
	return d
}
