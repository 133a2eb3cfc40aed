// Package sqlengine runs analytics queries in SQLite (modernc.org/sqlite,
// pure Go): an in-memory database per query that holds one legal entity's
// rows and nothing else, read only, dropped after the query. It is apart
// from package analytics so that only the programs that run SQL compile
// the engine.
package sqlengine

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/analytics"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Run is an analytics.Engine: it runs one read-only query over tables
// filled from data.
func Run(
	ctx context.Context,
	data []analytics.AnalyticsData,
	query string,
	lim analytics.Limits,
) (analytics.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, lim.Timeout)
	defer cancel()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return analytics.Result{}, err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return analytics.Result{}, err
	}
	defer conn.Close()
	if err := load(ctx, conn, data); err != nil {
		return analytics.Result{}, err
	}
	if err := lockDown(ctx, conn); err != nil {
		return analytics.Result{}, err
	}
	return execute(ctx, conn, query, lim), nil
}

// load creates the tables and fills them.
func load(ctx context.Context, conn *sql.Conn, data []analytics.AnalyticsData) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, d := range data {
		cols := make([]string, len(d.Table.Columns))
		marks := make([]string, len(d.Table.Columns))
		for i, c := range d.Table.Columns {
			cols[i], marks[i] = fmt.Sprintf("%q %s", c.Name, c.Type), "?"
		}
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("CREATE TABLE %q (%s)", d.Table.Name,
			strings.Join(cols, ", "))); err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, fmt.Sprintf("INSERT INTO %q VALUES (%s)", d.Table.Name, strings.Join(marks, ", ")))
		if err != nil {
			return err
		}
		for _, row := range d.Rows {
			if _, err := ins.ExecContext(ctx, row...); err != nil {
				ins.Close()
				return fmt.Errorf("analytics table %s: %w", d.Table.Name, err)
			}
		}
		ins.Close()
	}
	return tx.Commit()
}

// lockDown makes the connection read-only: query_only refuses writes, the
// authorizer refuses everything but reading (no ATTACH, PRAGMA or
// transaction control), and a value may not grow past 1 MiB.
func lockDown(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, "PRAGMA query_only = ON"); err != nil {
		return err
	}
	if _, err := sqlite.Limit(conn, sqlite3.SQLITE_LIMIT_LENGTH, 1<<20); err != nil {
		return err
	}
	return conn.Raw(func(driverConn any) error {
		reg, ok := driverConn.(sqlite.AuthorizerRegisterer)
		if !ok {
			return errors.New("the SQLite driver has no authorizer")
		}
		return reg.RegisterAuthorizer(
			func(action sqlite.AuthorizerActionCode, arg1, _, _, _ string) sqlite.AuthorizerReturnCode {
				switch action {
				case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthRecursive:
					return sqlite.AuthorizerOK
				case sqlite.AuthFunction:
					if strings.EqualFold(arg1, "load_extension") {
						return sqlite.AuthorizerDeny
					}
					return sqlite.AuthorizerOK
				}
				return sqlite.AuthorizerDeny
			},
		)
	})
}

// execute runs a read-only query, bounding rows, bytes and time.
func execute(ctx context.Context, conn *sql.Conn, query string, lim analytics.Limits) analytics.Result {
	rows, err := conn.QueryContext(ctx, query)
	if err != nil {
		return analytics.Failed(message(ctx, err))
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return analytics.Failed(message(ctx, err))
	}
	out := analytics.Result{Columns: cols, Rows: []map[string]any{}}
	size := 0
	for rows.Next() {
		if len(out.Rows) == lim.MaxRows {
			return analytics.Failed(fmt.Sprintf("the result has more than %d rows; add a LIMIT", lim.MaxRows))
		}
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return analytics.Failed(message(ctx, err))
		}
		row := make(map[string]any, len(cols))
		for i, c := range cols {
			if b, ok := vals[i].([]byte); ok {
				vals[i] = string(b)
			}
			row[c] = vals[i]
			size += len(c) + len(fmt.Sprint(vals[i]))
		}
		if size > lim.MaxBytes {
			return analytics.Failed(
				fmt.Sprintf("the result is larger than %d bytes; select fewer rows or columns", lim.MaxBytes),
			)
		}
		out.Rows = append(out.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return analytics.Failed(message(ctx, err))
	}
	out.RowCount = len(out.Rows)
	return out
}

// message is a query error as the caller sees it.
func message(ctx context.Context, err error) string {
	if ctx.Err() != nil {
		return "the query ran longer than the time limit and was stopped"
	}
	msg := err.Error()
	if strings.Contains(msg, "not authorized") {
		return "only read-only queries over the listed tables are allowed: " + msg
	}
	return msg
}
