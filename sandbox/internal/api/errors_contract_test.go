package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// TestFirstGenerationMessagesEndWithTheirHandle follows the published
// error example: a first-generation message is a text, a space, then
// "[<identifier>-<requestId>]", the request id being both meta.referenceId
// and the X-Request-Id header.
func TestFirstGenerationMessagesEndWithTheirHandle(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/faults",
		Body: `{"route":"card_group.list","status":500,"count":` +
			`1}`}).
		Status(t, 201)
	cases := []struct {
		name       string
		r          apitest.Req
		status     int
		identifier string
	}{
		{"missing key", apitest.Req{Path: "/card"}, 401, "unauthorized"},
		{"user key without x-legal-entity", apitest.Req{Path: "/card", Key: apitest.AliceKey}, 400, "invalid_request"},
		{
			"entity without a role",
			apitest.Req{Path: "/card", Key: apitest.AliceKey, LE: "le_nowhere"},
			403,
			"forbidden",
		},
		{"unknown card", apitest.Req{Path: "/card/card_nope", Key: apitest.AcmeKey}, 404, "not_found"},
		{
			"method not allowed",
			apitest.Req{Method: http.MethodDelete, Path: "/card-group", Key: apitest.AcmeKey},
			405,
			"method_not_allowed",
		},
		{
			"reused idempotency key",
			apitest.Req{Method: http.MethodPost, Path: "/transfers/book-transfer", Key: apitest.AcmeKey,
				Header: map[string]string{"X-Idempotency-Key": "contract-1"},
				Body:   `{"from":"sa_group_acmeoperating","to":"subaccount_acmeengineering","amountCents":2}`},
			409,
			"conflict",
		},
		{"injected fault", apitest.Req{Path: "/card-group", Key: apitest.AcmeKey}, 500, "internal"},
		{
			"client request id",
			apitest.Req{
				Path:   "/card/card_nope",
				Key:    apitest.AcmeKey,
				Header: map[string]string{"X-Request-Id": "client.id-7"},
			},
			404,
			"not_found",
		},
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/transfers/book-transfer", Key: apitest.AcmeKey,
		Header: map[string]string{"X-Idempotency-Key": "contract-1"},
		Body:   `{"from":"sa_group_acmeoperating","to":"subaccount_acmeengineering","amountCents":1}`}).Status(t, 200)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := e.Do(c.r)
			m := res.Gen1(t, c.status, c.identifier)
			id := res.Header.Get("X-Request-Id")
			if v, ok := c.r.Header["X-Request-Id"]; ok && id != v {
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
			if !strings.Contains(e.Log.String(), `"reference_id":"`+id+`"`) {
				t.Errorf("the request log does not carry reference id %s", id)
			}
		})
	}
}

// Second-generation errors keep their own reference id and a bare message.
func TestSecondGenerationMessagesHaveNoHandle(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	res := e.Get("/v2/contacts", apitest.AcmeKey, "le_acme")
	res.Gen2(t, 403, "user_api_key_required")
	m := res.JSON(t)
	if msg := m["message"].(string); strings.HasSuffix(msg, "]") {
		t.Errorf("second-generation message %q has a handle", msg)
	}
	if m["referenceId"] == res.Header.Get("X-Request-Id") {
		t.Errorf("second-generation referenceId is the request id")
	}
}
