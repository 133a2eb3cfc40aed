package control_test

import (
	"bytes"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

func TestHealthAndClock(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	h := e.Get("/_sandbox/health", "", "").Status(t, 200).JSON(t)
	if h["status"] != "ok" || h["scenario"] != "demo" || h["seed"] != float64(42) || h["world"] != "default" {
		t.Fatalf("health = %v", h)
	}
	clock := h["clock"].(map[string]any)
	if clock["now"] != "2026-06-15T14:00:00Z" || clock["mode"] != "frozen" {
		t.Fatalf("clock = %v", clock)
	}
	if got := e.Get("/_sandbox/clock", "", "").Status(t, 200).JSON(t); got["now"] != clock["now"] ||
		got["nextEventAt"] == nil {
		t.Fatalf("GET /_sandbox/clock = %v", got)
	}
}

func TestKeysListWhatEachKeyMayDo(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	var body struct {
		Items []struct {
			Key            string   `json:"key"`
			Kind           string   `json:"kind"`
			ReadOnly       bool     `json:"readOnly"`
			LegalEntityIDs []string `json:"legalEntityIds"`
			UserID         string   `json:"userId"`
		} `json:"items"`
	}
	e.Get("/_sandbox/keys", "", "").Status(t, 200).Decode(t, &body)
	byKey := map[string]int{}
	for i, k := range body.Items {
		byKey[k.Key] = i
	}
	want := map[string]struct {
		kind     string
		readOnly bool
		les      []string
		user     string
	}{
		"sk_sandbox_acme":           {"legal_entity", false, []string{"le_acme"}, ""},
		"sk_sandbox_acme_readonly":  {"legal_entity", true, []string{"le_acme"}, ""},
		"sk_sandbox_alice":          {"user", false, []string{"le_acme", "le_globex"}, "u_alice"},
		"sk_sandbox_bob":            {"user", false, []string{"le_acme"}, "u_bob"},
		"sk_sandbox_carol_readonly": {"user", true, []string{"le_acme"}, "u_carol"},
	}
	for key, w := range want {
		i, ok := byKey[key]
		if !ok {
			t.Fatalf("key %s missing from %+v", key, body.Items)
		}
		k := body.Items[i]
		if k.Kind != w.kind || k.ReadOnly != w.readOnly || k.UserID != w.user || len(k.LegalEntityIDs) != len(w.les) {
			t.Fatalf("%s = %+v, want %+v", key, k, w)
		}
		for j := range w.les {
			if k.LegalEntityIDs[j] != w.les[j] {
				t.Fatalf("%s legalEntityIds = %v, want %v", key, k.LegalEntityIDs, w.les)
			}
		}
	}
}

type txnItem struct {
	ID             string  `json:"id"`
	Description    string  `json:"description"`
	AmountCents    float64 `json:"amountCents"`
	Status         string  `json:"status"`
	DetailedStatus string  `json:"detailedStatus"`
}

func pendingOn(t *testing.T, e *apitest.Env, account string) map[string]txnItem {
	t.Helper()
	out := map[string]txnItem{}
	for _, id := range apitest.Walk(t, e, "/transaction?filter:status=pending&filter:accountId="+account, nil) {
		var tx txnItem
		e.Get("/transaction/"+id, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &tx)
		out[id] = tx
	}
	return out
}

func TestAdvanceSettlesPendingTransfersAndReportsEvents(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	avail0, posted0 := apitest.Balance(t, e, "sa_group_acmeoperating")
	if avail0 >= posted0 {
		t.Fatalf("pending wire not counted: available %v, posted %v", avail0, posted0)
	}
	pending := pendingOn(t, e, "sa_group_acmeoperating")
	got := apitest.Advance(t, e, `{"by":"23h"}`)
	var settles int
	var last string
	for _, ev := range got["events"].([]any) {
		m := ev.(map[string]any)
		if at := m["at"].(string); at < last {
			t.Fatalf("events out of order: %s after %s", at, last)
		} else {
			last = at
		}
		if m["kind"] == "transaction.settle" {
			settles++
		}
	}
	if got["clock"].(map[string]any)["now"] != "2026-06-16T13:00:00Z" {
		t.Fatalf("clock after advance = %v", got["clock"])
	}
	var settledSum float64
	var wireSettled bool
	for id, before := range pending {
		var after txnItem
		e.Get("/transaction/"+id, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &after)
		if after.Status == "posted" {
			settledSum += before.AmountCents
			wireSettled = wireSettled || before.Description == "Wire to Bluefin Labs GmbH"
		}
		if before.Description == "ACH to Dana Reyes Consulting" && after.Status != "pending" {
			t.Fatalf("the ACH due at +24h settled within 23h: %+v", after)
		}
	}
	if !wireSettled || settles == 0 {
		t.Fatalf("the wire due at +22h did not settle (%d settlements ran)", settles)
	}
	if _, posted1 := apitest.Balance(t, e, "sa_group_acmeoperating"); posted1 != posted0+settledSum {
		t.Fatalf("posted = %v after settling %v from %v", posted1, settledSum, posted0)
	}
	t.Run("to an instant", func(t *testing.T) {
		got := apitest.Advance(t, e, `{"to":"2026-06-20T00:00:00Z"}`)
		if got["clock"].(map[string]any)["now"] != "2026-06-20T00:00:00Z" {
			t.Fatalf("clock = %v", got["clock"])
		}
	})
	t.Run("to the next event", func(t *testing.T) {
		next := e.Get("/_sandbox/clock", "", "").JSON(t)["nextEventAt"]
		got := apitest.Advance(t, e, `{"to":"next"}`)
		evs := got["events"].([]any)
		if len(evs) == 0 || evs[0].(map[string]any)["at"] != next || got["clock"].(map[string]any)["now"] != next {
			t.Fatalf("advance to next = %v, want the event at %v", got, next)
		}
	})
	t.Run("never backwards", func(t *testing.T) {
		d := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance",
			Body: `{"to":"2026-01-01T00:00:00Z"}`}).
			Gen2(t, 400, "invalid_request")
		if d["/to"] == "" {
			t.Fatalf("details = %v", d)
		}
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: `{"by":"soon"}`}).
			Gen2(t, 400, "invalid_request")
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: `{}`}).
			Gen2(t, 400, "invalid_request")
	})
	t.Run("history lists what ran", func(t *testing.T) {
		done := e.Get("/_sandbox/events?status=done", "", "").Status(t, 200).JSON(t)["items"].([]any)
		sched := e.Get("/_sandbox/events?status=scheduled", "", "").Status(t, 200).JSON(t)["items"].([]any)
		if len(done) == 0 || len(sched) == 0 {
			t.Fatalf("%d done, %d scheduled", len(done), len(sched))
		}
		if done[0].(map[string]any)["status"] != "done" || sched[0].(map[string]any)["status"] != "scheduled" {
			t.Fatalf("statuses: %v / %v", done[0], sched[0])
		}
		e.Get("/_sandbox/events?status=later", "", "").Gen2(t, 400, "invalid_request")
	})
}

