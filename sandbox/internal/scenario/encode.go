package scenario

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pb33f/go-yaml"
)

// Encode writes a scenario as YAML that Parse reads back to an equal
// scenario. Keys come in the order the types declare them, from the same
// tags the decoder reads; a key whose value is unset (zero, nil, empty) is
// left out; free-form mappings have their keys sorted; text that YAML would
// read as something else (a number, true or false, a date, null) is quoted.
// An empty mapping is written ({}), as it may differ from an absent one.
// The same scenario always encodes to the same bytes; one with no key set
// encodes to none, as Parse reads an empty file.
func Encode(sc *Scenario) ([]byte, error) {
	root, err := encodeValue(reflectValue(sc))
	if err != nil || len(root.Content) == 0 {
		return []byte{}, err
	}
	var buf bytes.Buffer
	e := yaml.NewEncoder(&buf)
	e.SetIndent(2)
	if err := e.Encode(root); err != nil {
		return nil, fmt.Errorf("encode scenario: %w", err)
	}
	if err := e.Close(); err != nil {
		return nil, fmt.Errorf("encode scenario: %w", err)
	}
	return buf.Bytes(), nil
}

// encodeValue makes the node of a typed scenario value.
func encodeValue(v reflect.Value) (*yaml.Node, error) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return scalarNode("!!null", "null"), nil
		}
		return encodeValue(v.Elem())
	case reflect.Struct:
		return encodeStruct(v)
	case reflect.Slice:
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i := range v.Len() {
			n, err := encodeValue(v.Index(i))
			if err != nil {
				return nil, err
			}
			seq.Content = append(seq.Content, n)
		}
		return seq, nil
	case reflect.Map:
		return encodeFree(v.Interface())
	}
	return encodeScalar(v.Interface())
}

// encodeStruct writes a scenario type's keys in declaration order, the
// unset ones left out.
func encodeStruct(v reflect.Value) (*yaml.Node, error) {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, f := range shapeOf(v.Type()).fields {
		fv := v.Field(f.index)
		if fv.IsZero() || fv.Kind() == reflect.Slice && fv.Len() == 0 {
			continue
		}
		n, err := encodeValue(fv)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.key, err)
		}
		m.Content = append(m.Content, textNode(f.key), n)
	}
	return m, nil
}

// encodeFree writes a free-form value (a spending constraint, user data,
// an event's with) as the decoder reads it back: mappings with sorted
// text keys, lists, text, numbers, true or false, null.
func encodeFree(x any) (*yaml.Node, error) {
	if x == nil {
		return scalarNode("!!null", "null"), nil
	}
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return nil, fmt.Errorf("a mapping with %s keys: only text keys can be written", v.Type().Key())
		}
		keys := make([]string, 0, v.Len())
		for _, k := range v.MapKeys() {
			keys = append(keys, k.String())
		}
		slices.Sort(keys)
		m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for _, k := range keys {
			n, err := encodeFree(v.MapIndex(reflect.ValueOf(k).Convert(v.Type().Key())).Interface())
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			m.Content = append(m.Content, textNode(k), n)
		}
		return m, nil
	case reflect.Slice, reflect.Array:
		seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i := range v.Len() {
			n, err := encodeFree(v.Index(i).Interface())
			if err != nil {
				return nil, err
			}
			seq.Content = append(seq.Content, n)
		}
		return seq, nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return scalarNode("!!null", "null"), nil
		}
		return encodeFree(v.Elem().Interface())
	}
	return encodeScalar(x)
}

// encodeScalar writes text, a number or true or false.
func encodeScalar(x any) (*yaml.Node, error) {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.String:
		return textNode(v.String()), nil
	case reflect.Bool:
		return scalarNode("!!bool", strconv.FormatBool(v.Bool())), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return scalarNode("!!int", strconv.FormatInt(v.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return scalarNode("!!int", strconv.FormatUint(v.Uint(), 10)), nil
	case reflect.Float32, reflect.Float64:
		return scalarNode("!!float", formatFloat(v.Float())), nil
	}
	return nil, fmt.Errorf("a value of type %T cannot be written", x)
}

// formatFloat writes a float so that it reads back as a float: 2 is 2.0.
func formatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	case math.IsNaN(f):
		return ".nan"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

func scalarNode(tag, value string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
}

// yaml11 matches plain text a YAML 1.1 reader takes for something else
// than text: true or false (yes, off, y, …) or a base-60 number (12:30).
var yaml11 = regexp.MustCompile(
	`^(?i:y|yes|n|no|on|off|true|false)$|^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)

// textNode writes text, quoted when a reader could take it for anything
// else: the encoder quotes what YAML 1.2 would read as a number, a date
// or null, and yaml11 what older readers would.
func textNode(s string) *yaml.Node {
	n := scalarNode("!!str", s)
	if yaml11.MatchString(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}
