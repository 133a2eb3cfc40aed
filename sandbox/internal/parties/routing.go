package parties

import (
	"strconv"

	"github.com/brianvoe/gofakeit/v7"
)

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
