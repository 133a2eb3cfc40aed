package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestBatchBudget: the tools' answers are charged to their batch; past the
// limit an answer is dropped and a later call does not run, and the
// writer answers the batch with a JSON-RPC error.
func TestBatchBudget(t *testing.T) {
	b := newBatches()
	body := "[" + strings.TrimSuffix(strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"ping"},`, 3), ",") + "]"
	rec := httptest.NewRecorder()
	bw, r, done, ok := b.limit(rec, httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body)))
	if !ok || r.Header.Get(batchHeader) == "" {
		t.Fatalf("a batch of 3 was not admitted with a budget: %v %q", ok, r.Header.Get(batchHeader))
	}
	ran := 0
	big := strings.Repeat("x", maxBatchAnswer/2+1)
	handler := b.middleware(func(context.Context, string, mcp.Request) (mcp.Result, error) {
		ran++
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: big}}}, nil
	})
	call := func() string {
		in := &mcp.CallToolRequest{Extra: &mcp.RequestExtra{Header: r.Header}}
		res, err := handler(context.Background(), "tools/call", in)
		if err != nil {
			t.Fatal(err)
		}
		text := res.(*mcp.CallToolResult).Content[0].(*mcp.TextContent).Text
		return text[:min(len(text), 40)]
	}
	for i, want := range []string{"xxxx", "left out: the answers", "not run: the answers"} {
		if got := call(); !strings.HasPrefix(got, want) {
			t.Errorf("call %d answered %q, want %q", i+1, got, want)
		}
	}
	if ran != 2 {
		t.Errorf("%d calls ran, want 2", ran)
	}
	bw.Header().Set("Content-Type", "application/json")
	bw.WriteHeader(http.StatusOK)
	if _, err := bw.Write([]byte(`[{"jsonrpc":"2.0","id":1,"result":{}}]`)); err == nil {
		t.Errorf("the answer to a batch past its budget was written")
	}
	done()
	if rec.Code != http.StatusBadRequest || !isRPCError(rec.Body.String(), "more than 16 MiB") {
		t.Errorf("the batch was answered %d %s", rec.Code, rec.Body)
	}
	if len(b.budget) != 0 {
		t.Errorf("%d budgets kept after the batch", len(b.budget))
	}
}

// TestBatchHeaderIsTheServers: a client's own batch header is dropped, so
// that a message outside a batch is never charged to one.
func TestBatchHeaderIsTheServers(t *testing.T) {
	b := newBatches()
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	req.Header.Set(batchHeader, "1")
	_, r, done, ok := b.limit(httptest.NewRecorder(), req)
	if !ok || r.Header.Get(batchHeader) != "" {
		t.Errorf("a single message keeps the batch header %q", r.Header.Get(batchHeader))
	}
	done()
}
