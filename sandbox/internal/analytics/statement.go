package analytics

import (
	"strings"
	"unicode"
)

// statement is what a query asks for once comments and the trailing
// semicolon are set aside.
type statement struct {
	kind  string // "select", "show_tables", "describe" or "other"
	table string // the table a DESCRIBE names
	text  string
}

// classify splits a query into statements outside string literals,
// quoted names and comments, and says what the single statement is.
// More than one statement is an error.
func classify(query string) (statement, string) {
	parts := split(query)
	if len(parts) == 0 {
		return statement{}, "the query is empty"
	}
	if len(parts) > 1 {
		return statement{}, "send one statement at a time"
	}
	text := parts[0]
	words := strings.Fields(strings.ToLower(text))
	st := statement{kind: "other", text: text}
	switch {
	case words[0] == "select" || words[0] == "with" || words[0] == "values":
		st.kind = "select"
	case len(words) == 2 && words[0] == "show" && words[1] == "tables":
		st.kind = "show_tables"
	case (words[0] == "describe" || words[0] == "desc") && len(words) >= 2:
		name := words[1]
		if name == "table" && len(words) >= 3 {
			name = words[2]
		}
		if len(words) > 3 || (len(words) == 3 && words[1] != "table") {
			return st, "DESCRIBE takes one table name"
		}
		st.kind, st.table = "describe", strings.Trim(name, "\"`[]")
	}
	return st, ""
}

// split cuts a query at semicolons that are code, dropping comments and
// empty statements.
func split(query string) []string {
	var parts []string
	var b strings.Builder
	flush := func() {
		if s := strings.TrimSpace(b.String()); s != "" {
			parts = append(parts, s)
		}
		b.Reset()
	}
	r := []rune(query)
	for i := 0; i < len(r); i++ {
		c := r[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := closing(r, i, c)
			b.WriteString(string(r[i:j]))
			i = j - 1
		case c == '[':
			j := closing(r, i, ']')
			b.WriteString(string(r[i:j]))
			i = j - 1
		case c == '-' && i+1 < len(r) && r[i+1] == '-':
			for i < len(r) && r[i] != '\n' {
				i++
			}
			b.WriteRune(' ')
		case c == '/' && i+1 < len(r) && r[i+1] == '*':
			i += 2
			for i+1 < len(r) && !(r[i] == '*' && r[i+1] == '/') {
				i++
			}
			i++
			b.WriteRune(' ')
		case c == ';':
			flush()
		case unicode.IsSpace(c):
			b.WriteRune(' ')
		default:
			b.WriteRune(c)
		}
	}
	flush()
	return parts
}

// closing returns the index just past the quote that closes the one at
// i (a doubled quote is an escaped one), or the end of the query.
func closing(r []rune, i int, quote rune) int {
	for j := i + 1; j < len(r); j++ {
		if r[j] == quote {
			if j+1 < len(r) && r[j+1] == quote && quote != ']' {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(r)
}
