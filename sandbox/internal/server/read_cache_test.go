package server_test

import (
	"net/http"
	"sync"
	"testing"
)

// The read cache keeps GET answers until the world changes. These tests
// repeat GETs around every kind of change; in this package every cache hit
// is also checked against a fresh answer.

func TestReadCacheFollowsChanges(t *testing.T) {
	e := newEnv(t, options{})
	cards := func() []any {
		t.Helper()
		return e.get("/card", "sk_sandbox_acme", "").status(t, 200).json(t)["items"].([]any)
	}
	note := func(txn string) any {
		t.Helper()
		return e.get("/transaction/"+txn, "sk_sandbox_acme", "").status(t, 200).json(t)["note"]
	}
	var page struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	e.get("/transaction", "sk_sandbox_acme", "").status(t, 200).decode(t, &page)
	txn := page.Items[0].ID

	t.Run("a write through the API", func(t *testing.T) {
		before := len(cards())
		cards() // kept
		e.do(req{method: http.MethodPost, path: "/card", key: "sk_sandbox_acme",
			body: `{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Cached?"}`}).status(t, 201)
		if got := len(cards()); got != before+1 {
			t.Fatalf("GET /card after POST /card lists %d cards, want %d", got, before+1)
		}
	})
	t.Run("a note, then a reset", func(t *testing.T) {
		if got := note(txn); got != nil {
			t.Fatalf("note before = %v", got)
		}
		e.do(req{method: http.MethodPatch, path: "/transaction/" + txn + "/note", key: "sk_sandbox_acme",
			body: `{"note":"kept?"}`}).
			status(t, 200)
		if got := note(txn); got != "kept?" {
			t.Fatalf("note after PATCH = %v", got)
		}
		note(txn)
		e.do(req{method: http.MethodPost, path: "/_sandbox/reset"}).status(t, 200)
		if got := note(txn); got != nil {
			t.Fatalf("note after reset = %v, want none", got)
		}
	})
	t.Run("kept pages follow what they list", func(t *testing.T) {
		// Fill the first page of GET /card, so a new card lands past it.
		for len(cards()) < 50 {
			e.do(req{method: http.MethodPost, path: "/card", key: "sk_sandbox_acme",
				body: `{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Filler"}`}).status(t, 201)
		}
		txns := e.get("/transaction", "sk_sandbox_acme", "").status(t, 200).body
		first := cards()
		e.do(req{method: http.MethodPost, path: "/card", key: "sk_sandbox_acme",
			body: `{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Past the page"}`}).status(t, 201)
		if got := e.get("/transaction", "sk_sandbox_acme", "").status(t, 200).body; string(got) != string(txns) {
			t.Fatal("a new card changed the first page of GET /transaction")
		}
		if got := cards(); len(got) != len(first) {
			t.Fatalf("the full first page of GET /card holds %d cards after a new one, want %d", len(got), len(first))
		}
		id := first[len(first)-1].(map[string]any)["id"].(string)
		e.do(req{method: http.MethodPatch, path: "/card/" + id, key: "sk_sandbox_acme",
			body: `{"name":"Renamed on the page"}`}).
			status(t, 200)
		if got := cards()[len(first)-1].(map[string]any)["name"]; got != "Renamed on the page" {
			t.Fatalf("the last card of the kept page is named %v after a rename", got)
		}
	})
	t.Run("a clock advance", func(t *testing.T) {
		fresh := map[string]string{"Cache-Control": "no-cache"}
		e.get("/transaction", "sk_sandbox_acme", "").status(t, 200)
		e.do(req{method: http.MethodPost, path: "/_sandbox/clock/advance", body: `{"by":"72h"}`}).status(t, 200)
		kept := e.get("/transaction", "sk_sandbox_acme", "").status(t, 200).body
		if want := e.do(req{path: "/transaction", key: "sk_sandbox_acme", header: fresh}).status(t,
			200).body; string(kept) != string(want) {
			t.Fatalf("GET /transaction after a clock advance differs from a fresh answer:\n%s\n%s", kept, want)
		}
	})
	t.Run("each key and legal entity has its own answer", func(t *testing.T) {
		acme := e.get("/account", "sk_sandbox_alice", "le_acme").status(t, 200).body
		globex := e.get("/account", "sk_sandbox_alice", "le_globex").status(t, 200).body
		if string(acme) == string(globex) {
			t.Fatal("x-legal-entity did not change the answer")
		}
		if again := e.get("/account", "sk_sandbox_alice", "le_acme").status(t, 200).body; string(again) != string(acme) {
			t.Fatal("the same request answered differently on an unchanged world")
		}
		e.get("/account", "sk_sandbox_globex", "").status(t, 200)
		e.get("/account", "sk_sandbox_nobody", "").gen1(t, 401, "unauthorized")
	})
}

func TestReadCacheUnderConcurrentWrites(t *testing.T) {
	e := newEnv(t, options{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				if w%2 == 0 {
					e.do(req{method: http.MethodPost, path: "/card", key: "sk_sandbox_acme",
						body: `{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Racing"}`}).status(t, 201)
				} else if i%2 == 0 {
					e.get("/card", "sk_sandbox_acme", "").status(t, 200)
				} else {
					e.get("/transaction", "sk_sandbox_acme", "").status(t, 200)
				}
			}
		}()
	}
	wg.Wait()
	var all []any
	next := ""
	for {
		path := "/card"
		if next != "" {
			path += "?cursor=" + next
		}
		m := e.get(path, "sk_sandbox_acme", "").status(t, 200).json(t)
		all = append(all, m["items"].([]any)...)
		c, _ := m["metadata"].(map[string]any)["nextCursor"].(string)
		if c == "" {
			break
		}
		next = c
	}
	racing := 0
	for _, c := range all {
		if c.(map[string]any)["name"] == "Racing" {
			racing++
		}
	}
	if racing != 40 {
		t.Fatalf("GET /card lists %d of the 40 cards made concurrently", racing)
	}
}
