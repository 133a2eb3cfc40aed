package control_test

import (
	"testing"

	"github.com/gorilla/mux"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/control"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
)

// TestMain fails a full run for a control route no test of this package
// reaches, and for a golden file of fixtures/golden/control none compares
// with.
func TestMain(m *testing.M) {
	apitest.Main(m, apitest.Suite{Routes: func(r *mux.Router, docs *openapi.Registry) {
		(&control.Control{}).Register(r, docs)
	}, Goldens: "control"})
}
