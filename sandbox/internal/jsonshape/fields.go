package jsonshape

import "encoding/json"

// CheckAt checks a raw request property that decoded into v, as Check
// does: a problem is recorded in d under its pointer below at (the
// property's own pointer). It reports whether there was none.
func CheckAt(d map[string]string, at string, raw json.RawMessage, v any) bool {
	if p := Check(raw, v); p != nil {
		d[at+p.Pointer] = p.Message
		return false
	}
	return true
}

// Value is what an optional property decoded into a pointer holds: the
// zero value when the property was absent.
func Value[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
