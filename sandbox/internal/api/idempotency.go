package api

import (
	"net/http"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
)

// optionalIdempotencyKey is X-Idempotency-Key on a first-generation write
// that creates a resource or moves money and takes the key when sent.
var optionalIdempotencyKey = openapi.Param{Name: idempotencyHeader,
	Description: "Optional. The same key with the same body replays the first response, byte for byte, and changes" +
		" nothing; with another body it is 409. Keys are scoped per legal entity and operation; a failed request does not" +
		" use its key.",
	Schema: openapi.Schema{"type": "string", "minLength": 1, "maxLength": 255}}

// keyed declares the optional idempotency key on op, and the 409 its reuse
// with another body gets.
func keyed(op openapi.Op) openapi.Op {
	op.Headers = append(append([]openapi.Param{}, op.Headers...), optionalIdempotencyKey)
	extra := map[int]any{http.StatusConflict: openapi.Ref("Error")}
	for status, v := range op.Extra {
		extra[status] = v
	}
	op.Extra = extra
	return op
}
