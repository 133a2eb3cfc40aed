package record

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// reader sends the GET requests of one recording.
type reader struct {
	base, key string
	http      *http.Client
	// sleep waits between attempts; it returns early when ctx ends.
	sleep func(ctx context.Context, d time.Duration) error
	// progress, when set, is told of long reads.
	progress func(format string, args ...any)
	// requests counts the requests sent.
	requests int
	// entityKey is set for a legal entity's key, which sends no
	// x-legal-entity: only a user key needs it.
	entityKey bool
}

// Attempts: a rate-limited request is sent again after the Retry-After
// the source asks for, up to rateLimitAttempts times; a request that meets
// a network error or a 5xx, up to networkAttempts times.
const (
	rateLimitAttempts = 10
	networkAttempts   = 4
	// maxRetryAfter bounds one wait a source asks for.
	maxRetryAfter = 2 * time.Minute
)

// statusError is an answer the recording cannot use.
type statusError struct {
	path   string
	status int
	body   string
}

func (e *statusError) Error() string {
	return fmt.Sprintf("GET %s: %d %s", e.path, e.status, e.body)
}

// get reads one JSON answer of path with query, for the legal entity le
// when not empty, into v.
func (r *reader) get(ctx context.Context, path string, query url.Values, le string, v any) error {
	u := r.base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	rateLimited, failed := 0, 0
	for {
		body, status, retryAfter, err := r.once(ctx, u, le)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil || status >= 500:
			failed++
			if failed >= networkAttempts {
				if err == nil {
					err = &statusError{path, status, excerpt(body)}
				}
				return fmt.Errorf("GET %s: gave up after %d attempts: %w", path, failed, err)
			}
			if err := r.sleep(ctx, time.Duration(failed)*500*time.Millisecond); err != nil {
				return err
			}
		case status == http.StatusTooManyRequests:
			rateLimited++
			if rateLimited >= rateLimitAttempts {
				return fmt.Errorf("GET %s: still rate limited after %d attempts", path, rateLimited)
			}
			if r.progress != nil {
				r.progress("rate limited: waiting %s as the source asks", retryAfter)
			}
			if err := r.sleep(ctx, retryAfter); err != nil {
				return err
			}
		case status != http.StatusOK:
			return &statusError{path, status, excerpt(body)}
		default:
			if err := json.Unmarshal(body, v); err != nil {
				return fmt.Errorf("GET %s: the answer is not the JSON expected: %w", path, err)
			}
			return nil
		}
	}
}

// once sends one GET and reads its answer whole.
func (r *reader) once(ctx context.Context, u, le string) (body []byte, status int, retryAfter time.Duration,
	err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, 0, 0, err
	}
	req.Header.Set("X-API-Key", r.key)
	req.Header.Set("Accept", "application/json")
	if le != "" && !r.entityKey {
		req.Header.Set("x-legal-entity", le)
	}
	r.requests++
	res, err := r.http.Do(req)
	if err != nil {
		return nil, 0, 0, err
	}
	defer res.Body.Close()
	body, err = io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return nil, 0, 0, err
	}
	return body, res.StatusCode, parseRetryAfter(res.Header.Get("Retry-After"), time.Now()), nil
}

// parseRetryAfter reads a Retry-After header: seconds or an HTTP date; a
// second when it says nothing usable, at most maxRetryAfter.
func parseRetryAfter(h string, now time.Time) time.Duration {
	d := time.Second
	if s, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && s >= 0 {
		d = time.Duration(s) * time.Second
	} else if t, err := http.ParseTime(h); err == nil {
		d = max(t.Sub(now), 0)
	}
	return min(d, maxRetryAfter)
}

// excerpt is the start of an answer's body, for an error message.
func excerpt(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// page is a cursor-paginated list's answer.
type page struct {
	Items    []json.RawMessage `json:"items"`
	Metadata struct {
		NextCursor string `json:"nextCursor"`
	} `json:"metadata"`
}

// list reads every item of a cursor-paginated list, following
// metadata.nextCursor with the same filters; what names the list in the
// progress lines.
func (r *reader) list(ctx context.Context, what, path string, query url.Values, le string) ([]json.RawMessage,
	error) {
	var items []json.RawMessage
	q := url.Values{}
	for k, v := range query {
		q[k] = v
	}
	for pages := 1; ; pages++ {
		var p page
		if err := r.get(ctx, path, q, le, &p); err != nil {
			return nil, err
		}
		items = append(items, p.Items...)
		if p.Metadata.NextCursor == "" {
			return items, nil
		}
		if pages%10 == 0 && r.progress != nil {
			r.progress("%s of %s: %d read so far", what, le, len(items))
		}
		q.Set("cursor", p.Metadata.NextCursor)
	}
}

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// isStatus reports whether err is an answer with the given status.
func isStatus(err error, status int) bool {
	var se *statusError
	return errors.As(err, &se) && se.status == status
}
