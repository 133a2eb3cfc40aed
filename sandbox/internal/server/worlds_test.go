package server_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

type worldBody struct {
	ID       string `json:"id"`
	Scenario string `json:"scenario"`
	Seed     int64  `json:"seed"`
	Clock    struct {
		Now string `json:"now"`
	} `json:"clock"`
	Keys []struct {
		Key string `json:"key"`
	} `json:"keys"`
	ExpiresAt *string `json:"expiresAt"`
}

func createWorld(t *testing.T, e *env, body string) worldBody {
	t.Helper()
	var w worldBody
	e.do(req{method: http.MethodPost, path: "/_sandbox/worlds", body: body}).status(t, http.StatusCreated).decode(t, &w)
	return w
}

func TestWorldsAreIsolated(t *testing.T) {
	e := newEnv(t, options{})
	w := createWorld(t, e, `{"scenario":"demo"}`)
	if w.ID != "w1" || w.Scenario != "demo" || w.Seed != 42 {
		t.Fatalf("world = %+v", w)
	}
	keys := map[string]bool{}
	for _, k := range w.Keys {
		keys[k.Key] = true
	}
	if !keys["sk_sandbox_acme_w1"] || keys["sk_sandbox_acme"] {
		t.Fatalf("world keys = %v", keys)
	}
	txn, _ := firstTransaction(t, e)
	note(e, "sk_sandbox_acme_w1", "", txn, `{"note":"only in w1"}`).status(t, 200)
	if _, n := firstTransaction(t, e); n == "only in w1" {
		t.Fatal("a write in w1 reached the default world")
	}
	got := e.get("/transaction/"+txn, "sk_sandbox_acme_w1", "").status(t, 200).json(t)
	if got["note"] != "only in w1" {
		t.Fatalf("w1 transaction = %v", got)
	}
	e.do(req{method: http.MethodPost, path: "/_sandbox/clock/advance", body: `{"by":"1d"}`,
		header: map[string]string{"X-Sandbox-World": "w1"}}).
		status(t, 200)
	e.do(req{method: http.MethodPost, path: "/_sandbox/worlds/w1/clock/advance", body: `{"by":"1d"}`}).status(t, 200)
	if got := e.get("/_sandbox/worlds/w1/clock", "", "").status(t, 200).json(t)["now"]; got != "2026-06-17T14:00:00Z" {
		t.Fatalf("w1 clock = %v", got)
	}
	if got := e.get("/_sandbox/clock", "", "").json(t)["now"]; got != "2026-06-15T14:00:00Z" {
		t.Fatalf("default clock moved to %v", got)
	}
	list := e.get("/_sandbox/worlds", "", "").status(t, 200).json(t)["items"].([]any)
	if len(list) != 2 {
		t.Fatalf("%d worlds listed", len(list))
	}
	e.get("/_sandbox/worlds/w1", "", "").status(t, 200)
	if got := e.do(req{method: http.MethodDelete, path: "/_sandbox/worlds/w1"}).status(t,
		200).json(t); got["deleted"] != true {
		t.Fatalf("delete = %v", got)
	}
	e.get("/account", "sk_sandbox_acme_w1", "").gen1(t, 401, "unauthorized")
	e.get("/_sandbox/worlds/w1", "", "").gen2(t, 404, "not_found")
	e.get("/_sandbox/worlds/w1/clock", "", "").gen2(t, 404, "not_found")
	e.do(req{method: http.MethodDelete, path: "/_sandbox/worlds/default"}).gen2(t, 409, "conflict")
}