func TestResetReturnsToTheStartWithTheSameIDs(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	first := e.Get("/transaction", "sk_sandbox_acme", "").Status(t, 200).Raw
	apitest.Advance(t, e, `{"by":"5d"}`)
	if bytes.Equal(first, e.Get("/transaction", "sk_sandbox_acme", "").Raw) {
		t.Fatal("five days changed no transaction")
	}
	h := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/reset"}).Status(t, 200).JSON(t)
	if h["clock"].(map[string]any)["now"] != "2026-06-15T14:00:00Z" {
		t.Fatalf("clock after reset = %v", h["clock"])
	}
	if again := e.Get("/transaction", "sk_sandbox_acme", "").Raw; !bytes.Equal(first, again) {
		t.Fatal("transactions after reset differ from the start")
	}
}

func TestAdminToken(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{AdminToken: "s3cret"})
	e.Get("/_sandbox/keys", "", "").Gen2(t, 401, "unauthorized")
	e.Do(apitest.Req{Path: "/_sandbox/keys", Header: map[string]string{"X-Admin-Token": "wrong"}}).
		Gen2(t, 401, "unauthorized")
	e.Do(apitest.Req{Path: "/_sandbox/keys", Header: map[string]string{"X-Admin-Token": "s3cret"}}).Status(t, 200)
	e.Do(apitest.Req{Path: "/_sandbox/keys", Header: map[string]string{"Authorization": "Bearer s3cret"}}).
		Status(t, 200)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/reset"}).Gen2(t, 401, "unauthorized")
	e.Get("/account", "sk_sandbox_acme", "").Status(t, 200)
}

