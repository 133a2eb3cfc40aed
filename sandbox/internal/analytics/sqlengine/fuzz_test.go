package sqlengine_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/analytics"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/analytics/sqlengine"
)

// FuzzRun: any query text is answered with rows or an error in the
// result; nothing panics.
func FuzzRun(f *testing.F) {
	for _, seed := range []string{"SELECT * FROM t", "select count(*) from t; ", "DELETE FROM t", "SHOW TABLES",
		"describe t",
		"'unterminated", "/* open comment", "SELECT 1 -- x\n; UPDATE t SET n = 0", "ATTACH ':memory:' AS x",
		"PRAGMA writable_schema=1",
		"WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n) SELECT x FROM n", "[t]", "\"",
		"SELECT zeroblob(1000000000)"} {
		f.Add(seed)
	}
	lim := analytics.Limits{Timeout: 200 * time.Millisecond, MaxRows: 50, MaxBytes: 1 << 16}
	f.Fuzz(func(t *testing.T, query string) {
		r, err := analytics.Run(context.Background(), sqlengine.Run, sample, query, lim)
		if err != nil {
			t.Fatalf("Run(%q): %v", query, err)
		}
		if r.Error == "" && r.RowCount != len(r.Rows) {
			t.Fatalf("rowCount %d for %d rows", r.RowCount, len(r.Rows))
		}
		if strings.Contains(strings.ToLower(r.Error), "panic") {
			t.Fatalf("Run(%q) = %q", query, r.Error)
		}
	})
}
