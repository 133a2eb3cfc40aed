package main

import (
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest"
)

// runMemory measures what the sandbox holds: in process, the heap bytes
// one more card (POST /card) and one more transaction (an incoming ACH)
// leave behind after a collection, everything they store included; and in
// separate processes, the resident memory of a 100,000-transaction world
// (bench/big.yaml) and of 100 demo worlds created through the control API.
func runMemory(args []string) error {
	fs := flag.NewFlagSet("memory", flag.ExitOnError)
	bin := fs.String("bin", "bench/out/slash-sandbox", "sandbox binary")
	n := fs.Int("n", 5000, "cards and transactions created for the per-record figures")
	worlds := fs.Int("worlds", 100, "demo worlds for the many-worlds figure")
	big := fs.String("scenario", "bench/big.yaml", "scenario with 100,000 transactions")
	maxBig := fs.Int64("max-big-mb", 150, "the big world's resident memory must stay under this many MB")
	maxWorlds := fs.Int64("max-worlds-mb", 150, "the many worlds' resident memory must stay under this many MB")
	fs.Parse(args)

	card, txn, err := perRecord(*n)
	if err != nil {
		return err
	}
	fmt.Printf("memory: heap held per record, %d of each created in process, after a collection\n", *n)
	fmt.Printf("  a card (POST /card; with the deliveries queued to the demo's two endpoints of le_acme): %.0f bytes\n",
		card)
	fmt.Printf("  a transaction (POST /_sandbox/simulate/incoming-transfer, ACH, posted): %.0f bytes\n", txn)

	s, _, err := start(*bin, "", "/_sandbox/health", "--scenario", *big, "--log-level", "warn")
	if err != nil {
		return err
	}
	bigRSS, _ := s.SettledRSS()
	s.Stop()
	fmt.Printf("  %s: RSS %s after loading (settled)\n", *big, mb(bigRSS))

	s, _, err = start(*bin, "", "/_sandbox/health", "--scenario", "demo", "--log-level", "warn")
	if err != nil {
		return err
	}
	defer s.Stop()
	one, _ := s.SettledRSS()
	if _, err := createWorlds(s.URL, *worlds); err != nil {
		return err
	}
	many, _ := s.RSS()
	fmt.Printf("  demo: RSS %s with the default world, %s with %d more worlds (%.0f KB a world)\n",
		mb(one), mb(many), *worlds, float64(many-one)/float64(*worlds)/1024)
	return report([]limit{
		{bigRSS < *maxBig<<20, fmt.Sprintf("100,000 transactions: %s resident (< %d MB)", mb(bigRSS), *maxBig)},
		{many < *maxWorlds<<20, fmt.Sprintf("%d demo worlds: %s resident (< %d MB)", *worlds+1, mb(many), *maxWorlds)},
	})
}

// perRecord builds the demo sandbox in this process and returns the heap
// bytes each card and each transaction adds.
func perRecord(n int) (card, txn float64, err error) {
	sb, err := sandboxtest.New(sandboxtest.Options{Scenario: "demo"})
	if err != nil {
		return 0, 0, err
	}
	defer sb.Close()
	h := sb.Handler
	card, err = bytesPer(
		h,
		n,
		"POST",
		"/card",
		`{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Memory card"}`,
	)
	if err != nil {
		return 0, 0, err
	}
	txn, err = bytesPer(
		h,
		n,
		"POST",
		"/_sandbox/simulate/incoming-transfer",
		`{"accountId":"sa_group_acmeoperating","rail":"ach","amountCents":3000}`,
	)
	return card, txn, err
}

// bytesPer sends the same request n times and returns the heap growth
// after a collection, divided by n.
func bytesPer(h http.Handler, n int, method, path, body string) (float64, error) {
	before := heapAfterGC()
	for range n {
		r := httptest.NewRequest(method, "http://127.0.0.1"+path, strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("X-API-Key", "sk_sandbox_acme")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code/100 != 2 {
			return 0, fmt.Errorf("%s %s: %d %.200s", method, path, w.Code, w.Body)
		}
	}
	return float64(int64(heapAfterGC())-int64(before)) / float64(n), nil
}

func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
