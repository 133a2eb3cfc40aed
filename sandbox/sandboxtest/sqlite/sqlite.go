// Package sqlite adds the SQL engine behind POST /analytics to an
// in-process sandbox: SQLite (modernc.org/sqlite, pure Go), one in-memory
// database per query holding the caller's legal entity's rows, read only.
//
// The slash-sandbox binary always serves it. A sandboxtest sandbox serves
// it when given it, so that a test that never queries analytics does not
// compile SQLite (about a quarter of a cold build):
//
//	sb := sandboxtest.Start(t, sandboxtest.Options{Analytics: sqlite.Engine})
//
// Without it, SHOW TABLES and DESCRIBE answer, and other statements answer
// 501 naming this package.
package sqlite

import (
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parts"
	"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest"
)

// Engine runs analytics queries in SQLite; give it to
// sandboxtest.Options.Analytics.
var Engine sandboxtest.Analytics = parts.SQLite
