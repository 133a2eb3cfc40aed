package docstest

import (
	"bufio"
	"os"
	"regexp"
	"strings"
)

// block is one fenced block of a Markdown file.
type block struct {
	file   string
	line   int    // the line of the opening fence, from 1
	lang   string // the word after the fence: sh, go, yaml, …
	marker string // the HTML comment on the line before, without <!-- -->
	text   string
}

var (
	fence     = regexp.MustCompile("^(\\s*)```(\\S*)\\s*$")
	markerRow = regexp.MustCompile(`^\s*<!--\s*(.*?)\s*-->\s*$`)
)

// blocks reads every fenced block of a Markdown file.
func blocks(file string) ([]block, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var (
		out  []block
		cur  *block
		prev string
		body []string
		n    int
	)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		n++
		row := sc.Text()
		m := fence.FindStringSubmatch(row)
		switch {
		case cur == nil && m != nil:
			cur = &block{file: file, line: n, lang: m[2]}
			if mm := markerRow.FindStringSubmatch(prev); mm != nil {
				cur.marker = mm[1]
			}
			body = nil
		case cur != nil && m != nil && m[2] == "":
			cur.text = strings.Join(body, "\n") + "\n"
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body = append(body, row)
		}
		prev = row
	}
	return out, sc.Err()
}
