package analytics

import (
	"context"
	"errors"
	"testing"
)

var sample = []AnalyticsData{{
	Table: AnalyticsTable{Name: "t", Columns: []AnalyticsColumn{{Name: "id", Type: "TEXT"}, {Name: "n", Type: "INTEGER"}}},
	Rows:  [][]any{{"a", int64(1)}, {"b", int64(2)}},
}}

// TestRunWithoutAnEngine: SHOW TABLES and DESCRIBE are answered without an
// engine, a refused statement is still refused in the result, and a query
// that needs the engine gets ErrNoEngine, which names the package to add.
func TestRunWithoutAnEngine(t *testing.T) {
	ctx := context.Background()
	r, err := Run(ctx, nil, sample, "SHOW TABLES", DefaultLimits)
	if err != nil || r.RowCount != 1 || r.Rows[0]["name"] != "t" || r.Rows[0]["rows"] != 2 {
		t.Fatalf("SHOW TABLES = %+v, %v", r, err)
	}
	r, err = Run(ctx, nil, sample, "describe t", DefaultLimits)
	if err != nil || r.RowCount != 2 || r.Rows[1]["name"] != "n" || r.Rows[1]["type"] != "INTEGER" {
		t.Fatalf("DESCRIBE = %+v, %v", r, err)
	}
	r, err = Run(ctx, nil, sample, "DELETE FROM t", DefaultLimits)
	if err != nil || r.Error == "" {
		t.Fatalf("DELETE = %+v, %v", r, err)
	}
	if _, err := Run(ctx, nil, sample, "SELECT 1", DefaultLimits); !errors.Is(err, ErrNoEngine) {
		t.Fatalf("SELECT without an engine: %v", err)
	}
}

// TestRunHandsTheStatementToTheEngine: the engine gets the one statement,
// without the trailing semicolon and comments.
func TestRunHandsTheStatementToTheEngine(t *testing.T) {
	var got string
	eng := func(_ context.Context, _ []AnalyticsData, query string, _ Limits) (Result, error) {
		got = query
		return Result{Columns: []string{}, Rows: []map[string]any{}}, nil
	}
	if _, err := Run(context.Background(), eng, sample, "  /* why */ SELECT n FROM t -- all\n;",
		DefaultLimits); err != nil {
		t.Fatal(err)
	}
	if got != "SELECT n FROM t" {
		t.Fatalf("the engine got %q", got)
	}
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