// TestAdminTokenSparesOnlyTheSecureForm: with an admin token, the secure
// form's routes open without it, directly or under the world's path, and
// no other route does, whatever /forms/ its path holds.
func TestAdminTokenSparesOnlyTheSecureForm(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{AdminToken: "s3cret"})
	apitest.CreateIR(e, "sk_sandbox_alice", "le_acme", "form", apitest.ValidIR).Status(t, 200)
	link, _ := apitest.OutboxLink(t, e, "hello@pixelforge.test")
	token := link[strings.LastIndex(link, "/")+1:]
	for _, path := range []string{link, "/_sandbox/worlds/default/forms/information-requests/" + token} {
		e.Do(apitest.Req{Path: path}).Status(t, 200)
		if r := apitest.PostForm(e, path, url.Values{}); r.StatusCode == 401 {
			t.Fatalf("POST %s without the token = 401: %s", path, r.Raw)
		}
	}
	for _, r := range []apitest.Req{
		{Path: "/_sandbox/worlds/forms/keys"},
		{Path: "/_sandbox/worlds/forms/x"},
		{Path: "/_sandbox/worlds/default/forms/x"},
		{Path: "/_sandbox/worlds/default/worlds/default/forms/information-requests/" + token},
		{Path: "/_sandbox/snapshots/forms/export"},
		{Method: http.MethodPost, Path: "/_sandbox/agent-requests/forms/approve"},
		{Method: http.MethodPost, Path: "/_sandbox/webhook-deliveries/forms/redeliver"},
		{Path: "/_sandbox/worlds/default/agent-requests/forms"},
	} {
		e.Do(r).Gen2(t, 401, "unauthorized")
	}
}

// GET /_sandbox/health answers a liveness probe without the admin token,
// saying only that the server is up; the world it describes needs the
// token.
func TestHealthWithoutTheAdminToken(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{AdminToken: "s3cret"})
	liveness := `{"status":"ok","version":"` + server.Version + `"}`
	short := func(t *testing.T, r *apitest.Resp) {
		t.Helper()
		if got := string(bytes.TrimSpace(r.Status(t, 200).Raw)); got != liveness {
			t.Fatalf("body = %s, want %s", got, liveness)
		}
	}
	full := func(t *testing.T, r *apitest.Resp) {
		t.Helper()
		h := r.Status(t, 200).JSON(t)
		if h["status"] != "ok" || h["world"] != "default" || h["scenario"] != "demo" || h["seed"] != float64(42) ||
			h["clock"].(map[string]any)["now"] != "2026-06-15T14:00:00Z" {
			t.Fatalf("health with the token = %v", h)
		}
		if m, _ := h["memory"].(map[string]any); m["used"].(float64) <= 0 ||
			m["budget"] != float64(server.DefaultMemoryBudget) {
			t.Fatalf("health with the token: memory = %v, want what is used and the default budget", h["memory"])
		}
	}
	cases := []struct {
		name   string
		header map[string]string
		check  func(t *testing.T, r *apitest.Resp)
	}{
		{"no token: status and version only", nil, short},
		{"no token, another world named: still nothing of it", map[string]string{"X-Sandbox-World": "nope"}, short},
		{"a wrong token is refused", map[string]string{"X-Admin-Token": "wrong"}, func(t *testing.T, r *apitest.Resp) {
			r.Gen2(t, 401, "unauthorized")
		}},
		{
			"a wrong bearer token is refused",
			map[string]string{"Authorization": "Bearer wrong"},
			func(t *testing.T, r *apitest.Resp) {
				r.Gen2(t, 401, "unauthorized")
			},
		},
		{"X-Admin-Token: the whole answer", map[string]string{"X-Admin-Token": "s3cret"}, full},
		{"Authorization: Bearer: the whole answer", map[string]string{"Authorization": "Bearer s3cret"}, full},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.check(t, e.Do(apitest.Req{Path: "/_sandbox/health", Header: c.header}))
		})
	}
	t.Run("the world path still needs the token", func(t *testing.T) {
		e.Get("/_sandbox/worlds/default/health", "", "").Gen2(t, 401, "unauthorized")
	})
	t.Run("without an admin token configured, everyone gets the whole answer", func(t *testing.T) {
		full(t, apitest.New(t, apitest.Options{}).Get("/_sandbox/health", "", ""))
	})
}

