package apitest

import (
	"io"
	"net/http"
	"testing"

	"github.com/rs/zerolog"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

// BenchServer is a sandbox for a benchmark: served as the binary serves
// it, the read cache unchecked.
func BenchServer(b *testing.B, scenario string) http.Handler {
	b.Helper()
	cfg := WithAll(server.Config{Scenario: scenario, Log: zerolog.New(io.Discard).Level(zerolog.InfoLevel)})
	cfg.VerifyReads = false
	s, err := server.New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Engine.Close() })
	return s.Handler
}
