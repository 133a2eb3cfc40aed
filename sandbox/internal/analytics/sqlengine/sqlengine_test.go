package sqlengine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/analytics"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/analytics/sqlengine"
)

var sample = []analytics.AnalyticsData{{
	Table: analytics.AnalyticsTable{
		Name: "t",
		Columns: []analytics.AnalyticsColumn{
			{Name: "id", Type: "TEXT"},
			{Name: "n", Type: "INTEGER"},
			{Name: "ok", Type: "BOOLEAN"},
		},
	},
	Rows: [][]any{{"a", int64(1), true}, {"b", int64(2), false}, {"c", nil, nil}},
}}

func TestRun(t *testing.T) {
	r, err := analytics.Run(context.Background(), sqlengine.Run, sample,
		"SELECT id, n, ok FROM t WHERE n IS NOT NULL ORDER BY n", analytics.DefaultLimits)
	if err != nil || r.Error != "" || r.RowCount != 2 || r.Rows[1]["id"] != "b" || r.Rows[1]["n"] != int64(2) ||
		r.Rows[0]["ok"] != int64(1) {
		t.Fatalf("Run = %+v, %v", r, err)
	}
}

func TestLimits(t *testing.T) {
	t.Run("time", func(t *testing.T) {
		lim := analytics.Limits{Timeout: 100 * time.Millisecond, MaxRows: 10, MaxBytes: 1 << 20}
		start := time.Now()
		r, err := analytics.Run(context.Background(), sqlengine.Run, sample,
			"WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n) SELECT count(*) FROM n", lim)
		if err != nil || !strings.Contains(r.Error, "time limit") {
			t.Fatalf("Run = %+v, %v", r, err)
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("the query was not stopped")
		}
	})
	t.Run("rows", func(t *testing.T) {
		r, _ := analytics.Run(context.Background(), sqlengine.Run, sample, "SELECT * FROM t, t AS u",
			analytics.Limits{Timeout: time.Second, MaxRows: 5, MaxBytes: 1 << 20})
		if !strings.Contains(r.Error, "more than 5 rows") || len(r.Rows) != 0 {
			t.Fatalf("Run = %+v", r)
		}
	})
	t.Run("bytes", func(t *testing.T) {
		r, _ := analytics.Run(context.Background(), sqlengine.Run, sample, "SELECT printf('%.1000c', 'x') FROM t",
			analytics.Limits{Timeout: time.Second, MaxRows: 5, MaxBytes: 1500})
		if !strings.Contains(r.Error, "larger than") {
			t.Fatalf("Run = %+v", r)
		}
	})
}
