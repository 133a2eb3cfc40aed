package apitest

import (
	"regexp"
	"sort"
	"strings"
)

// SweepOp is one operation of the sandbox's document.
type SweepOp struct {
	ID, Method, Path string
	Query            []string
	Body             any
}

// SweepOperations lists every operation of an OpenAPI document.
func SweepOperations(doc map[string]any) []SweepOp {
	var ops []SweepOp
	for path, item := range doc["paths"].(map[string]any) {
		for method, raw := range item.(map[string]any) {
			m := raw.(map[string]any)
			if m["operationId"] == "mcp" {
				// JSON-RPC over Streamable HTTP, not a REST operation:
				// its transport answers in its own terms, and
				// mcp_test.go drives it with the official client.
				continue
			}
			op := SweepOp{ID: m["operationId"].(string), Method: strings.ToUpper(method), Path: path}
			params, _ := m["parameters"].([]any)
			for _, p := range params {
				if pm := p.(map[string]any); pm["in"] == "query" {
					op.Query = append(op.Query, pm["name"].(string))
				}
			}
			if rb, ok := m["requestBody"].(map[string]any); ok {
				for _, media := range rb["content"].(map[string]any) {
					op.Body = media.(map[string]any)["schema"]
				}
			}
			ops = append(ops, op)
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].ID+ops[i].Method < ops[j].ID+ops[j].Method })
	return ops
}

// PathParam matches a path parameter of an operation's path template.
var PathParam = regexp.MustCompile(`\{[^}]+\}`)
