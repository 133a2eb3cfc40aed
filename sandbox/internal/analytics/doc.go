// Package analytics runs POST /analytics queries: the caller's SQL, read
// only, in an in-memory SQLite database (modernc.org/sqlite, pure Go) that
// holds one legal entity's rows and nothing else, dropped after the query.
package analytics
