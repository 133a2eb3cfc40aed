package server_test

import (
	"runtime"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/server"
)

func TestBuildString(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    server.Build
		want string
	}{
		{"a test or go run build", server.Build{Version: "(devel)"}, "(devel)"},
		{"a tagged version", server.Build{Version: "v1.4.0"}, "v1.4.0"},
		{"a stamped checkout names its revision already",
			server.Build{Version: "v0.0.0-20261124001609-50bba9f6183f+dirty",
				Revision: "50bba9f6183f74d1d44df53b09ea9e78f8808365", Modified: true},
			"v0.0.0-20261124001609-50bba9f6183f+dirty"},
		{"a revision the version does not name", server.Build{Version: "(devel)",
			Revision: "50bba9f6183f74d1d44df53b09ea9e78f8808365"}, "(devel) (50bba9f6183f)"},
		{"with changes", server.Build{Version: "(devel)", Revision: "50bba9f6183f74d1d44df53b09ea9e78f8808365",
			Modified: true}, "(devel) (50bba9f6183f, modified)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.b.String(); got != tc.want {
				t.Errorf("String() = %q, want %q", got, tc.want)
			}
		})
	}
}

// A test binary has no module version and no revision: the version is
// "(devel)", honestly, and that is what the server reports.
func TestVersionOfATestBuild(t *testing.T) {
	b := server.ReadBuild()
	if b.Module != "github.com/slash-sandbox/slash-sandbox" || b.Version != "(devel)" || b.Go != runtime.Version() {
		t.Errorf("ReadBuild() = %+v", b)
	}
	if server.Version != b.String() {
		t.Errorf("Version = %q, want %q", server.Version, b.String())
	}
}
