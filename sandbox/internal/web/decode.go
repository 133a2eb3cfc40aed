package web

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	jsonv1 "github.com/go-json-experiment/json/v1"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// MaxBody is the largest request body accepted.
const MaxBody = 1 << 20

// ReadBody reads a JSON request body: a wrong content type is 415, a body
// over MaxBody is 413, an empty body is 400.
func ReadBody(r *http.Request) ([]byte, error) {
	if err := RequireJSON(r); err != nil {
		return nil, err
	}
	body, err := readBody(r)
	if len(body) > MaxBody {
		err = &http.MaxBytesError{Limit: MaxBody}
	}
	if err != nil {
		return nil, ReadError(err, fmt.Sprintf("the request body is larger than %d bytes", MaxBody))
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, kernel.InvalidField("body", "a JSON body is required")
	}
	return body, nil
}

// ReadError is the error a request whose body could not be read answers
// with: 413 with tooLarge when the body passed its limit, 408 when it did
// not arrive in time, else 400.
func ReadError(err error, tooLarge string) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return kernel.Errorf(kernel.CodePayloadTooLarge, "%s", tooLarge)
	}
	if e, ok := kernel.AsError(err); ok {
		return e
	}
	return kernel.Errorf(kernel.CodeInvalidRequest, "the request body could not be read: %v", err)
}

// readBody reads the whole body, or takes it as the journal read it.
func readBody(r *http.Request) ([]byte, error) {
	if b, ok := r.Body.(*replay); ok && b.off == 0 {
		b.off = len(b.b)
		return b.b, b.err
	}
	return ReadAll(r.Body, r.ContentLength)
}

// ReadAll is io.ReadAll with a hint of the size to expect (the request's
// Content-Length, -1 when unknown): a body of that size is read into a
// buffer of its size.
func ReadAll(r io.Reader, size int64) ([]byte, error) {
	if size < 0 || size >= 64<<10 {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, size+1) // one more, to see the end without growing
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if err == io.EOF {
				err = nil
			}
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// ReplayBody is a request body read whole, b, as it was read: the bytes,
// then err, the error that ended the read (nil: the end of the body).
// ReadBody takes b as it is, without reading it again.
func ReplayBody(b []byte, err error) io.ReadCloser { return &replay{b: b, err: err} }

type replay struct {
	b   []byte
	off int
	err error
}

func (r *replay) Read(p []byte) (int, error) {
	if r.off < len(r.b) {
		n := copy(p, r.b[r.off:])
		r.off += n
		return n, nil
	}
	if r.err != nil {
		return 0, r.err
	}
	return 0, io.EOF
}

func (r *replay) Close() error { return nil }

// RequireJSON checks the Content-Type of a request with a body.
func RequireJSON(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if ct == "" || err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return kernel.Errorf(kernel.CodeUnsupportedMediaType, "Content-Type must be application/json, got %q", ct)
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

// DecodeBytes decodes JSON, naming the problem in a 400 when it fails:
// malformed JSON as the body's, a value of the wrong type or an unknown
// property by the JSON pointer the decoder reports. The body must be the
// JSON type v takes, and null is refused wherever v's type does not take it
// (see jsonshape): a v1 decoder reads it as an absent property.
func DecodeBytes(body []byte, v any, strict bool) error {
	opts := decodeOptions(strict)
	if !jsontext.Value(body).IsValid(opts) {
		// Said exactly: what is wrong, and where.
		dec := jsontext.NewDecoder(bytes.NewReader(body), opts)
		if _, err := dec.ReadValue(); err != nil {
			return jsonProblem(err)
		}
		if _, err := dec.ReadValue(); err != io.EOF {
			return kernel.InvalidField("body", "unexpected data after the JSON value")
		}
	}
	if p := jsonshape.CheckKind(body, v); p != nil {
		return kernel.InvalidField("body", p.Message)
	}
	if err := json.Unmarshal(body, v, opts); err != nil {
		return jsonProblem(err)
	}
	if p := jsonshape.Check(body, v); p != nil {
		return kernel.InvalidField(cmp.Or(p.Pointer, "body"), p.Message)
	}
	return nil
}

// decodeOptions read JSON as encoding/json does (names matched ignoring
// case, duplicate names and invalid UTF-8 taken) but report errors the v2
// way, each with the JSON pointer of the value that failed; when strict, a
// property the Go type does not have is refused.
func decodeOptions(strict bool) json.Options {
	if strict {
		return strictOptions
	}
	return lenientOptions
}

// The two sets of decodeOptions, joined once.
var (
	strictOptions = json.JoinOptions(jsonv1.DefaultOptionsV1(), jsonv1.ReportErrorsWithLegacySemantics(false),
		json.RejectUnknownMembers(true))
	lenientOptions = json.JoinOptions(jsonv1.DefaultOptionsV1(), jsonv1.ReportErrorsWithLegacySemantics(false),
		json.RejectUnknownMembers(false))
)

// jsonProblem names a decoding error: malformed JSON in the body as a
// whole, a value that does not fit at its JSON pointer.
func jsonProblem(err error) error {
	var syn *jsontext.SyntacticError
	var sem *json.SemanticError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return kernel.InvalidField("body", "malformed JSON: unexpected end of input")
	case errors.As(err, &syn):
		return kernel.InvalidField("body", fmt.Sprintf("malformed JSON at byte %d: %v", syn.ByteOffset, syn.Err))
	case errors.As(err, &sem) && sem.JSONPointer != "":
		at := string(sem.JSONPointer)
		switch {
		case errors.Is(sem.Err, json.ErrUnknownName):
			return kernel.InvalidField(at, "is not a known property")
		case sem.GoType != nil && sem.JSONKind != 0 && (sem.Err == nil || errors.Is(sem.Err, strconv.ErrSyntax) ||
			errors.Is(sem.Err, strconv.ErrRange)):
			got := jsonshape.KindName(byte(sem.JSONKind))
			if sem.JSONKind == '0' {
				got += " " + string(sem.JSONValue)
			}
			return kernel.InvalidField(at, fmt.Sprintf("must be %s, not %s", sem.GoType.Kind(), strings.TrimSpace(got)))
		case sem.Err != nil:
			return kernel.InvalidField(at, "is not valid: "+sem.Err.Error())
		}
	}
	return kernel.InvalidField("body", "malformed JSON: "+err.Error())
}
