package traffic_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// prefer is a request header map asking for an outcome.
func prefer(value string, more ...string) map[string]string {
	h := map[string]string{"Prefer": value}
	for i := 0; i+1 < len(more); i += 2 {
		h[more[i]] = more[i+1]
	}
	return h
}

// TestPreferCodeAnswersInTheRoutesEnvelope: a request asking for a status
// with Prefer: code=NNN gets it, in its route's generation's envelope,
// whatever the route would have answered.
func TestPreferCodeAnswersInTheRoutesEnvelope(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for _, c := range []struct {
		status           int
		identifier, name string
	}{
		{400, "invalid_request", "BadRequestError"}, {401, "unauthorized", "UnauthorizedError"},
		{403, "forbidden", "ForbiddenError"}, {404, "not_found", "NotFoundError"},
		{409, "conflict", "ConflictError"}, {422, "unprocessable_entity", "UnprocessableEntityError"},
		{500, "internal", "InternalServerError"}, {502, "bad_gateway", "BadGatewayError"},
		{503, "unavailable", "ServiceUnavailableError"}, {504, "gateway_timeout", "GatewayTimeoutError"},
	} {
		t.Run(http.StatusText(c.status), func(t *testing.T) {
			code := prefer("code=" + strconv.Itoa(c.status))
			m := e.Do(apitest.Req{Path: "/account", Key: apitest.AcmeKey, Header: code}).Gen1(t, c.status, c.identifier)
			if m["name"] != c.name {
				t.Errorf("first-generation name = %v, want %s", m["name"], c.name)
			}
			d := e.Do(apitest.Req{Path: "/v2/contacts", Key: apitest.AliceKey, LE: "le_acme", Header: code})
			d.Gen2(t, c.status, c.identifier)
		})
	}
	t.Run("among other preferences, in any case, quoted", func(t *testing.T) {
		for _, v := range []string{`respond-async, wait=10, code=503`, `return=minimal; x=1, CODE = "503"; foo`} {
			e.Do(apitest.Req{Path: "/account", Key: apitest.AcmeKey, Header: prefer(v)}).Gen1(t, 503, "unavailable")
		}
	})
	t.Run("other preferences only are ignored", func(t *testing.T) {
		for _, v := range []string{`return=minimal`, `respond-async, wait=5`, `codex=503`, `"code=503"`} {
			e.Do(apitest.Req{Path: "/account", Key: apitest.AcmeKey, Header: prefer(v)}).Status(t, 200)
		}
	})
}

// TestPreferCode429IsPlainTextWithRetryAfter: a forced 429 answers as the
// rate limit does, on either generation.
func TestPreferCode429IsPlainTextWithRetryAfter(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for _, r := range []apitest.Req{
		{Path: "/account", Key: apitest.AcmeKey, Header: prefer("code=429")},
		{Path: "/v2/contacts", Key: apitest.AliceKey, LE: "le_acme", Header: prefer("code=429")},
	} {
		res := e.Do(r).Status(t, http.StatusTooManyRequests)
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
			t.Errorf("%s: Content-Type %q, want plain text", r.Path, ct)
		}
		if got := res.Header.Get("Retry-After"); got != "1" {
			t.Errorf("%s: Retry-After %q, want 1", r.Path, got)
		}
		if !strings.Contains(string(res.Raw), "Too Many Requests") {
			t.Errorf("%s: body %q", r.Path, res.Raw)
		}
	}
}

