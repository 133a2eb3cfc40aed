package cards

import "strconv"

// LuhnComplete appends the Luhn check digit to a number.
func LuhnComplete(digits string) string {
	sum := 0
	for i := len(digits) - 1; i >= 0; i-- {
		d := int(digits[i] - '0')
		if (len(digits)-1-i)%2 == 0 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return digits + strconv.Itoa((10-sum%10)%10)
}

// LuhnValid reports whether a card number passes the Luhn check.
func LuhnValid(pan string) bool {
	if len(pan) < 2 {
		return false
	}
	return LuhnComplete(pan[:len(pan)-1]) == pan
}
