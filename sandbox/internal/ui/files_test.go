package ui

import (
	"regexp"
	"strings"
	"testing"
)

// The dashboard works offline: no file names anything outside the sandbox
// (no CDN, no web font, no remote image), and every file has a media type.
func TestFilesReferenceNothingOutside(t *testing.T) {
	if len(files) == 0 {
		t.Fatal("no embedded files")
	}
	if _, ok := files["index.html"]; !ok {
		t.Fatal("no index.html")
	}
	// The SVG namespace is a name, not something fetched.
	const svgNamespace = "http://www.w3.org/2000/svg"
	outside := regexp.MustCompile(`(?i)\b(https?:)?//[a-z0-9-]+(\.[a-z0-9-]+)+|@import|@font-face|\bimport\s*\(`)
	for name, f := range files {
		if f.ctype == "" {
			t.Errorf("%s has no media type", name)
		}
		text := strings.ReplaceAll(string(f.body), svgNamespace, "")
		if m := outside.FindString(text); m != "" {
			t.Errorf("%s refers outside the sandbox: %q", name, m)
		}
	}
}
