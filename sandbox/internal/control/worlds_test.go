package control_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

func TestWorldsAreIsolated(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	w := apitest.CreateWorld(t, e, `{"scenario":"demo"}`)
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
	txn, _ := apitest.FirstTransaction(t, e)
	apitest.Note(e, "sk_sandbox_acme_w1", "", txn, `{"note":"only in w1"}`).Status(t, 200)
	if _, n := apitest.FirstTransaction(t, e); n == "only in w1" {
		t.Fatal("a write in w1 reached the default world")
	}
	got := e.Get("/transaction/"+txn, "sk_sandbox_acme_w1", "").Status(t, 200).JSON(t)
	if got["note"] != "only in w1" {
		t.Fatalf("w1 transaction = %v", got)
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: `{"by":"1d"}`,
		Header: map[string]string{"X-Sandbox-World": "w1"}}).
		Status(t, 200)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds/w1/clock/advance", Body: `{"by":"1d"}`}).
		Status(t, 200)
	if got := e.Get("/_sandbox/worlds/w1/clock", "", "").Status(t, 200).JSON(t)["now"]; got != "2026-06-17T14:00:00Z" {
		t.Fatalf("w1 clock = %v", got)
	}
	if got := e.Get("/_sandbox/clock", "", "").JSON(t)["now"]; got != "2026-06-15T14:00:00Z" {
		t.Fatalf("default clock moved to %v", got)
	}
	list := e.Get("/_sandbox/worlds", "", "").Status(t, 200).JSON(t)["items"].([]any)
	if len(list) != 2 {
		t.Fatalf("%d worlds listed", len(list))
	}
	e.Get("/_sandbox/worlds/w1", "", "").Status(t, 200)
	if got := e.Do(apitest.Req{Method: http.MethodDelete, Path: "/_sandbox/worlds/w1"}).Status(t,
		200).JSON(t); got["deleted"] != true {
		t.Fatalf("delete = %v", got)
	}
	e.Get("/account", "sk_sandbox_acme_w1", "").Gen1(t, 401, "unauthorized")
	e.Get("/_sandbox/worlds/w1", "", "").Gen2(t, 404, "not_found")
	e.Get("/_sandbox/worlds/w1/clock", "", "").Gen2(t, 404, "not_found")
	e.Do(apitest.Req{Method: http.MethodDelete, Path: "/_sandbox/worlds/default"}).Gen2(t, 409, "conflict")
}

func TestWorldCreationInputs(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	inline := apitest.CreateWorld(
		t,
		e,
		`{"id":"tiny","yaml":"legalEntities:\n  - {id: le_t, name: T}\nusers:\n  - {id: u_t, name: T, roles: [{`+
			`legalEntityId: le_t}]}\nkeys:\n  - {key: sk_t, kind: user, userId: u_t}\n","seed":5,"clockStart":"2030-01-01T00:`+
			`00:00Z","ttl":"1h"}`,
	)
	if inline.ID != "tiny" || inline.Seed != 5 || inline.Clock.Now != "2030-01-01T00:00:00Z" ||
		inline.ExpiresAt == nil {
		t.Fatalf("inline world = %+v", inline)
	}
	e.Get("/legal-entity", "sk_t_tiny", "").Status(t, 200)
	for _, tc := range []struct{ name, body, field string }{
		{"bad yaml", `{"yaml":"legalEntities: [\n"}`, "problem1"},
		{"unknown scenario", `{"scenario":"nope"}`, "/scenario"},
		{"bad ttl", `{"scenario":"empty","ttl":"soon"}`, "/ttl"},
		{"bad id", `{"scenario":"empty","id":"Not OK"}`, "/id"},
		{"bad clock start", `{"scenario":"empty","clockStart":"tomorrow"}`, "/clockStart"},
		{"unknown property", `{"scenario":"empty","color":"red"}`, "/color"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds", Body: tc.body}).
				Gen2(t, 400, "invalid_request")
			if d[tc.field] == "" {
				t.Fatalf("details = %v, want %s", d, tc.field)
			}
		})
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds", Body: `{"id":"tiny","scenario":"empty"}`}).
		Gen2(t, 409, "conflict")
	t.Run("time to live", func(t *testing.T) {
		if gone := e.Engine.Reap(time.Now().Add(2 * time.Hour)); len(gone) != 1 || gone[0] != "tiny" {
			t.Fatalf("reaped %v", gone)
		}
		e.Get("/legal-entity", "sk_t_tiny", "").Gen1(t, 401, "unauthorized")
	})
}

