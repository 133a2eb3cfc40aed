package kernel

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
)

// Instant wraps a time so call sites read as "at".
type Instant struct{ Time time.Time }

// At makes an Instant.
func At(t time.Time) Instant { return Instant{Time: t} }

// ShapeOK checks a raw request property that decoded into v the way the
// API checks request bodies (jsonshape): a null that v's type does not take
// is recorded in d under its pointer below at.
func ShapeOK(d map[string]string, at string, raw json.RawMessage, v any) bool {
	if p := jsonshape.Check(raw, v); p != nil {
		d[at+p.Pointer] = p.Message
		return false
	}
	return true
}

// FormatCents renders cents as a dollar amount, e.g. "$1,234.50".
func FormatCents(c int64) string {
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	digits := strconv.FormatInt(c/100, 10)
	grouped := make([]byte, 0, len(digits)+len(digits)/3)
	for i := range len(digits) {
		if i > 0 && (len(digits)-i)%3 == 0 {
			grouped = append(grouped, ',')
		}
		grouped = append(grouped, digits[i])
	}
	frac := strconv.FormatInt(c%100+100, 10)[1:]
	return sign + "$" + string(grouped) + "." + frac
}

// Deref is the string s points to, or "" for nil.
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// IsCountryCode reports whether s is shaped as an ISO 3166-1 alpha-2 code:
// two capital letters.
func IsCountryCode(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}
