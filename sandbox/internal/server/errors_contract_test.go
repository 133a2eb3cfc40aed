package server_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestFirstGenerationMessagesEndWithTheirHandle follows the published
// error example: a first-generation message is a text, a space, then
// "[<identifier>-<requestId>]", the request id being both meta.referenceId
// and the X-Request-Id header.
func TestFirstGenerationMessagesEndWithTheirHandle(t *testing.T) {
	e := newEnv(t, options{})
	e.do(req{method: http.MethodPost, path: "/_sandbox/faults", body: `{"route":"card_group.list","status":500,"count":` +
		`1}`}).
		status(t, 201)
	cases := []struct {
		name       string
		r          req
		status     int
		identifier string
	}{
		{"missing key", req{path: "/card"}, 401, "unauthorized"},
		{"user key without x-legal-entity", req{path: "/card", key: aliceKey}, 400, "invalid_request"},
		{"entity without a role", req{path: "/card", key: aliceKey, le: "le_nowhere"}, 403, "forbidden"},
		{"unknown card", req{path: "/card/card_nope", key: acmeKey}, 404, "not_found"},
		{"method not allowed", req{method: http.MethodDelete, path: "/card-group", key: acmeKey}, 405, "method_not_allowed"},
		{"reused idempotency key", req{method: http.MethodPost, path: "/transfers/book-transfer", key: acmeKey,
			header: map[string]string{"X-Idempotency-Key": "contract-1"},
			body:   `{"from":"sa_group_acmeoperating","to":"subaccount_acmeengineering","amountCents":2}`}, 409, "conflict"},
		{"injected fault", req{path: "/card-group", key: acmeKey}, 500, "internal"},
		{
			"client request id",
			req{path: "/card/card_nope", key: acmeKey, header: map[string]string{"X-Request-Id": "client.id-7"}},
			404,
			"not_found",
		},
	}
	e.do(req{method: http.MethodPost, path: "/transfers/book-transfer", key: acmeKey,
		header: map[string]string{"X-Idempotency-Key": "contract-1"},
		body:   `{"from":"sa_group_acmeoperating","to":"subaccount_acmeengineering","amountCents":1}`}).status(t, 200)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.do(c.r)
			m := res.gen1(t, c.status, c.identifier)
			id := res.Header.Get("X-Request-Id")
			if v, ok := c.r.header["X-Request-Id"]; ok && id != v {
				t.Errorf("X-Request-Id = %q, want the client's %q", id, v)
			}
			pattern := regexp.MustCompile(`^.+ \[` + regexp.QuoteMeta(c.identifier+"-"+id) + `\]$`)
			msg := m["message"].(string)
			if !pattern.MatchString(msg) {
				t.Errorf("message %q does not match %s", msg, pattern)
			}
			if ref := m["meta"].(map[string]any)["referenceId"]; ref != id {
				t.Errorf("meta.referenceId = %v, want %s", ref, id)
			}
			if !strings.Contains(e.log.String(), `"reference_id":"`+id+`"`) {
				t.Errorf("the request log does not carry reference id %s", id)
			}
		})
	}
}

// Second-generation errors keep their own reference id and a bare message.
func TestSecondGenerationMessagesHaveNoHandle(t *testing.T) {
	e := newEnv(t, options{})
	res := e.get("/v2/contacts", acmeKey, "le_acme")
	res.gen2(t, 403, "user_api_key_required")
	m := res.json(t)
	if msg := m["message"].(string); strings.HasSuffix(msg, "]") {
		t.Errorf("second-generation message %q has a handle", msg)
	}
	if m["referenceId"] == res.Header.Get("X-Request-Id") {
		t.Errorf("second-generation referenceId is the request id")
	}
}
