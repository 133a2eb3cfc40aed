package server_test

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/ledger"
)

type page struct {
	Items []struct {
		ID             string `json:"id"`
		DetailedStatus string `json:"detailedStatus"`
		Date           string `json:"date"`
	} `json:"items"`
	Metadata struct {
		Count      int    `json:"count"`
		NextCursor string `json:"nextCursor"`
	} `json:"metadata"`
}

// walk follows nextCursor to the end, returning every id in order.
func walk(t *testing.T, e *env, path string, between func()) []string {
	t.Helper()
	var ids []string
	cursor := ""
	for pages := 0; ; pages++ {
		p := path
		if cursor != "" {
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			p += sep + "cursor=" + url.QueryEscape(cursor)
		}
		var pg page
		e.get(p, "sk_sandbox_acme", "").status(t, 200).decode(t, &pg)
		if pg.Metadata.Count != len(pg.Items) {
			t.Fatalf("metadata.count = %d for %d items", pg.Metadata.Count, len(pg.Items))
		}
		for _, it := range pg.Items {
			ids = append(ids, it.ID)
		}
		if pg.Metadata.NextCursor == "" {
			return ids
		}
		if len(pg.Items) != kernel.PageSize {
			t.Fatalf("a page that is not the last holds %d items", len(pg.Items))
		}
		cursor = pg.Metadata.NextCursor
		if between != nil {
			between()
		}
	}
}

func TestPaginationWalksEverythingOnce(t *testing.T) {
	e := newEnv(t, options{})
	ids := walk(t, e, "/transaction", nil)
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
		settled := walk(t, e, "/transaction?filter:detailed_status=settled", nil)
		if len(settled) <= kernel.PageSize || len(settled) >= len(ids) {
			t.Fatalf("settled = %d of %d", len(settled), len(ids))
		}
		for _, id := range settled[kernel.PageSize:] {
			var tx struct{ DetailedStatus string }
			e.get("/transaction/"+id, "sk_sandbox_acme", "").status(t, 200).decode(t, &tx)
			if tx.DetailedStatus != "settled" {
				t.Fatalf("%s on a later page is %s", id, tx.DetailedStatus)
			}
		}
	})
}

func TestPaginationIsStableUnderInserts(t *testing.T) {
	e := newEnv(t, options{})
	before := walk(t, e, "/transaction", nil)
	w := e.eng.Default()
	n := 0
	during := walk(t, e, "/transaction", func() {
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
	e := newEnv(t, options{})
	var pg page
	e.get("/transaction", "sk_sandbox_acme", "").status(t, 200).decode(t, &pg)
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
			body := e.get(tc.path, tc.key, tc.le).gen1(t, 400, "invalid_request")
			if _, ok := body["meta"].(map[string]any)["details"].(map[string]any)["cursor"]; !ok {
				t.Fatalf("400 does not name the cursor: %v", body)
			}
		})
	}
	t.Run("another list's cursor in the second generation", func(t *testing.T) {
		e.get("/v2/contacts?cursor="+url.QueryEscape(cur), "sk_sandbox_alice", "le_acme").gen2(t, 400, "invalid_request")
	})
	t.Run("the genuine cursor still works", func(t *testing.T) {
		e.get("/transaction?cursor="+url.QueryEscape(cur), "sk_sandbox_acme", "").status(t, 200)
	})
}

func TestTransactionReads(t *testing.T) {
	e := newEnv(t, options{})
	t.Run("bad filters are 400", func(t *testing.T) {
		for _, q := range []string{"filter:detailed_status=lost", "filter:status=maybe", "filter:category=cash",
			"filter:from_date=yesterday"} {
			e.get("/transaction?"+q, "sk_sandbox_acme", "").gen1(t, 400, "invalid_request")
		}
	})
	t.Run("another entity's transaction is 404", func(t *testing.T) {
		var pg page
		e.get("/transaction", "sk_sandbox_globex", "").status(t, 200).decode(t, &pg)
		e.get("/transaction/"+pg.Items[0].ID, "sk_sandbox_acme", "").gen1(t, 404, "not_found")
		e.get("/transaction/"+pg.Items[0].ID, "sk_sandbox_globex", "").status(t, 200)
	})
	t.Run("merchantDescription mirrors merchantData.description", func(t *testing.T) {
		body := e.get("/transaction?filter:category=card", "sk_sandbox_acme", "").status(t, 200).json(t)
		for _, it := range body["items"].([]any) {
			m := it.(map[string]any)
			md, _ := m["merchantData"].(map[string]any)
			if md == nil || m["merchantDescription"] != md["description"] {
				t.Fatalf("card transaction %v", m)
			}
		}
	})
}