func TestParallelWorldsDoNotInterfere(t *testing.T) {
	e := apitest.New(t, apitest.Options{})
	for i := range 4 {
		t.Run(fmt.Sprintf("world %d", i), func(t *testing.T) {
			t.Parallel()
			w := apitest.CreateWorld(t, e, `{"scenario":"demo"}`)
			key := "sk_sandbox_acme_" + w.ID
			txn, _ := apitest.FirstTransaction(t, e)
			apitest.Note(e, key, "", txn, `{"note":"`+w.ID+`"}`).Status(t, 200)
			e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds/" + w.ID + "/clock/advance",
				Body: fmt.Sprintf(`{"by":"%dh"}`, i+1)}).
				Status(t, 200)
			if got := e.Get("/transaction/"+txn, key, "").JSON(t)["note"]; got != w.ID {
				t.Fatalf("note in %s = %v", w.ID, got)
			}
			want := time.Date(2026, 6, 15, 14+i+1, 0, 0, 0, time.UTC).Format(time.RFC3339)
			if got := e.Get("/_sandbox/worlds/"+w.ID+"/clock", "", "").JSON(t)["now"]; got != want {
				t.Fatalf("%s clock = %v, want %s", w.ID, got, want)
			}
		})
	}
}

// transcript reads a fixed set of responses from a world.
func transcript(t *testing.T, e *apitest.Env, key string) []byte {
	t.Helper()
	var b bytes.Buffer
	for _, p := range []string{"/account/sa_group_acmeoperating/balance", "/transaction",
		"/transaction?filter:status=pending", "/tokens/prices"} {
		b.Write(e.Get(p, key, "").Status(t, 200).Raw)
	}
	return b.Bytes()
}