func TestWorldCreationInputs(t *testing.T) {
	e := newEnv(t, options{})
	inline := createWorld(
		t,
		e,
		`{"id":"tiny","yaml":"legalEntities:\n  - {id: le_t, name: T}\nusers:\n  - {id: u_t, name: T, roles: [{`+
			`legalEntityId: le_t}]}\nkeys:\n  - {key: sk_t, kind: user, userId: u_t}\n","seed":5,"clockStart":"2030-01-01T00:`+
			`00:00Z","ttl":"1h"}`,
	)
	if inline.ID != "tiny" || inline.Seed != 5 || inline.Clock.Now != "2030-01-01T00:00:00Z" || inline.ExpiresAt == nil {
		t.Fatalf("inline world = %+v", inline)
	}
	e.get("/legal-entity", "sk_t_tiny", "").status(t, 200)
	for _, tc := range []struct{ name, body, field string }{
		{"bad yaml", `{"yaml":"legalEntities: [\n"}`, "problem1"},
		{"unknown scenario", `{"scenario":"nope"}`, "/scenario"},
		{"bad ttl", `{"scenario":"empty","ttl":"soon"}`, "/ttl"},
		{"bad id", `{"scenario":"empty","id":"Not OK"}`, "/id"},
		{"bad clock start", `{"scenario":"empty","clockStart":"tomorrow"}`, "/clockStart"},
		{"unknown property", `{"scenario":"empty","color":"red"}`, "/color"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := e.do(req{method: http.MethodPost, path: "/_sandbox/worlds", body: tc.body}).gen2(t, 400, "invalid_request")
			if d[tc.field] == "" {
				t.Fatalf("details = %v, want %s", d, tc.field)
			}
		})
	}
	e.do(req{method: http.MethodPost, path: "/_sandbox/worlds", body: `{"id":"tiny","scenario":"empty"}`}).
		gen2(t, 409, "conflict")
	t.Run("time to live", func(t *testing.T) {
		if gone := e.eng.Reap(time.Now().Add(2 * time.Hour)); len(gone) != 1 || gone[0] != "tiny" {
			t.Fatalf("reaped %v", gone)
		}
		e.get("/legal-entity", "sk_t_tiny", "").gen1(t, 401, "unauthorized")
	})
}

func TestParallelWorldsDoNotInterfere(t *testing.T) {
	e := newEnv(t, options{})
	for i := range 4 {
		t.Run(fmt.Sprintf("world %d", i), func(t *testing.T) {
			t.Parallel()
			w := createWorld(t, e, `{"scenario":"demo"}`)
			key := "sk_sandbox_acme_" + w.ID
			txn, _ := firstTransaction(t, e)
			note(e, key, "", txn, `{"note":"`+w.ID+`"}`).status(t, 200)
			e.do(req{method: http.MethodPost, path: "/_sandbox/worlds/" + w.ID + "/clock/advance",
				body: fmt.Sprintf(`{"by":"%dh"}`, i+1)}).
				status(t, 200)
			if got := e.get("/transaction/"+txn, key, "").json(t)["note"]; got != w.ID {
				t.Fatalf("note in %s = %v", w.ID, got)
			}
			want := time.Date(2026, 6, 15, 14+i+1, 0, 0, 0, time.UTC).Format(time.RFC3339)
			if got := e.get("/_sandbox/worlds/"+w.ID+"/clock", "", "").json(t)["now"]; got != want {
				t.Fatalf("%s clock = %v, want %s", w.ID, got, want)
			}
		})
	}
}

// transcript reads a fixed set of responses from a world.
func transcript(t *testing.T, e *env, key string) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, p := range []string{"/account/sa_group_acmeoperating/balance", "/transaction",
		"/transaction?filter:status=pending", "/tokens/prices"} {
		b.Write(e.get(p, key, "").status(t, 200).body)
	}
	return b.Bytes()
}

