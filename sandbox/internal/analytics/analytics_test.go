package analytics

import (
	"context"
	"strings"
	"testing"
	"time"
)

var sample = []AnalyticsData{{
	Table: AnalyticsTable{Name: "t", Columns: []AnalyticsColumn{{Name: "id", Type: "TEXT"}, {Name: "n", Type: "INTEGER"}, {Name: "ok", Type: "BOOLEAN"}}},
	Rows:  [][]any{{"a", int64(1), true}, {"b", int64(2), false}, {"c", nil, nil}},
}}

func TestRun(t *testing.T) {
	r, err := Run(context.Background(), sample, "SELECT id, n, ok FROM t WHERE n IS NOT NULL ORDER BY n", DefaultLimits)
	if err != nil || r.Error != "" || r.RowCount != 2 || r.Rows[1]["id"] != "b" || r.Rows[1]["n"] != int64(2) || r.Rows[0]["ok"] != int64(1) {
		t.Fatalf("Run = %+v, %v", r, err)
	}
}

func TestLimits(t *testing.T) {
	t.Run("time", func(t *testing.T) {
		lim := Limits{Timeout: 100 * time.Millisecond, MaxRows: 10, MaxBytes: 1 << 20}
		start := time.Now()
		r, err := Run(context.Background(), sample, "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n) SELECT count(*) FROM n", lim)
		if err != nil || !strings.Contains(r.Error, "time limit") {
			t.Fatalf("Run = %+v, %v", r, err)
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("the query was not stopped")
		}
	})
	t.Run("rows", func(t *testing.T) {
		r, _ := Run(context.Background(), sample, "SELECT * FROM t, t AS u", Limits{Timeout: time.Second, MaxRows: 5, MaxBytes: 1 << 20})
		if !strings.Contains(r.Error, "more than 5 rows") || len(r.Rows) != 0 {
			t.Fatalf("Run = %+v", r)
		}
	})
	t.Run("bytes", func(t *testing.T) {
		r, _ := Run(context.Background(), sample, "SELECT printf('%.1000c', 'x') FROM t", Limits{Timeout: time.Second, MaxRows: 5, MaxBytes: 1500})
		if !strings.Contains(r.Error, "larger than") {
			t.Fatalf("Run = %+v", r)
		}
	})
}

func TestClassify(t *testing.T) {
	for query, want := range map[string]string{
		"select 1": "select",
		"  /* hi */ WITH x AS (SELECT 1) SELECT * FROM x": "select",
		"show tables;":         "show_tables",
		"DESC t":               "describe",
		"describe table \"t\"": "describe",
		"delete from t":        "other",
		"select ';' as x":      "select",
	} {
		st, problem := classify(query)
		if problem != "" || st.kind != want {
			t.Errorf("classify(%q) = %q %q, want %s", query, st.kind, problem, want)
		}
	}
	for _, bad := range []string{"select 1; select 2", "", "-- only a comment", "describe a b c"} {
		if _, problem := classify(bad); problem == "" {
			t.Errorf("classify(%q) found no problem", bad)
		}
	}
}
