package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"
)

// runWorlds runs mixed reads and writes against parallel worlds, each
// created, used and deleted by one worker, for a bounded time: no answer
// may be a 5xx, and resident memory must stay flat across the world
// create/delete cycles.
func runWorlds(args []string) error {
	fs := flag.NewFlagSet("worlds", flag.ExitOnError)
	bin := fs.String("bin", "bench/out/slash-sandbox-race", "sandbox binary (build it with -race)")
	workers := fs.Int("workers", 8, "parallel workers, each with its own world at a time")
	dur := fs.Duration("duration", time.Minute, "how long the load runs")
	fs.Parse(args)
	logPath := filepath.Join(filepath.Dir(*bin), "worlds.log")
	s, _, err := start(*bin, logPath, "/_sandbox/health", "--scenario", "demo", "--log-level", "warn")
	if err != nil {
		return err
	}
	stopped := false
	defer func() {
		if !stopped {
			s.Kill()
		}
	}()
	st := &loadStats{statuses: map[int]int{}}
	deadline := time.Now().Add(*dur)
	warm := time.Now().Add(*dur / 4)
	var warmRSS int64
	var wg sync.WaitGroup
	for w := 0; w < *workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for c := 0; time.Now().Before(deadline); c++ {
				if err := worldCycle(s.URL, w, c, st); err != nil {
					st.fail(err)
					return
				}
			}
		}(w)
	}
	for time.Now().Before(warm) {
		time.Sleep(50 * time.Millisecond)
	}
	warmRSS, _ = s.RSS()
	wg.Wait()
	endRSS, _ := s.RSS()
	stopped = true
	stopErr := s.Stop()
	if err := st.report(warmRSS, endRSS); err != nil {
		return err
	}
	if log, err := os.ReadFile(logPath); err == nil && bytes.Contains(log, []byte("DATA RACE")) {
		return fmt.Errorf("the race detector reported a data race; see %s", logPath)
	}
	if stopErr != nil {
		return fmt.Errorf("the sandbox did not exit cleanly on SIGTERM (%w); see %s", stopErr, logPath)
	}
	return nil
}

type loadStats struct {
	mu       sync.Mutex
	statuses map[int]int
	lat      []time.Duration
	cycles   int
	err      error
}

func (st *loadStats) fail(err error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.err == nil {
		st.err = err
	}
}

// do sends one request and records its status and latency; a 5xx or a
// transport error ends the run.
func (st *loadStats) do(method, u string, header map[string]string, body string, out any) error {
	_, err := st.send(method, u, header, body, out)
	return err
}

// ok is do for a request that must succeed: any answer outside 2xx ends
// the run.
func (st *loadStats) ok(method, u string, header map[string]string, body string, out any) error {
	status, err := st.send(method, u, header, body, out)
	if err == nil && status/100 != 2 {
		err = fmt.Errorf("%s %s answered %d", method, u, status)
	}
	return err
}

// send is do that also returns the status.
func (st *loadStats) send(method, u string, header map[string]string, body string, out any) (int, error) {
	var rd io.Reader
	if body != "" {
		rd = bytes.NewBufferString(body)
	}
	req, _ := http.NewRequest(method, u, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	t0 := time.Now()
	res, err := crashClient.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w", method, u, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	st.mu.Lock()
	st.statuses[res.StatusCode]++
	st.lat = append(st.lat, time.Since(t0))
	st.mu.Unlock()
	if res.StatusCode >= 500 {
		return res.StatusCode, fmt.Errorf("%s %s answered %d: %s", method, u, res.StatusCode, raw)
	}
	if out != nil && res.StatusCode/100 == 2 {
		return res.StatusCode, json.Unmarshal(raw, out)
	}
	return res.StatusCode, nil
}

// worldCycle creates a world, reads and writes in it, and deletes it.
func worldCycle(base string, w, c int, st *loadStats) error {
	var world struct {
		ID string `json:"id"`
	}
	if err := st.do(http.MethodPost, base+"/_sandbox/worlds", nil, `{"scenario":"demo","ttl":"10m"}`, &world); err != nil {
		return err
	}
	key := map[string]string{"X-API-Key": "sk_sandbox_acme_" + world.ID}
	ctl := map[string]string{"X-Sandbox-World": world.ID}
	steps := []func() error{
		func() error { return st.do(http.MethodGet, base+"/card", key, "", nil) },
		func() error { return st.do(http.MethodGet, base+"/transaction?filter:status=posted", key, "", nil) },
		func() error {
			return st.do(http.MethodGet, base+"/account/sa_group_acmeoperating/balance", key, "", nil)
		},
		func() error {
			h := map[string]string{"X-API-Key": key["X-API-Key"], "X-Idempotency-Key": fmt.Sprintf("load-%d-%d", w, c)}
			return st.do(
				http.MethodPost,
				base+"/transfer/virtual-account",
				h,
				`{"source":"subaccount_acmeengineering","destination":"subaccount_acmepayroll","amountCents":1234}`,
				nil,
			)
		},
		func() error {
			return st.do(
				http.MethodPost,
				base+"/card",
				key,
				`{"type":"virtual","name":"Load card","accountId":"sa_group_acmeoperating"}`,
				nil,
			)
		},
		func() error {
			return st.do(
				http.MethodPost,
				base+"/_sandbox/simulate/card-authorization",
				ctl,
				`{"cardId":"card_acmegithub","amountCents":2100,"merchantId":"merchant_v2_github"}`,
				nil,
			)
		},
		func() error { return st.do(http.MethodPost, base+"/_sandbox/clock/advance", ctl, `{"by":"6h"}`, nil) },
		func() error { return st.do(http.MethodGet, base+"/transaction/aggregation", key, "", nil) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return err
		}
	}
	if err := st.do(http.MethodDelete, base+"/_sandbox/worlds/"+world.ID, nil, "", nil); err != nil {
		return err
	}
	st.mu.Lock()
	st.cycles++
	st.mu.Unlock()
	return nil
}

func (st *loadStats) report(warmRSS, endRSS int64) error {
	st.mu.Lock()
	defer st.mu.Unlock()
	sort.Slice(st.lat, func(i, j int) bool { return st.lat[i] < st.lat[j] })
	fmt.Printf("worlds: %d create/use/delete cycles, %d requests, statuses %v\n", st.cycles, len(st.lat), st.statuses)
	fmt.Printf("latency p50 %s, p99 %s; RSS %s after warm-up, %s at the end\n", ms(quantile(st.lat, 0.5)),
		ms(quantile(st.lat, 0.99)), mb(warmRSS), mb(endRSS))
	if st.err != nil {
		return st.err
	}
	if st.cycles == 0 {
		return fmt.Errorf("no cycle completed")
	}
	if endRSS > warmRSS*3/2+32<<20 {
		return fmt.Errorf("memory grew from %s to %s across world cycles", mb(warmRSS), mb(endRSS))
	}
	fmt.Println("PASS  no 5xx; memory flat across world create/delete cycles")
	return nil
}
