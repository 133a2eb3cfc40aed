// Package analytics answers POST /analytics queries over one legal
// entity's rows: the tables each kind of record offers, SHOW TABLES and
// DESCRIBE, and the classification of a query as read only. The SQL itself
// runs in an Engine; the SQLite one is the package sqlengine beside this
// one.
package analytics
