package control

import (
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// How long GET /_sandbox/changes waits for a change, and how many such
// waits the sandbox holds at once: a dashboard tab holds one.
const (
	changesWait    = 25 * time.Second
	maxChangesWait = 60 * time.Second
	maxWaiters     = 256
)

// changeWaiters counts the requests waiting in GET /_sandbox/changes.
var changeWaiters atomic.Int64

// changesView says how many changes the world has seen.
type changesView struct {
	// Version counts the world's changes: every write, reset or restore,
	// and every request the journal records.
	Version uint64 `json:"version"`
	// Changed is whether Version differs from the since asked about.
	Changed bool `json:"changed"`
}

// changes answers the world's change counter. With since, it waits (up to
// wait seconds, default 25) until the counter moves past since: a
// dashboard asks again each time it answers, and refreshes when changed.
// Beyond maxWaiters waiting requests it answers at once.
func (c *Control) changes(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	wait := changesWait
	if raw := q.Get("wait"); raw != "" {
		s, err := strconv.Atoi(raw)
		if err != nil || s < 0 || time.Duration(s)*time.Second > maxChangesWait {
			return nil, kernel.InvalidField("wait", "must be a whole number of seconds from 0 to 60")
		}
		wait = time.Duration(s) * time.Second
	}
	version, next := w.Changes()
	raw := q.Get("since")
	if raw == "" {
		return changesView{Version: version}, nil
	}
	since, err := strconv.ParseUint(raw, 10, 64)
	if err != nil {
		return nil, kernel.InvalidField("since", "must be a version an earlier answer gave (a whole number)")
	}
	if version != since || wait == 0 {
		return changesView{Version: version, Changed: version != since}, nil
	}
	if changeWaiters.Add(1) > maxWaiters {
		changeWaiters.Add(-1)
		return changesView{Version: version}, nil
	}
	defer changeWaiters.Add(-1)
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case <-next:
	case <-timer.C:
	case <-r.Context().Done():
	}
	version, _ = w.Changes()
	return changesView{Version: version, Changed: version != since}, nil
}
