package main

import (
	"flag"
	"fmt"
	"slices"
	"time"
)

// runStartup starts the binary n times with the demo scenario (request log
// on, to a file) and measures the time from starting the process to its
// first successful GET /_sandbox/health, polling every millisecond. It
// reports the median and the spread, and the resident memory right after
// and after serving a few thousand reads on the last run.
func runStartup(args []string) error {
	fs := flag.NewFlagSet("startup", flag.ExitOnError)
	bin := fs.String("bin", "bench/out/slash-sandbox", "sandbox binary")
	n := fs.Int("n", 30, "runs")
	scenario := fs.String("scenario", "demo", "scenario")
	maxMedian := fs.Duration("max-median", 100*time.Millisecond, "the median must stay under this")
	maxRSS := fs.Int64("max-rss-mb", 50, "resident memory must stay under this many MB")
	fs.Parse(args)

	var took []time.Duration
	var rss []int64
	var last *server
	for i := range *n {
		s, d, err := start(*bin, "bench/out/startup-sandbox.log", "/_sandbox/health", "--scenario", *scenario, "--log-format",
			"json")
		if err != nil {
			return err
		}
		took = append(took, d)
		if r, err := s.RSS(); err == nil {
			rss = append(rss, r)
		}
		if i == *n-1 {
			last = s
			break
		}
		if err := s.Stop(); err != nil {
			return fmt.Errorf("run %d: stop: %w", i, err)
		}
	}
	defer last.Stop()
	slices.Sort(took)
	slices.Sort(rss)
	median := took[len(took)/2]
	fmt.Printf("startup: %d runs of %s --scenario %s, start to first 200 from GET /_sandbox/health\n", *n, *bin, *scenario)
	fmt.Printf("  median %s, min %s, p90 %s, max %s\n", ms(median), ms(took[0]), ms(took[len(took)*9/10]),
		ms(took[len(took)-1]))

	// Memory once it has served: a few thousand reads and writes.
	key := map[string]string{"X-API-Key": "sk_sandbox_acme"}
	reqs := [][]byte{rawRequest("GET", "/card", key, nil), rawRequest("GET", "/transaction", key, nil),
		rawRequest("GET", "/account", key, nil), rawRequest("GET", "/transaction/aggregation", key, nil),
		rawRequest("POST", "/card", key, []byte(`{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Startup"}`))}
	r := hammer(loadSpec{Addr: last.Addr, Conns: 4, Duration: 10 * time.Second, Max: 5000},
		func(w, i int) []byte { return reqs[(w+i)%len(reqs)] })
	if err := check(r); err != nil {
		return err
	}
	served, _ := last.RSS()
	fmt.Printf(
		"  resident memory (VmRSS): median %s right after start; %s after serving %d more requests (1 in 5 a POST /card)\n",
		mb(rss[len(rss)/2]),
		mb(served),
		r.Requests,
	)

	worst := max(rss[len(rss)-1], served)
	return report([]limit{
		{median < *maxMedian, fmt.Sprintf("median start to healthy %s < %s", ms(median), *maxMedian)},
		{worst < *maxRSS<<20, fmt.Sprintf("resident memory at most %s < %d MB", mb(worst), *maxRSS)},
	})
}
