package main

import (
	"flag"
	"fmt"
	"time"
)

// runHit loads one already running server with one request: a quick probe
// while working on a hot path.
func runHit(args []string) error {
	fs := flag.NewFlagSet("hit", flag.ExitOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "server address (loopback)")
	method := fs.String("method", "GET", "method")
	path := fs.String("path", "/", "path and query")
	key := fs.String("key", "", "X-API-Key, if any")
	body := fs.String("body", "", "JSON body, if any")
	conns := fs.Int("conns", 16, "concurrent connections")
	dur := fs.Duration("duration", 5*time.Second, "measured time")
	fs.Parse(args)
	header := map[string]string{}
	if *key != "" {
		header["X-API-Key"] = *key
	}
	var b []byte
	if *body != "" {
		b = []byte(*body)
	}
	req := rawRequest(*method, *path, header, b)
	r := hammer(loadSpec{Addr: *addr, Conns: *conns, Duration: *dur, Warmup: time.Second, Max: 2_000_000},
		func(int, int) []byte { return req })
	fmt.Printf("%s %s: %.0f req/s, p50 %s, p99 %s, statuses %v\n", *method, *path, r.RPS(), ms(r.Pct(.5)), ms(r.Pct(.99)),
		r.Status)
	return check(r)
}
