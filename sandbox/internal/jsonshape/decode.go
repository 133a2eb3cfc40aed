package jsonshape

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Decode reads a body holding exactly one JSON value, numbers kept as
// json.Number so none loses digits on the way through float64.
func Decode(body []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if rest := bytes.TrimSpace(body[dec.InputOffset():]); len(rest) > 0 {
		return nil, fmt.Errorf("more than one JSON value: %.20q follows the first", rest)
	}
	return v, nil
}
