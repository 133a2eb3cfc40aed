// Package scenario reads scenario YAML strictly: every unknown key, wrong
// type, bad time and dangling reference of a file is reported at once,
// with its line, its column and, for a near miss, a suggestion. Its types'
// tags describe the format once, for the decoder, the validator and
// JSONSchema. It resolves nothing against a world; the engine turns a
// checked scenario into records.
package scenario
