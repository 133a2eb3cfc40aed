package drift

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/jsonshape"
)

// Options are what a run probes and how far it may go.
type Options struct {
	// Against is the service's base URL, http:// or https://.
	Against string
	// APIKey is sent as X-API-Key; a read-only key is enough.
	APIKey string
	// LegalEntity is sent as x-legal-entity; default the first legal entity
	// GET /legal-entity lists.
	LegalEntity string
	// MaxIDs is how many ids of each list are followed (default 3).
	MaxIDs int
	// MaxRequests bounds the requests sent (default 500).
	MaxRequests int
	// Timeout bounds the whole run (default 5 minutes).
	Timeout time.Duration
	// MaxWait is the longest Retry-After honoured (default 1 minute).
	MaxWait time.Duration
	// UserAgent names the caller (default "slash-sandbox-drift").
	UserAgent string
	// Client sends the requests (default one with a 30-second timeout that
	// follows no redirect).
	Client *http.Client
}

// The statuses the sandbox answers the requests it refuses.
const (
	// unknownIDStatus answers an id that names nothing.
	unknownIDStatus = http.StatusNotFound
	// badFilterStatus answers a filter value outside its set.
	badFilterStatus = http.StatusBadRequest
)

// badFilterValue is the filter value no filter takes.
const badFilterValue = "drift-not-a-value"

// Error is why a run could not be made: the URL, the network, the key.
type Error struct{ Reason string }

// Error says why the run could not be made.
func (e *Error) Error() string { return e.Reason }

// run is one run's state.
type run struct {
	contract *contract
	req      *requester
	maxIDs   int
	report   *Report
	// answered are the concrete paths of each template that answered 2XX,
	// and bodies their decoded answers, where the next ids are found.
	answered map[string][]string
	bodies   map[string]any
	// cache holds the answer of GET /legal-entity, read first.
	cache map[string]*answer
	diffs map[string]*Difference
}

// Run probes o.Against with GET requests, every GET operation of the
// sandbox's OpenAPI document (raw) that is not a sandbox extension, and
// reports how the answers differ from the document and from the sandbox's
// refusals. An *Error says the run could not be made; a run stopped by its
// bounds is a report that says so.
func Run(ctx context.Context, raw []byte, o Options) (*Report, error) {
	base, err := url.Parse(strings.TrimRight(o.Against, "/"))
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, &Error{fmt.Sprintf("%q is not an http:// or https:// URL", o.Against)}
	}
	if o.APIKey == "" {
		return nil, &Error{"no API key: give one (a read-only key is enough)"}
	}
	c, err := parseContract(raw)
	if err != nil {
		return nil, err
	}
	o = withDefaults(o)
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	r := &run{contract: c, maxIDs: o.MaxIDs, report: &Report{FormatVersion: 1, Against: base.String()},
		req: &requester{base: base, key: o.APIKey, legalEntity: o.LegalEntity, agent: o.UserAgent, client: o.Client,
			maxRequests: o.MaxRequests, maxWait: o.MaxWait},
		answered: map[string][]string{}, bodies: map[string]any{}, diffs: map[string]*Difference{}}
	if err := r.start(ctx); err != nil {
		return nil, err
	}
	for _, op := range c.ops {
		if err := r.operation(ctx, op); err != nil {
			if stop := stopped(err); stop != "" {
				r.report.Stopped = stop
				break
			}
			return nil, &Error{fmt.Sprintf("%s stopped answering: %v", base, err)}
		}
	}
	r.report.Requests = r.req.sent
	r.report.finish(r.diffs)
	return r.report, nil
}

func withDefaults(o Options) Options {
	if o.MaxIDs <= 0 {
		o.MaxIDs = 3
	}
	if o.MaxRequests <= 0 {
		o.MaxRequests = 500
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Minute
	}
	if o.MaxWait <= 0 {
		o.MaxWait = time.Minute
	}
	if o.UserAgent == "" {
		o.UserAgent = "slash-sandbox-drift"
	}
	if o.Client == nil {
		// A redirect is answered as it is, never followed: following it
		// would send the key to wherever it points.
		o.Client = &http.Client{Timeout: 30 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	return o
}

// stopped is why a run stops early but still reports, or "" when err is
// not a bound of the run.
func stopped(err error) string {
	var rl rateLimited
	switch {
	case errors.Is(err, errBudget):
		return "the request budget (--max-requests) was spent"
	case errors.Is(err, context.DeadlineExceeded):
		return "the time limit (--timeout) was reached"
	case errors.As(err, &rl):
		return err.Error() + " (--max-wait)"
	}
	return ""
}

// start reads GET /legal-entity, which any key may: it tells an unreachable
// service or a refused key from drift, and names the legal entity the other
// requests act for when none was given.
func (r *run) start(ctx context.Context) error {
	const path = "/legal-entity"
	a, err := r.req.get(ctx, path, false)
	if err != nil {
		if stop := stopped(err); stop != "" && !errors.Is(err, context.DeadlineExceeded) {
			return &Error{fmt.Sprintf("%s: %s", r.report.Against, stop)}
		}
		return &Error{fmt.Sprintf("%s is not reachable: %v", r.report.Against, err)}
	}
	switch a.status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return &Error{fmt.Sprintf("%s refused the API key (GET %s answered %d%s)", r.report.Against, path, a.status,
			errorMessage(a.body))}
	}
	if a.status >= 300 {
		return &Error{fmt.Sprintf("%s answered GET %s with %d%s: is it the Slash API?", r.report.Against, path,
			a.status, errorMessage(a.body))}
	}
	v, err := jsonshape.Decode(a.body)
	if err != nil {
		return &Error{fmt.Sprintf("%s answered GET %s with a body that is not JSON: is it the Slash API?",
			r.report.Against, path)}
	}
	if r.req.legalEntity == "" {
		if ids := idsIn(v, "legalEntityId", 1); len(ids) > 0 {
			r.req.legalEntity = ids[0]
		}
	}
	r.report.LegalEntity = r.req.legalEntity
	r.bodies[path] = v
	r.cache = map[string]*answer{path: a}
	return nil
}
