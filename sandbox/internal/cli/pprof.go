//go:build pprof

package cli

// Built with -tags pprof, the sandbox serves Go's profiler on the loopback
// address SANDBOX_PPROF names (e.g. 127.0.0.1:6060): how the hot paths in
// bench/ were profiled. Release builds leave it out.

import (
	"net/http"
	_ "net/http/pprof"
	"os"
	"runtime"
)

func init() {
	if addr := os.Getenv("SANDBOX_PPROF"); addr != "" {
		runtime.SetMutexProfileFraction(20)
		go http.ListenAndServe(addr, nil)
	}
}
