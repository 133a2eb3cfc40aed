package scenario

import (
	"fmt"
	"strings"
	"unicode/utf8"
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
		d := distance(lower, lc)
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

// distance is the Levenshtein edit distance between two strings.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
