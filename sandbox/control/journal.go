package control

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox"
	"github.com/slash-sandbox/slash-sandbox/sandbox/web"
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
	Key         string            `json:"key,omitempty"`
	LegalEntity string            `json:"legalEntity,omitempty"`
	Status      int               `json:"status"`
	LatencyMs   float64           `json:"latencyMs"`
	ReferenceID string            `json:"referenceId,omitempty"`
	Headers     map[string]string `json:"requestHeaders"`
	Request     json.RawMessage   `json:"requestBody,omitempty"`
	Response    json.RawMessage   `json:"responseBody,omitempty"`
}

// journalCap is how many entries a world keeps.
const journalCap = 1000

func (c *Control) routesJournal(s *mux.Router) {
	web.Route(s, web.Gen2, http.MethodGet, "/requests", "sandbox.requests", c.requests)
}

// DashboardHeader marks the dashboard's own calls: its reads (and polling)
// are not journaled, so the journal shows what other clients did; its
// actions are.
const DashboardHeader = "X-Sandbox-Dashboard"

// record appends a served request to the journal, secrets redacted. The
// journal itself, the dashboard's files and the dashboard's reads are not
// recorded.
func (rt *worldRuntime) record(r *http.Request, info *web.Info, body []byte, rec *recorder, start time.Time, virtual time.Time) {
	if info.Route == "sandbox.requests" || strings.HasPrefix(r.URL.Path, "/_sandbox/ui") ||
		(r.Method == http.MethodGet && r.Header.Get(DashboardHeader) != "") {
		return
	}
	e := JournalEntry{RequestID: info.RequestID, At: start.UTC().Format(time.RFC3339Nano), VirtualAt: ts(virtual),
		Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Route: info.Route, Key: mask(r.Header.Get("X-API-Key")),
		LegalEntity: info.LegalEntity, Status: rec.status, LatencyMs: float64(time.Since(start).Microseconds()) / 1000,
		ReferenceID: info.ReferenceID, Headers: headers(r), Request: redactJSON(body), Response: redactJSON(rec.body.Bytes())}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.entrySeq++
	e.Seq = rt.entrySeq
	rt.journal = append(rt.journal, e)
	if len(rt.journal) > journalCap {
		rt.journal = append([]JournalEntry(nil), rt.journal[len(rt.journal)-journalCap:]...)
	}
}

// clearJournal empties a world's journal (on reset).
func (rt *worldRuntime) clearJournal() {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.journal = nil
}

// mask keeps a key recognisable without showing it whole.
func mask(s string) string {
	if len(s) <= 8 {
		return strings.Repeat("•", len(s))
	}
	return s[:6] + "…" + s[len(s)-4:]
}

func headers(r *http.Request) map[string]string {
	out := map[string]string{}
	for _, h := range []string{"Content-Type", "x-legal-entity", "X-Idempotency-Key", "X-Sandbox-World", "Origin"} {
		if v := r.Header.Get(h); v != "" {
			out[h] = v
		}
	}
	for _, h := range []string{"X-API-Key", "Authorization", "X-Admin-Token"} {
		if v := r.Header.Get(h); v != "" {
			out[h] = mask(v)
		}
	}
	return out
}

// secretFields are JSON properties never kept in the journal.
var secretFields = map[string]bool{"pan": true, "cvv": true, "signingSecret": true, "secret": true, "clientSecret": true,
	"client_secret": true, "access_token": true, "refresh_token": true, "id_token": true, "password": true, "accountNumber": true}

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

// requests lists the journal, newest first, filtered by route, status,
// legal entity, method or path prefix.
func (c *Control) requests(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	q := r.URL.Query()
	limit := 100
	if s := q.Get("limit"); s != "" {
		if limit, err = strconv.Atoi(s); err != nil || limit < 1 || limit > journalCap {
			return nil, sandbox.InvalidField("limit", "must be between 1 and 1000")
		}
	}
	status, _ := strconv.Atoi(q.Get("status"))
	rt := c.Runtime.of(w)
	rt.mu.Lock()
	defer rt.mu.Unlock()
	items := []JournalEntry{}
	for i := len(rt.journal) - 1; i >= 0 && len(items) < limit; i-- {
		e := rt.journal[i]
		if (q.Get("route") == "" || e.Route == q.Get("route")) && (status == 0 || e.Status == status) &&
			(q.Get("legalEntity") == "" || e.LegalEntity == q.Get("legalEntity")) &&
			(q.Get("method") == "" || strings.EqualFold(e.Method, q.Get("method"))) &&
			strings.HasPrefix(e.Path, q.Get("path")) {
			items = append(items, e)
		}
	}
	return map[string]any{"items": items}, nil
}
