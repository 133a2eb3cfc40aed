package mcp_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// BenchmarkMCPCallVersusHTTP makes the same call, GET /account, over plain
// HTTP and through the MCP server's call_api_endpoint tool, both over real
// loopback connections to one server, and reports how many tool calls are
// made in the time of a plain call (mcp/http: 1 is as many; the target is
// at least 0.5):
//
//   - one-at-a-time: one client, each call waiting for the one before, in
//     alternation, so both see the same machine;
//   - concurrent: 16 clients at once for each kind in turn (b.N calls of
//     each in all), the calls per second of each.
//
// The tool call is posted as the JSON-RPC message any client sends, in a
// session the official Go client opened, so the figure is the server's
// cost and not one client library's.
//
//	go test ./sandbox/internal/server -run '^$' -bench MCPCallVersusHTTP -benchtime 3000x
func BenchmarkMCPCallVersusHTTP(b *testing.B) {
	srv := httptest.NewServer(apitest.BenchServer(b, "demo"))
	b.Cleanup(srv.Close)
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	session, err := client.Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp?apiKey=sk_sandbox_acme"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { session.Close() })
	calls := &benchCalls{url: srv.URL, session: session.ID(), protocol: session.InitializeResult().ProtocolVersion,
		client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}}}

	b.Run("one-at-a-time", func(b *testing.B) {
		var viaHTTP, viaMCP time.Duration
		for b.Loop() {
			viaHTTP += calls.timed(b, false)
			viaMCP += calls.timed(b, true)
		}
		b.ReportMetric(float64(viaHTTP)/float64(viaMCP), "mcp/http")
		b.ReportMetric(float64(viaMCP.Microseconds())/float64(b.N), "µs/mcp-call")
		b.ReportMetric(float64(viaHTTP.Microseconds())/float64(b.N), "µs/http-call")
	})
	b.Run("concurrent", func(b *testing.B) {
		// b.N calls of each kind, shared by the clients, in rounds that
		// alternate the kinds.
		const clients, rounds = 16, 4
		perClient := max(1, b.N/(clients*rounds))
		var viaHTTP, viaMCP time.Duration
		for range rounds {
			viaHTTP += calls.burst(b, false, clients, perClient)
			viaMCP += calls.burst(b, true, clients, perClient)
		}
		made := float64(rounds * clients * perClient)
		b.ReportMetric(float64(viaHTTP)/float64(viaMCP), "mcp/http")
		b.ReportMetric(made/viaMCP.Seconds(), "mcp-calls/s")
		b.ReportMetric(made/viaHTTP.Seconds(), "http-calls/s")
	})
}

// benchCalls makes the two calls the benchmark compares.
type benchCalls struct {
	url, session, protocol string
	client                 *http.Client
	ids                    atomic.Int64
}

// toolCall is the tools/call message with the given request id: calls in
// flight at once in a session need ids of their own.
func toolCall(id int64) []byte {
	return fmt.Appendf(
		nil,
		`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"call_api_endpoint","arguments":{"method":"GET",`+
			`"path":"/account"}}}`,
		id,
	)
}

// timed makes one call and returns how long it took.
func (c *benchCalls) timed(b *testing.B, viaMCP bool) time.Duration {
	start := time.Now()
	if err := c.call(viaMCP); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// burst has clients make n calls each at once and returns the time until
// the last one ended.
func (c *benchCalls) burst(b *testing.B, viaMCP bool, clients, n int) time.Duration {
	var wg sync.WaitGroup
	var failed atomic.Pointer[error]
	start := time.Now()
	for range clients {
		wg.Go(func() {
			for range n {
				if err := c.call(viaMCP); err != nil {
					failed.Store(&err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := failed.Load(); err != nil {
		b.Fatal(*err)
	}
	return time.Since(start)
}

func (c *benchCalls) call(viaMCP bool) error {
	var req *http.Request
	if viaMCP {
		req, _ = http.NewRequest(http.MethodPost, c.url+"/mcp?apiKey=sk_sandbox_acme",
			bytes.NewReader(toolCall(c.ids.Add(1))))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", c.session)
		req.Header.Set("Mcp-Protocol-Version", c.protocol)
	} else {
		req, _ = http.NewRequest(http.MethodGet, c.url+"/account", nil)
		req.Header.Set("X-API-Key", "sk_sandbox_acme")
	}
	res, err := c.client.Do(req)
	if err != nil {
		return err
	}
	out, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !bytes.Contains(out, []byte("sa_group_acmeoperating")) ||
		bytes.Contains(out, []byte(`"isError":true`)) {
		return &benchFailure{status: res.StatusCode, body: out}
	}
	return nil
}

type benchFailure struct {
	status int
	body   []byte
}

func (f *benchFailure) Error() string { return http.StatusText(f.status) + ": " + string(f.body) }
