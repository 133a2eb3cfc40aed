package web

import (
	"context"
	"net/http"
	"sync/atomic"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/store"
)

// Info is what the request log says about a request; handlers fill it in as
// they learn it.
type Info struct {
	RequestID   string
	Route       string
	LegalEntity string
	World       string
	Key         string
	Status      int
	ReferenceID string
	Err         error
	// ErrCode and ErrMessage are the error an answer carried (set by
	// WriteError), for the request log.
	ErrCode, ErrMessage string
	// Hint is the route a request that matched none probably meant
	// ("GET /card"), for the log and the journal.
	Hint  string
	Allow []string
	// Via is what carried the request when it did not come over HTTP
	// directly ("mcp": a tool call of the MCP server).
	Via string
	// Reference makes failure reference ids; the world a request acts on
	// replaces the default.
	Reference func() string
	// Reads, when set, gathers what the handler reads from its world's
	// store, so that its answer can be kept until a write changes that.
	Reads *store.Reads
}

type infoKey struct{}

type viaKey struct{}

// WithVia marks a context as carrying requests that came through another
// protocol (the MCP server's tool calls); the middleware copies it into
// Info.Via.
func WithVia(ctx context.Context, via string) context.Context {
	return context.WithValue(ctx, viaKey{}, via)
}

func viaOf(r *http.Request) string {
	v, _ := r.Context().Value(viaKey{}).(string)
	return v
}

var fallbackRefs atomic.Int64

// NewReference returns a new reference id for a failure.
func (i *Info) NewReference() string {
	if i.Reference != nil {
		return i.Reference()
	}
	return "ref_unbound" + itoa(fallbackRefs.Add(1))
}

// InfoOf returns the request's Info (a throwaway one outside the middleware).
func InfoOf(r *http.Request) *Info {
	if i, ok := r.Context().Value(infoKey{}).(*Info); ok {
		return i
	}
	return &Info{}
}

// WithInfo attaches a new Info to a request.
func WithInfo(r *http.Request, i *Info) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), infoKey{}, i))
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
