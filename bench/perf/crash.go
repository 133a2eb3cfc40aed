package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// runCrash kills the sandbox with SIGKILL in the middle of a stream of
// writes to a --data file, restarts it on the same file and checks that
// every write it acknowledged is there and that the ledger balances.
func runCrash(args []string) error {
	fs := flag.NewFlagSet("crash", flag.ExitOnError)
	bin := fs.String("bin", "bench/out/slash-sandbox", "sandbox binary")
	rounds := fs.Int("rounds", 3, "kill-and-restart rounds")
	writers := fs.Int("writers", 4, "concurrent writers")
	after := fs.Duration("kill-after", 1500*time.Millisecond, "how long writes stream before the kill")
	fs.Parse(args)
	dir, err := os.MkdirTemp("", "slash-sandbox-crash-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	for r := 1; r <= *rounds; r++ {
		if err := crashRound(*bin, filepath.Join(dir, fmt.Sprintf("round%d.db", r)), r, *writers, *after); err != nil {
			return fmt.Errorf("round %d: %w", r, err)
		}
	}
	return nil
}

// acked is what the writers saw acknowledged with a 2xx.
type acked struct {
	mu        sync.Mutex
	transfers []ackedTransfer
	notes     map[string]int // transaction → highest acknowledged note number
	attempts  int
}

type ackedTransfer struct {
	key, body, transferID string
}

func crashRound(bin, data string, round, writers int, after time.Duration) error {
	args := []string{"--scenario", "demo", "--data", data, "--durability", "always", "--log-level", "warn"}
	s, _, err := start(bin, "", "/_sandbox/health", args...)
	if err != nil {
		return err
	}
	txns, err := firstTransactions(s.URL, writers)
	if err != nil {
		s.Kill()
		return err
	}
	got := &acked{notes: map[string]int{}}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			write(s.URL, round, w, txns[w], got, stop)
		}(w)
	}
	time.Sleep(after)
	s.Kill()
	close(stop)
	wg.Wait()
	s, _, err = start(bin, "", "/_sandbox/health", args...)
	if err != nil {
		return fmt.Errorf("restart on the same file: %w", err)
	}
	defer s.Stop()
	if err := checkNotes(s.URL, got); err != nil {
		return err
	}
	if err := checkTransfers(s.URL, got); err != nil {
		return err
	}
	if err := checkLedger(s.URL); err != nil {
		return err
	}
	fmt.Printf(
		"PASS  round %d: killed after %d attempted writes; all %d acknowledged transfers and %d notes survived; every"+
			" balance equals its entries\n",
		round,
		got.attempts,
		len(got.transfers),
		len(got.notes),
	)
	return nil
}

var crashClient = &http.Client{Timeout: 10 * time.Second}

