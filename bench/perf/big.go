package main

import (
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// runBig measures a world of 100,000 transactions (bench/big.yaml): the
// time from process start to healthy (the load), resident memory, the cost
// of the 500th page of GET /transaction against the first (pages walked
// with cursors; both fetched afresh with Cache-Control: no-cache, in
// alternation), and GET /transaction/aggregation over all of it.
func runBig(args []string) error {
	fs := flag.NewFlagSet("big", flag.ExitOnError)
	bin := fs.String("bin", "bench/out/slash-sandbox", "sandbox binary")
	scenario := fs.String("scenario", "bench/big.yaml", "scenario with 100,000 transactions")
	key := fs.String("key", "sk_bench_big", "API key of the scenario")
	starts := fs.Int("starts", 3, "process starts (the load time is their median)")
	samples := fs.Int("samples", 100, "fetches of each page, and aggregations")
	maxLoad := fs.Duration("max-load", 2*time.Second, "the median load must stay under this")
	maxRatio := fs.Float64("max-ratio", 1.5, "page 500 may cost at most this many times page 1")
	maxAgg := fs.Duration("max-aggregation", 250*time.Millisecond, "the median aggregation must stay under this")
	maxRSS := fs.Int64("max-rss-mb", 300, "resident memory must stay under this many MB")
	fs.Parse(args)

	var loads []time.Duration
	var s *server
	for i := range *starts {
		var err error
		var took time.Duration
		s, took, err = start(*bin, "bench/out/big-sandbox.log", "/_sandbox/health", "--scenario", *scenario, "--log-format",
			"json")
		if err != nil {
			return err
		}
		loads = append(loads, took)
		if i < *starts-1 {
			s.Stop()
		}
	}
	defer s.Stop()
	slices.Sort(loads)
	loaded, _ := s.SettledRSS()
	fmt.Printf("big: %s, start to healthy (loading 100,000 transactions): median %s of %d (min %s, max %s); RSS %s\n",
		*scenario, ms(loads[len(loads)/2]), len(loads), ms(loads[0]), ms(loads[len(loads)-1]), mb(loaded))

	a := newAPI(s.URL, *key, 2)
	cursor, err := cursorOfPage(a, 500)
	if err != nil {
		return err
	}
	fresh := map[string]string{"Cache-Control": "no-cache"}
	first, p500 := "/transaction", "/transaction?cursor="+url.QueryEscape(cursor)
	var t1, t500, tagg, tfilt []time.Duration
	timeGet := func(path string, into *[]time.Duration) error {
		t0 := time.Now()
		status, raw, err := a.call(http.MethodGet, path, nil, fresh)
		d := time.Since(t0)
		if err != nil || status != http.StatusOK {
			return fmt.Errorf("GET %s: %d %v %.200s", path, status, err, raw)
		}
		*into = append(*into, d)
		return nil
	}
	for range *samples {
		if err := timeGet(first, &t1); err != nil {
			return err
		}
		if err := timeGet(p500, &t500); err != nil {
			return err
		}
	}
	for i := range max(*samples/5, 5) {
		if err := timeGet("/transaction/aggregation", &tagg); err != nil {
			return err
		}
		filter := []string{"filter:category=card", "filter:status=pending",
			"filter:cardId=card_big_b&filter:detailed_status=settled"}[i%3]
		if err := timeGet("/transaction/aggregation?"+filter, &tfilt); err != nil {
			return err
		}
	}
	served, _ := s.RSS()
	m1, m500, magg, mfilt := quantile(t1, .5), quantile(t500, .5), quantile(tagg, .5), quantile(tfilt, .5)
	ratio := float64(m500) / float64(m1)
	fmt.Printf(
		"  GET /transaction page 1: median %s; page 500 (cursor from page 499): median %s; ratio %.2f (%d each, alternated,"+
			" fresh)\n",
		ms(m1),
		ms(m500),
		ratio,
		len(t1),
	)
	fmt.Printf("  GET /transaction/aggregation over all: median %s (p90 %s); with filters: median %s; RSS after %s\n",
		ms(magg), ms(quantile(tagg, .9)), ms(mfilt), mb(served))

	return report([]limit{
		{
			loads[len(loads)/2] < *maxLoad,
			fmt.Sprintf("load (start to healthy) median %s < %s", ms(loads[len(loads)/2]), *maxLoad),
		},
		{ratio <= *maxRatio, fmt.Sprintf("page 500 costs %.2fx page 1 (<= %.1fx)", ratio, *maxRatio)},
		{
			magg < *maxAgg && mfilt < *maxAgg,
			fmt.Sprintf("aggregation median %s, filtered %s (< %s)", ms(magg), ms(mfilt), *maxAgg),
		},
		{
			max(loaded, served) < *maxRSS<<20,
			fmt.Sprintf("resident memory at most %s (< %d MB)", mb(max(loaded, served)), *maxRSS),
		},
	})
}

// cursorOfPage walks the transaction list and returns the cursor that
// fetches page n.
func cursorOfPage(a *api, n int) (string, error) {
	cursor := ""
	for p := 1; p < n; p++ {
		path := "/transaction"
		if cursor != "" {
			path += "?cursor=" + url.QueryEscape(cursor)
		}
		var pg page
		if err := a.getJSON(path, &pg); err != nil {
			return "", err
		}
		if pg.Metadata.NextCursor == "" {
			return "", fmt.Errorf("the list ends at page %d, before page %d", p, n)
		}
		cursor = pg.Metadata.NextCursor
	}
	return cursor, nil
}