func TestSnapshotRestoreRoundTrips(t *testing.T) {
	e := newEnv(t, options{})
	advance(t, e, `{"by":"3h"}`)
	snap := e.do(req{method: http.MethodPost, path: "/_sandbox/snapshots", body: `{"label":"before"}`}).
		status(t, 201).
		json(t)
	before := transcript(t, e, "sk_sandbox_acme")
	txn, _ := firstTransaction(t, e)
	note(e, "sk_sandbox_acme", "", txn, `{"note":"later"}`).status(t, 200)
	advance(t, e, `{"by":"5d"}`)
	if bytes.Equal(before, transcript(t, e, "sk_sandbox_acme")) {
		t.Fatal("nothing changed after the snapshot")
	}
	e.do(req{method: http.MethodPost, path: "/_sandbox/snapshots/" + snap["id"].(string) + "/restore"}).status(t, 200)
	if after := transcript(t, e, "sk_sandbox_acme"); !bytes.Equal(before, after) {
		t.Fatal("responses after restore differ from those at the snapshot")
	}
	t.Run("export, import and a world from it", func(t *testing.T) {
		file := e.get("/_sandbox/snapshots/"+snap["id"].(string)+"/export", "", "").status(t, 200)
		if !strings.Contains(file.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("export headers = %v", file.Header)
		}
		imported := e.do(req{method: http.MethodPost, path: "/_sandbox/snapshots/import", body: file.body}).
			status(t, 201).
			json(t)
		w := createWorld(t, e, `{"snapshot":"`+imported["id"].(string)+`"}`)
		if got := transcript(t, e, "sk_sandbox_acme_"+w.ID); !bytes.Equal(before, got) {
			t.Fatal("a world made from the imported snapshot answers differently")
		}
		e.do(req{method: http.MethodPost, path: "/_sandbox/snapshots/import", body: `{"format":"nope"}`}).
			gen2(t, 400, "invalid_request")
	})
	list := e.get("/_sandbox/snapshots", "", "").status(t, 200).json(t)["items"].([]any)
	if len(list) != 2 {
		t.Fatalf("%d snapshots listed", len(list))
	}
	e.do(req{method: http.MethodDelete, path: "/_sandbox/snapshots/" + snap["id"].(string)}).status(t, 200)
	e.do(req{method: http.MethodPost, path: "/_sandbox/snapshots/" + snap["id"].(string) + "/restore"}).
		gen2(t, 404, "not_found")
}

func TestFaultInjection(t *testing.T) {
	e := newEnv(t, options{})
	fault := func(body string) map[string]any {
		return e.do(req{method: http.MethodPost, path: "/_sandbox/faults", body: body}).status(t, 201).json(t)
	}
	t.Run("next N calls fail with a 500 in the route's envelope", func(t *testing.T) {
		fault(`{"route":"account.list","status":500,"count":2}`)
		for range 2 {
			e.get("/account", "sk_sandbox_acme", "").gen1(t, 500, "internal")
		}
		e.get("/account", "sk_sandbox_acme", "").status(t, 200)
		e.get("/v2/contacts", "sk_sandbox_alice", "le_acme").status(t, 200)
	})
	t.Run("429 is plain text", func(t *testing.T) {
		fault(`{"route":"v2.contact.list","status":429,"count":1}`)
		r := e.get("/v2/contacts", "sk_sandbox_alice", "le_acme").status(t, 429)
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") {
			t.Fatalf("429 content type %q", r.Header.Get("Content-Type"))
		}
	})
	t.Run("latency delays but answers", func(t *testing.T) {
		f := fault(`{"route":"legal_entity.list","latencyMs":20,"count":1}`)
		if f["latencyMs"] != float64(20) {
			t.Fatalf("fault = %v", f)
		}
		e.get("/legal-entity", "sk_sandbox_acme", "").status(t, 200)
	})
	t.Run("dropped connection", func(t *testing.T) {
		fault(`{"route":"account.get","drop":true,"count":1}`)
		hr, _ := http.NewRequest(http.MethodGet, e.srv.URL+"/account/sa_group_acmeoperating", nil)
		hr.Header.Set("X-API-Key", "sk_sandbox_acme")
		fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		if res, err := fresh.Do(hr); err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			t.Fatalf("dropped call answered %d", res.StatusCode)
		}
		e.get("/account/sa_group_acmeoperating", "sk_sandbox_acme", "").status(t, 200)
	})
	t.Run("probability is seeded", func(t *testing.T) {
		pattern := func(e *env) string {
			e.do(req{method: http.MethodPost, path: "/_sandbox/faults", body: `{"route":"*","status":500,"probability":0.5}`}).
				status(t, 201)
			var b strings.Builder
			for range 24 {
				b.WriteString(fmt.Sprint(e.get("/legal-entity", "sk_sandbox_acme", "").StatusCode / 100))
			}
			e.do(req{method: http.MethodDelete, path: "/_sandbox/faults"}).status(t, 200)
			return b.String()
		}
		a, b := pattern(newEnv(t, options{})), pattern(newEnv(t, options{}))
		if a != b || !strings.Contains(a, "5") || !strings.Contains(a, "2") {
			t.Fatalf("patterns %s and %s", a, b)
		}
	})
	t.Run("inspect, validate and clear", func(t *testing.T) {
		f := fault(`{"route":"account.list","status":404}`)
		items := e.get("/_sandbox/faults", "", "").status(t, 200).json(t)["items"].([]any)
		if len(items) != 1 || items[0].(map[string]any)["id"] != f["id"] {
			t.Fatalf("faults = %v", items)
		}
		e.do(req{method: http.MethodPost, path: "/_sandbox/faults", body: `{"route":"x","status":418}`}).
			gen2(t, 400, "invalid_request")
		e.do(req{method: http.MethodPost, path: "/_sandbox/faults", body: `{"status":500}`}).gen2(t, 400, "invalid_request")
		e.do(req{method: http.MethodDelete, path: "/_sandbox/faults/" + f["id"].(string)}).status(t, 200)
		e.do(req{method: http.MethodDelete, path: "/_sandbox/faults/" + f["id"].(string)}).gen2(t, 404, "not_found")
		e.get("/account", "sk_sandbox_acme", "").status(t, 200)
	})
}

