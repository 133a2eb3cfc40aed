// Package store wraps buntdb, in memory, for the engine: JSON records,
// explicit index keys ordered as plain strings (so every list page is a
// range scan that costs the same at the millionth item as at the first),
// snapshots, and the data file that keeps a database across restarts, a
// log of whole transactions (see datafile.go) synced as its durability says.
package store
