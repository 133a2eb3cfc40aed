package scenario

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/pb33f/go-yaml"

	"github.com/slash-sandbox/slash-sandbox/scenarios"
)

// tricky is text a YAML writer could let a reader take for something else.
var tricky = []string{"yes", "no", "on", "Off", "y", "N", "true", "null", "~", "", " ", "0123", "000123456789",
	"123", "1e3", "0x1F", "0o17", "+1", ".5", ".inf", "-.nan", "12:30", "2024-01-01", "2024-01-01T10:00:00Z", "<<",
	"a: b", "- x", "#c", "x #c", "multi\nline", "trailing\n", " lead", "trail ", "'q'", `"dq"`, "tab\there", "é ü",
	"{a}", "[1]", "*alias", "&anchor", "!tag", "%d", "@at", "`tick`", "|", ">", "?", "-", "---", "...", "le_acme"}

// mustRoundTrip encodes a scenario and parses it back, failing unless
// the result equals it.
func mustRoundTrip(t *testing.T, name string, sc *Scenario) []byte {
	t.Helper()
	out, err := Encode(sc)
	if err != nil {
		t.Fatalf("%s: Encode: %v", name, err)
	}
	back, err := Parse(name+".export.yaml", out)
	if err != nil {
		t.Fatalf("%s: Parse(Encode(s)): %v\n%s", name, err, out)
	}
	if !reflect.DeepEqual(comparable(sc), comparable(back)) {
		t.Fatalf("%s: Parse(Encode(s)) differs from s:\nwant %+v\ngot  %+v\nyaml:\n%s", name, *sc, *back, out)
	}
	again, err := Encode(back)
	if err != nil || !bytes.Equal(again, out) {
		t.Fatalf("%s: encoding twice gives other bytes (%v)", name, err)
	}
	return out
}

// comparable is a scenario without what only a file gives it (its name,
// hash and positions) and with empty lists and mappings as absent ones.
func comparable(sc *Scenario) Scenario {
	c := *sc
	c.File, c.Hash, c.pos = "", "", nil
	v := reflect.ValueOf(&c).Elem()
	normalize(v)
	return c
}

func normalize(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			normalize(v.Elem())
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				normalize(v.Field(i))
			}
		}
	case reflect.Slice:
		if v.Len() == 0 && v.CanSet() {
			v.Set(reflect.Zero(v.Type()))
		}
		for i := range v.Len() {
			normalize(v.Index(i))
		}
	case reflect.Map:
		if v.Len() == 0 && v.CanSet() {
			v.Set(reflect.Zero(v.Type()))
		}
	}
}

func TestEncodeRoundTripsEmbeddedScenarios(t *testing.T) {
	for _, name := range scenarios.Names() {
		t.Run(name, func(t *testing.T) {
			data, _ := scenarios.Get(name)
			sc, err := Parse(name+".yaml", data)
			if err != nil {
				t.Fatal(err)
			}
			mustRoundTrip(t, name, sc)
		})
	}
}

