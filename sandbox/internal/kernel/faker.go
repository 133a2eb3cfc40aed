package kernel

import (
	"strconv"

	"github.com/brianvoe/gofakeit/v7"
)

// Faker returns a faker seeded from the world's seed, a label and a number:
// every random choice is the same on every run.
func (w *World) Faker(label string, n int64) *gofakeit.Faker {
	return gofakeit.New(Derive(w.Seed, label, n))
}

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

// RoutingNumber makes an ABA routing number with a valid checksum.
func RoutingNumber(f *gofakeit.Faker) string {
	d := "0" + strconv.Itoa(f.IntRange(1, 9)) + f.DigitN(6)
	w := []int{3, 7, 1, 3, 7, 1, 3, 7}
	sum := 0
	for i := range 8 {
		sum += int(d[i]-'0') * w[i]
	}
	return d + strconv.Itoa((10-sum%10)%10)
}

// RoutingNumberValid reports whether an ABA routing number's checksum holds.
func RoutingNumberValid(s string) bool {
	if len(s) != 9 {
		return false
	}
	w := []int{3, 7, 1, 3, 7, 1, 3, 7, 1}
	sum := 0
	for i := range 9 {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
		sum += int(s[i]-'0') * w[i]
	}
	return sum%10 == 0
}
