package analytics

import (
	"sort"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// AnalyticsColumn is one column of an analytics table.
type AnalyticsColumn struct {
	Name string
	// Type is the SQL type: TEXT, INTEGER, REAL or BOOLEAN (stored as 0/1).
	Type string
	Doc  string
}

// AnalyticsTable is one read-only view POST /analytics offers: its columns
// and how to read the rows of one legal entity. Rows hold string, int64,
// float64, bool or nil values, in column order.
type AnalyticsTable struct {
	Name    string
	Doc     string
	Columns []AnalyticsColumn
	Rows    func(op *kernel.Op, legalEntityID string) ([][]any, error)
}

// AnalyticsTables lists the tables POST /analytics offers, by name: one for
// each kind of record a legal entity owns, whose Rows return that legal
// entity's rows only.
func AnalyticsTables() []AnalyticsTable {
	out := append(append(ledgerTables(), cardTables()...), partyTables()...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// AnalyticsData is one table filled with one legal entity's rows.
type AnalyticsData struct {
	Table AnalyticsTable
	Rows  [][]any
}

// AnalyticsSnapshot reads every analytics table for the actor's legal
// entity, in one consistent view of the world.
func AnalyticsSnapshot(op *kernel.Op, a *kernel.Actor) ([]AnalyticsData, error) {
	var out []AnalyticsData
	for _, t := range AnalyticsTables() {
		rows, err := t.Rows(op, a.LegalEntityID())
		if err != nil {
			return nil, err
		}
		out = append(out, AnalyticsData{Table: t, Rows: rows})
	}
	return out, nil
}

// sqlTime formats an instant for an analytics row ("" becomes NULL).
func sqlTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

func sqlTimePtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return sqlTime(*t)
}

// sqlText turns "" into NULL.
func sqlText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// col is shorthand for a column.
func col(name, typ, doc string) AnalyticsColumn {
	return AnalyticsColumn{Name: name, Type: typ, Doc: doc}
}

// rowsOf loads every record of a kind under a legal entity's index and
// turns each into a row.
func rowsOf[T any](op *kernel.Op, kind, index, legalEntityID string, row func(*T) []any) ([][]any, error) {
	items, err := kernel.All[T](op, kind, kernel.IndexPrefix(index, legalEntityID))
	if err != nil {
		return nil, err
	}
	out := make([][]any, len(items))
	for i := range items {
		out[i] = row(&items[i])
	}
	return out, nil
}
