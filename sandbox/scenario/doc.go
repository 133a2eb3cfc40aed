// Package scenario reads scenario YAML strictly: an unknown key, a wrong
// type, a bad time or a dangling reference is reported with the file, the
// line and what is wrong. It resolves nothing against a world; the engine
// turns a checked scenario into records.
package scenario
