package server_test

import (
	"net/http"
	"sync"
	"testing"
)

// TestClockAdvanceByRacingARestoreIsNeverRefused races relative advances
// with restores of snapshots taken at other instants: "by" is measured
// from the clock the advance finds, so none is refused as moving the clock
// backwards, whichever snapshot a restore put back just before it.
func TestClockAdvanceByRacingARestoreIsNeverRefused(t *testing.T) {
	e := newEnv(t, options{scenario: "empty"})
	snapshot := func() string {
		return e.do(req{method: http.MethodPost, path: "/_sandbox/snapshots", body: `{}`}).status(t,
			201).json(t)["id"].(string)
	}
	early := snapshot()
	advance(t, e, `{"by":"30d"}`)
	late := snapshot()
	for i := range 60 {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := early
			if i%2 == 1 {
				id = late
			}
			e.do(req{method: http.MethodPost, path: "/_sandbox/snapshots/" + id + "/restore"}).status(t, 200)
		}()
		body := `{"by":"36h"}`
		if i%3 == 0 {
			body = `{"by":"36h","settleWebhooks":false}`
		}
		if r := e.do(req{method: http.MethodPost, path: "/_sandbox/clock/advance", body: body}); r.StatusCode != 200 {
			t.Fatalf("advance %d racing a restore = %d %s", i, r.StatusCode, r.body)
		}
		wg.Wait()
	}
}
