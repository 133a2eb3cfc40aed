package traffic

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// JournalEntry is one request the world served.
type JournalEntry struct {
	Seq         int64             `json:"seq"`
	RequestID   string            `json:"requestId"`
	At          string            `json:"at"`
	VirtualAt   string            `json:"virtualAt"`
	Method      string            `json:"method"`
	Path        string            `json:"path"`
	Query       string            `json:"query,omitempty"`
	Route       string            `json:"route"`
	Unmatched   bool              `json:"unmatched,omitempty" doc:"True when the request matched no route (route not_found or method_not_allowed)."`
	Hint        string            `json:"hint,omitempty" doc:"For a request that matched no route, the route it most likely meant, such as GET /card."`
	Via         string            `json:"via,omitempty"`
	Key         string            `json:"key,omitempty"`
	LegalEntity string            `json:"legalEntity,omitempty"`
	Status      int               `json:"status"`
	Forced      bool              `json:"forced,omitempty" doc:"True when the request's Prefer: code=NNN header chose the answer (or refused its value with 400): the handler did not run and nothing was written."`
	LatencyMs   float64           `json:"latencyMs"`
	ReferenceID string            `json:"referenceId,omitempty"`
	Headers     map[string]string `json:"requestHeaders"`
	Request     json.RawMessage   `json:"requestBody,omitempty"`
	Response    json.RawMessage   `json:"responseBody,omitempty"`
}

// JournalCap is how many entries a world keeps.
const JournalCap = 1000

// journalBodyBudget bounds the body bytes a world's journal keeps: past it,
// the oldest entries lose their bodies (the rest of each entry stays), so a
// busy world's journal stays small whatever its answers weigh.
const journalBodyBudget = 2 << 20

// DashboardHeader marks the dashboard's own calls: its reads (and polling)
// are not journaled, so the journal shows what other clients did; its
// actions are.
const DashboardHeader = web.DashboardHeader

// journalRecord is a journal entry as kept: times, headers and bodies as
// they were, formatted, masked and redacted only when the journal is read,
// so serving a request costs a few copies rather than a JSON round trip.
type journalRecord struct {
	seq                       int64
	at, virtual               time.Time
	latency                   time.Duration
	requestID, method, path   string
	query, route, legalEntity string
	via, hint                 string
	referenceID, key          string
	status                    int
	forced                    bool
	header                    [len(journalHeaders) + len(maskedHeaders)]string
	request, response         []byte
}

// keptBody is the start of a request body the journal keeps: a copy when
// the body is longer, which the journal would otherwise keep whole.
func keptBody(body []byte) []byte {
	if len(body) > journalBodyCap {
		return bytes.Clone(body[:journalBodyCap])
	}
	return body
}

