package api_test

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

func TestPaginationWalksEverythingOnce(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	ids := apitest.Walk(t, e, "/transaction", nil)
	if len(ids) < 3*kernel.PageSize {
		t.Fatalf("only %d transactions", len(ids))
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("%s listed twice", id)
		}
		seen[id] = true
	}
	t.Run("filters hold on every page", func(t *testing.T) {
		settled := apitest.Walk(t, e, "/transaction?filter:detailed_status=settled", nil)
		if len(settled) <= kernel.PageSize || len(settled) >= len(ids) {
			t.Fatalf("settled = %d of %d", len(settled), len(ids))
		}
		for _, id := range settled[kernel.PageSize:] {
			var tx struct{ DetailedStatus string }
			e.Get("/transaction/"+id, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &tx)
			if tx.DetailedStatus != "settled" {
				t.Fatalf("%s on a later page is %s", id, tx.DetailedStatus)
			}
		}
	})
}

func TestPaginationIsStableUnderInserts(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	before := apitest.Walk(t, e, "/transaction", nil)
	w := e.Engine.Default()
	n := 0
	during := apitest.Walk(t, e, "/transaction", func() {
		err := w.Update(func(op *kernel.Op) error {
			n++
			return ledger.PostTransaction(op, &ledger.Transaction{LegalEntityID: "le_acme", AccountID: "sa_group_acmeoperating",
				VirtualAccountID: "subaccount_acmeengineering", Category: "internal", AmountCents: int64(n),
				DetailedStatus: "settled",
				Description:    "inserted while paging"})
		})
		if err != nil {
			t.Fatal(err)
		}
	})
	if n == 0 {
		t.Fatal("nothing was inserted")
	}
	if len(during) != len(before) {
		t.Fatalf("walk during inserts saw %d items, want the %d that existed", len(during), len(before))
	}
	for i := range before {
		if before[i] != during[i] {
			t.Fatalf("item %d: %s, want %s", i, during[i], before[i])
		}
	}
}

func TestCursorsCannotBeForgedOrReplayed(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	var pg apitest.Page
	e.Get("/transaction", "sk_sandbox_acme", "").Status(t, 200).Decode(t, &pg)
	cur := pg.Metadata.NextCursor
	if cur == "" {
		t.Fatal("first page has no nextCursor")
	}
	payload, mac, _ := strings.Cut(cur, ".")
	raw, _ := base64.RawURLEncoding.DecodeString(payload)
	var body map[string]string
	if err := json.Unmarshal(raw, &body); err != nil {
		t.Fatalf("cursor payload: %v", err)
	}
	body["a"] += "0"
	edited, _ := json.Marshal(body)
	forged := base64.RawURLEncoding.EncodeToString(edited) + "." + mac
	tests := []struct {
		name, path, key, le string
	}{
		{"garbage", "/transaction?cursor=abc", "sk_sandbox_acme", ""},
		{"edited payload", "/transaction?cursor=" + url.QueryEscape(forged), "sk_sandbox_acme", ""},
		{"truncated signature", "/transaction?cursor=" + url.QueryEscape(cur[:len(cur)-2]), "sk_sandbox_acme", ""},
		{
			"other filters",
			"/transaction?filter:detailed_status=settled&cursor=" + url.QueryEscape(cur),
			"sk_sandbox_acme",
			"",
		},
		{"other legal entity", "/transaction?cursor=" + url.QueryEscape(cur), "sk_sandbox_alice", "le_globex"},
		{"empty", "/transaction?cursor=", "sk_sandbox_acme", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := e.Get(tc.path, tc.key, tc.le).Gen1(t, 400, "invalid_request")
			if _, ok := body["meta"].(map[string]any)["details"].(map[string]any)["cursor"]; !ok {
				t.Fatalf("400 does not name the cursor: %v", body)
			}
		})
	}
	t.Run("another list's cursor in the second generation", func(t *testing.T) {
		e.Get("/v2/contacts?cursor="+url.QueryEscape(cur), "sk_sandbox_alice", "le_acme").Gen2(t, 400, "invalid_request")
	})
	t.Run("the genuine cursor still works", func(t *testing.T) {
		e.Get("/transaction?cursor="+url.QueryEscape(cur), "sk_sandbox_acme", "").Status(t, 200)
	})
}

func TestTransactionReads(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	t.Run("bad filters are 400", func(t *testing.T) {
		for _, q := range []string{"filter:detailed_status=lost", "filter:status=maybe", "filter:category=cash",
			"filter:from_date=yesterday"} {
			e.Get("/transaction?"+q, "sk_sandbox_acme", "").Gen1(t, 400, "invalid_request")
		}
	})
	t.Run("another entity's transaction is 404", func(t *testing.T) {
		var pg apitest.Page
		e.Get("/transaction", "sk_sandbox_globex", "").Status(t, 200).Decode(t, &pg)
		e.Get("/transaction/"+pg.Items[0].ID, "sk_sandbox_acme", "").Gen1(t, 404, "not_found")
		e.Get("/transaction/"+pg.Items[0].ID, "sk_sandbox_globex", "").Status(t, 200)
	})
	t.Run("merchantDescription mirrors merchantData.description", func(t *testing.T) {
		body := e.Get("/transaction?filter:category=card", "sk_sandbox_acme", "").Status(t, 200).JSON(t)
		for _, it := range body["items"].([]any) {
			m := it.(map[string]any)
			md, _ := m["merchantData"].(map[string]any)
			if md == nil || m["merchantDescription"] != md["description"] {
				t.Fatalf("card transaction %v", m)
			}
		}
	})
}
