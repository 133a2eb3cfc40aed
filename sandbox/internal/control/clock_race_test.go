package control_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// TestClockAdvanceByRacingARestoreIsNeverRefused races relative advances
// with restores of snapshots taken at other instants: "by" is measured
// from the clock the advance finds, so none is refused as moving the clock
// backwards, whichever snapshot a restore put back just before it.
func TestClockAdvanceByRacingARestoreIsNeverRefused(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{Scenario: "empty"})
	snapshot := func() string {
		return e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots", Body: `{}`}).Status(t,
			201).JSON(t)["id"].(string)
	}
	early := snapshot()
	apitest.Advance(t, e, `{"by":"30d"}`)
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
			e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots/" + id + "/restore"}).Status(t, 200)
		}()
		body := `{"by":"36h"}`
		if i%3 == 0 {
			body = `{"by":"36h","settleWebhooks":false}`
		}
		if r := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: body}); r.StatusCode != 200 {
			t.Fatalf("advance %d racing a restore = %d %s", i, r.StatusCode, r.Raw)
		}
		wg.Wait()
	}
}
