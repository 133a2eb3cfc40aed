package docstest

import (
	"encoding/json"
	"strings"
)

// shownJSON reads output the docs show as JSON with elisions: a … outside
// a string stands for fields or items left out (dropped with its comma), a
// … inside a string for any text. It says false for text that is not JSON.
func shownJSON(shown string) (any, bool) {
	var b strings.Builder
	in, esc := false, false
	rs := []rune(shown)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case in:
			esc = !esc && c == '\\'
			if c == '"' && !esc {
				in = false
			}
		case c == '"':
			in = true
		case c == '…':
			// drop the elision and one comma beside it
			if j := i + 1; j < len(rs) && rs[j] == ',' {
				i++
			} else if t := strings.TrimRight(b.String(), " "); strings.HasSuffix(t, ",") {
				b.Reset()
				b.WriteString(t[:len(t)-1])
			}
			continue
		}
		b.WriteRune(c)
	}
	var v any
	if json.Unmarshal([]byte(b.String()), &v) != nil {
		return nil, false
	}
	return v, true
}

// covers says whether an actual JSON value holds at least what the shown
// one shows: every shown field with a covering value, every shown item
// covering a later item of the actual array, strings equal but for their
// … parts.
func covers(actual, shown any) bool {
	switch s := shown.(type) {
	case map[string]any:
		a, ok := actual.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range s {
			if av, ok := a[k]; !ok || !covers(av, v) {
				return false
			}
		}
		return true
	case []any:
		a, ok := actual.([]any)
		if !ok {
			return false
		}
		i := 0
		for _, v := range s {
			for i < len(a) && !covers(a[i], v) {
				i++
			}
			if i == len(a) {
				return false
			}
			i++
		}
		return true
	case string:
		if s == "…" {
			return true
		}
		a, ok := actual.(string)
		return ok && matches("\x00"+a+"\x00", "\x00"+s+"\x00")
	default:
		b1, _ := json.Marshal(actual)
		b2, _ := json.Marshal(shown)
		return string(b1) == string(b2)
	}
}

// outputShows says whether a command's output shows what the docs show:
// as JSON when the shown text is JSON (the whole output, or one of its
// lines, such as the body after curl -i's headers), else as text.
func outputShows(output, shown string) bool {
	want, ok := shownJSON(shown)
	if !ok {
		return matches(output, shown)
	}
	for _, candidate := range append([]string{output}, strings.Split(output, "\n")...) {
		var got any
		if json.Unmarshal([]byte(candidate), &got) == nil && covers(got, want) {
			return true
		}
	}
	return false
}
