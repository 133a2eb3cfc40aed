package traffic

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// forced lets a request to a public route ask for its outcome, as it would
// of a Prism mock server: "Prefer: code=503" answers 503 in the route's
// error envelope and does nothing else. The handler does not run, so
// nothing is written and no idempotency key is consumed.
//
// It answers a request whose Prefer header holds a code preference:
// the status it names, or 400 saying which are accepted. It reports
// whether it answered.
func forced(w *recorder, r *http.Request, world *kernel.World) bool {
	value, ok := preferredCode(r.Header.Values("Prefer"))
	if !ok {
		return false
	}
	w.forced = true
	status, err := strconv.Atoi(value)
	code, known := errorCodes[status]
	if len(value) != 3 || err != nil || !known {
		if len(value) > 16 {
			value = value[:16] + "…" // the message quotes the start of a long value, not all of it
		}
		writeError(w, r, world, kernel.InvalidField("Prefer", fmt.Sprintf(
			"code=%s is not a status a request may ask for: give code= one of %s, or leave it out for the real answer",
			value, errorStatuses)))
		return true
	}
	writeError(w, r, world, kernel.Errorf(code, "answered %d as the request's Prefer: code=%d asked; nothing was done",
		status, status))
	return true
}

// preferredCode finds the code preference among the values of a request's
// Prefer headers (RFC 7240: preferences separated by commas, each a name,
// an optional "=" and value, then parameters after ";"; names in any case;
// the first of a name counts). ok is false when none is named code; value
// is its value, unquoted, "" when it has none or its quotes are not closed.
func preferredCode(values []string) (value string, ok bool) {
	for _, v := range values {
		for _, pref := range splitOutsideQuotes(v, ',') {
			pref = splitOutsideQuotes(pref, ';')[0]
			name, val, _ := strings.Cut(pref, "=")
			if !strings.EqualFold(strings.TrimSpace(name), "code") {
				continue
			}
			return unquote(strings.TrimSpace(val)), true
		}
	}
	return "", false
}

// splitOutsideQuotes splits s at each sep that is not inside a quoted
// string (where a backslash escapes the next character).
func splitOutsideQuotes(s string, sep byte) []string {
	var parts []string
	quoted, start := false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == sep:
			parts = append(parts, s[start:i])
			start = i + 1
		}
	}
	return append(parts, s[start:])
}

// unquote is a preference's value as a token or a quoted string gives it;
// an unclosed quote gives "".
func unquote(v string) string {
	if !strings.HasPrefix(v, `"`) {
		return v
	}
	if len(v) < 2 || !strings.HasSuffix(v, `"`) {
		return ""
	}
	var b strings.Builder
	for i := 1; i < len(v)-1; i++ {
		if v[i] == '\\' && i+1 < len(v)-1 {
			i++
		}
		b.WriteByte(v[i])
	}
	return b.String()
}