func TestSnapshotRestoreRoundTrips(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	apitest.Advance(t, e, `{"by":"3h"}`)
	snap := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots", Body: `{"label":"before"}`}).
		Status(t, 201).
		JSON(t)
	before := transcript(t, e, "sk_sandbox_acme")
	txn, _ := apitest.FirstTransaction(t, e)
	apitest.Note(e, "sk_sandbox_acme", "", txn, `{"note":"later"}`).Status(t, 200)
	apitest.Advance(t, e, `{"by":"5d"}`)
	if bytes.Equal(before, transcript(t, e, "sk_sandbox_acme")) {
		t.Fatal("nothing changed after the snapshot")
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots/" + snap["id"].(string) + "/restore"}).
		Status(t, 200)
	if after := transcript(t, e, "sk_sandbox_acme"); !bytes.Equal(before, after) {
		t.Fatal("responses after restore differ from those at the snapshot")
	}
	t.Run("export, import and a world from it", func(t *testing.T) {
		file := e.Get("/_sandbox/snapshots/"+snap["id"].(string)+"/export", "", "").Status(t, 200)
		if !strings.Contains(file.Header.Get("Content-Disposition"), "attachment") {
			t.Fatalf("export headers = %v", file.Header)
		}
		imported := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots/import", Body: file.Raw}).
			Status(t, 201).
			JSON(t)
		w := apitest.CreateWorld(t, e, `{"snapshot":"`+imported["id"].(string)+`"}`)
		if got := transcript(t, e, "sk_sandbox_acme_"+w.ID); !bytes.Equal(before, got) {
			t.Fatal("a world made from the imported snapshot answers differently")
		}
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots/import", Body: `{"format":"nope"}`}).
			Gen2(t, 400, "invalid_request")
	})
	list := e.Get("/_sandbox/snapshots", "", "").Status(t, 200).JSON(t)["items"].([]any)
	if len(list) != 2 {
		t.Fatalf("%d snapshots listed", len(list))
	}
	e.Do(apitest.Req{Method: http.MethodDelete, Path: "/_sandbox/snapshots/" + snap["id"].(string)}).Status(t, 200)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/snapshots/" + snap["id"].(string) + "/restore"}).
		Gen2(t, 404, "not_found")
}

func TestFaultInjection(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	fault := func(body string) map[string]any {
		return e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/faults", Body: body}).Status(t, 201).JSON(t)
	}
	t.Run("next N calls fail with a 500 in the route's envelope", func(t *testing.T) {
		fault(`{"route":"account.list","status":500,"count":2}`)
		for range 2 {
			e.Get("/account", "sk_sandbox_acme", "").Gen1(t, 500, "internal")
		}
		e.Get("/account", "sk_sandbox_acme", "").Status(t, 200)
		e.Get("/v2/contacts", "sk_sandbox_alice", "le_acme").Status(t, 200)
	})
	t.Run("429 is plain text", func(t *testing.T) {
		fault(`{"route":"v2.contact.list","status":429,"count":1}`)
		r := e.Get("/v2/contacts", "sk_sandbox_alice", "le_acme").Status(t, 429)
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") {
			t.Fatalf("429 content type %q", r.Header.Get("Content-Type"))
		}
	})
	t.Run("latency delays but answers", func(t *testing.T) {
		f := fault(`{"route":"legal_entity.list","latencyMs":20,"count":1}`)
		if f["latencyMs"] != float64(20) {
			t.Fatalf("fault = %v", f)
		}
		e.Get("/legal-entity", "sk_sandbox_acme", "").Status(t, 200)
	})
	t.Run("dropped connection", func(t *testing.T) {
		fault(`{"route":"account.get","drop":true,"count":1}`)
		hr, _ := http.NewRequest(http.MethodGet, e.Server.URL+"/account/sa_group_acmeoperating", nil)
		hr.Header.Set("X-API-Key", "sk_sandbox_acme")
		fresh := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
		if res, err := fresh.Do(hr); err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			t.Fatalf("dropped call answered %d", res.StatusCode)
		}
		e.Get("/account/sa_group_acmeoperating", "sk_sandbox_acme", "").Status(t, 200)
	})
	t.Run("probability is seeded", func(t *testing.T) {
		pattern := func(e *apitest.Env) string {
			e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/faults",
				Body: `{"route":"*","status":500,"probability":0.5}`}).
				Status(t, 201)
			var b strings.Builder
			for range 24 {
				b.WriteString(fmt.Sprint(e.Get("/legal-entity", "sk_sandbox_acme", "").StatusCode / 100))
			}
			e.Do(apitest.Req{Method: http.MethodDelete, Path: "/_sandbox/faults"}).Status(t, 200)
			return b.String()
		}
		a, b := pattern(apitest.New(t, apitest.Options{})), pattern(apitest.New(t, apitest.Options{}))
		if a != b || !strings.Contains(a, "5") || !strings.Contains(a, "2") {
			t.Fatalf("patterns %s and %s", a, b)
		}
	})
	t.Run("inspect, validate and clear", func(t *testing.T) {
		f := fault(`{"route":"account.list","status":404}`)
		items := e.Get("/_sandbox/faults", "", "").Status(t, 200).JSON(t)["items"].([]any)
		if len(items) != 1 || items[0].(map[string]any)["id"] != f["id"] {
			t.Fatalf("faults = %v", items)
		}
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/faults", Body: `{"route":"x","status":418}`}).
			Gen2(t, 400, "invalid_request")
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/faults", Body: `{"status":500}`}).
			Gen2(t, 400, "invalid_request")
		e.Do(apitest.Req{Method: http.MethodDelete, Path: "/_sandbox/faults/" + f["id"].(string)}).Status(t, 200)
		e.Do(apitest.Req{Method: http.MethodDelete, Path: "/_sandbox/faults/" + f["id"].(string)}).
			Gen2(t, 404, "not_found")
		e.Get("/account", "sk_sandbox_acme", "").Status(t, 200)
	})
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	e.Do(apitest.Req{Method: http.MethodPut, Path: "/_sandbox/rate-limit", Body: `{"requests":3,"window":"1h"}`}).
		Status(t, 200)
	for range 3 {
		e.Get("/legal-entity", "sk_sandbox_acme", "").Status(t, 200)
	}
	r := e.Get("/legal-entity", "sk_sandbox_acme", "").Status(t, 429)
	if r.Header.Get("Retry-After") == "" || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/plain") {
		t.Fatalf("429 headers = %v", r.Header)
	}
	e.Get("/legal-entity", "sk_sandbox_globex", "").Status(t, 200)
	if got := e.Get("/_sandbox/rate-limit", "", "").Status(t, 200).JSON(t)["limit"].(map[string]any); got["requests"] !=
		float64(3) {
		t.Fatalf("limit = %v", got)
	}
	e.Do(apitest.Req{Method: http.MethodPut, Path: "/_sandbox/rate-limit", Body: `{"requests":0,"window":"1h"}`}).
		Gen2(t, 400, "invalid_request")
	e.Do(apitest.Req{Method: http.MethodDelete, Path: "/_sandbox/rate-limit"}).Status(t, 200)
	e.Get("/legal-entity", "sk_sandbox_acme", "").Status(t, 200)
}

