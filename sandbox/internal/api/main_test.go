package api_test

import (
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/api"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// TestMain fails a full run for a public route no test of this package
// reaches, and for a golden file of fixtures/golden/api none compares with.
func TestMain(m *testing.M) {
	apitest.Main(m, apitest.Suite{Routes: (&api.API{}).Register, Goldens: "api"})
}
