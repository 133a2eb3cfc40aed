package server

// Every behaviour test checks the read cache: a cache hit also runs the
// handler and fails loudly when the answers differ. Benchmarks turn the
// check off through VerifyReads to measure what production does.
func init() { verifyReads = true }

// VerifyReads switches the read cache's check.
var VerifyReads = &verifyReads