func TestRateLimit(t *testing.T) {
	e := newEnv(t, options{})
	e.do(req{method: http.MethodPut, path: "/_sandbox/rate-limit", body: `{"requests":3,"window":"1h"}`}).status(t, 200)
	for range 3 {
		e.get("/legal-entity", "sk_sandbox_acme", "").status(t, 200)
	}
	r := e.get("/legal-entity", "sk_sandbox_acme", "").status(t, 429)
	if r.Header.Get("Retry-After") == "" || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("429 headers = %v", r.Header)
	}
	e.get("/legal-entity", "sk_sandbox_globex", "").status(t, 200)
	if got := e.get("/_sandbox/rate-limit", "", "").status(t, 200).json(t)["limit"].(map[string]any); got["requests"] !=
		float64(3) {
		t.Fatalf("limit = %v", got)
	}
	e.do(req{method: http.MethodPut, path: "/_sandbox/rate-limit", body: `{"requests":0,"window":"1h"}`}).
		gen2(t, 400, "invalid_request")
	e.do(req{method: http.MethodDelete, path: "/_sandbox/rate-limit"}).status(t, 200)
	e.get("/legal-entity", "sk_sandbox_acme", "").status(t, 200)
}

func TestRequestJournal(t *testing.T) {
	e := newEnv(t, options{})
	e.get("/account", "sk_sandbox_alice", "le_acme").status(t, 200)
	e.get("/account/sa_group_nope", "sk_sandbox_acme", "").gen1(t, 404, "not_found")
	txn, _ := firstTransaction(t, e)
	note(e, "sk_sandbox_acme", "", txn, `{"note":"journaled"}`).status(t, 200)
	var j struct {
		Items []struct {
			Route       string            `json:"route"`
			Key         string            `json:"key"`
			LegalEntity string            `json:"legalEntity"`
			Status      int               `json:"status"`
			Headers     map[string]string `json:"requestHeaders"`
			Request     any               `json:"requestBody"`
			Response    any               `json:"responseBody"`
		} `json:"items"`
	}
	e.get("/_sandbox/requests", "", "").status(t, 200).decode(t, &j)
	if len(j.Items) < 4 || j.Items[0].Route != "transaction.note.update" {
		t.Fatalf("journal = %+v", j.Items)
	}
	if j.Items[0].Request.(map[string]any)["note"] != "journaled" ||
		j.Items[0].Response.(map[string]any)["success"] != true {
		t.Fatalf("bodies = %v / %v", j.Items[0].Request, j.Items[0].Response)
	}
	if strings.Contains(j.Items[0].Key, "sk_sandbox_acme") || j.Items[0].Headers["X-API-Key"] == "sk_sandbox_acme" {
		t.Fatalf("key not redacted: %q", j.Items[0].Key)
	}
	e.get("/_sandbox/requests?status=404", "", "").decode(t, &j)
	if len(j.Items) != 1 || j.Items[0].Route != "account.get" || j.Items[0].LegalEntity != "le_acme" {
		t.Fatalf("404s = %+v", j.Items)
	}
	e.get("/_sandbox/requests?route=account.list", "", "").decode(t, &j)
	if len(j.Items) != 1 || j.Items[0].LegalEntity != "le_acme" {
		t.Fatalf("account.list = %+v", j.Items)
	}
	e.get("/_sandbox/requests?limit=0", "", "").gen2(t, 400, "invalid_request")
	e.do(req{method: http.MethodPost, path: "/_sandbox/reset"}).status(t, 200)
	e.get("/_sandbox/requests", "", "").decode(t, &j)
	if len(j.Items) != 1 || j.Items[0].Route != "sandbox.reset" {
		t.Fatalf("journal after reset = %+v", j.Items)
	}
}