// TestPreferCodeWritesNothing: a card create asking for 503 makes no card
// and leaves its idempotency key unused, so the same request without the
// preference then creates the card; the journal shows the first as forced.
func TestPreferCodeWritesNothing(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	const body = `{"type":"virtual","name":"Forced lunch","cardGroupId":"card_group_acmetravel"}`
	cards := func() []string {
		var page struct {
			Items []struct{ Name string } `json:"items"`
		}
		e.Get("/card", apitest.AcmeKey, "").Status(t, 200).Decode(t, &page)
		names := make([]string, len(page.Items))
		for i, c := range page.Items {
			names[i] = c.Name
		}
		return names
	}
	before := cards()
	create := apitest.Req{Method: http.MethodPost, Path: "/card", Key: apitest.AcmeKey, Body: body,
		Header: prefer("code=503", "X-Idempotency-Key", "forced-1")}
	e.Do(create).Gen1(t, 503, "unavailable")
	if after := cards(); len(after) != len(before) || strings.Contains(strings.Join(after, "|"), "Forced lunch") {
		t.Fatalf("cards after a forced 503: %q, before: %q", after, before)
	}

	create.Header["Prefer"] = ""
	var made struct{ Name string }
	e.Do(create).Status(t, http.StatusCreated).Decode(t, &made)
	if after := cards(); made.Name != "Forced lunch" || len(after) != len(before)+1 {
		t.Fatalf("the real request made %+v; cards now %q", made, after)
	}

	var journal struct {
		Items []struct {
			Status         int
			Forced         bool
			RequestHeaders map[string]string
		}
	}
	e.Get("/_sandbox/requests?route=card.create", "", "").Status(t, 200).Decode(t, &journal)
	if len(journal.Items) != 2 {
		t.Fatalf("journal of card.create: %+v, want two entries", journal.Items)
	}
	real, forced := journal.Items[0], journal.Items[1]
	if !forced.Forced || forced.Status != 503 || forced.RequestHeaders["Prefer"] != "code=503" {
		t.Errorf("the forced request's entry = %+v, want forced, 503 and its Prefer header", forced)
	}
	if real.Forced || real.Status != 201 {
		t.Errorf("the real request's entry = %+v, want 201, not forced", real)
	}
}

// TestPreferCodeRefusesAStatusItCannotForce: a success, a redirect, a
// status no route answers or a value that is no status is a 400 in the
// route's envelope naming the accepted statuses, and does nothing.
func TestPreferCodeRefusesAStatusItCannotForce(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	const accepted = "give code= one of 400, 401, 403, 404, 409, 422, 429, 500, 502, 503, 504"
	for _, v := range []string{"code=200", "code=302", "code=418", "code=abc", "code=5033", "code=+50", "code",
		`code="503`, "code=" + strings.Repeat("9", 4096)} {
		t.Run(v, func(t *testing.T) {
			m := e.Do(apitest.Req{Path: "/account", Key: apitest.AcmeKey, Header: prefer(v)}).Gen1(t, 400, "invalid_request")
			d1, _ := m["meta"].(map[string]any)["details"].(map[string]any)["Prefer"].(string)
			if !strings.Contains(d1, accepted) || len(d1) > 200 {
				t.Errorf("meta.details.Prefer = %.300q, want it to say %q, quoting at most the value's start", d1, accepted)
			}
			d := e.Do(apitest.Req{Method: http.MethodPost, Path: "/v2/information-requests", Key: apitest.AliceKey,
				LE:   "le_acme",
				Body: `{}`, Header: prefer(v, "X-Idempotency-Key", "refused-"+v)}).Gen2(t, 400, "invalid_request")
			if !strings.Contains(d["Prefer"], accepted) {
				t.Errorf("details.Prefer = %q, want it to say %q", d["Prefer"], accepted)
			}
		})
	}
}

// TestPreferCodeLeavesControlRoutesAlone: the control API answers as
// usual whatever Prefer asks.
func TestPreferCodeLeavesControlRoutesAlone(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	for _, v := range []string{"code=503", "code=200"} {
		e.Do(apitest.Req{Path: "/_sandbox/clock", Header: prefer(v)}).Status(t, 200)
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: `{"by":"1h"}`,
			Header: prefer(v)}).Status(t, 200)
	}
	clock := e.Get("/_sandbox/clock", "", "").Status(t, 200).JSON(t)
	if clock["now"] == clock["start"] {
		t.Fatalf("the advances with Prefer did not run: %v", clock)
	}
}

// TestPreflightAllowsPrefer: a page of another origin may send Prefer to
// the public API.
func TestPreflightAllowsPrefer(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	r := e.Do(apitest.Req{Method: http.MethodOptions, Path: "/card", Header: map[string]string{
		"Origin": "http://localhost:5173", "Access-Control-Request-Method": "GET",
		"Access-Control-Request-Headers": "x-api-key, prefer",
	}}).Status(t, http.StatusNoContent)
	if allowed := strings.ToLower(r.Header.Get("Access-Control-Allow-Headers")); !strings.Contains(allowed, "prefer") {
		t.Fatalf("Access-Control-Allow-Headers = %q, want prefer in it", allowed)
	}
}