func TestUnknownWorldHeader(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	d := e.Do(apitest.Req{Path: "/_sandbox/health", Header: map[string]string{"X-Sandbox-World": "nope"}}).
		Gen2(t, 404, "not_found")
	if d["field"] != "X-Sandbox-World" {
		t.Fatalf("details = %v", d)
	}
}

func TestTokenPricesNeedNoKeyAndMoveWithTheClock(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	type prices struct {
		Items []struct {
			Symbol string `json:"symbol"`
			Price  struct {
				Currency      string `json:"currency"`
				Value         string `json:"value"`
				LastUpdatedAt string `json:"lastUpdatedAt"`
			} `json:"price"`
		} `json:"items"`
	}
	var before, after prices
	e.Get("/tokens/prices", "", "").Status(t, 200).Decode(t, &before)
	if len(before.Items) < 5 || before.Items[0].Symbol != "BTC" || before.Items[0].Price.Currency != "usd" ||
		before.Items[0].Price.Value != "97250.00" {
		t.Fatalf("prices = %+v", before)
	}
	apitest.Advance(t, e, `{"by":"3h"}`)
	e.Get("/tokens/prices", "", "").Status(t, 200).Decode(t, &after)
	if after.Items[0].Price.Value == before.Items[0].Price.Value {
		t.Fatal("BTC did not move in three hourly ticks")
	}
	if want := time.Date(2026, 6, 15, 17, 0, 0, 0,
		time.UTC).Format(time.RFC3339); after.Items[0].Price.LastUpdatedAt != want {
		t.Fatalf("lastUpdatedAt = %s, want %s", after.Items[0].Price.LastUpdatedAt, want)
	}
}

func TestTwoFreshSandboxesAnswerIdentically(t *testing.T) {
	t.Parallel()
	script := []apitest.Req{
		{Path: "/legal-entity", Key: "sk_sandbox_alice"},
		{Path: "/account", Key: "sk_sandbox_acme"},
		{Path: "/account/sa_group_acmeoperating/balance", Key: "sk_sandbox_acme"},
		{Path: "/transaction", Key: "sk_sandbox_acme"},
		{Path: "/transaction?filter:category=card", Key: "sk_sandbox_alice", LE: "le_globex"},
		{Path: "/v2/contacts", Key: "sk_sandbox_alice", LE: "le_acme"},
		{Path: "/tokens/prices"},
		{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: `{"by":"2d"}`},
		{Path: "/transaction", Key: "sk_sandbox_acme"},
		{Path: "/tokens/prices"},
		{Path: "/v2/contacts", Key: "sk_sandbox_acme", LE: "le_acme"},
	}
	// The advance reports the demo's failing endpoint's attempts, each
	// with how long, in wall time, the refusal took: that alone may differ.
	latency := regexp.MustCompile(`"latencyMs":[0-9]+`)
	same := func(x, y []byte) bool {
		return bytes.Equal(
			latency.ReplaceAll(x, []byte(`"latencyMs":0`)),
			latency.ReplaceAll(y, []byte(`"latencyMs":0`)),
		)
	}
	a, b := apitest.New(t, apitest.Options{}), apitest.New(t, apitest.Options{})
	for _, r := range script {
		ra, rb := a.Do(r), b.Do(r)
		if ra.StatusCode != rb.StatusCode || !same(ra.Raw, rb.Raw) {
			t.Fatalf("%s %s differs:\n%s\n%s", r.Method, r.Path, ra.Raw, rb.Raw)
		}
	}
}
