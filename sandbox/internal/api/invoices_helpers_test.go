package api_test

import (
	"net/http"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// arDo sends a request with a JSON body (or none when body is nil).
func arDo(e *apitest.Env, method, path, key string, body any) *apitest.Resp {
	e.T.Helper()
	return e.Do(apitest.Req{Method: method, Path: path, Key: key, Body: body})
}

// arAs sends a request as a user key acting on le.
func arAs(e *apitest.Env, method, path, key, le string, body any) *apitest.Resp {
	e.T.Helper()
	return e.Do(apitest.Req{Method: method, Path: path, Key: key, LE: le, Body: body})
}

// arMap reads a nested object of a decoded JSON body.
func arMap(v any, path ...string) map[string]any {
	m, _ := v.(map[string]any)
	for _, p := range path {
		m, _ = m[p].(map[string]any)
	}
	return m
}

// arItems reads the items of a list body.
func arItems(body map[string]any) []map[string]any {
	raw, _ := body["items"].([]any)
	out := make([]map[string]any, len(raw))
	for i, it := range raw {
		out[i], _ = it.(map[string]any)
	}
	return out
}

// arInvoiceAction POSTs to an invoice action as acme and returns the
// invoice it answers with.
func arInvoiceAction(t *testing.T, e *apitest.Env, path string, body any) apitest.InvoiceState {
	t.Helper()
	var s apitest.InvoiceState
	arDo(e, http.MethodPost, path, apitest.AcmeKey, body).Status(t, http.StatusOK).Decode(t, &s)
	return s
}
