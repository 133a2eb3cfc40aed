package server_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkMCPCallVersusHTTP makes the same call, GET /account, over plain
// HTTP and through the MCP server's call_api_endpoint tool, both over real
// loopback connections to one server, and reports how fast the tool call is
// next to the plain call (mcp/http-speed: 1 is as fast; the target is at
// least 0.5). The tool call is posted as the JSON-RPC message any client
// sends, in a session the official Go client opened, so the figure is the
// server's cost and not one client library's.
//
//	go test ./sandbox/server -run '^$' -bench MCPCallVersusHTTP -benchtime 2000x
func BenchmarkMCPCallVersusHTTP(b *testing.B) {
	srv := httptest.NewServer(benchServer(b, "demo"))
	b.Cleanup(srv.Close)
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	session, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp?apiKey=sk_sandbox_acme"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { session.Close() })
	protocol := session.InitializeResult().ProtocolVersion
	call := []byte(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"call_api_endpoint","arguments":{"method":"GET","path":"/account"}}}`)
	plain, err := http.NewRequest(http.MethodGet, srv.URL+"/account", nil)
	if err != nil {
		b.Fatal(err)
	}
	plain.Header.Set("X-API-Key", "sk_sandbox_acme")
	var viaHTTP, viaMCP time.Duration
	for b.Loop() {
		start := time.Now()
		res, err := http.DefaultClient.Do(plain)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatalf("GET /account = %d", res.StatusCode)
		}
		viaHTTP += time.Since(start)
		start = time.Now()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp?apiKey=sk_sandbox_acme", bytes.NewReader(call))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", session.ID())
		req.Header.Set("Mcp-Protocol-Version", protocol)
		res, err = http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		out, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !bytes.Contains(out, []byte("sa_group_acmeoperating")) || bytes.Contains(out, []byte(`"isError":true`)) {
			b.Fatalf("tools/call = %d: %s", res.StatusCode, out)
		}
		viaMCP += time.Since(start)
	}
	b.ReportMetric(float64(viaHTTP)/float64(viaMCP), "mcp/http-speed")
	b.ReportMetric(float64(viaMCP.Microseconds())/float64(b.N), "µs/mcp-call")
	b.ReportMetric(float64(viaHTTP.Microseconds())/float64(b.N), "µs/http-call")
}
