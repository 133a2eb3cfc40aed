package scenario

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agnivade/levenshtein"
)

// suggest returns `; did you mean "x"?` for the candidate closest to got,
// when one is close enough to be a slip of the keyboard, else "".
// A candidate whose length differs from got's by more than a slip is not
// measured: the distance is at least that difference, so a long value
// costs no more than reading it.
func suggest(got string, candidates []string) string {
	best, bestD := "", -1
	lower := strings.ToLower(got)
	n := utf8.RuneCountInString(lower)
	for _, c := range candidates {
		if c == got {
			continue
		}
		lc := strings.ToLower(c)
		if m := utf8.RuneCountInString(lc); max(n-m, m-n) > slip(len(got)) {
			continue
		}
		d := levenshtein.ComputeDistance(lower, lc)
		if bestD < 0 || d < bestD || d == bestD && c < best {
			best, bestD = c, d
		}
	}
	if bestD < 0 || bestD > slip(len(got)) {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// slip is the most edits a misspelling of a word of n letters is taken
// to hold.
func slip(n int) int {
	switch {
	case n <= 4:
		return 1
	case n <= 10:
		return 2
	}
	return 3
}
