package server_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// The handler benchmarks run the whole HTTP stack in process (router,
// middleware, request log at info level into io.Discard, the journal) with
// no network: what each request costs the server. bench/perf measures the
// same operations over real connections.

func serve(b *testing.B, h http.Handler, method, target, key string, body []byte, want int) []byte {
	return serveWith(b, h, method, target, key, body, want, nil)
}

// fresh asks for an answer computed afresh, not the read cache's.
var fresh = map[string]string{"Cache-Control": "no-cache"}

func serveWith(
	b *testing.B,
	h http.Handler,
	method, target, key string,
	body []byte,
	want int,
	header map[string]string,
) []byte {
	req := httptest.NewRequest(method, target, bytes.NewReader(body))
	req.Header.Set("X-API-Key", key)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != want {
		b.Fatalf("%s %s = %d, want %d: %s", method, target, rec.Code, want, rec.Body)
	}
	return rec.Body.Bytes()
}

// BenchmarkCardList is GET /card, first page, on the demo scenario.
func BenchmarkCardList(b *testing.B) {
	h := apitest.BenchServer(b, "demo")
	for b.Loop() {
		serve(b, h, "GET", "/card", "sk_sandbox_acme", nil, 200)
	}
}

// BenchmarkTransactionList is GET /transaction, first page, on the demo
// scenario.
func BenchmarkTransactionList(b *testing.B) {
	h := apitest.BenchServer(b, "demo")
	for b.Loop() {
		serve(b, h, "GET", "/transaction", "sk_sandbox_acme", nil, 200)
	}
}

// BenchmarkCardCreate is POST /card on the demo scenario.
func BenchmarkCardCreate(b *testing.B) {
	h := apitest.BenchServer(b, "demo")
	body := []byte(`{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Bench card"}`)
	for b.Loop() {
		serve(b, h, "POST", "/card", "sk_sandbox_acme", body, 201)
	}
}

// The big world: bench/big.yaml, 100,000 transactions, loaded once.
var big struct {
	once    sync.Once
	h       http.Handler
	cursor  string // the cursor that fetches page 500
	initErr error
}

func bigServer(b *testing.B) (http.Handler, string) {
	b.Helper()
	big.once.Do(func() {
		cfg := apitest.WithAll(server.Config{Scenario: "../../../bench/big.yaml",
			Log: zerolog.New(io.Discard).Level(zerolog.InfoLevel)})
		cfg.VerifyReads = false
		s, err := server.New(cfg)
		if err != nil {
			big.initErr = err
			return
		}
		big.h = s.Handler
		next := ""
		for page := 1; page < 500; page++ {
			target := "/transaction"
			if next != "" {
				target += "?cursor=" + url.QueryEscape(next)
			}
			var p struct {
				Metadata struct {
					NextCursor string `json:"nextCursor"`
				} `json:"metadata"`
			}
			if err := json.Unmarshal(serve(b, big.h, "GET", target, "sk_bench_big", nil, 200), &p); err != nil {
				big.initErr = err
				return
			}
			next = p.Metadata.NextCursor
		}
		big.cursor = next
	})
	if big.initErr != nil {
		b.Fatal(big.initErr)
	}
	return big.h, big.cursor
}

// BenchmarkBigTransactionPage1 is the first page of GET /transaction over
// 100,000 transactions, computed afresh each time (Cache-Control: no-cache).
func BenchmarkBigTransactionPage1(b *testing.B) {
	h, _ := bigServer(b)
	for b.Loop() {
		serveWith(b, h, "GET", "/transaction", "sk_bench_big", nil, 200, fresh)
	}
}

// BenchmarkBigTransactionPage500 is the 500th page, fetched afresh with the
// cursor page 499 returned.
func BenchmarkBigTransactionPage500(b *testing.B) {
	h, cursor := bigServer(b)
	target := "/transaction?cursor=" + url.QueryEscape(cursor)
	for b.Loop() {
		serveWith(b, h, "GET", target, "sk_bench_big", nil, 200, fresh)
	}
}

// BenchmarkBigAggregation is GET /transaction/aggregation over all 100,000
// transactions, computed afresh each time.
func BenchmarkBigAggregation(b *testing.B) {
	h, _ := bigServer(b)
	for b.Loop() {
		serveWith(b, h, "GET", "/transaction/aggregation", "sk_bench_big", nil, 200, fresh)
	}
}

// BenchmarkHealth is GET /_sandbox/health: what the stack around every
// handler costs (routing, middleware, request log, journal).
func BenchmarkHealth(b *testing.B) {
	h := apitest.BenchServer(b, "demo")
	for b.Loop() {
		serve(b, h, "GET", "/_sandbox/health", "", nil, 200)
	}
}
