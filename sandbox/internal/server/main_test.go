package server_test

import (
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

// TestMain runs the assembly's own tests. The routes are the packages'
// own: each package's TestMain checks its tests reach the routes it
// registers.
func TestMain(m *testing.M) { apitest.Main(m, apitest.Suite{}) }
