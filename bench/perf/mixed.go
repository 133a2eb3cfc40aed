package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"
)

// runMixed measures the load a test suite makes: with 16 keep-alive
// connections, 60% GET /card, 20% GET /transaction and 20% POST /card with
// the demo's legal-entity key, each run paired with a bare net/http
// hello-world run just before it, the figure the median ratio over the
// rounds. With -worlds N the benchmark first creates N demo worlds through
// the control API (one per simulated test worker) and spreads the mix over
// them; every world is reset to the demo after each round, so each round
// starts from the same state.
func runMixed(args []string) error {
	fs := flag.NewFlagSet("mixed", flag.ExitOnError)
	bin := fs.String("bin", "bench/out/slash-sandbox", "sandbox binary")
	conns := fs.Int("conns", 16, "concurrent connections")
	worlds := fs.Int("worlds", 0,
		"spread the mix over this many worlds created through the control API (0: the default world)")
	dur := fs.Duration("duration", 3*time.Second, "measured time of each run")
	warm := fs.Duration("warmup", 500*time.Millisecond, "unmeasured warm-up before each run")
	rounds := fs.Int("rounds", 5, "rounds (each a hello-world run and a mixed run)")
	minRatio := fs.Float64("min-ratio", 0,
		"the median ratio to hello-world must reach this (0: 0.30 in one world, 0.25 over many)")
	maxP99 := fs.Duration("max-p99", 5*time.Millisecond, "the 99th percentile latency of the mix must stay under this")
	logPath := fs.String("log", "bench/out/mixed-sandbox.log", "the sandbox's request log")
	fs.Parse(args)
	if *minRatio == 0 {
		*minRatio = map[bool]float64{false: 0.30, true: 0.25}[*worlds > 0]
	}

	hello, sb, err := startPair(*bin, *logPath)
	if err != nil {
		return err
	}
	defer hello.Stop()
	defer sb.Stop()

	keys := []string{"sk_sandbox_acme"}
	if *worlds > 0 {
		if keys, err = createWorlds(sb.URL, *worlds); err != nil {
			return err
		}
	}
	mix := mixedRequests(keys)
	next := func(w, i int) []byte {
		// Each connection walks the worlds and the mix from its own
		// offset, so at any moment the connections spread over both.
		return mix[(w*7+i)%len(mix)]
	}
	fmt.Printf(
		"mixed: %d connections over %d world(s), 60%% GET /card, 20%% GET /transaction, 20%% POST /card; %d rounds of %s"+
			" after %s warm-up\n\n",
		*conns,
		len(keys),
		*rounds,
		*dur,
		*warm,
	)
	fmt.Printf("%-6s %12s %12s %7s %9s %9s\n", "round", "sandbox/s", "hello/s", "ratio", "p50", "p99")
	t := &target{name: "mixed"}
	spec := loadSpec{Conns: *conns, Duration: *dur, Warmup: *warm, Max: 2_000_000}
	for round := 1; round <= *rounds; round++ {
		r, h, err := pairedRun(spec, hello, sb, next)
		if err != nil {
			return err
		}
		t.add(r, h)
		if err := resetWorlds(sb.Addr, keys); err != nil {
			return err
		}
		fmt.Printf("%-6d %12.0f %12.0f %6.1f%% %9s %9s\n", round, r.RPS(), h.RPS(), 100*r.RPS()/h.RPS(), ms(r.Pct(.5)),
			ms(r.Pct(.99)))
	}
	rss, _ := sb.RSS()
	fmt.Printf("\nsandbox RSS after the run: %s\n", mb(rss))
	ratio, p99 := median(t.ratios), quantile(t.lat, .99)
	return report([]limit{
		{
			ratio >= *minRatio,
			fmt.Sprintf("mixed over %d world(s): %.0f req/s = %.1f%% of hello-world (median of %d rounds; target >= %.0f%%)",
				len(keys), median(t.rps), 100*ratio, len(t.ratios), 100**minRatio),
		},
		{
			p99 < *maxP99,
			fmt.Sprintf("latency p50 %s, p99 %s (target p99 < %s)", ms(quantile(t.lat, .5)), ms(p99), ms(*maxP99)),
		},
	})
}

// startPair starts the hello-world baseline and the sandbox with the demo
// scenario, its request log on at info level.
func startPair(bin, logPath string) (hello, sb *server, err error) {
	self, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	if hello, _, err = start(self, "", "", "hello"); err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		hello.Stop()
		return nil, nil, err
	}
	sb, _, err = start(bin, logPath, "/_sandbox/health", "--scenario", "demo", "--log-level", "info", "--log-format",
		"json")
	if err != nil {
		hello.Stop()
		return nil, nil, err
	}
	return hello, sb, nil
}

// pairedRun loads the hello-world server and then the sandbox with the
// same spec; next gives the sandbox's requests.
func pairedRun(spec loadSpec, hello, sb *server, next func(w, i int) []byte) (r, h loadResult, err error) {
	helloReq := rawRequest("GET", "/", nil, nil)
	spec.Addr = hello.Addr
	h = hammer(spec, func(int, int) []byte { return helloReq })
	if err := check(h); err != nil {
		return r, h, fmt.Errorf("hello-world: %w", err)
	}
	spec.Addr = sb.Addr
	r = hammer(spec, next)
	if err := check(r); err != nil {
		return r, h, fmt.Errorf("sandbox: %w", err)
	}
	return r, h, nil
}

// mixedRequests is the mix for every key in turn: five requests a key,
// three GET /card, one GET /transaction, one POST /card.
func mixedRequests(keys []string) [][]byte {
	cardBody := []byte(`{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Bench card"}`)
	var mix [][]byte
	for _, k := range keys {
		h := map[string]string{"X-API-Key": k}
		mix = append(mix,
			rawRequest("GET", "/card", h, nil),
			rawRequest("GET", "/transaction", h, nil),
			rawRequest("GET", "/card", h, nil),
			rawRequest("POST", "/card", h, cardBody),
			rawRequest("GET", "/card", h, nil))
	}
	return mix
}

// createWorlds creates n demo worlds through the control API and returns
// the demo's Acme key of each.
func createWorlds(base string, n int) ([]string, error) {
	a := newAPI(base, "", 1)
	keys := make([]string, n)
	for i := range keys {
		status, raw, err := a.call(http.MethodPost, "/_sandbox/worlds", map[string]any{"scenario": "demo", "ttl": "1h"}, nil)
		if err != nil || status != http.StatusCreated {
			return nil, fmt.Errorf("create world %d: %d %v %.200s", i+1, status, err, raw)
		}
		var w struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(raw, &w); err != nil {
			return nil, err
		}
		keys[i] = "sk_sandbox_acme_" + w.ID
	}
	return keys, nil
}

// resetWorlds resets the world of every key to its scenario.
func resetWorlds(addr string, keys []string) error {
	c := &conn{addr: addr}
	defer c.close()
	for _, k := range keys {
		if status, err := c.do(rawRequest("POST", "/_sandbox/reset", map[string]string{"X-API-Key": k},
			[]byte("{}"))); err != nil ||
			status != 200 {
			return fmt.Errorf("reset the world of %s: status %d, %v", k, status, err)
		}
	}
	return nil
}