// record appends a served request to the journal and reports whether it
// did. The journal itself, the wait for changes, the dashboard's files and
// the dashboard's reads are not recorded.
func (rt *worldRuntime) record(
	r *http.Request,
	info *web.Info,
	body []byte,
	rec *recorder,
	start time.Time,
	virtual time.Time,
) bool {
	if info.Route == "sandbox.requests" || info.Route == "sandbox.changes" ||
		strings.HasPrefix(r.URL.Path, "/_sandbox/ui") ||
		(r.Method == http.MethodGet && r.Header.Get(DashboardHeader) != "") {
		return false
	}
	e := journalRecord{requestID: info.RequestID, at: start, virtual: virtual, method: r.Method, path: r.URL.Path,
		query: r.URL.RawQuery, route: info.Route, via: info.Via, hint: info.Hint, key: r.Header.Get("X-API-Key"),
		legalEntity: info.LegalEntity,
		status:      rec.status, forced: rec.forced, latency: time.Since(start), referenceID: info.ReferenceID,
		request: keptBody(body), response: rec.body}
	for i, h := range journalHeaders {
		e.header[i] = r.Header.Get(h)
	}
	for i, h := range maskedHeaders {
		e.header[len(journalHeaders)+i] = r.Header.Get(h)
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.entrySeq++
	e.seq = rt.entrySeq
	if rt.journal == nil {
		rt.journal = make([]journalRecord, 0, 64)
	}
	if len(rt.journal) < JournalCap {
		rt.journal = append(rt.journal, e)
	} else {
		rt.bodyBytes -= rt.journal[rt.journalHead].bodySize()
		rt.journal[rt.journalHead] = e
	}
	rt.journalHead = (rt.journalHead + 1) % JournalCap
	rt.bodyBytes += e.bodySize()
	rt.keepBodyBudget()
	return true
}

func (e *journalRecord) bodySize() int { return len(e.request) + len(e.response) }

// keepBodyBudget drops the bodies of the oldest entries until the journal
// keeps at most journalBodyBudget bytes of them. Bodies go oldest first,
// so the entries without them are the oldest ones, up to bodiless.
func (rt *worldRuntime) keepBodyBudget() {
	oldest := rt.entrySeq - int64(len(rt.journal)) + 1
	for rt.bodyBytes > journalBodyBudget {
		s := max(rt.bodiless+1, oldest)
		if s > rt.entrySeq {
			return
		}
		e := rt.newest(int(rt.entrySeq - s))
		rt.bodyBytes -= e.bodySize()
		e.request, e.response = nil, nil
		rt.bodiless = s
	}
}

// newest returns the i-th newest record (0 is the newest); the caller holds
// rt.mu.
func (rt *worldRuntime) newest(i int) *journalRecord {
	n := len(rt.journal)
	return &rt.journal[((rt.journalHead-1-i)%n+n)%n]
}

// entry is the record as the journal shows it, secrets redacted.
func (e *journalRecord) entry() JournalEntry {
	headers := map[string]string{}
	for i, v := range e.header {
		switch {
		case v == "":
		case i < len(journalHeaders):
			headers[journalHeaders[i]] = v
		default:
			headers[maskedHeaders[i-len(journalHeaders)]] = mask(v)
		}
	}
	return JournalEntry{
		Seq:         e.seq,
		RequestID:   e.requestID,
		At:          e.at.UTC().Format(time.RFC3339Nano),
		VirtualAt:   ts(e.virtual),
		Method:      e.method,
		Path:        e.path,
		Query:       e.query,
		Route:       e.route,
		Unmatched:   Unmatched(e.route),
		Hint:        e.hint,
		Via:         e.via,
		Key:         mask(e.key),
		LegalEntity: e.legalEntity,
		Status:      e.status,
		Forced:      e.forced,
		LatencyMs:   float64(e.latency.Microseconds()) / 1000,
		ReferenceID: e.referenceID,
		Headers:     headers,
		Request:     redactJSON(e.request),
		Response:    redactJSON(e.response),
	}
}

// Route names of the requests that matched no route.
const (
	RouteNotFound         = "not_found"
	RouteMethodNotAllowed = "method_not_allowed"
)

// Unmatched reports whether a route name is one of a request that matched
// no route.
func Unmatched(route string) bool { return route == RouteNotFound || route == RouteMethodNotAllowed }

// ClearJournal empties a world's journal (on reset).
func (t *Traffic) ClearJournal(w *kernel.World) { t.of(w).clearJournal() }

func (rt *worldRuntime) clearJournal() {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.journal, rt.journalHead, rt.bodyBytes, rt.bodiless = nil, 0, 0, rt.entrySeq
}

// mask keeps a key recognisable without showing it whole.
func mask(s string) string {
	if len(s) <= 8 {
		return strings.Repeat("•", len(s))
	}
	return s[:6] + "…" + s[len(s)-4:]
}

// The request headers the journal shows: these as they were, and the
// credentials masked.
var (
	journalHeaders = [...]string{"Content-Type", "x-legal-entity", "X-Idempotency-Key", "X-Sandbox-World", "Origin",
		"Prefer"}
	maskedHeaders = [...]string{"X-API-Key", "Authorization", "X-Admin-Token"}
)

// secretFields are JSON properties never kept in the journal.
var secretFields = map[string]bool{
	"pan":           true,
	"cvv":           true,
	"signingSecret": true,
	"secret":        true,
	"clientSecret":  true,
	"client_secret": true,
	"access_token":  true,
	"refresh_token": true,
	"id_token":      true,
	"password":      true,
	"accountNumber": true,
}

// redactJSON keeps a JSON body with its secrets masked; other bodies are
// kept as a JSON string.
func redactJSON(body []byte) json.RawMessage {
	if len(body) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(body, &v) != nil {
		raw, _ := json.Marshal(string(body))
		return raw
	}
	raw, _ := json.Marshal(redact(v))
	return raw
}

func redact(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			if s, ok := val.(string); ok && secretFields[k] {
				t[k] = mask(s)
				continue
			}
			t[k] = redact(val)
		}
	case []any:
		for i := range t {
			t[i] = redact(t[i])
		}
	}
	return v
}

// JournalFilter selects journal entries; empty fields select all.
type JournalFilter struct {
	Route, LegalEntity, Method, PathPrefix string
	Status                                 int
	// Limit is how many entries at most (up to JournalCap).
	Limit int
}

func (f *JournalFilter) match(e *journalRecord) bool {
	return (f.Route == "" || e.route == f.Route) && (f.Status == 0 || e.status == f.Status) &&
		(f.LegalEntity == "" || e.legalEntity == f.LegalEntity) &&
		(f.Method == "" || strings.EqualFold(e.method, f.Method)) &&
		strings.HasPrefix(e.path, f.PathPrefix)
}

// Journal lists a world's journal, newest first, as f selects.
func (t *Traffic) Journal(w *kernel.World, f JournalFilter) []JournalEntry {
	rt := t.of(w)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	items := []JournalEntry{}
	for i := 0; i < len(rt.journal) && len(items) < f.Limit; i++ {
		if e := rt.newest(i); f.match(e) {
			items = append(items, e.entry())
		}
	}
	return items
}

func ts(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }
