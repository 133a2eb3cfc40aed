// Package scenarios embeds the scenario files shipped with the sandbox, so
// the binary stands alone.
package scenarios

import (
	"embed"
	"sort"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// Names lists the embedded scenarios.
func Names() []string {
	entries, _ := files.ReadDir(".")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(names)
	return names
}

// Get returns an embedded scenario's YAML.
func Get(name string) ([]byte, bool) {
	b, err := files.ReadFile(name + ".yaml")
	return b, err == nil
}
