package record

import (
	"hash/fnv"
	"slices"
	"strings"

	"github.com/brianvoe/gofakeit/v7"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/parties"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/scenario"
)

// anonymizer replaces what names a person or a business by fake values of
// the same shape. Each fake is made from the seed, its kind and the value it
// replaces alone, so the same value gets the same fake wherever it appears
// and whatever order the account is read in. With keep set it returns
// every value as it is.
type anonymizer struct {
	seed int64
	keep bool
	// done maps each replaced value to its fake, for free text.
	done map[string]string
}

func newAnonymizer(seed int64, keep bool) *anonymizer {
	return &anonymizer{seed: seed, keep: keep, done: map[string]string{}}
}

// faker is the faker of one value of one kind.
func (a *anonymizer) faker(kind, value string) *gofakeit.Faker {
	h := fnv.New64a()
	h.Write([]byte{byte(a.seed), byte(a.seed >> 8), byte(a.seed >> 16), byte(a.seed >> 24), byte(a.seed >> 32),
		byte(a.seed >> 40), byte(a.seed >> 48), byte(a.seed >> 56)})
	h.Write([]byte(kind + "\x00" + value))
	return gofakeit.New(h.Sum64())
}

// replace returns value's fake of kind, made by make the first time.
func (a *anonymizer) replace(kind, value string, make func(f *gofakeit.Faker) string) string {
	if a.keep || strings.TrimSpace(value) == "" {
		return value
	}
	fake := make(a.faker(kind, value))
	if len(value) >= 4 {
		a.done[value] = fake
	}
	return fake
}

// company is a business's name.
func (a *anonymizer) company(v string) string {
	fake := a.replace("company", v, func(f *gofakeit.Faker) string { return f.Company() })
	// Its first word alone, as in "Acme Operating", is replaced too.
	if olds, news := strings.Fields(v), strings.Fields(fake); !a.keep && len(olds) > 1 && len(olds[0]) >= 4 {
		a.done[olds[0]] = news[0]
	}
	return fake
}

// person is a person's full name.
func (a *anonymizer) person(v string) string {
	fake := a.replace("person", v, func(f *gofakeit.Faker) string { return f.FirstName() + " " + f.LastName() })
	// A first or last name alone, as in "Alice travel", is replaced too.
	if olds, news := strings.Fields(v), strings.Fields(fake); !a.keep && len(olds) == len(news) {
		for i, o := range olds {
			if len(o) >= 3 {
				a.done[o] = news[i]
			}
		}
	}
	return fake
}

// email is an email address at a reserved domain.
func (a *anonymizer) email(v string) string {
	return a.replace("email", v, func(f *gofakeit.Faker) string {
		return strings.ToLower(f.FirstName()+"."+f.LastName()) + "@example.com"
	})
}

// digits replaces every digit of v by another, keeping the rest: phone
// numbers, account numbers, masks.
func (a *anonymizer) digits(kind, v string) string {
	return a.replace(kind, v, func(f *gofakeit.Faker) string {
		b := []byte(v)
		for i, c := range b {
			if c >= '0' && c <= '9' {
				b[i] = byte('0' + f.IntRange(0, 9))
			}
		}
		return string(b)
	})
}

// alnum replaces every letter and digit of v by another of its kind after
// keep characters: IBANs (their country kept), SWIFT codes, crypto
// addresses.
func (a *anonymizer) alnum(kind, v string, keep int) string {
	return a.replace(kind, v, func(f *gofakeit.Faker) string {
		b := []byte(v)
		for i := keep; i < len(b); i++ {
			switch c := b[i]; {
			case c >= '0' && c <= '9':
				b[i] = byte('0' + f.IntRange(0, 9))
			case c >= 'A' && c <= 'Z':
				b[i] = byte('A' + f.IntRange(0, 25))
			case c >= 'a' && c <= 'z':
				b[i] = byte('a' + f.IntRange(0, 25))
			}
		}
		return string(b)
	})
}

