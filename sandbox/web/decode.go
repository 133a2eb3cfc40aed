package web

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
)

// MaxBody is the largest request body accepted.
const MaxBody = 1 << 20

// ReadBody reads a JSON request body: a wrong content type is 415, a body
// over MaxBody is 413, an empty body is 400.
func ReadBody(r *http.Request) ([]byte, error) {
	if err := RequireJSON(r); err != nil {
		return nil, err
	}
	body, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) || len(body) > MaxBody {
		return nil, sandbox.Errorf(sandbox.CodePayloadTooLarge, "the request body is larger than %d bytes", MaxBody)
	}
	if err != nil {
		return nil, sandbox.Errorf(sandbox.CodeInvalidRequest, "the request body could not be read: %v", err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, sandbox.InvalidField("body", "a JSON body is required")
	}
	return body, nil
}

// RequireJSON checks the Content-Type of a request with a body.
func RequireJSON(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if ct == "" || err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return sandbox.Errorf(sandbox.CodeUnsupportedMediaType, "Content-Type must be application/json, got %q", ct)
	}
	return nil
}

// Decode reads a JSON body into v, as DecodeBytes does. When strict, a
// property v does not have is refused with its name.
func Decode(r *http.Request, v any, strict bool) error {
	body, err := ReadBody(r)
	if err != nil {
		return err
	}
	return DecodeBytes(body, v, strict)
}

// DecodeBytes decodes JSON, naming the problem in a 400 when it fails. The
// body must be the JSON type v takes, and null is refused wherever v's type
// does not take it (see jsonshape): encoding/json alone would read it as an
// absent property.
func DecodeBytes(body []byte, v any, strict bool) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		if p := jsonshape.CheckKind(body, v); p != nil && json.Valid(body) {
			return sandbox.InvalidField("body", p.Message)
		}
		return jsonProblem(body, err)
	}
	if dec.More() {
		return sandbox.InvalidField("body", "unexpected data after the JSON value")
	}
	if p := jsonshape.Check(body, v); p != nil {
		return sandbox.InvalidField(cmp.Or(p.Pointer, "body"), p.Message)
	}
	return nil
}

func jsonProblem(body []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return sandbox.InvalidField("body", fmt.Sprintf("malformed JSON at byte %d: %v", syn.Offset, syn))
	case errors.As(err, &typ):
		field := "/" + strings.ReplaceAll(typ.Field, ".", "/")
		return sandbox.InvalidField(field, fmt.Sprintf("must be %s, not %s", typ.Type.Kind(), typ.Value))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return sandbox.InvalidField("body", "malformed JSON: unexpected end of input")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		name := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return sandbox.InvalidField("/"+name, "is not a known property")
	}
	return sandbox.InvalidField("body", "malformed JSON: "+err.Error())
}