// call sends a request with the demo's Acme key and decodes a 2xx answer.
func call(method, u, idem string, body []byte, out any) (int, error) {
	req, err := http.NewRequest(method, u, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("X-API-Key", "sk_sandbox_acme")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if idem != "" {
		req.Header.Set("X-Idempotency-Key", idem)
	}
	res, err := crashClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if res.StatusCode/100 != 2 || out == nil {
		return res.StatusCode, nil
	}
	return res.StatusCode, json.NewDecoder(res.Body).Decode(out)
}

// write alternates transfers between two virtual accounts and notes on
// the writer's own transaction until stopped or the server is gone.
func write(base string, round, w int, txn string, got *acked, stop chan struct{}) {
	for i := 1; ; i++ {
		select {
		case <-stop:
			return
		default:
		}
		src, dst := "subaccount_acmeengineering", "subaccount_acmepayroll"
		if i%2 == 0 {
			src, dst = dst, src
		}
		key := fmt.Sprintf("crash-%d-%d-%d", round, w, i)
		body := fmt.Sprintf(`{"source":%q,"destination":%q,"amountCents":%d}`, src, dst, 100+i)
		var tr struct {
			TransferID string `json:"transferId"`
		}
		got.count()
		status, err := call(http.MethodPost, base+"/transfer/virtual-account", key, []byte(body), &tr)
		if err != nil {
			return
		}
		if status == http.StatusOK {
			got.mu.Lock()
			got.transfers = append(got.transfers, ackedTransfer{key, body, tr.TransferID})
			got.mu.Unlock()
		}
		got.count()
		status, err = call(
			http.MethodPatch,
			base+"/transaction/"+txn+"/note",
			"",
			[]byte(fmt.Sprintf(`{"note":"%d"}`, i)),
			nil,
		)
		if err != nil {
			return
		}
		if status == http.StatusOK {
			got.mu.Lock()
			got.notes[txn] = i
			got.mu.Unlock()
		}
	}
}

func (a *acked) count() {
	a.mu.Lock()
	a.attempts++
	a.mu.Unlock()
}

func firstTransactions(base string, n int) ([]string, error) {
	var page struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	if _, err := call(http.MethodGet, base+"/transaction", "", nil, &page); err != nil {
		return nil, err
	}
	if len(page.Items) < n {
		return nil, errors.New("too few transactions in the demo")
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = page.Items[i].ID
	}
	return ids, nil
}

// checkNotes: a transaction's note is the last acknowledged one or a later
// one whose answer the kill cut off; never an earlier one.
func checkNotes(base string, got *acked) error {
	for txn, last := range got.notes {
		var t struct {
			Note string `json:"note"`
		}
		if _, err := call(http.MethodGet, base+"/transaction/"+txn, "", nil, &t); err != nil {
			return err
		}
		var n int
		if _, err := fmt.Sscan(t.Note, &n); err != nil || n < last {
			return fmt.Errorf("transaction %s has note %q after the restart; note %d had been acknowledged", txn, t.Note, last)
		}
	}
	return nil
}

// checkTransfers replays every acknowledged transfer with its key: each
// must answer with the transfer it made, and move no money again.
func checkTransfers(base string, got *acked) error {
	before, err := vaBalances(base)
	if err != nil {
		return err
	}
	for _, t := range got.transfers {
		var tr struct {
			TransferID string `json:"transferId"`
		}
		status, err := call(http.MethodPost, base+"/transfer/virtual-account", t.key, []byte(t.body), &tr)
		if err != nil || status != http.StatusOK || tr.TransferID != t.transferID {
			return fmt.Errorf("acknowledged transfer %s (key %s) is not there after the restart: %d %q %v", t.transferID, t.key,
				status, tr.TransferID, err)
		}
	}
	after, err := vaBalances(base)
	if err != nil {
		return err
	}
	if before != after {
		return fmt.Errorf("replaying acknowledged transfers moved money: %v → %v", before, after)
	}
	return nil
}

func vaBalances(base string) ([2]int64, error) {
	var out [2]int64
	for i, id := range []string{"subaccount_acmeengineering", "subaccount_acmepayroll"} {
		var va struct {
			Balance struct {
				AmountCents int64 `json:"amountCents"`
			} `json:"balance"`
		}
		if _, err := call(http.MethodGet, base+"/virtual-account/"+id, "", nil, &va); err != nil {
			return out, err
		}
		out[i] = va.Balance.AmountCents
	}
	return out, nil
}

// checkLedger compares every Acme account's posted balance with the sum of
// its posted transactions, walking every page.
func checkLedger(base string) error {
	for _, acc := range []string{"sa_group_acmeoperating", "sa_group_acmecharge"} {
		var bal struct {
			Balances []struct {
				Posted struct {
					AmountCents int64 `json:"amountCents"`
				} `json:"posted"`
			} `json:"balances"`
		}
		if _, err := call(http.MethodGet, base+"/account/"+acc+"/balance", "", nil, &bal); err != nil {
			return err
		}
		var posted int64
		for _, b := range bal.Balances {
			posted += b.Posted.AmountCents
		}
		sum, err := sumPosted(base, acc)
		if err != nil {
			return err
		}
		if sum != posted {
			return fmt.Errorf("account %s: posted balance %d, but its posted transactions sum to %d", acc, posted, sum)
		}
	}
	return nil
}

func sumPosted(base, account string) (int64, error) {
	var sum int64
	cursor := ""
	for pages := 0; pages < 10000; pages++ {
		u := base + "/transaction?filter:status=posted&filter:accountId=" + account
		if cursor != "" {
			u += "&cursor=" + url.QueryEscape(cursor)
		}
		var page struct {
			Items []struct {
				AmountCents int64 `json:"amountCents"`
			} `json:"items"`
			Metadata struct {
				NextCursor string `json:"nextCursor"`
			} `json:"metadata"`
		}
		if _, err := call(http.MethodGet, u, "", nil, &page); err != nil {
			return 0, err
		}
		for _, it := range page.Items {
			sum += it.AmountCents
		}
		if cursor = page.Metadata.NextCursor; cursor == "" {
			return sum, nil
		}
	}
	return 0, errors.New("too many pages")
}
