package api_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

func TestVirtualAccountTransferBothSpellings(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	const acme = "sk_sandbox_acme"
	for i, path := range []string{"/transfer/virtual-account", "/virtual-account/transfer"} {
		t.Run(path, func(t *testing.T) {
			eng0, _ := vaBalance(t, e, acme, "", "subaccount_acmeengineering")
			pay0, _ := vaBalance(t, e, acme, "", "subaccount_acmepayroll")
			avail0, posted0 := balanceOf(t, e, acme, "", "sa_group_acmeoperating")
			body := e.Post(path, acme, "", "move-"+path, map[string]any{"source": "subaccount_acmeengineering",
				"destination": "subaccount_acmepayroll", "amountCents": 123456, "memo": "Q3 reserve"}).Status(t, 200).JSON(t)
			id, _ := body["transferId"].(string)
			if len(body) != 1 || !strings.HasPrefix(id, "transfer_") {
				t.Fatalf("body %v, want only a transferId", body)
			}
			if eng, _ := vaBalance(t, e, acme, "", "subaccount_acmeengineering"); eng != eng0-123456 {
				t.Fatalf("source balance %d, want %d", eng, eng0-123456)
			}
			if pay, _ := vaBalance(t, e, acme, "", "subaccount_acmepayroll"); pay != pay0+123456 {
				t.Fatalf("destination balance %d, want %d", pay, pay0+123456)
			}
			if avail, posted := balanceOf(t, e, acme, "", "sa_group_acmeoperating"); avail != avail0 || posted != posted0 {
				t.Fatalf("the account's balances moved inside it: %d/%d, was %d/%d", avail, posted, avail0, posted0)
			}
			legs := transferLegs(t, e, acme, "", id)
			if len(legs) != 2 {
				t.Fatalf("transfer %s has %d transactions", id, len(legs))
			}
			for _, l := range legs {
				if l.DetailedStatus != "settled" || l.Status != "posted" || l.Memo != "Q3 reserve" || l.ReferenceNumber == "" {
					t.Fatalf("leg %+v", l)
				}
				want := map[string]int64{"subaccount_acmeengineering": -123456,
					"subaccount_acmepayroll": 123456}[l.VirtualAccountID]
				if l.AmountCents != want || l.AccountID != "sa_group_acmeoperating" {
					t.Fatalf("leg %+v, want %d", l, want)
				}
			}
			if i == 0 && !strings.HasPrefix(legs[0].Description, "Transfer ") {
				t.Fatalf("description %q", legs[0].Description)
			}
		})
	}
	t.Run("an account id stands for its primary virtual account", func(t *testing.T) {
		fleet0, _ := vaBalance(t, e, "sk_sandbox_globex", "", "subaccount_globexfleet")
		e.Post("/virtual-account/transfer", "sk_sandbox_globex", "", "fund-fleet",
			map[string]any{"source": "sa_group_globexmain",
				"destination": "subaccount_globexfleet", "amountCents": 5000}).
			Status(t, 200)
		if fleet, _ := vaBalance(t, e, "sk_sandbox_globex", "", "subaccount_globexfleet"); fleet != fleet0+5000 {
			t.Fatalf("fleet %d, want %d", fleet, fleet0+5000)
		}
	})
	t.Run("bad requests", func(t *testing.T) {
		cases := []struct {
			name  string
			body  any
			field string
		}{
			{
				"fractional cents",
				map[string]any{
					"source":      "subaccount_acmeengineering",
					"destination": "subaccount_acmepayroll",
					"amountCents": 12.5,
				},
				"/amountCents",
			},
			{
				"zero",
				map[string]any{"source": "subaccount_acmeengineering", "destination": "subaccount_acmepayroll", "amountCents": 0},
				"/amountCents",
			},
			{
				"negative",
				map[string]any{"source": "subaccount_acmeengineering", "destination": "subaccount_acmepayroll", "amountCents": -5},
				"/amountCents",
			},
			{
				"string amount",
				map[string]any{
					"source":      "subaccount_acmeengineering",
					"destination": "subaccount_acmepayroll",
					"amountCents": "100",
				},
				"/amountCents",
			},
			{"missing destination", map[string]any{"source": "subaccount_acmeengineering", "amountCents": 100}, "/destination"},
			{
				"long memo",
				map[string]any{
					"source":      "subaccount_acmeengineering",
					"destination": "subaccount_acmepayroll",
					"amountCents": 100,
					"memo":        strings.Repeat("m", 256),
				},
				"/memo",
			},
			{
				"same account",
				map[string]any{
					"source":      "subaccount_acmeengineering",
					"destination": "subaccount_acmeengineering",
					"amountCents": 100,
				},
				"/destination",
			},
			{
				"closed source",
				map[string]any{
					"source":      "subaccount_acmeoldproject",
					"destination": "subaccount_acmeengineering",
					"amountCents": 100,
				},
				"/source",
			},
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				d := details(t,
					e.Post("/transfer/virtual-account", acme, "", "bad-"+tc.name, tc.body).Gen1(t, 400, "invalid_request"))
				if d[tc.field] == nil {
					t.Fatalf("details %v, want %s", d, tc.field)
				}
			})
		}
		d := details(
			t,
			e.Post("/transfer/virtual-account", acme, "", "foreign", map[string]any{"source": "subaccount_acmeengineering",
				"destination": "subaccount_globexfleet", "amountCents": 100}).Gen1(t, 404, "not_found"),
		)
		if d["field"] != "destination" || d["id"] != "subaccount_globexfleet" {
			t.Fatalf("details %v", d)
		}
		e.Post("/transfer/virtual-account", acme, "", "", map[string]any{"source": "subaccount_acmeengineering",
			"destination": "subaccount_acmepayroll", "amountCents": 100}).Gen1(t, 400, "invalid_request")
	})
}

