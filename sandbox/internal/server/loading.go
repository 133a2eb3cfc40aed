package server

import (
	"time"

	"github.com/dustin/go-humanize"
	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// loadLog tells the log how a scenario's loading goes: a progress line at
// most every web.ProgressEvery of wall time while a big world is seeded,
// then a summary of the records created by kind and the time taken.
type loadLog struct {
	log      zerolog.Logger
	scenario string
	pacer    *web.Pacer
	start    time.Time
	byKind   map[string]int
	total    int
}

// progressStride is how many records pass between two looks at the wall
// clock.
const progressStride = 256

func newLoadLog(log zerolog.Logger, scenario string, wall func() time.Time) *loadLog {
	l := &loadLog{log: log, scenario: scenario, pacer: web.NewPacer(wall), byKind: map[string]int{}}
	l.start = l.pacer.Now()
	return l
}

// record notes one record created (kernel.WorldSpec.OnRecord).
func (l *loadLog) record(kind string) {
	l.byKind[kind]++
	l.total++
	if l.total%progressStride == 0 && l.pacer.Due() {
		l.log.Info().Str("scenario", l.scenario).Int("records", l.total).Dur("elapsed", l.pacer.Now().Sub(l.start)).
			Msgf("loading scenario %s: %s records so far", l.scenario, humanize.Comma(int64(l.total)))
	}
}

// done logs the summary; a world copied from an earlier load created no
// records and says so.
func (l *loadLog) done(world string) {
	took := l.pacer.Now().Sub(l.start)
	ev := l.log.Info().Str("world", world).Str("scenario", l.scenario).Int("records", l.total).Dur("took", took)
	if l.total > 0 {
		ev = ev.Dict("records_by_kind", web.Counts(l.byKind))
	}
	ev.Msgf("loaded scenario %s: %s records in %s", l.scenario, humanize.Comma(int64(l.total)),
		took.Round(time.Millisecond))
}

// repaired logs what opening the data file mended
// (kernel.WorldSpec.OnDataRepair).
func (l *loadLog) repaired(r store.Repair) {
	ev := l.log.Warn().Str("data", r.Path)
	if r.Dropped > 0 {
		ev = ev.Int64("dropped_at", r.DroppedAt).Int64("dropped_bytes", r.Dropped)
	}
	ev.Bool("upgraded", r.Upgraded).Msg(r.String())
}
