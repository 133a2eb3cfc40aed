package analytics

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// Limits bound one query.
type Limits struct {
	Timeout  time.Duration
	MaxRows  int
	MaxBytes int
}

// DefaultLimits are the limits POST /analytics applies.
var DefaultLimits = Limits{Timeout: 3 * time.Second, MaxRows: 10000, MaxBytes: 4 << 20}

// Result is a query's answer: the columns, one object per row, and the
// error the query met, if any (upstream reports query errors in the body).
type Result struct {
	Columns  []string         `json:"columns"`
	Rows     []map[string]any `json:"rows"`
	RowCount int              `json:"rowCount"`
	Error    string           `json:"error,omitempty"`
}

// Failed is the answer to a query that failed with msg.
func Failed(msg string) Result {
	return Result{Columns: []string{}, Rows: []map[string]any{}, Error: msg}
}

// Engine runs one read-only query (SELECT, WITH or VALUES) over tables
// filled from data, within lim. A problem with the query is reported in
// Result.Error; the error return is for the engine's own failures. The one
// engine there is, SQLite, lives in the package sqlengine beside this one,
// so that what never runs SQL does not compile it.
type Engine func(ctx context.Context, data []AnalyticsData, query string, lim Limits) (Result, error)

// ErrNoEngine is what Run answers a query that needs an engine when it
// was given none.
var ErrNoEngine = kernel.NotServed("an SQL engine", "POST /analytics answers SHOW TABLES and DESCRIBE only",
	"Analytics: sqlite.Engine", "sqlite")

// Run answers a query over the given tables: SHOW TABLES and DESCRIBE
// itself, the rest through eng. A problem with the query is reported in
// Result.Error; the error return is for the sandbox's own failures and
// ErrNoEngine.
func Run(ctx context.Context, eng Engine, data []AnalyticsData, query string, lim Limits) (Result, error) {
	st, problem := classify(query)
	switch {
	case problem != "":
		return Failed(problem), nil
	case st.kind == "show_tables":
		return showTables(data), nil
	case st.kind == "describe":
		return describe(data, st.table), nil
	case st.kind != "select":
		return Failed("only read-only queries are allowed: SELECT, WITH, VALUES, SHOW TABLES and DESCRIBE <table>"), nil
	case eng == nil:
		return Result{}, ErrNoEngine
	}
	return eng(ctx, data, st.text, lim)
}

func showTables(data []AnalyticsData) Result {
	out := Result{Columns: []string{"name", "rows", "comment"}, Rows: []map[string]any{}}
	for _, d := range data {
		out.Rows = append(out.Rows, map[string]any{"name": d.Table.Name, "rows": len(d.Rows), "comment": d.Table.Doc})
	}
	out.RowCount = len(out.Rows)
	return out
}

func describe(data []AnalyticsData, table string) Result {
	for _, d := range data {
		if strings.EqualFold(d.Table.Name, table) {
			out := Result{Columns: []string{"name", "type", "comment"}, Rows: []map[string]any{}}
			for _, c := range d.Table.Columns {
				out.Rows = append(out.Rows, map[string]any{"name": c.Name, "type": c.Type, "comment": c.Doc})
			}
			out.RowCount = len(out.Rows)
			return out
		}
	}
	return Failed(fmt.Sprintf("table %q does not exist; SHOW TABLES lists them", table))
}
