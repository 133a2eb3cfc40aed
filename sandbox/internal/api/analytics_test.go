package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

type analyticsResult struct {
	Columns  []string         `json:"columns"`
	Rows     []map[string]any `json:"rows"`
	RowCount int              `json:"rowCount"`
	Error    string           `json:"error"`
}

func query(t *testing.T, e *apitest.Env, key, le, sql string) analyticsResult {
	t.Helper()
	var out analyticsResult
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/analytics", Key: key, LE: le,
		Body: map[string]string{"query": sql}}).
		Status(t, 200).
		Decode(t, &out)
	return out
}

func TestAnalytics(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	t.Run("aggregates the legal entity's transactions", func(t *testing.T) {
		r := query(t, e, "sk_sandbox_acme", "", `SELECT detailed_status, count(*) AS n, sum(amount_cents) AS total
			FROM transactions GROUP BY detailed_status ORDER BY n DESC`)
		if r.Error != "" || r.RowCount == 0 || r.RowCount != len(r.Rows) ||
			strings.Join(r.Columns, ",") != "detailed_status,n,total" {
			t.Fatalf("result = %+v", r)
		}
		var n float64
		for _, row := range r.Rows {
			n += row["n"].(float64)
		}
		if got := len(apitest.Walk(t, e, "/transaction", nil)); float64(got) != n {
			t.Fatalf("analytics counts %v transactions, the API lists %d", n, got)
		}
	})
	t.Run("never another legal entity's rows", func(t *testing.T) {
		for _, c := range []struct{ key, le, want string }{
			{"sk_sandbox_acme", "", "sa_group_acmecharge,sa_group_acmeoperating"},
			{"sk_sandbox_globex", "", "sa_group_globexmain"},
			{"sk_sandbox_alice", "le_globex", "sa_group_globexmain"},
		} {
			r := query(t, e, c.key, c.le, "SELECT DISTINCT account_id FROM transactions ORDER BY 1")
			var got []string
			for _, row := range r.Rows {
				got = append(got, row["account_id"].(string))
			}
			if strings.Join(got, ",") != c.want {
				t.Errorf("%s %s sees accounts %v, want %s", c.key, c.le, got, c.want)
			}
		}
		r := query(t, e, "sk_sandbox_globex", "", "SELECT count(*) AS n FROM cards WHERE id LIKE 'card_acme%'")
		if r.Rows[0]["n"].(float64) != 0 {
			t.Fatal("globex sees acme's cards")
		}
	})
	t.Run("joins across tables", func(t *testing.T) {
		r := query(t, e, "sk_sandbox_acme", "", `SELECT g.name, count(c.id) AS cards FROM card_groups g
			JOIN cards c ON c.card_group_id = g.id GROUP BY g.name ORDER BY g.name`)
		if r.Error != "" || r.RowCount != 3 || r.Rows[0]["name"] != "Engineering SaaS" ||
			r.Rows[0]["cards"].(float64) != 3 {
			t.Fatalf("result = %+v", r)
		}
	})
	t.Run("show tables and describe", func(t *testing.T) {
		r := query(t, e, "sk_sandbox_acme", "", "SHOW TABLES")
		names := map[string]bool{}
		for _, row := range r.Rows {
			names[row["name"].(string)] = true
		}
		for _, want := range []string{"transactions", "cards", "card_groups", "accounts", "virtual_accounts",
			"contacts",
			"customers", "invoices", "webhooks"} {
			if !names[want] {
				t.Errorf("SHOW TABLES lacks %s: %v", want, names)
			}
		}
		d := query(t, e, "sk_sandbox_acme", "", "describe table Transactions;")
		if d.Error != "" || d.Columns[0] != "name" || d.Rows[0]["name"] != "id" || d.Rows[0]["type"] != "TEXT" {
			t.Fatalf("describe = %+v", d)
		}
		if r := query(t, e, "sk_sandbox_acme", "", "DESCRIBE nothing"); !strings.Contains(r.Error, "does not exist") {
			t.Fatalf("describe of an unknown table = %+v", r)
		}
	})
	t.Run("bad queries report their error", func(t *testing.T) {
		for name, sql := range map[string]string{
			"syntax":            "SELEC 1",
			"unknown table":     "SELECT * FROM le_globex_secrets",
			"delete":            "DELETE FROM transactions",
			"update":            "UPDATE cards SET name = 'x'",
			"insert":            "INSERT INTO cards(id) VALUES ('x')",
			"attach":            "ATTACH DATABASE '/tmp/x.db' AS x",
			"pragma write":      "PRAGMA query_only = OFF",
			"two statements":    "SELECT 1; DELETE FROM cards",
			"drop":              "DROP TABLE cards",
			"empty":             "  -- nothing\n",
			"write in a CTE":    "WITH x AS (SELECT 1) DELETE FROM cards",
			"huge value":        "SELECT zeroblob(100000000)",
			"load an extension": "SELECT load_extension('/tmp/x')",
		} {
			r := query(t, e, "sk_sandbox_acme", "", sql)
			if r.Error == "" || r.RowCount != 0 || len(r.Rows) != 0 {
				t.Errorf("%s: result = %+v, want an error", name, r)
			}
		}
		after := query(t, e, "sk_sandbox_acme", "", "SELECT count(*) AS n FROM cards")
		if after.Rows[0]["n"].(float64) < 10 {
			t.Fatalf("cards after the refused writes: %+v", after)
		}
	})
	t.Run("runaway queries stop", func(t *testing.T) {
		r := query(t, e, "sk_sandbox_acme", "",
			"WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n) SELECT x FROM n")
		if !strings.Contains(r.Error, "rows") {
			t.Fatalf("unbounded result = %+v", r.Error)
		}
	})
	t.Run("a semicolon inside a string is not a second statement", func(t *testing.T) {
		r := query(t, e, "sk_sandbox_acme", "", "SELECT 'a;b' AS s; ")
		if r.Error != "" || r.Rows[0]["s"] != "a;b" {
			t.Fatalf("result = %+v", r)
		}
	})
	t.Run("invalid bodies", func(t *testing.T) {
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/analytics", Key: "sk_sandbox_acme",
			Body: map[string]int{"query": 1}}).
			Gen1(t, 400, "invalid_request")
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/analytics", Key: "sk_sandbox_acme", Body: `{}`}).
			Gen1(t, 400, "invalid_request")
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/analytics", Key: "sk_sandbox_alice",
			Body: `{"query":"SELECT 1"}`}).
			Gen1(t, 400, "invalid_request")
	})
	t.Run("a read-only key may query", func(t *testing.T) {
		if r := query(t, e, "sk_sandbox_acme_readonly", "",
			"SELECT count(*) AS n FROM accounts"); r.Rows[0]["n"].(float64) != 2 {
			t.Fatalf("result = %+v", r)
		}
	})
}