func TestRequestJournal(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	e.Get("/account", "sk_sandbox_alice", "le_acme").Status(t, 200)
	e.Get("/account/sa_group_nope", "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
	txn, _ := apitest.FirstTransaction(t, e)
	apitest.Note(e, "sk_sandbox_acme", "", txn, `{"note":"journaled"}`).Status(t, 200)
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
	e.Get("/_sandbox/requests", "", "").Status(t, 200).Decode(t, &j)
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
	e.Get("/_sandbox/requests?status=404", "", "").Decode(t, &j)
	if len(j.Items) != 1 || j.Items[0].Route != "account.get" || j.Items[0].LegalEntity != "le_acme" {
		t.Fatalf("404s = %+v", j.Items)
	}
	e.Get("/_sandbox/requests?route=account.list", "", "").Decode(t, &j)
	if len(j.Items) != 1 || j.Items[0].LegalEntity != "le_acme" {
		t.Fatalf("account.list = %+v", j.Items)
	}
	e.Get("/_sandbox/requests?limit=0", "", "").Gen2(t, 400, "invalid_request")
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/reset"}).Status(t, 200)
	e.Get("/_sandbox/requests", "", "").Decode(t, &j)
	if len(j.Items) != 1 || j.Items[0].Route != "sandbox.reset" {
		t.Fatalf("journal after reset = %+v", j.Items)
	}
}

func TestClockModes(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	got := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/mode",
		Body: `{"mode":"scaled","scale":60}`}).
		Status(t, 200).
		JSON(t)
	if got["mode"] != "scaled" || got["scale"] != float64(60) {
		t.Fatalf("mode = %v", got)
	}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/mode", Body: `{"mode":"scaled"}`}).
		Gen2(t, 400, "invalid_request")
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/mode", Body: `{"mode":"warp"}`}).
		Gen2(t, 400, "invalid_request")
	if got := e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/mode",
		Body: `{"mode":"frozen"}`}).Status(t,
		200).JSON(t); got["mode"] != "frozen" {
		t.Fatalf("mode = %v", got)
	}
}

func TestDeletingAWorldForgetsItsJournalAndFaults(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	apitest.CreateWorld(t, e, `{"id":"gone","scenario":"empty"}`)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/worlds/gone/faults",
		Body: `{"route":"legal_entity.list","status":500}`}).
		Status(t, 201)
	e.Get("/legal-entity", "sk_test_empty_user_gone", "").Gen1(t, 500, "internal")
	e.Do(apitest.Req{Method: http.MethodDelete, Path: "/_sandbox/worlds/gone"}).Status(t, 200)
	apitest.CreateWorld(t, e, `{"id":"gone","scenario":"empty"}`)
	if items := e.Get("/_sandbox/worlds/gone/faults", "", "").Status(t, 200).JSON(t)["items"].([]any); len(items) != 0 {
		t.Fatalf("a new world with a deleted one's id inherited its faults: %v", items)
	}
	for _, it := range e.Get("/_sandbox/worlds/gone/requests", "", "").Status(t, 200).JSON(t)["items"].([]any) {
		if route := it.(map[string]any)["route"]; route != "sandbox.faults.list" {
			t.Fatalf("a new world with a deleted one's id inherited its journal entry %v", it)
		}
	}
	e.Get("/legal-entity", "sk_test_empty_user_gone", "").Status(t, 200)
}
