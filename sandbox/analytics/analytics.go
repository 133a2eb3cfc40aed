// Package analytics is the SQL engine behind POST /analytics: SQLite
// (modernc.org/sqlite, pure Go), one in-memory database per query holding
// the caller's legal entity's rows, read only.
//
// The slash-sandbox binary always serves it. An in-process sandbox serves
// it when given it, so that a test that never queries analytics does not
// compile SQLite (about a quarter of a cold build):
//
//	sb := sandboxtest.Start(t, sandboxtest.Options{Analytics: analytics.SQLite})
//
// Without it, SHOW TABLES and DESCRIBE answer, and other statements answer
// 501 naming this package.
package analytics

import (
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/analytics/sqlengine"
	"github.com/slash-sandbox/slash-sandbox/sandbox/server"
)

// SQLite runs analytics queries in SQLite; give it to
// sandboxtest.Options.Analytics or server.Config.Analytics.
var SQLite server.Analytics = sqlengine.Run
