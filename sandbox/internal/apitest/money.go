package apitest

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// post sends a JSON body; idem, when not empty, is the X-Idempotency-Key.
func (e *Env) Post(path, key, le, idem string, body any) *Resp {
	e.T.Helper()
	r := Req{Method: http.MethodPost, Path: path, Key: key, LE: le, Body: body}
	if idem != "" {
		r.Header = map[string]string{"X-Idempotency-Key": idem}
	}
	return e.Do(r)
}

// patch sends a JSON PATCH.
func (e *Env) Patch(path, key, le string, body any) *Resp {
	e.T.Helper()
	return e.Do(Req{Method: http.MethodPatch, Path: path, Key: key, LE: le, Body: body})
}

// WalkItems follows nextCursor to the end as key (acting on le), returning
// every item.
func WalkItems(t *testing.T, e *Env, key, le, path string) []map[string]any {
	t.Helper()
	var out []map[string]any
	cursor := ""
	for {
		p := path
		if cursor != "" {
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			p += sep + "cursor=" + url.QueryEscape(cursor)
		}
		var pg struct {
			Items    []map[string]any `json:"items"`
			Metadata struct {
				Count      int    `json:"count"`
				NextCursor string `json:"nextCursor"`
			} `json:"metadata"`
		}
		e.Get(p, key, le).Status(t, 200).Decode(t, &pg)
		if pg.Metadata.Count != len(pg.Items) {
			t.Fatalf("metadata.count = %d for %d items", pg.Metadata.Count, len(pg.Items))
		}
		out = append(out, pg.Items...)
		if pg.Metadata.NextCursor == "" {
			return out
		}
		cursor = pg.Metadata.NextCursor
	}
}

// Page is one page of a list answer.
type Page struct {
	Items []struct {
		ID             string `json:"id"`
		DetailedStatus string `json:"detailedStatus"`
		Date           string `json:"date"`
	} `json:"items"`
	Metadata struct {
		Count      int    `json:"count"`
		NextCursor string `json:"nextCursor"`
	} `json:"metadata"`
}

// Walk follows nextCursor to the end, returning every id in order.
func Walk(t *testing.T, e *Env, path string, between func()) []string {
	t.Helper()
	var ids []string
	cursor := ""
	for pages := 0; ; pages++ {
		p := path
		if cursor != "" {
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			p += sep + "cursor=" + url.QueryEscape(cursor)
		}
		var pg Page
		e.Get(p, "sk_sandbox_acme", "").Status(t, 200).Decode(t, &pg)
		if pg.Metadata.Count != len(pg.Items) {
			t.Fatalf("metadata.count = %d for %d items", pg.Metadata.Count, len(pg.Items))
		}
		for _, it := range pg.Items {
			ids = append(ids, it.ID)
		}
		if pg.Metadata.NextCursor == "" {
			return ids
		}
		if len(pg.Items) != kernel.PageSize {
			t.Fatalf("a page that is not the last holds %d items", len(pg.Items))
		}
		cursor = pg.Metadata.NextCursor
		if between != nil {
			between()
		}
	}
}

// AppData is a POST /developer-application body the demo accepts.
var AppData = map[string]any{
	"description":    "Books expenses",
	"type":           "service",
	"scopes":         []string{"legal_entity.view", "slash_accounts.transactions.view"},
	"allowedOrigins": []string{"https://books.test"},
	"redirectUris":   []string{"https://books.test/callback"},
	"testUserEmails": []string{"carol@acme.test"},
}
