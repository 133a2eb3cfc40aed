package mcp

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
)

// BenchmarkSDKFloor measures what the MCP SDK's Streamable HTTP handler
// costs by itself: a tool that does nothing, served the way the sandbox
// serves its tools, against a bare net/http handler answering the same
// bytes, 16 clients at once over loopback. mcp/http is the share of the
// bare handler's calls per second the SDK reaches before any sandbox work,
// the ceiling for any tool call served through it.
//
//	go test ./sandbox/internal/mcp -run '^$' -bench SDKFloor -benchtime 20x
func BenchmarkSDKFloor(b *testing.B) {
	server := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "1"}, nil)
	server.AddTool(
		&mcp.Tool{Name: "noop", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: `{"ok":true}`}}}, nil
		},
	)
	mux := http.NewServeMux()
	mux.Handle(
		"/mcp",
		mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
			&mcp.StreamableHTTPOptions{JSONResponse: true}),
	)
	mux.HandleFunc("/bare", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(`{"ok":true}`)) })
	srv := httptest.NewServer(mux)
	b.Cleanup(srv.Close)
	session, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { session.Close() })
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}}
	var ids atomic.Int64
	request := func(viaMCP bool) *http.Request {
		if !viaMCP {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/bare", nil)
			return req
		}
		req, _ := http.NewRequest(
			http.MethodPost,
			srv.URL+"/mcp",
			bytes.NewReader(
				fmt.Appendf(
					nil,
					`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"noop","arguments":{}}}`,
					ids.Add(1),
				),
			),
		)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", session.ID())
		req.Header.Set("Mcp-Protocol-Version", session.InitializeResult().ProtocolVersion)
		return req
	}
	burst := func(viaMCP bool) time.Duration {
		var wg sync.WaitGroup
		start := time.Now()
		for range 16 {
			wg.Go(func() {
				for range 50 {
					res, err := client.Do(request(viaMCP))
					if err != nil {
						b.Error(err)
						return
					}
					out, _ := io.ReadAll(res.Body)
					res.Body.Close()
					if res.StatusCode != http.StatusOK || !bytes.Contains(out, []byte(`ok`)) {
						b.Errorf("%d: %s", res.StatusCode, out)
						return
					}
				}
			})
		}
		wg.Wait()
		return time.Since(start)
	}
	var bare, viaMCP time.Duration
	for b.Loop() {
		bare += burst(false)
		viaMCP += burst(true)
	}
	b.ReportMetric(float64(bare)/float64(viaMCP), "mcp/http")
}
