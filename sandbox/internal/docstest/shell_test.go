package docstest

import (
	"regexp"
	"strings"
)

// command is one shell command of a block with the output the docs show
// for it (each entry one `# → …` line, or lines until its brackets close).
type command struct {
	line int // line in the Markdown file
	text string
	want []string
}

// commands splits a shell block into commands: a line ending in a
// backslash, or inside an open single quote, continues on the next; a
// `# →` comment after a command is what it prints.
func commands(b block) []command {
	var out []command
	rows := strings.Split(strings.TrimRight(b.text, "\n"), "\n")
	for i := 0; i < len(rows); i++ {
		row := rows[i]
		trimmed := strings.TrimSpace(row)
		switch {
		case strings.HasPrefix(trimmed, "# →"):
			want := strings.TrimSpace(strings.TrimPrefix(trimmed, "# →"))
			for open(want) && i+1 < len(rows) && strings.HasPrefix(strings.TrimSpace(rows[i+1]), "#") {
				i++
				want += strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rows[i]), "#"))
			}
			if len(out) > 0 {
				out[len(out)-1].want = append(out[len(out)-1].want, want)
			}
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
			if len(out) > 0 && strings.HasPrefix(trimmed, "#  ") && len(out[len(out)-1].want) > 0 {
				// an indented comment continues the output shown above
				out[len(out)-1].want = append(out[len(out)-1].want, strings.TrimSpace(trimmed[1:]))
			}
		default:
			c := command{line: b.line + 1 + i, text: row}
			for (strings.HasSuffix(row, "\\") || strings.Count(c.text, "'")%2 == 1) && i+1 < len(rows) {
				i++
				row = rows[i]
				c.text += "\n" + row
			}
			out = append(out, c)
		}
	}
	return out
}

// open says whether a shown output has more brackets opened than closed.
func open(s string) bool {
	return strings.Count(s, "{")+strings.Count(s, "[") > strings.Count(s, "}")+strings.Count(s, "]")
}

// matches says whether an output shows what the docs show: the shown text,
// where each … stands for anything, appears in it; a space after a comma,
// colon or bracket in the shown text is not required.
func matches(output, shown string) bool {
	var re strings.Builder
	re.WriteString("(?s)")
	for i, part := range strings.Split(shown, "…") {
		if i > 0 {
			re.WriteString(".*?")
		}
		re.WriteString(looseSpaces(regexp.QuoteMeta(part)))
	}
	ok, err := regexp.MatchString(re.String(), output)
	return err == nil && ok
}

var afterPunct = regexp.MustCompile(`([,:\[{]|\\\[|\\\{) +`)

// looseSpaces lets spaces after punctuation be absent.
func looseSpaces(quoted string) string { return afterPunct.ReplaceAllString(quoted, "$1 *") }

// placeholder is an id the docs elide, such as txn_… or dfa_….
var placeholder = regexp.MustCompile(`\b([a-z][a-z0-9]*(?:_[a-z0-9]+)*_)…`)

// ids remembers the ids outputs showed, so a later command's txn_… is the
// last txn_ id seen.
type ids struct{ seen []string }

var idLike = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:_[a-z0-9]+)*_[A-Za-z0-9]+\b`)

func (s *ids) note(output string) { s.seen = append(s.seen, idLike.FindAllString(output, -1)...) }

// fill replaces each placeholder with the last id seen that has its prefix
// and no further underscore; a placeholder with none stays as it is.
func (s *ids) fill(cmd string) string {
	return placeholder.ReplaceAllStringFunc(cmd, func(p string) string {
		prefix := strings.TrimSuffix(p, "…")
		for i := len(s.seen) - 1; i >= 0; i-- {
			if rest, ok := strings.CutPrefix(s.seen[i], prefix); ok && !strings.Contains(rest, "_") {
				return s.seen[i]
			}
		}
		return p
	})
}