func TestTransferIdempotency(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	const acme = "sk_sandbox_acme"
	body := map[string]any{
		"source":      "subaccount_acmeengineering",
		"destination": "subaccount_acmepayroll",
		"amountCents": 700,
	}
	first := e.Post("/transfer/virtual-account", acme, "", "key-1", body).Status(t, 200)
	bal1, _ := vaBalance(t, e, acme, "", "subaccount_acmepayroll")
	t.Run("same key and body replays the first response", func(t *testing.T) {
		again := e.Post("/transfer/virtual-account", acme, "", "key-1", body).Status(t, 200)
		other := e.Post("/virtual-account/transfer", acme, "", "key-1", body).Status(t, 200)
		if !bytes.Equal(first.Raw, again.Raw) || !bytes.Equal(first.Raw, other.Raw) {
			t.Fatalf("replays %s and %s differ from %s", again.Raw, other.Raw, first.Raw)
		}
		if bal, _ := vaBalance(t, e, acme, "", "subaccount_acmepayroll"); bal != bal1 {
			t.Fatalf("a replay moved money: %d, want %d", bal, bal1)
		}
		if legs := transferLegs(t, e, acme, "", first.JSON(t)["transferId"].(string)); len(legs) != 2 {
			t.Fatalf("%d legs after replays", len(legs))
		}
	})
	t.Run("same key with another body is 409", func(t *testing.T) {
		changed := map[string]any{
			"source":      "subaccount_acmeengineering",
			"destination": "subaccount_acmepayroll",
			"amountCents": 701,
		}
		e.Post("/transfer/virtual-account", acme, "", "key-1", changed).Gen1(t, 409, "conflict")
		if bal, _ := vaBalance(t, e, acme, "", "subaccount_acmepayroll"); bal != bal1 {
			t.Fatalf("a conflict moved money: %d, want %d", bal, bal1)
		}
	})
	t.Run("keys are per operation", func(t *testing.T) {
		book := e.Post("/transfers/book-transfer", acme, "", "key-1",
			map[string]any{"from": "subaccount_acmeengineering", "to": "subaccount_acmepayroll", "amountCents": 700}).
			Status(t, 200)
		if bytes.Equal(book.Raw, first.Raw) {
			t.Fatal("the book transfer replayed the virtual-account transfer")
		}
		replay := e.Post("/transfers/book-transfer", acme, "", "key-1",
			map[string]any{"from": "subaccount_acmeengineering", "to": "subaccount_acmepayroll", "amountCents": 700}).
			Status(t, 200)
		if !bytes.Equal(book.Raw, replay.Raw) {
			t.Fatalf("book replay %s, first %s", replay.Raw, book.Raw)
		}
		e.Post("/transfers/book-transfer", acme, "", "key-1", map[string]any{"from": "subaccount_acmeengineering",
			"to": "subaccount_acmepayroll", "amountCents": 1}).
			Gen1(t, 409, "conflict")
	})
	t.Run("keys are per legal entity", func(t *testing.T) {
		g := e.Post("/transfer/virtual-account", "sk_sandbox_globex", "", "key-1",
			map[string]any{"source": "sa_group_globexmain",
				"destination": "subaccount_globexfleet", "amountCents": 700}).
			Status(t, 200)
		if bytes.Equal(g.Raw, first.Raw) {
			t.Fatal("another legal entity's request replayed acme's response")
		}
	})
	t.Run("a refused request can be retried with its key", func(t *testing.T) {
		huge := map[string]any{
			"source":      "subaccount_acmeengineering",
			"destination": "subaccount_acmepayroll",
			"amountCents": 1e12,
		}
		e.Post("/transfer/virtual-account", acme, "", "key-2", huge).Gen1(t, 400, "insufficient_funds")
		e.Post("/transfer/virtual-account", acme, "", "key-2", body).Status(t, 200)
	})
}

