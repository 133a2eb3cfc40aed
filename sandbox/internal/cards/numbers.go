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

// EndingIn makes a card number end in last4 and still pass the Luhn check:
// the digit before the last four is the one that changes to make it so.
func EndingIn(pan, last4 string) string {
	if len(pan) < 5 || len(last4) != 4 {
		return pan
	}
	head := pan[:len(pan)-5]
	for d := '0'; d <= '9'; d++ {
		if p := head + string(d) + last4; LuhnValid(p) {
			return p
		}
	}
	return pan
}
