package record_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/record"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// getOnly puts a proxy in front of a sandbox that fails the test for any
// request but a GET or HEAD.
func getOnly(t *testing.T, src *apitest.Env) string {
	t.Helper()
	target, _ := url.Parse(src.Server.URL)
	rp := httputil.NewSingleHostReverseProxy(target)
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			t.Errorf("the recording sent %s %s", r.Method, r.URL)
			http.Error(w, "read only", http.StatusMethodNotAllowed)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	return proxy.URL
}

// TestRecordedExpensesKeepTheirPayoutsAndTasks: a recording keeps the ids
// of expense reports' reviews, reimbursements and tasks, and the loaded
// world pays out nothing twice: its reports, tasks and payouts answer as
// the source's did, and a reimbursement under way finishes the same way.
func TestRecordedExpensesKeepTheirPayoutsAndTasks(t *testing.T) {
	src := apitest.New(t, apitest.Options{})
	var made struct {
		ExpenseReport struct{ ID string } `json:"expenseReport"`
	}
	src.Post("/expense-report", apitest.AcmeKey, "", "", map[string]any{"submittedByUserId": "u_bob",
		"amountCents": 2750, "currency": "EUR", "fxRateToUsd": "0.92", "fxRateUpdatedAt": "2026-06-14T08:00:00Z",
		"transactionDate": "2026-06-14T12:00:00Z", "destinationId": "ub_bobchecking", "noReceiptReason": "Lost",
		"merchant": map[string]any{"type": "merchantV2", "id": "merchant_v2_uber"}}).Status(t, 200).Decode(t, &made)
	var tasks struct {
		Items []struct{ ID string } `json:"items"`
	}
	src.Get("/task?filter:attr[expenseReportId]="+made.ExpenseReport.ID, apitest.AcmeKey, "").Status(t, 200).
		Decode(t, &tasks)
	src.Post("/task/"+tasks.Items[0].ID+"/act", apitest.AcmeKey, "", "", map[string]any{"action": "approve",
		"payload": map[string]any{"reviewedByUserId": "u_alice"}}).Status(t, 200)

	from := getOnly(t, src)
	anon, err := record.Record(context.Background(), record.Options{From: from, APIKey: apitest.AcmeKey, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range anon.Scenario.Tasks {
		if text := fmt.Sprint(task.Data); strings.Contains(text, "Initech") || strings.Contains(text, "Pixelforge") {
			t.Errorf("task %s keeps a name in its data: %s", task.ID, text)
		}
	}
	// The names kept, the loaded world answers as the source, byte for byte.
	res, err := record.Record(context.Background(), record.Options{From: from, APIKey: apitest.AcmeKey, Seed: 1,
		KeepNames: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, note := range res.Unread {
		if strings.Contains(note, "expense") && !strings.Contains(note, "assignees") {
			t.Errorf("the summary says expenses were not recorded: %s", note)
		}
	}
	data, err := scenario.Encode(res.Scenario)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "recorded.yaml")
	if err := os.WriteFile(file, data, 0o600); err != nil {
		t.Fatal(err)
	}
	dst := apitest.New(t, apitest.Options{Scenario: file})

	const recorded = "sk_recorded_acme"
	check := func(when string) {
		t.Helper()
		reports := func(e *apitest.Env, key string) map[string]string {
			out := map[string]string{}
			for _, r := range apitest.WalkItems(t, e, key, "", "/expense-report") {
				out[r["id"].(string)] = fmt.Sprint(r["status"], r["review"], r["aggregatedTransaction"],
					r["timestamp"], r["fxRateUpdatedAt"])
			}
			return out
		}
		tasks := func(e *apitest.Env, key string) map[string]string {
			out := map[string]string{}
			for _, r := range apitest.WalkItems(t, e, key, "", "/task") {
				out[r["id"].(string)] = fmt.Sprint(r["type"], r["status"], r["data"], r["timestamp"], r["updatedAt"])
			}
			return out
		}
		payouts := func(e *apitest.Env, key string) map[string]string {
			out := map[string]string{}
			for _, r := range apitest.WalkItems(t, e, key, "", "/transaction") {
				if memo, _ := r["memo"].(string); strings.HasPrefix(memo, "Expense report ") {
					out[r["id"].(string)] = fmt.Sprint(memo, r["amountCents"], r["detailedStatus"], r["date"])
				}
			}
			return out
		}
		for what, read := range map[string]func(*apitest.Env, string) map[string]string{"expense report": reports,
			"task": tasks, "payout": payouts} {
			want, got := read(src, apitest.AcmeKey), read(dst, recorded)
			if len(want) < 2 {
				t.Fatalf("%s: the source has %d %ss to compare", when, len(want), what)
			}
			for id, w := range want {
				if got[id] != w {
					t.Errorf("%s: %s %s:\n source %s\n loaded %s", when, what, id, w, got[id])
				}
			}
			if len(got) != len(want) {
				t.Errorf("%s: the source has %d %ss, the loaded world %d", when, len(want), what, len(got))
			}
		}
	}
	check("as recorded")
	for _, e := range []*apitest.Env{src, dst} {
		apitest.Advance(t, e, `{"by":"48h"}`)
	}
	check("two days on")
}
