//go:build race

package apitest

// Race reports whether the tests run under the race detector, where each
// request costs several times what it costs otherwise. The exhaustive
// property tests walk fewer worlds there: the race detector looks for
// unsynchronised memory, which one world's walk exercises as well as
// three; the plain run walks them all.
const Race = true