// TestEncodeRoundTripsTrickyText: account numbers, memos and user data
// holding text YAML would otherwise misread come back as the same text,
// and numbers in free-form data keep their kind.
func TestEncodeRoundTripsTrickyText(t *testing.T) {
	seed := int64(0)
	active := false
	sc := &Scenario{
		Name: "no", Description: "multi\nline: with # and 'quotes'", ClockStart: "2026-01-02T03:04:05Z", Seed: &seed,
		LegalEntities: []LegalEntity{{ID: "le_one", Name: "yes", Structure: "llc", V2Enabled: &active}},
		Users: []User{{ID: "u_one", Name: "0123", Email: "on@x.test",
			Roles: []Role{{LegalEntityID: "le_one", Role: "viewer", Active: &active}}}},
		Accounts: []Account{{ID: "sa_one", LegalEntityID: "le_one", Name: "12:30", BalanceCents: -5}},
		Cards: []Card{{ID: "card_one", AccountID: "sa_one", Name: "null", CreatedAt: "2024-01-01",
			UserData: map[string]any{"n": 1, "f": 2.0, "big": 1e300, "s": "007", "b": false, "nil": nil, "yes": "no",
				"list": []any{"1", 1, 1.5, true, "true", map[string]any{"1": "x"}}, "nested": map[string]any{"~": "~"}}}},
		Contacts: []Contact{{ID: "le_c_one", LegalEntityID: "le_one", Name: "Off",
			Destinations: []Destination{{ID: "dest_one", Type: "bank_account", AccountNumber: "000123456789",
				RoutingNumber: "021000021", Name: "1e3"}}}},
	}
	for i, s := range tricky {
		sc.Cards = append(sc.Cards, Card{ID: fmt.Sprintf("card_t%d", i), AccountID: "sa_one", Name: "c" + s,
			UserData: map[string]any{"v": s, s: i}})
	}
	out := mustRoundTrip(t, "tricky", sc)
	for _, want := range []string{`name: "no"`, `accountNumber: "000123456789"`, `name: "12:30"`, `v: "yes"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the YAML lacks %s:\n%s", want, out)
		}
	}
}

// TestEncodeRoundTripsEveryKey fills every key of every scenario type
// with random values of its kind (enums from their sets, tricky text
// elsewhere) and decodes the YAML back: the same values, for many seeds.
// The validator is left out: the values name nothing that exists.
func TestEncodeRoundTripsEveryKey(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		var sc Scenario
		fill(r, reflectValue(&sc), nil, 0)
		out, err := Encode(&sc)
		if err != nil {
			t.Fatalf("seed %d: Encode: %v", seed, err)
		}
		var root yaml.Node
		if err := yaml.Unmarshal(out, &root); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, out)
		}
		var back Scenario
		d := newDecoder("fill.yaml", len(out))
		d.decode("", root.Content[0], reflectValue(&back))
		if len(d.ps) > 0 {
			t.Fatalf("seed %d: %v\n%s", seed, d.ps, out)
		}
		if !reflect.DeepEqual(comparable(&sc), comparable(&back)) {
			t.Fatalf("seed %d: decoded back differently:\nwant %+v\ngot  %+v\n%s", seed, sc, back, out)
		}
	}
}

// fill sets v to a random value of its kind; f is the key it is the value
// of, if any.
func fill(r *rand.Rand, v reflect.Value, f *field, depth int) {
	switch v.Kind() {
	case reflect.Pointer:
		if r.IntN(3) > 0 || f != nil && f.required {
			p := reflect.New(v.Type().Elem())
			fill(r, p.Elem(), f, depth)
			v.Set(p)
		}
	case reflect.Struct:
		s := shapeOf(v.Type())
		for i := range s.fields {
			if depth > 0 && r.IntN(3) == 0 && !s.fields[i].required {
				continue
			}
			fill(r, v.Field(s.fields[i].index), &s.fields[i], depth+1)
		}
	case reflect.Slice:
		n := r.IntN(3)
		if f != nil && f.required {
			n++
		}
		out := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(r, out.Index(i), f, depth+1)
		}
		v.Set(out)
	case reflect.Map:
		if v.Type().Elem().Kind() == reflect.Interface {
			v.Set(reflect.ValueOf(freeForm(r, 0)))
			return
		}
		m := reflect.MakeMap(v.Type())
		for i := range r.IntN(3) {
			e := reflect.New(v.Type().Elem()).Elem()
			fill(r, e, nil, depth+1)
			m.SetMapIndex(reflect.ValueOf(fmt.Sprintf("k%d", i)), e)
		}
		v.Set(m)
	case reflect.Interface:
		if r.IntN(2) == 0 {
			v.Set(reflect.ValueOf(r.IntN(5) - 1))
		} else {
			v.Set(reflect.ValueOf(tricky[r.IntN(len(tricky))]))
		}
	case reflect.String:
		switch {
		case f != nil && len(f.enum) > 0:
			v.SetString(f.enum[r.IntN(len(f.enum))])
		case f != nil && f.required:
			v.SetString("x" + tricky[r.IntN(len(tricky))])
		default:
			v.SetString(tricky[r.IntN(len(tricky))])
		}
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int64:
		v.SetInt(r.Int64N(1<<40) - 1<<39)
	case reflect.Float64:
		v.SetFloat(float64(r.IntN(2000)-1000) / 8)
	}
}

// freeForm is random free-form data as the decoder makes it.
func freeForm(r *rand.Rand, depth int) map[string]any {
	m := map[string]any{}
	for range r.IntN(4) {
		k := tricky[r.IntN(len(tricky))]
		switch r.IntN(7) {
		case 0:
			m[k] = tricky[r.IntN(len(tricky))]
		case 1:
			m[k] = r.IntN(1000) - 500
		case 2:
			m[k] = float64(r.IntN(1000)) / 4
		case 3:
			m[k] = r.IntN(2) == 0
		case 4:
			m[k] = nil
		case 5:
			if depth < 2 {
				m[k] = freeForm(r, depth+1)
			}
		case 6:
			m[k] = []any{tricky[r.IntN(len(tricky))], r.IntN(9), float64(r.IntN(9)) + 0.5}
		}
	}
	return m
}

// FuzzEncode: whatever parses encodes to YAML that parses back to the
// same scenario.
func FuzzEncode(f *testing.F) {
	for _, name := range scenarios.Names() {
		data, _ := scenarios.Get(name)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc, err := Parse("fuzz.yaml", data)
		if err != nil {
			return
		}
		mustRoundTrip(t, "fuzz", sc)
	})
}