func TestBookTransfers(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	t.Run("between two legal entities the user key can act on", func(t *testing.T) {
		_, globex0 := balanceOf(t, e, "sk_sandbox_globex", "", "sa_group_globexmain")
		_, acme0 := balanceOf(t, e, "sk_sandbox_acme", "", "sa_group_acmeoperating")
		body := e.Post("/transfers/book-transfer", "sk_sandbox_alice", "le_acme", "book-1",
			map[string]any{"from": "sa_group_acmeoperating",
				"to": "sa_group_globexmain", "amountCents": 250000, "memo": "intercompany loan"}).
			Status(t, 200).
			JSON(t)
		id := body["transferId"].(string)
		if _, g := balanceOf(t, e, "sk_sandbox_globex", "", "sa_group_globexmain"); g != globex0+250000 {
			t.Fatalf("globex posted %d, want %d", g, globex0+250000)
		}
		if _, a := balanceOf(t, e, "sk_sandbox_acme", "", "sa_group_acmeoperating"); a != acme0-250000 {
			t.Fatalf("acme posted %d, want %d", a, acme0-250000)
		}
		debit, credit := transferLegs(t, e, "sk_sandbox_acme", "", id), transferLegs(t, e, "sk_sandbox_globex", "", id)
		if len(debit) != 1 || len(credit) != 1 || debit[0].AmountCents != -250000 || credit[0].AmountCents != 250000 {
			t.Fatalf("legs %+v / %+v", debit, credit)
		}
		if debit[0].Description != "Book transfer to Globex Logistics LLC" ||
			credit[0].Description != "Book transfer from Acme Robotics Inc." {
			t.Fatalf("descriptions %q / %q", debit[0].Description, credit[0].Description)
		}
	})
	t.Run("within one legal entity, virtual account to account", func(t *testing.T) {
		e.Post("/transfers/book-transfer", "sk_sandbox_acme", "", "book-2", map[string]any{"from": "subaccount_acmepayroll",
			"to": "sa_group_acmecharge", "amountCents": 1000}).Status(t, 200)
	})
	t.Run("to a third party is 404", func(t *testing.T) {
		for _, tc := range []struct{ key, le string }{{"sk_sandbox_acme", ""}, {"sk_sandbox_bob", "le_acme"}} {
			d := details(
				t,
				e.Post("/transfers/book-transfer", tc.key, tc.le, "book-3", map[string]any{"from": "sa_group_acmeoperating",
					"to": "sa_group_globexmain", "amountCents": 1000}).Gen1(t, 404, "not_found"),
			)
			if d["field"] != "to" || d["id"] != "sa_group_globexmain" {
				t.Fatalf("%s: details %v", tc.key, d)
			}
		}
	})
	t.Run("from must belong to the acting legal entity", func(t *testing.T) {
		d := details(
			t,
			e.Post("/transfers/book-transfer", "sk_sandbox_alice", "le_acme", "book-4",
				map[string]any{"from": "sa_group_globexmain",
					"to": "sa_group_acmeoperating", "amountCents": 1000}).
				Gen1(t, 403, "forbidden"),
		)
		if d["field"] != "from" || d["id"] != "sa_group_globexmain" {
			t.Fatalf("details %v", d)
		}
		e.Post("/transfers/book-transfer", "sk_sandbox_acme", "", "book-5", map[string]any{"from": "sa_group_globexmain",
			"to": "sa_group_acmeoperating", "amountCents": 1000}).Gen1(t, 404, "not_found")
	})
	t.Run("body problems are 400", func(t *testing.T) {
		d := details(
			t,
			e.Post("/transfers/book-transfer", "sk_sandbox_acme", "", "book-6", map[string]any{"amountCents": 1.5}).
				Gen1(t, 400, "invalid_request"),
		)
		if d["/from"] == nil || d["/to"] == nil || d["/amountCents"] == nil {
			t.Fatalf("details %v", d)
		}
		e.Post("/transfers/book-transfer", "sk_sandbox_acme", "", "book-7",
			map[string]any{"from": "x", "to": "y", "amountCents": 1, "extra": true}).
			Gen1(t, 400, "invalid_request")
	})
}

