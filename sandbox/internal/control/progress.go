package control

import (
	"time"

	"github.com/dustin/go-humanize"
	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/deliveries"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// advanceLog tells the log about a clock advance: a debug line per event
// that ran, an info line with how far it got at most every
// web.ProgressEvery of wall time, and an info summary at the end.
type advanceLog struct {
	log      zerolog.Logger
	world    *kernel.World
	from, to time.Time
	pacer    *web.Pacer
	start    time.Time
	made     int64
	ran      int
	byKind   map[string]int
}

func (c *Control) advanceLog(w *kernel.World, from, to time.Time) *advanceLog {
	a := &advanceLog{log: c.Log, world: w, from: from, to: to, pacer: web.NewPacer(c.Wall), byKind: map[string]int{}}
	a.start = a.pacer.Now()
	a.made, _ = deliveries.Made(w)
	return a
}

// event notes an event that ran.
func (a *advanceLog) event(e kernel.Event) {
	a.ran++
	a.byKind[e.Kind]++
	a.log.Debug().Str("world", a.world.ID).Str("event_id", e.ID).Str("kind", e.Kind).Time("at", e.At).
		Str("status", e.Status).Str("summary", e.Summary).Str("error", e.Error).Msg("event " + e.Kind)
	if a.pacer.Due() {
		a.log.Info().Str("world", a.world.ID).Int("events_done", a.ran).Time("virtual_time", e.At).Time("to", a.to).
			Dur("elapsed", a.pacer.Now().Sub(a.start)).Msgf("advancing the clock: %s events so far, at %s",
			humanize.Comma(int64(a.ran)), e.At.UTC().Format(time.RFC3339))
	}
}

// done logs the summary: where the clock went, the events by kind and the
// webhook deliveries the advance queued.
func (a *advanceLog) done(err error) {
	made, _ := deliveries.Made(a.world)
	ev := a.log.Info()
	if err != nil {
		ev = a.log.Warn().Err(err)
	}
	now := a.world.Now()
	ev.Str("world", a.world.ID).Time("from", a.from).Time("to", now).Int("events", a.ran).
		Dict("events_by_kind", web.Counts(a.byKind)).Int64("deliveries_queued", made-a.made).
		Dur("took", a.pacer.Now().Sub(a.start)).
		Msgf("clock advanced %s → %s: %s events, %s deliveries queued", a.from.UTC().Format(time.RFC3339),
			now.UTC().Format(time.RFC3339), humanize.Comma(int64(a.ran)), humanize.Comma(made-a.made))
}
