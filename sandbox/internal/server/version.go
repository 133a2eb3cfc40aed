package server

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// Version is the sandbox's version as GET /_sandbox/health, the MCP server
// and the OpenAPI document report it, and as `slash-sandbox version`
// prints it: read from the binary's build information when the program
// starts.
var Version = ReadBuild().String()

// modulePath is the sandbox's module, looked up among the dependencies of
// a program that imports it (a user's test through sandboxtest).
const modulePath = "github.com/slash-sandbox/slash-sandbox"

// Build is what the Go toolchain recorded about the running binary.
type Build struct {
	Module string `json:"module"`
	// Version is the module's version: a tag or pseudo-version when the
	// binary was built from a module version or a stamped checkout,
	// "(devel)" for go run and test builds.
	Version string `json:"version"`
	// Revision, Modified and Time are the version control state of the
	// checkout the binary was built from (vcs.revision, vcs.modified,
	// vcs.time), when the toolchain recorded it.
	Revision string `json:"revision,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Time     string `json:"time,omitempty"`
	Go       string `json:"go"`
}

// ReadBuild reads the build information of the running binary.
func ReadBuild() Build {
	b := Build{Module: modulePath, Version: "(devel)", Go: runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b
	}
	if info.Main.Path != modulePath {
		for _, d := range info.Deps {
			if d.Path == modulePath && d.Replace == nil && d.Version != "" {
				b.Version = d.Version
			}
		}
		return b
	}
	if info.Main.Version != "" {
		b.Version = info.Main.Version
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		case "vcs.time":
			b.Time = s.Value
		}
	}
	return b
}

// String is the version on one line: the module version, followed by the
// revision (and whether the checkout had changes) when the version does
// not already name it.
func (b Build) String() string {
	rev := b.Revision
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" || strings.Contains(b.Version, rev) {
		return b.Version
	}
	if b.Modified {
		return b.Version + " (" + rev + ", modified)"
	}
	return b.Version + " (" + rev + ")"
}