func TestInsufficientFundsMovesNothing(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	const acme = "sk_sandbox_acme"
	before := len(apitest.WalkItems(t, e, acme, "", "/transaction"))
	avail0, posted0 := balanceOf(t, e, acme, "", "sa_group_acmeoperating")
	eng0, _ := vaBalance(t, e, acme, "", "subaccount_acmeengineering")
	cases := []struct {
		name, path, idem string
		body             any
	}{
		{"virtual account transfer beyond the virtual account", "/transfer/virtual-account", "if-1",
			map[string]any{
				"source":      "subaccount_acmeengineering",
				"destination": "subaccount_acmepayroll",
				"amountCents": eng0 + 1,
			}},
		{"book transfer beyond the account", "/transfers/book-transfer", "if-2",
			map[string]any{"from": "sa_group_acmeoperating", "to": "subaccount_acmepayroll", "amountCents": 1e13}},
		{"ACH beyond the account", "/transfers/ach", "if-3",
			map[string]any{
				"accountId":     "sa_group_acmeoperating",
				"destinationId": "le_c_dest_northwindach",
				"amountCents":   1e13,
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := e.Post(tc.path, acme, "", tc.idem, tc.body).Gen1(t, 400, "insufficient_funds")
			d := details(t, body)
			avail, _ := d["available"].(string)
			req, _ := d["requested"].(string)
			if !strings.HasPrefix(avail, "$") || !strings.HasPrefix(req, "$") || avail == req {
				t.Fatalf("details %v", d)
			}
		})
	}
	if after := len(apitest.WalkItems(t, e, acme, "", "/transaction")); after != before {
		t.Fatalf("%d transactions after refused movements, %d before", after, before)
	}
	if avail, posted := balanceOf(t, e, acme, "", "sa_group_acmeoperating"); avail != avail0 || posted != posted0 {
		t.Fatalf("balances %d/%d after refusals, were %d/%d", avail, posted, avail0, posted0)
	}
	t.Run("the virtual account's own balance limits it", func(t *testing.T) {
		d := details(
			t,
			e.Post("/transfer/virtual-account", acme, "", "if-5", map[string]any{"source": "subaccount_acmeengineering",
				"destination": "subaccount_acmepayroll", "amountCents": eng0 + 1}).Gen1(t, 400, "insufficient_funds"),
		)
		// The engineering cards' pending purchases hold part of the posted
		// balance, so less than it is available.
		if d["requested"] != ledger.FormatCents(eng0+1) || d["available"] == ledger.FormatCents(eng0) {
			t.Fatalf("details %v, want %s requested and less than %s available", d, ledger.FormatCents(eng0+1),
				ledger.FormatCents(eng0))
		}
	})
}

func TestReadOnlyKeyTransfersAreDeferred(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	eng0, _ := vaBalance(t, e, "sk_sandbox_acme", "", "subaccount_acmeengineering")
	for _, tc := range []struct{ key, le string }{{"sk_sandbox_acme_readonly", ""},
		{"sk_sandbox_carol_readonly", "le_acme"}} {
		id := apitest.Deferred(
			t,
			e.Post("/transfer/virtual-account", tc.key, tc.le, "agent-1", map[string]any{"source": "subaccount_acmeengineering",
				"destination": "subaccount_acmepayroll", "amountCents": 5000}),
		)
		body := e.Get("/agent-request/"+id, tc.key, tc.le).Status(t, 200).JSON(t)
		if body["id"] != id || body["status"] != "pending" {
			t.Fatalf("deferral %v", body)
		}
		title := body["display"].(map[string]any)["title"].(string)
		if title != "Transfer Between Virtual Accounts" && title != "Create Virtual Account Transfer" {
			t.Fatalf("title %q", title)
		}
	}
	if eng, _ := vaBalance(t, e, "sk_sandbox_acme", "", "subaccount_acmeengineering"); eng != eng0 {
		t.Fatalf("a deferred transfer moved money: %d, was %d", eng, eng0)
	}
	t.Run("approved, it moves the money once", func(t *testing.T) {
		id := apitest.Deferred(
			t,
			e.Post(
				"/transfers/book-transfer",
				"sk_sandbox_acme_readonly",
				"",
				"agent-2",
				map[string]any{"from": "subaccount_acmeengineering",
					"to": "subaccount_acmepayroll", "amountCents": 2500},
			),
		)
		e.Do(apitest.Req{Method: "POST", Path: "/_sandbox/agent-requests/" + id + "/approve"}).Status(t, 200)
		ar := e.Get("/agent-request/"+id, "sk_sandbox_acme_readonly", "").Status(t, 200).JSON(t)
		result, _ := ar["result"].(map[string]any)
		if ar["status"] != "executed" || !strings.HasPrefix(fmt.Sprint(result["transferId"]), "transfer_") {
			t.Fatalf("agent request %v", ar)
		}
		if eng, _ := vaBalance(t, e, "sk_sandbox_acme", "", "subaccount_acmeengineering"); eng != eng0-2500 {
			t.Fatalf("after approval engineering holds %d, want %d", eng, eng0-2500)
		}
	})
}
