package drift

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// maxBody is the most of an answer's body read.
const maxBody = 16 << 20

// errBudget: the run has sent as many requests as it may.
var errBudget = errors.New("the request budget is spent")

// rateLimited: production asked to wait longer than the run may, or kept
// answering 429 (tries > 0).
type rateLimited struct {
	wait  time.Duration
	tries int
}

func (e rateLimited) Error() string {
	if e.tries > 0 {
		return fmt.Sprintf("rate limited: still answering 429 after %d tries", e.tries)
	}
	return fmt.Sprintf("rate limited: Retry-After asks for %s, longer than the wait allowed", e.wait)
}

// answer is what production answered a request.
type answer struct {
	status      int
	contentType string
	body        []byte
}

// requester sends the run's requests: GET only, each counted against the
// budget, a 429 waited out as Retry-After says, a network error retried a
// few times.
type requester struct {
	base        *url.URL
	key         string
	legalEntity string
	agent       string
	client      *http.Client
	maxRequests int
	maxWait     time.Duration
	sent        int
}

// attempts of one request: the first and the retries after a network error
// or a 429.
const attempts = 4

// get sends GET path (path and query, already escaped); withEntity adds the
// x-legal-entity header when the run has one.
func (r *requester) get(ctx context.Context, path string, withEntity bool) (*answer, error) {
	var netErr error
	for try := range attempts {
		if r.sent >= r.maxRequests {
			return nil, errBudget
		}
		if try > 0 && netErr != nil {
			if err := sleep(ctx, time.Duration(1<<try)*100*time.Millisecond); err != nil {
				return nil, err
			}
		}
		a, err := r.once(ctx, path, withEntity)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			netErr = err
			continue
		}
		netErr = nil
		if a.status != http.StatusTooManyRequests {
			return &a.answer, nil
		}
		wait := retryAfter(a.header)
		if wait > r.maxWait {
			return nil, rateLimited{wait: wait}
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
	if netErr != nil {
		return nil, netErr
	}
	return nil, rateLimited{tries: attempts}
}

// sentAnswer is an answer with the headers the retries read.
type sentAnswer struct {
	answer
	header http.Header
}

func (r *requester) once(ctx context.Context, path string, withEntity bool) (*sentAnswer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, r.base.String()+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-API-Key", r.key)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", r.agent)
	if withEntity && r.legalEntity != "" {
		req.Header.Set("x-legal-entity", r.legalEntity)
	}
	r.sent++
	res, err := r.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	if err != nil {
		return nil, err
	}
	return &sentAnswer{answer{res.StatusCode, res.Header.Get("Content-Type"), body}, res.Header}, nil
}

// retryAfter is how long a 429 asks to wait: Retry-After in seconds or as
// an HTTP date; one second when it says nothing readable.
func retryAfter(h http.Header) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(time.Until(at), 0)
	}
	return time.Second
}

// sleep waits d, or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
