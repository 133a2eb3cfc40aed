package main

import (
	"flag"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// runSuite runs what a test suite does with the sandbox, in parallel
// workers: each creates a demo world, makes about twenty writes and reads
// in it across cards, transfers, invoices and webhooks, advances its clock
// three days, checks a few answers and deletes the world; then the next.
// It reports worlds a second and the latency of every request; any 5xx,
// any other answer the script does not expect, or a failed check fails the
// run. Webhooks go to a bare hello-world server on loopback.
func runSuite(args []string) error {
	fs := flag.NewFlagSet("suite", flag.ExitOnError)
	bin := fs.String("bin", "bench/out/slash-sandbox", "sandbox binary")
	workers := fs.Int("workers", 8, "parallel workers (test processes), each with one world at a time")
	dur := fs.Duration("duration", 10*time.Second, "how long the workers start new worlds")
	maxWorlds := fs.Int("max-worlds", 5000, "stop after this many worlds")
	logPath := fs.String("log", "bench/out/suite-sandbox.log", "the sandbox's request log")
	fs.Parse(args)

	hello, sb, err := startPair(*bin, *logPath)
	if err != nil {
		return err
	}
	defer hello.Stop()
	defer sb.Stop()

	st := &loadStats{statuses: map[int]int{}}
	var started atomic.Int64
	deadline := time.Now().Add(*dur)
	t0 := time.Now()
	var wg sync.WaitGroup
	for w := range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := 0; time.Now().Before(deadline) && started.Add(1) <= int64(*maxWorlds); c++ {
				if err := suiteScript(sb.URL, hello.URL, w, c, st); err != nil {
					st.fail(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(t0)
	rss, _ := sb.RSS()

	st.mu.Lock()
	defer st.mu.Unlock()
	sort.Slice(st.lat, func(i, j int) bool { return st.lat[i] < st.lat[j] })
	fmt.Printf("suite: %d workers, %d worlds in %s: %.1f worlds/s, %d requests (%.0f/s), statuses %v\n", *workers,
		st.cycles, ms(elapsed), float64(st.cycles)/elapsed.Seconds(), len(st.lat), float64(len(st.lat))/elapsed.Seconds(),
		st.statuses)
	fmt.Printf("latency p50 %s, p99 %s; sandbox RSS at the end %s\n", ms(quantile(st.lat, .5)), ms(quantile(st.lat, .99)),
		mb(rss))
	if st.err != nil {
		return st.err
	}
	fives := 0
	for s, n := range st.statuses {
		if s >= 500 {
			fives += n
		}
	}
	return report([]limit{
		{st.cycles > 0, fmt.Sprintf("%d worlds created, used, checked and deleted", st.cycles)},
		{fives == 0, fmt.Sprintf("%d answers were 5xx", fives)},
	})
}

// suiteScript is one test's life: a world, its writes and reads, three
// days of virtual time, its checks, and the world's deletion.
func suiteScript(base, hooks string, w, c int, st *loadStats) error {
	var world struct {
		ID string `json:"id"`
	}
	if err := st.ok(http.MethodPost, base+"/_sandbox/worlds", nil, `{"scenario":"demo","ttl":"10m"}`, &world); err != nil {
		return err
	}
	key := map[string]string{"X-API-Key": "sk_sandbox_acme_" + world.ID}
	ctl := map[string]string{"X-Sandbox-World": world.ID}
	idem := map[string]string{"X-API-Key": key["X-API-Key"], "X-Idempotency-Key": fmt.Sprintf("suite-%d-%d", w, c)}
	var card, renamed, hook, gotHook struct {
		ID     string `json:"id"`
		Name   string `json:"name"`
		Status string `json:"status"`
	}
	var transfer struct {
		TransferID string `json:"transferId"`
	}
	var inv struct {
		Invoice struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"invoice"`
	}
	var page struct {
		Items []map[string]any `json:"items"`
	}
	invoiceBody := `{"accountId":"sa_group_acmeoperating","legalEntityCustomerId":"le_cust_initech","details":{` +
		`"issuedAt":"2026-06-15","dueAt":"2026-07-15","invoiceTz":"America/New_York","invoiceNumber":"SUITE-1",` +
		`"lineItemsAndTotals":{"lineItems":[{"name":"Consulting","quantity":1,"priceCents":12500}]}}}`
	steps := []func() error{
		func() error { return st.ok(http.MethodGet, base+"/account", key, "", nil) },
		func() error {
			return st.ok(
				http.MethodPost,
				base+"/card",
				key,
				`{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Suite card"}`,
				&card,
			)
		},
		func() error { return st.ok(http.MethodGet, base+"/card/"+card.ID, key, "", nil) },
		func() error {
			return st.ok(http.MethodPatch, base+"/card/"+card.ID, key, `{"name":"Suite card, renamed"}`, nil)
		},
		func() error {
			return st.ok(
				http.MethodPost,
				base+"/card",
				key,
				`{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Second card"}`,
				nil,
			)
		},
		func() error { return st.ok(http.MethodGet, base+"/card", key, "", nil) },
		func() error {
			return st.ok(
				http.MethodPost,
				base+"/transfer/virtual-account",
				idem,
				`{"source":"subaccount_acmeengineering","destination":"subaccount_acmepayroll","amountCents":1234}`,
				&transfer,
			)
		},
		func() error { return st.ok(http.MethodGet, base+"/transaction", key, "", nil) },
		func() error {
			return st.ok(http.MethodGet, base+"/account/sa_group_acmeoperating/balance", key, "", nil)
		},
		func() error {
			return st.ok(
				http.MethodPost,
				base+"/webhook",
				key,
				`{"url":"`+hooks+`/hooks","name":"Suite receiver","legalEntityId":"le_acme"}`,
				&hook,
			)
		},
		func() error { return st.ok(http.MethodGet, base+"/webhook", key, "", nil) },
		func() error { return st.ok(http.MethodPost, base+"/invoice", key, invoiceBody, &inv) },
		func() error { return st.ok(http.MethodGet, base+"/invoice/"+inv.Invoice.ID, key, "", nil) },
		func() error { return st.ok(http.MethodGet, base+"/invoice", key, "", nil) },
		func() error {
			return st.ok(
				http.MethodPost,
				base+"/_sandbox/simulate/card-authorization",
				ctl,
				`{"cardId":"`+card.ID+`","amountCents":2100,"merchantId":"merchant_v2_github"}`,
				nil,
			)
		},
		func() error { return st.ok(http.MethodGet, base+"/transaction?filter:cardId="+card.ID, key, "", nil) },
		func() error { return st.ok(http.MethodGet, base+"/transaction/aggregation", key, "", nil) },
		func() error { return st.ok(http.MethodGet, base+"/_sandbox/webhook-deliveries", ctl, "", nil) },
		func() error { return st.ok(http.MethodPost, base+"/_sandbox/clock/advance", ctl, `{"by":"72h"}`, nil) },
		// The checks a test would make once time has passed.
		func() error { return st.ok(http.MethodGet, base+"/card/"+card.ID, key, "", &renamed) },
		func() error { return st.ok(http.MethodGet, base+"/webhook/"+hook.ID, key, "", &gotHook) },
		func() error {
			return st.ok(http.MethodGet, base+"/transaction?filter:cardId="+card.ID, key, "", &page)
		},
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("world %s: %w", world.ID, err)
		}
	}
	switch {
	case renamed.Name != "Suite card, renamed":
		return fmt.Errorf("world %s: card %s is named %q after the rename", world.ID, card.ID, renamed.Name)
	case transfer.TransferID == "":
		return fmt.Errorf("world %s: the transfer answered no transferId", world.ID)
	case gotHook.ID != hook.ID:
		return fmt.Errorf("world %s: GET /webhook/%s answered webhook %q", world.ID, hook.ID, gotHook.ID)
	case len(page.Items) != 1:
		return fmt.Errorf("world %s: card %s lists %d transactions after one authorization, want 1", world.ID, card.ID,
			len(page.Items))
	}
	if err := st.ok(http.MethodDelete, base+"/_sandbox/worlds/"+world.ID, nil, "", nil); err != nil {
		return err
	}
	st.mu.Lock()
	st.cycles++
	st.mu.Unlock()
	return nil
}
