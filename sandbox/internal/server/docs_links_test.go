package server_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// repoRoot is the repository, from this package's directory.
var repoRoot = filepath.Join("..", "..", "..")

var (
	mdLink     = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	mdHeading  = regexp.MustCompile(`^#{1,6}\s+(.+?)\s*#*\s*$`)
	inlineCode = regexp.MustCompile("`[^`]*`")
)

// mdLine is a line of a Markdown file and its number, from 1.
type mdLine struct {
	n    int
	text string
}

// markdownLines returns the lines of a Markdown file outside fenced code
// blocks.
func markdownLines(src string) []mdLine {
	var out []mdLine
	fence := ""
	for i, line := range strings.Split(src, "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		case strings.HasPrefix(trimmed, "```"), strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
			continue
		}
		out = append(out, mdLine{i + 1, line})
	}
	return out
}

// headingAnchor is GitHub's anchor for a heading: lower case, spaces
// become '-', and punctuation other than '-' and '_' is dropped.
func headingAnchor(text string) string {
	text = strings.NewReplacer("`", "", "*", "").Replace(text)
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-', r == '_', unicode.IsLetter(r), unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// markdownAnchors lists a Markdown file's heading anchors; a repeated
// heading gets -1, -2, … as on GitHub.
func markdownAnchors(src string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	for _, line := range markdownLines(src) {
		m := mdHeading.FindStringSubmatch(line.text)
		if m == nil {
			continue
		}
		a := headingAnchor(m[1])
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// TestDocsLinks checks every relative link of README.md and docs/*.md: the
// file exists and, with a #fragment, the fragment is one of its headings.
func TestDocsLinks(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append([]string{filepath.Join(repoRoot, "README.md")}, pages...)
	if len(pages) < 2 {
		t.Fatal("no pages under docs/")
	}
	anchorsOf := map[string]map[string]bool{}
	anchors := func(file string) (map[string]bool, error) {
		if a, ok := anchorsOf[file]; ok {
			return a, nil
		}
		raw, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		anchorsOf[file] = markdownAnchors(string(raw))
		return anchorsOf[file], nil
	}
	for _, page := range pages {
		raw, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(repoRoot, page)
		for _, line := range markdownLines(string(raw)) {
			for _, m := range mdLink.FindAllStringSubmatch(inlineCode.ReplaceAllString(line.text, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, fragment, _ := strings.Cut(target, "#")
				path := page
				if file != "" {
					if strings.HasPrefix(file, "/") {
						t.Errorf("%s:%d: link %s is absolute; make it relative to the page", name, line.n, target)
						continue
					}
					path = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
					info, err := os.Stat(path)
					if err != nil {
						t.Errorf("%s:%d: link %s: no such file", name, line.n, target)
						continue
					}
					if fragment != "" && (info.IsDir() || !strings.HasSuffix(path, ".md")) {
						t.Errorf("%s:%d: link %s has a fragment but does not point to a Markdown file", name, line.n, target)
						continue
					}
				}
				if fragment == "" {
					continue
				}
				a, err := anchors(path)
				if err != nil {
					t.Fatal(err)
				}
				if !a[fragment] {
					t.Errorf("%s:%d: link %s: no heading with anchor #%s in %s", name, line.n, target, fragment, filepath.Base(path))
				}
			}
		}
	}
}

func TestHeadingAnchor(t *testing.T) {
	for heading, want := range map[string]string{
		"Authentication, errors and pagination": "authentication-errors-and-pagination",
		"Agent requests (read-only keys)":       "agent-requests-read-only-keys",
		"Analytics (`POST /analytics`)":         "analytics-post-analytics",
		"FDX (`/fdx/...`)":                      "fdx-fdx",
		"A 5-minute tour":                       "a-5-minute-tour",
		"Keys of the demo scenario":             "keys-of-the-demo-scenario",
	} {
		if got := headingAnchor(heading); got != want {
			t.Errorf("headingAnchor(%q) = %q, want %q", heading, got, want)
		}
	}
	if a := markdownAnchors("# Notes\n\n## Notes\n```\n# not a heading\n```\n"); !a["notes"] || !a["notes-1"] ||
		a["not-a-heading"] {
		t.Errorf("markdownAnchors = %v", a)
	}
}
