package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/engine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// demoHandler is the whole server over a demo world, without a listener.
func demoHandler(f *testing.F) http.Handler {
	sc, err := scenario.Load("demo")
	if err != nil {
		f.Fatal(err)
	}
	eng, err := engine.New(nil)
	if err != nil {
		f.Fatal(err)
	}
	if _, err := eng.CreateWorld(kernel.WorldSpec{Scenario: sc}); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { eng.Close() })
	return server.Handler(eng, apitest.WithAll(server.Config{Log: zerolog.Nop()}))
}

// FuzzListQueries sends list routes arbitrary query strings: cursors,
// filters, FDX offsets and limits. None may answer 5xx.
func FuzzListQueries(f *testing.F) {
	h := demoHandler(f)
	first := httptest.NewRecorder()
	h.ServeHTTP(first, authed(httptest.NewRequest(http.MethodGet, "/transaction", nil)))
	var pg apitest.Page
	json.Unmarshal(first.Body.Bytes(), &pg)
	f.Add("/transaction", "cursor="+url.QueryEscape(pg.Metadata.NextCursor))
	for _, seed := range []string{"cursor=abc.def", "cursor=", "cursor=a&cursor=b",
		"filter:status=posted&filter:from_date=1",
		"filter:from_date=-9223372036854775808", "filter:detailed_status=%00", "search:merchant_name=%FF", "limit=0&offset=x",
		"offset=txn_nope", "startTime=2026-13-45", "cursor=eyJhIjoiIiwicyI6IiJ9.AAAA"} {
		for _, path := range []string{"/transaction", "/merchant", "/merchant-category", "/fdx/accounts",
			"/fdx/accounts/sa_group_acmeoperating/transactions", "/fdx/accounts/sa_group_acmeoperating/statements",
			"/agent-request"} {
			f.Add(path, seed)
		}
	}
	f.Fuzz(func(t *testing.T, path, query string) {
		u, err := url.Parse(path)
		if err != nil || u.Path == "" || u.Path[0] != '/' {
			return
		}
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.URL.Path, r.URL.RawQuery = u.Path, query
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, authed(r))
		if rec.Code >= 500 {
			t.Fatalf("GET %s?%s answered %d: %s", path, query, rec.Code, rec.Body)
		}
	})
}

func authed(r *http.Request) *http.Request {
	r.Header.Set("X-API-Key", "sk_sandbox_acme")
	return r
}
