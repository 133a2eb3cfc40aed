package server

import (
	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox"
	"github.com/slash-sandbox/slash-sandbox/sandbox/api"
)

// Every behaviour test checks the read cache: a cache hit also runs the
// handler and fails loudly when the answers differ. Benchmarks turn the
// check off through VerifyReads to measure what production does.
func init() { verifyReads = true }

// VerifyReads switches the read cache's check.
var VerifyReads = &verifyReads

// Router is every route of the sandbox, without the outer middleware: tests
// walk it to enumerate the operations.
func Router(eng *sandbox.Engine, cfg Config) *mux.Router {
	return router(eng, cfg, &api.API{Engine: eng})
}