func TestClockModes(t *testing.T) {
	e := newEnv(t, options{})
	got := e.do(req{method: http.MethodPost, path: "/_sandbox/clock/mode", body: `{"mode":"scaled","scale":60}`}).
		status(t, 200).
		json(t)
	if got["mode"] != "scaled" || got["scale"] != float64(60) {
		t.Fatalf("mode = %v", got)
	}
	e.do(req{method: http.MethodPost, path: "/_sandbox/clock/mode", body: `{"mode":"scaled"}`}).
		gen2(t, 400, "invalid_request")
	e.do(req{method: http.MethodPost, path: "/_sandbox/clock/mode", body: `{"mode":"warp"}`}).
		gen2(t, 400, "invalid_request")
	if got := e.do(req{method: http.MethodPost, path: "/_sandbox/clock/mode", body: `{"mode":"frozen"}`}).status(t,
		200).json(t); got["mode"] != "frozen" {
		t.Fatalf("mode = %v", got)
	}
}

func TestDeletingAWorldForgetsItsJournalAndFaults(t *testing.T) {
	e := newEnv(t, options{})
	createWorld(t, e, `{"id":"gone","scenario":"empty"}`)
	e.do(req{method: http.MethodPost, path: "/_sandbox/worlds/gone/faults",
		body: `{"route":"legal_entity.list","status":500}`}).
		status(t, 201)
	e.get("/legal-entity", "sk_test_empty_user_gone", "").gen1(t, 500, "internal")
	e.do(req{method: http.MethodDelete, path: "/_sandbox/worlds/gone"}).status(t, 200)
	createWorld(t, e, `{"id":"gone","scenario":"empty"}`)
	if items := e.get("/_sandbox/worlds/gone/faults", "", "").status(t, 200).json(t)["items"].([]any); len(items) != 0 {
		t.Fatalf("a new world with a deleted one's id inherited its faults: %v", items)
	}
	for _, it := range e.get("/_sandbox/worlds/gone/requests", "", "").status(t, 200).json(t)["items"].([]any) {
		if route := it.(map[string]any)["route"]; route != "sandbox.faults.list" {
			t.Fatalf("a new world with a deleted one's id inherited its journal entry %v", it)
		}
	}
	e.get("/legal-entity", "sk_test_empty_user_gone", "").status(t, 200)
}