// routing is an ABA routing number with a valid checksum.
func (a *anonymizer) routing(v string) string {
	return a.replace("routing", v, parties.RoutingNumber)
}

// address replaces a postal address's lines, city, state and postal code;
// its country stays.
func (a *anonymizer) address(ad *scenario.Address) *scenario.Address {
	if ad == nil || a.keep {
		return ad
	}
	key := ad.AddressLine + "\x00" + ad.AddressCity + "\x00" + ad.AddressZip
	f := a.faker("address", key)
	out := &scenario.Address{AddressCountry: ad.AddressCountry}
	if ad.AddressLine != "" {
		out.AddressLine = f.Street()
	}
	if ad.AddressLine2 != "" {
		out.AddressLine2 = "Suite " + f.Numerify("###")
	}
	if ad.AddressCity != "" {
		out.AddressCity = f.City()
	}
	if ad.AddressState != "" {
		out.AddressState = f.StateAbr()
	}
	if ad.AddressZip != "" {
		out.AddressZip = f.Zip()
	}
	return out
}

// text replaces, in free text (a description, a memo, a card's name), every
// value already replaced, longest first.
func (a *anonymizer) text(s string) string {
	if a.keep || s == "" {
		return s
	}
	olds := make([]string, 0, len(a.done))
	for o := range a.done {
		if strings.Contains(s, o) {
			olds = append(olds, o)
		}
	}
	slices.SortFunc(olds, func(x, y string) int {
		if len(x) != len(y) {
			return len(y) - len(x)
		}
		return strings.Compare(x, y)
	})
	for _, o := range olds {
		s = replaceWords(s, o, a.done[o])
	}
	return s
}

// replaceWords replaces old by new in s where old stands as whole words:
// "Bob" in "Bob travel", not in "Bobcat".
func replaceWords(s, old, new string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(old)
		whole := (i == 0 || !wordByte(s[i-1])) && (end == len(s) || !wordByte(s[end]))
		b.WriteString(s[:i])
		if whole {
			b.WriteString(new)
		} else {
			b.WriteString(old)
		}
		s = s[end:]
	}
}

// wordByte reports whether c is part of a word.
func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// railNames are the rail details' fields that name the other party or its
// account, each with how it is replaced. Bank names and codes, and the
// network's own references, stay.
var railNames = map[string]func(a *anonymizer, s string) string{
	"senderName":     (*anonymizer).company,
	"recipientName":  (*anonymizer).company,
	"originatorName": (*anonymizer).company,
	"routingNumber":  (*anonymizer).routing,
	"accountNumber":  accountDigits, "last4": accountDigits, "ibanLast4": accountDigits, "clabe": accountDigits,
	"sortCode": accountDigits, "receiverId": accountDigits, "companyId": accountDigits,
	"iban": func(a *anonymizer, s string) string { return a.alnum("iban", s, 2) },
}

// railText are the rail details' fields of free text, which may repeat
// the names replaced.
var railText = map[string]func(a *anonymizer, s string) string{
	"description": (*anonymizer).text, "reference": (*anonymizer).text, "paymentRelatedInfo": (*anonymizer).text,
	"companyDiscretionaryData": (*anonymizer).text, "senderReference": (*anonymizer).text,
}

func accountDigits(a *anonymizer, s string) string { return a.digits("account", s) }

// railDetails replaces, in a transaction's rail details, the names of the
// other party and its account numbers, or, when text is set, the free text
// that may repeat the names replaced (a second pass, once every name is
// known).
func (a *anonymizer) railDetails(d map[string]any, text bool) {
	if a.keep {
		return
	}
	fields := railNames
	if text {
		fields = railText
	}
	for k, v := range d {
		if s, ok := v.(string); ok && s != "" && fields[k] != nil {
			d[k] = fields[k](a, s)
		}
	}
}
