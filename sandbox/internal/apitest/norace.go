//go:build !race

package apitest

// Race reports whether the tests run under the race detector (see
// race.go).
const Race = false
