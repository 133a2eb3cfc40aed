package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"
)

// runThroughput measures, in one run on one machine, a bare net/http
// hello-world server and the sandbox (demo scenario, request log on at
// info level, written to a file) on GET /card (first page), GET
// /transaction (first page) and POST /card, each with the same number of
// keep-alive connections. Both servers run for the whole measurement; each
// sandbox run is paired with a hello-world run just before it, and a
// target's figure is the median over the rounds of its ratio to its pair,
// so that other load on the machine affects both sides alike.
func runThroughput(args []string) error {
	fs := flag.NewFlagSet("throughput", flag.ExitOnError)
	bin := fs.String("bin", "bench/out/slash-sandbox", "sandbox binary")
	conns := fs.Int("conns", 16, "concurrent connections")
	dur := fs.Duration("duration", 3*time.Second, "measured time of each run")
	warm := fs.Duration("warmup", 500*time.Millisecond, "unmeasured warm-up before each run")
	rounds := fs.Int("rounds", 3, "rounds (each measures every target and its hello-world pair)")
	logPath := fs.String("log", "bench/out/throughput-sandbox.log", "the sandbox's request log")
	only := fs.String("only", "", "measure only these targets, comma-separated (e.g. \"POST /card\")")
	fs.Parse(args)

	hello, sb, err := startPair(*bin, *logPath)
	if err != nil {
		return err
	}
	defer hello.Stop()
	defer sb.Stop()

	key := map[string]string{"X-API-Key": "sk_sandbox_acme"}
	cardBody := []byte(`{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Bench card"}`)
	targets := []*target{
		{name: "GET /card", req: rawRequest("GET", "/card", key, nil), min: 0.40},
		{name: "GET /transaction", req: rawRequest("GET", "/transaction", key, nil), min: 0.40},
		{name: "POST /card", req: rawRequest("POST", "/card", key, cardBody), min: 0.30, reset: true},
	}
	if *only != "" {
		names := strings.Split(*only, ",")
		targets = slices.DeleteFunc(targets, func(t *target) bool { return !slices.Contains(names, t.name) })
		if len(targets) == 0 {
			return fmt.Errorf("-only %q names no target (GET /card, GET /transaction, POST /card)", *only)
		}
	}
	reset := &conn{addr: sb.Addr}
	defer reset.close()
	resetReq := rawRequest("POST", "/_sandbox/reset", key, []byte("{}"))
	fmt.Printf("throughput: %d connections, %d rounds of %s per run after %s warm-up; sandbox log at info level to %s\n\n",
		*conns, *rounds, *dur, *warm, *logPath)
	fmt.Printf("%-6s %-18s %12s %12s %7s %9s %9s\n", "round", "target", "sandbox/s", "hello/s", "ratio", "p50", "p99")
	spec := loadSpec{Conns: *conns, Duration: *dur, Warmup: *warm, Max: 2_000_000}
	for round := 1; round <= *rounds; round++ {
		for _, t := range targets {
			r, h, err := pairedRun(spec, hello, sb, func(int, int) []byte { return t.req })
			if err != nil {
				return fmt.Errorf("%s: %w", t.name, err)
			}
			t.add(r, h)
			if t.reset {
				// Every round starts from the demo's state, not from the
				// thousands of cards the last one added.
				if status, err := reset.do(resetReq); err != nil || status != 200 {
					return fmt.Errorf("reset after %s: status %d, %v", t.name, status, err)
				}
			}
			fmt.Printf("%-6d %-18s %12.0f %12.0f %6.1f%% %9s %9s\n", round, t.name, r.RPS(), h.RPS(), 100*r.RPS()/h.RPS(),
				ms(r.Pct(.5)), ms(r.Pct(.99)))
		}
	}
	rss, _ := sb.RSS()
	fmt.Printf("\nsandbox RSS after the run: %s\n", mb(rss))
	var limits []limit
	for _, t := range targets {
		ratio := median(t.ratios)
		limits = append(
			limits,
			limit{
				ratio >= t.min,
				fmt.Sprintf("%-18s %6.0f req/s = %5.1f%% of hello-world (median of %d rounds; target >= %.0f%%), p50 %s, p99 %s",
					t.name, median(t.rps), 100*ratio, len(t.ratios), 100*t.min, ms(quantile(t.lat, .5)), ms(quantile(t.lat, .99))),
			},
		)
	}
	return report(limits)
}

// target is one measured request and what its rounds gave.
type target struct {
	name        string
	req         []byte
	min         float64
	reset       bool // reset the world after each run
	ratios, rps []float64
	lat         []time.Duration
}

func (t *target) add(r, hello loadResult) {
	t.ratios = append(t.ratios, r.RPS()/hello.RPS())
	t.rps = append(t.rps, r.RPS())
	t.lat = append(t.lat, r.lat...)
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// check fails a run with transport errors or non-2xx answers.
func check(r loadResult) error {
	if len(r.Errors) > 0 {
		return fmt.Errorf("%d transport errors, first: %v", len(r.Errors), r.Errors[0])
	}
	if n := r.Non2xx(); n > 0 {
		return fmt.Errorf("%d answers outside 2xx: %v", n, r.Status)
	}
	if r.Requests == 0 {
		return fmt.Errorf("no request completed")
	}
	return nil
}
