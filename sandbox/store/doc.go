// Package store wraps buntdb for the engine: JSON records, explicit index
// keys ordered as plain strings (so every list page is a range scan that
// costs the same at the millionth item as at the first), snapshots and
// durability settings.
package store
