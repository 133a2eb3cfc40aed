package web

import (
	"net/http"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// gen1Names are the first generation's error names, by status.
var gen1Names = map[int]string{
	400: "BadRequestError", 401: "UnauthorizedError", 403: "ForbiddenError", 404: "NotFoundError",
	405: "MethodNotAllowedError", 408: "RequestTimeoutError", 409: "ConflictError", 413: "PayloadTooLargeError",
	415: "UnsupportedMediaTypeError", 422: "UnprocessableEntityError", 429: "TooManyRequestsError",
	500: "InternalServerError",
	502: "BadGatewayError", 503: "ServiceUnavailableError", 504: "GatewayTimeoutError",
}

// Gen1Error is the first-generation error body.
type Gen1Error struct {
	Message    string         `json:"message"`
	Name       string         `json:"name"`
	Identifier string         `json:"identifier"`
	RawStatus  int            `json:"rawStatus"`
	Meta       map[string]any `json:"meta"`
}

// Gen2Error is the second-generation error body: these four fields and
// nothing else.
type Gen2Error struct {
	Code        string            `json:"code"`
	Message     string            `json:"message"`
	Details     map[string]string `json:"details"`
	ReferenceID string            `json:"referenceId"`
}

// WriteError writes err in gen's envelope. Anything that is not a domain
// error is logged with its reference id and shown only as internal. A
// first-generation failure is referenced by its request's id (the
// X-Request-Id header), which also closes its message; a second-generation
// one gets a reference id of its own.
func WriteError(w http.ResponseWriter, r *http.Request, gen Gen, err error) {
	info := InfoOf(r)
	e, ok := kernel.AsError(err)
	if !ok {
		info.Err = err
		e = kernel.Errorf(kernel.CodeInternal, "the request could not be completed; quote the referenceId to support")
	}
	status := StatusOf(e.Code)
	info.ErrCode, info.ErrMessage = string(e.Code), e.Message
	if gen == Gen2 {
		info.ReferenceID = info.NewReference()
	} else {
		info.ReferenceID = info.RequestID
	}
	if status == http.StatusTooManyRequests {
		writePlain(w, r, status, "Too Many Requests: the rate limit was exceeded; retry later.\n")
		return
	}
	if status == http.StatusMethodNotAllowed && len(info.Allow) > 0 {
		w.Header().Set("Allow", strings.Join(info.Allow, ", "))
	}
	details := e.Details
	if details == nil || e.Code == kernel.CodeInternal {
		details = map[string]string{}
	}
	if gen == Gen2 {
		Write(w, r,
			Status(status, Gen2Error{Code: string(e.Code), Message: e.Message, Details: details, ReferenceID: info.ReferenceID}))
		return
	}
	meta := map[string]any{"referenceId": info.ReferenceID}
	if len(details) > 0 {
		meta["details"] = details
	}
	Write(
		w,
		r,
		Status(status, Gen1Error{Message: gen1Message(e.Message, e.Code, info.ReferenceID), Name: gen1Names[status],
			Identifier: string(e.Code), RawStatus: status, Meta: meta}),
	)
}

// gen1Message is a first-generation error message: the text, then the
// failure's support handle "[<identifier>-<requestId>]".
func gen1Message(text string, code kernel.Code, requestID string) string {
	return text + " [" + string(code) + "-" + requestID + "]"
}

func writePlain(w http.ResponseWriter, r *http.Request, status int, text string) {
	Write(w, r, &Response{Status: status, Raw: []byte(text), ContentType: "text/plain; charset=utf-8"})
}

// GenOf is the generation a path belongs to, for errors raised before a
// route is known.
func GenOf(path string) Gen {
	if path == "/v2" || strings.HasPrefix(path, "/v2/") || strings.HasPrefix(path, "/_sandbox/") {
		return Gen2
	}
	return Gen1
}
