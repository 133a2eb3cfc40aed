package kernel

import (
	"errors"
	"fmt"
)

// Code is a machine-readable error reason. The HTTP layer maps each code to a
// status in one table.
type Code string

// The error codes the engine produces.
const (
	CodeInvalidRequest       Code = "invalid_request"
	CodeUnauthorized         Code = "unauthorized"
	CodeForbidden            Code = "forbidden"
	CodeUserAPIKeyRequired   Code = "user_api_key_required"
	CodeNotFound             Code = "not_found"
	CodeConflict             Code = "conflict"
	CodeInsufficientFunds    Code = "insufficient_funds"
	CodeRateLimited          Code = "rate_limited"
	CodeInternal             Code = "internal"
	CodeMethodNotAllowed     Code = "method_not_allowed"
	CodePayloadTooLarge      Code = "payload_too_large"
	CodeUnsupportedMediaType Code = "unsupported_media_type"
	// CodeUnavailable: the work was stopped before it finished (the
	// server is shutting down); trying again later may succeed.
	CodeUnavailable Code = "unavailable"
	// CodeBadGateway and CodeGatewayTimeout are only ever injected
	// faults: an upstream's failure as a client meets it.
	CodeBadGateway     Code = "bad_gateway"
	CodeGatewayTimeout Code = "gateway_timeout"
	// CodeUnprocessable is only ever forced (an injected fault, a
	// request's Prefer: code=422): no operation answers it of itself.
	CodeUnprocessable Code = "unprocessable_entity"
	// CodeTimeout: what the request waited for did not happen in the time
	// it allowed.
	CodeTimeout Code = "timeout"
	// CodeNotServed: this sandbox was assembled without the part that
	// serves the request (an in-process one without the SQL engine or the
	// MCP server); the message names the package that adds it.
	CodeNotServed Code = "not_served"
	// CodeInsufficientStorage: the work would take more memory than the
	// sandbox's budget has left (see Reserve); the message says how much,
	// and how to raise the budget.
	CodeInsufficientStorage Code = "insufficient_storage"
)

// Error is a domain error: a code, a human message and the variable data
// behind it.
type Error struct {
	Code    Code
	Message string
	Details map[string]string
}

// Error is the code and the message.
func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Errorf builds an Error with no details.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Details: map[string]string{}}
}

// With returns a copy of e with one more detail.
func (e *Error) With(key, value string) *Error {
	d := make(map[string]string, len(e.Details)+1)
	for k, v := range e.Details {
		d[k] = v
	}
	d[key] = value
	return &Error{Code: e.Code, Message: e.Message, Details: d}
}

// NotServed is the error for a request a part of the binary would serve
// that this sandbox was assembled without: what is missing (and, when not
// empty, what is served instead), the option that adds it and the public
// package, under sandbox/, that gives the option its value.
func NotServed(missing, instead, option, pkg string) *Error {
	if instead != "" {
		missing += ", so " + instead
	}
	return Errorf(
		CodeNotServed,
		"this sandbox runs without %s: start it with %s (package "+
			"github.com/slash-sandbox/slash-sandbox/sandbox/sandboxtest/%s) in sandboxtest.Options; "+
			"the slash-sandbox binary always has it",
		missing,
		option,
		pkg,
	)
}

// NotFound is the error for an unknown, foreign or invisible resource. When
// field is not empty the identifier came from that request field.
func NotFound(kind, field, id string) *Error {
	e := Errorf(CodeNotFound, "%s %s not found", kind, id)
	if field != "" {
		e = e.With("field", field).With("id", id)
	}
	return e
}

// Invalid is a validation error with one detail per failing location.
func Invalid(details map[string]string) *Error {
	msg := "the request is invalid"
	if len(details) == 1 {
		for k, v := range details {
			msg = fmt.Sprintf("%s: %s", k, v)
		}
	}
	return &Error{Code: CodeInvalidRequest, Message: msg, Details: details}
}

// InvalidField is a validation error for one location.
func InvalidField(location, problem string) *Error {
	return Invalid(map[string]string{location: problem})
}

// AsError extracts a domain error; ok is false for any other error.
func AsError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}
