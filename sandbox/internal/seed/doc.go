// Package seed writes a scenario into a new world: its legal entities, keys,
// records, generated history and scheduled events.
package seed
