package scenario

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

var relative = regexp.MustCompile(`^([+-])((?:\d+[smhdw])+)$`)
var relPart = regexp.MustCompile(`(\d+)([smhdw])`)

// ParseTime resolves a time against the clock start: "" and "now" are the
// start; "-3d", "+2h", "-1w2d" are relative (s, m, h, d, w); RFC 3339
// instants and YYYY-MM-DD days (midnight UTC) are absolute.
func ParseTime(spec string, start time.Time) (time.Time, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" || spec == "now" {
		return start, nil
	}
	if m := relative.FindStringSubmatch(spec); m != nil {
		d, err := ParseDuration(m[2])
		if err != nil {
			return time.Time{}, err
		}
		if m[1] == "-" {
			d = -d
		}
		return start.Add(d), nil
	}
	if t, err := time.Parse(time.RFC3339, spec); err == nil {
		return t.UTC(), nil
	}
	if t, err := time.Parse("2006-01-02", spec); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf(
		"%q is not a time: use a relative time like -3d or +2h, an RFC 3339 instant or a YYYY-MM-DD day",
		spec,
	)
}

// IsRelative reports whether a time spec is relative to the clock start
// ("now", "-3d", "+2h") rather than an absolute instant or day.
func IsRelative(spec string) bool {
	spec = strings.TrimSpace(spec)
	return spec == "now" || relative.MatchString(spec)
}

// ParseDuration reads durations with day and week units ("36h", "2d",
// "1w3d12h") as well as Go's own ("90m", "1h30m").
func ParseDuration(spec string) (time.Duration, error) {
	if d, err := time.ParseDuration(spec); err == nil {
		return d, nil
	}
	parts := relPart.FindAllStringSubmatch(spec, -1)
	if len(parts) == 0 || joinedLen(parts) != len(spec) {
		return 0, fmt.Errorf("%q is not a duration: use units s, m, h, d or w, e.g. 36h or 2d", spec)
	}
	var d time.Duration
	units := map[string]time.Duration{
		"s": time.Second,
		"m": time.Minute,
		"h": time.Hour,
		"d": 24 * time.Hour,
		"w": 7 * 24 * time.Hour,
	}
	for _, p := range parts {
		n, err := strconv.ParseInt(p[1], 10, 64)
		unit := units[p[2]]
		if err != nil || n > 1_000_000 || time.Duration(n) > (math.MaxInt64-d)/unit {
			return 0, fmt.Errorf("%q is out of range", spec)
		}
		d += time.Duration(n) * unit
	}
	return d, nil
}

func joinedLen(parts [][]string) int {
	n := 0
	for _, p := range parts {
		n += len(p[0])
	}
	return n
}
