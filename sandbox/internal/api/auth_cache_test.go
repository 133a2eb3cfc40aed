package api_test

import (
	"net/http"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// A credential's resolution is kept between requests, never past a write
// that changes what it was resolved from: a user whose role on a legal
// entity is taken away is refused the next request for it, whether the
// answer was kept by the read cache or not, and a role given back is
// honoured at once.
func TestCredentialsFollowTheirRecords(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	w := e.Engine.Default()
	setRole := func(active bool) {
		t.Helper()
		err := w.Update(func(op *kernel.Op) error {
			var u kernel.User
			if ok, err := op.Get(kernel.Users.Name, "u_alice", &u); err != nil || !ok {
				t.Fatalf("u_alice: found %v, %v", ok, err)
			}
			for i := range u.Roles {
				if u.Roles[i].LegalEntityID == "le_globex" {
					u.Roles[i].Active = active
				}
			}
			return op.Tx.Put(kernel.RecordKey(kernel.Users.Name, "u_alice"), &u)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, path := range []string{"/card", "/account"} {
		for range 2 {
			e.Do(apitest.Req{Path: path, Key: "sk_sandbox_alice", LE: "le_globex"}).Status(t, http.StatusOK)
		}
		e.Do(apitest.Req{Path: path, Key: "sk_sandbox_alice", LE: "le_acme"}).Status(t, http.StatusOK)
		setRole(false)
		e.Do(apitest.Req{Path: path, Key: "sk_sandbox_alice", LE: "le_globex"}).Status(t, http.StatusForbidden)
		e.Do(apitest.Req{Path: path, Key: "sk_sandbox_alice", LE: "le_acme"}).Status(t, http.StatusOK)
		setRole(true)
		e.Do(apitest.Req{Path: path, Key: "sk_sandbox_alice", LE: "le_globex"}).Status(t, http.StatusOK)
	}
	// Writes resolve their credential the same way.
	card := map[string]any{"accountId": "sa_group_globexmain", "type": "virtual", "name": "Kept credential"}
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: "sk_sandbox_alice", LE: "le_globex", Body: card}).
		Status(t, http.StatusCreated)
	setRole(false)
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/card", Key: "sk_sandbox_alice", LE: "le_globex", Body: card}).
		Status(t, http.StatusForbidden)
}
