package ledger

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
)

// MaxAmountCents bounds every amount in cents a request gives: a trillion
// dollars, far below 2^53, so amounts (and the sums of a few) stay exact in
// a JSON number.
const MaxAmountCents = 100_000_000_000_000

// CheckAmount is the one bounded check of an amount in cents a request
// gives: a whole number from min (0 or 1) to MaxAmountCents. A problem is
// added to d under pointer; ok reports none.
func CheckAmount(d map[string]string, pointer string, cents float64, min int64) (ok bool) {
	switch {
	case cents != math.Trunc(cents):
		d[pointer] = "must be a whole number of cents"
	case cents < float64(min) && min > 0:
		d[pointer] = "must be greater than zero"
	case cents < float64(min):
		d[pointer] = "must not be negative"
	case cents > MaxAmountCents:
		d[pointer] = "must be at most " + FormatCents(MaxAmountCents)
	default:
		return true
	}
	return false
}

// CheckAmountOf is CheckAmount for an optional amount decoded as an
// integer; nil (absent) is fine.
func CheckAmountOf(d map[string]string, pointer string, cents *int64, min int64) bool {
	return cents == nil || CheckAmount(d, pointer, float64(*cents), min)
}

// AmountCents reads a required amount from raw JSON: a JSON number that is
// a positive whole number of cents (CheckAmount). Problems are added to d
// under pointer.
func AmountCents(raw json.RawMessage, pointer string, d map[string]string) int64 {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		d[pointer] = "required"
		return 0
	}
	f, err := strconv.ParseFloat(string(raw), 64)
	if err != nil || raw[0] == '"' {
		d[pointer] = "must be a number of cents"
		return 0
	}
	if !CheckAmount(d, pointer, f, 1) {
		return 0
	}
	return int64(f)
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

// Money is an amount in cents.
type Money struct {
	AmountCents int64 `json:"amountCents"`
}
