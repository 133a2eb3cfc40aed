package control

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/invoices"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

func (c *Control) routesOutbox(s *mux.Router) {
	web.Route(s, web.Gen2, http.MethodGet, "/outbox", "sandbox.outbox.list", c.outbox)
	web.Route(s, web.Gen2, http.MethodGet, "/outbox/wait", "sandbox.outbox.wait", c.waitOutbox)
	web.Route(s, web.Gen2, http.MethodGet, "/outbox/{id}", "sandbox.outbox.get", c.outboxMessage)
	web.Route(s, web.Gen2, http.MethodGet, "/documents/{documentId}", "sandbox.document.get", c.document)
}

// messageView is an outbox message; relative links are made absolute on
// the host the request came to.
type messageView struct {
	ID            string            `json:"id"`
	Kind          string            `json:"kind"`
	To            []string          `json:"to"`
	CC            []string          `json:"cc"`
	Subject       string            `json:"subject"`
	Text          string            `json:"text"`
	HTML          string            `json:"html"`
	Links         map[string]string `json:"links"`
	RelatedID     string            `json:"relatedId,omitempty"`
	LegalEntityID string            `json:"legalEntityId,omitempty"`
	CreatedAt     string            `json:"createdAt" format:"date-time"`
}

// outboxPage is the body of GET /_sandbox/outbox.
type outboxPage struct {
	Items    []messageView `json:"items"`
	Metadata pageCount     `json:"metadata"`
}

// pageCount is a page's metadata: how many items it has and, when more
// follow, the cursor of the next page.
type pageCount struct {
	Count      int    `json:"count"`
	NextCursor string `json:"nextCursor,omitempty"`
}

// messageOf shows a message of world w. A message the world's scenario
// seeded was written once for every world made from it, so its links to
// secure forms and documents name no world: in a world other than the
// default one they are pointed at that world's, as the links of the
// messages it sends itself are.
func messageOf(r *http.Request, w *kernel.World, m *kernel.Message) messageView {
	base := "http://" + r.Host
	own := func(s string) string { return s }
	if w.ID != "default" {
		own = strings.NewReplacer("/_sandbox/forms/", kernel.SandboxPath(w.ID, "/forms/"),
			"/_sandbox/documents/", kernel.SandboxPath(w.ID, "/documents/")).Replace
	}
	links := make(map[string]string, len(m.Links))
	for k, v := range m.Links {
		v = own(v)
		if strings.HasPrefix(v, "/") {
			v = base + v
		}
		links[k] = v
	}
	abs := func(s string) string { return strings.ReplaceAll(own(s), `"/_sandbox/`, `"`+base+`/_sandbox/`) }
	text := strings.NewReplacer(" /_sandbox/", " "+base+"/_sandbox/", "\n/_sandbox/", "\n"+base+"/_sandbox/").
		Replace(own(m.Text))
	return messageView{ID: m.ID, Kind: m.Kind, To: m.To, CC: m.CC, Subject: m.Subject, Text: text, HTML: abs(m.HTML),
		Links: links, RelatedID: m.RelatedID, LegalEntityID: m.LegalEntityID, CreatedAt: ts(m.CreatedAt)}
}

// outboxFilter reads the outbox filters of a query: to, kind, relatedId
// and subject.
func outboxFilter(q url.Values) kernel.OutboxFilter {
	return kernel.OutboxFilter{
		To:        q.Get("to"),
		Kind:      q.Get("kind"),
		RelatedID: q.Get("relatedId"),
		Subject:   q.Get("subject"),
	}
}

// outbox lists the emails the sandbox sent, newest first; to, kind,
// relatedId and subject narrow it.
func (c *Control) outbox(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	page, err := w.Outbox(outboxFilter(r.URL.Query()), kernel.PageRequest{Size: 500})
	if err != nil {
		return nil, err
	}
	items := make([]messageView, len(page.Items))
	for i := range page.Items {
		items[i] = messageOf(r, w, &page.Items[i])
	}
	return outboxPage{Items: items, Metadata: pageCount{Count: len(items)}}, nil
}

func (c *Control) outboxMessage(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	m, err := w.OutboxMessage(mux.Vars(r)["id"])
	if err != nil {
		return nil, err
	}
	return messageOf(r, w, m), nil
}

// document serves a stored document's bytes (an uploaded logo or receipt)
// or renders a generated one (an invoice) with its content type, under a
// policy that lets nothing in it run.
func (c *Control) document(r *http.Request) (any, error) {
	w, err := c.world(r)
	if err != nil {
		return nil, err
	}
	doc, body, err := invoices.DocumentContent(w, mux.Vars(r)["documentId"])
	if err != nil {
		return nil, err
	}
	resp := &web.Response{Status: http.StatusOK, Raw: body, ContentType: doc.ContentType,
		Header: http.Header{"X-Content-Type-Options": {"nosniff"}}}
	if doc.ContentType != "application/pdf" {
		resp.Header.Set("Content-Security-Policy", documentPolicy)
	}
	return resp, nil
}

// documentPolicy is the Content-Security-Policy of a served document: it
// is served from the dashboard's own origin, so nothing in it may run or
// load (an uploaded SVG with a script, an invoice's HTML). PDFs go without
// it, since browsers will not show a PDF in a sandboxed document; their
// type is checked by content, and nosniff keeps it at that.
const documentPolicy = "default-src 'none'; sandbox"
