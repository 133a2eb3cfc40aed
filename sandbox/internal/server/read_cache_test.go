package server_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// The read cache keeps GET answers until the world changes. These tests
// repeat GETs around every kind of change; in this package every cache hit
// is also checked against a fresh answer.

func TestReadCacheFollowsChanges(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	cards := func() []any {
		t.Helper()
		return e.Get("/card", "sk_sandbox_acme", "").Status(t, 200).JSON(t)["items"].([]any)
	}
	note := func(txn string) any {
		t.Helper()
		return e.Get("/transaction/"+txn, "sk_sandbox_acme", "").Status(t, 200).JSON(t)["note"]
	}
	var page struct {
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	e.Get("/transaction", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &page)
	txn := page.Items[0].ID

	t.Run("a write through the API", func(t *testing.T) {
		before := len(cards())
		cards() // kept
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: "sk_sandbox_acme",
			Body: `{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Cached?"}`}).Status(t, 201)
		if got := len(cards()); got != before+1 {
			t.Fatalf("GET /card after POST /card lists %d cards, want %d", got, before+1)
		}
	})
	t.Run("a note, then a reset", func(t *testing.T) {
		if got := note(txn); got != nil {
			t.Fatalf("note before = %v", got)
		}
		e.Do(apitest.Req{Method: http.MethodPatch, Path: "/transaction/" + txn + "/note", Key: "sk_sandbox_acme",
			Body: `{"note":"kept?"}`}).
			Status(t, 200)
		if got := note(txn); got != "kept?" {
			t.Fatalf("note after PATCH = %v", got)
		}
		note(txn)
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/reset"}).Status(t, 200)
		if got := note(txn); got != nil {
			t.Fatalf("note after reset = %v, want none", got)
		}
	})
	t.Run("kept pages follow what they list", func(t *testing.T) {
		// Fill the first page of GET /card, so a new card lands past it.
		for len(cards()) < 50 {
			e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: "sk_sandbox_acme",
				Body: `{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Filler"}`}).Status(t, 201)
		}
		txns := e.Get("/transaction", "sk_sandbox_acme", "").Status(t, 200).Raw
		first := cards()
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: "sk_sandbox_acme",
			Body: `{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Past the page"}`}).Status(t, 201)
		if got := e.Get("/transaction", "sk_sandbox_acme", "").Status(t, 200).Raw; string(got) != string(txns) {
			t.Fatal("a new card changed the first page of GET /transaction")
		}
		if got := cards(); len(got) != len(first) {
			t.Fatalf("the full first page of GET /card holds %d cards after a new one, want %d", len(got), len(first))
		}
		id := first[len(first)-1].(map[string]any)["id"].(string)
		e.Do(apitest.Req{Method: http.MethodPatch, Path: "/card/" + id, Key: "sk_sandbox_acme",
			Body: `{"name":"Renamed on the page"}`}).
			Status(t, 200)
		if got := cards()[len(first)-1].(map[string]any)["name"]; got != "Renamed on the page" {
			t.Fatalf("the last card of the kept page is named %v after a rename", got)
		}
	})
	t.Run("a clock advance", func(t *testing.T) {
		fresh := map[string]string{"Cache-Control": "no-cache"}
		e.Get("/transaction", "sk_sandbox_acme", "").Status(t, 200)
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/_sandbox/clock/advance", Body: `{"by":"72h"}`}).Status(t, 200)
		kept := e.Get("/transaction", "sk_sandbox_acme", "").Status(t, 200).Raw
		if want := e.Do(apitest.Req{Path: "/transaction", Key: "sk_sandbox_acme", Header: fresh}).Status(t,
			200).Raw; string(kept) != string(want) {
			t.Fatalf("GET /transaction after a clock advance differs from a fresh answer:\n%s\n%s", kept, want)
		}
	})
	t.Run("each key and legal entity has its own answer", func(t *testing.T) {
		acme := e.Get("/account", "sk_sandbox_alice", "le_acme").Status(t, 200).Raw
		globex := e.Get("/account", "sk_sandbox_alice", "le_globex").Status(t, 200).Raw
		if string(acme) == string(globex) {
			t.Fatal("x-legal-entity did not change the answer")
		}
		if again := e.Get("/account", "sk_sandbox_alice", "le_acme").Status(t, 200).Raw; string(again) != string(acme) {
			t.Fatal("the same request answered differently on an unchanged world")
		}
		e.Get("/account", "sk_sandbox_globex", "").Status(t, 200)
		e.Get("/account", "sk_sandbox_nobody", "").Gen1(t, 401, "unauthorized")
	})
}

func TestReadCacheUnderConcurrentWrites(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				if w%2 == 0 {
					e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: "sk_sandbox_acme",
						Body: `{"accountId":"sa_group_acmeoperating","type":"virtual","name":"Racing"}`}).Status(t, 201)
				} else if i%2 == 0 {
					e.Get("/card", "sk_sandbox_acme", "").Status(t, 200)
				} else {
					e.Get("/transaction", "sk_sandbox_acme", "").Status(t, 200)
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
		m := e.Get(path, "sk_sandbox_acme", "").Status(t, 200).JSON(t)
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
