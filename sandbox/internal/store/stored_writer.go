package store

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// StoredObject writes a JSON object in the stored form, field by field,
// for a StoredAppender: what json.Marshal would write for a struct whose
// fields come in the same order, with its names compacted. It declines
// (OK reports false) a string it would have to escape and a time
// json.Marshal refuses; the caller then leaves the value to json.Marshal.
type StoredObject struct {
	b      []byte
	failed bool
}

// Name is the stored form of an object name and its colon, worked out
// once for the fields a StoredObject writes.
type Name string

// NameOf is a field name's stored form.
func NameOf(name string) Name { return Name(AppendName(nil, name)) }

// NewStoredObject starts an object at the end of dst.
func NewStoredObject(dst []byte) *StoredObject { return &StoredObject{b: append(dst, '{')} }

// String writes a string field.
func (o *StoredObject) String(name Name, value string) {
	if !PlainJSON(value) {
		o.failed = true
		return
	}
	o.b = append(o.b, name...)
	o.b = append(o.b, '"')
	o.b = append(o.b, value...)
	o.b = append(o.b, '"', ',')
}

// Time writes a time field as time.Time's MarshalJSON does.
func (o *StoredObject) Time(name Name, t time.Time) {
	o.b = append(o.b, name...)
	o.b = append(o.b, '"')
	var err error
	if o.b, err = t.AppendText(o.b); err != nil {
		o.failed = true
	}
	o.b = append(o.b, '"', ',')
}

// Int writes an integer field.
func (o *StoredObject) Int(name Name, n int64) {
	o.b = append(o.b, name...)
	o.b = strconv.AppendInt(o.b, n, 10)
	o.b = append(o.b, ',')
}

// Bool writes a boolean field.
func (o *StoredObject) Bool(name Name, v bool) {
	o.b = append(o.b, name...)
	o.b = strconv.AppendBool(o.b, v)
	o.b = append(o.b, ',')
}

// JSON writes a field whose value is JSON as json.Marshal writes it.
func (o *StoredObject) JSON(name Name, value string) {
	o.b = append(o.b, name...)
	o.b = append(o.b, value...)
	o.b = append(o.b, ',')
}

// End closes the object and returns what was written, or false when a
// field was declined.
func (o *StoredObject) End() ([]byte, bool) {
	if o.failed {
		return o.b, false
	}
	if o.b[len(o.b)-1] == ',' {
		o.b[len(o.b)-1] = '}'
	} else {
		o.b = append(o.b, '}')
	}
	return o.b, true
}

// PlainJSON reports whether json.Marshal writes s between quotes as it
// is: printable ASCII without the quote, the backslash and the characters
// it escapes for HTML.
func PlainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c > 0x7e, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return false
		}
	}
	return true
}

// CheckStoredForm holds a StoredAppender to its contract: it reports
// whether v wrote its stored form, and an error when what it wrote, after
// what dst already held, is not exactly the stored form of json.Marshal(v).
func CheckStoredForm(v StoredAppender) (bool, error) {
	want, err := json.Marshal(v)
	if err != nil {
		return false, err
	}
	const before = "before"
	got, ok := v.AppendStored([]byte(before))
	if !ok {
		return false, nil
	}
	stored, found := strings.CutPrefix(string(got), before)
	if !found || stored != CompactNames(want) {
		return true, fmt.Errorf("wrote %q, which reads as %s; json.Marshal gives %s", got, ExpandNames(stored), want)
	}
	return true, nil
}
