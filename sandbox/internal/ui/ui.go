package ui

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"net/http"
	"path"
	"strings"

	"github.com/gorilla/mux"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

//go:embed static
var static embed.FS

// file is one embedded file, ready to serve.
type file struct {
	body  []byte
	ctype string
	etag  string
}

// mediaTypes are the content types of the files the dashboard ships.
var mediaTypes = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".svg":  "image/svg+xml",
}

// files are the dashboard's files by name, read once.
var files = func() map[string]file {
	out := map[string]file{}
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := static.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		out[path.Base(p)] = file{body: body, ctype: mediaTypes[path.Ext(p)], etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		return nil
	})
	if err != nil {
		panic("ui: reading the embedded files: " + err.Error())
	}
	return out
}()

// policy is the page's Content-Security-Policy: everything comes from the
// sandbox itself. Inline styles are allowed because rendered emails carry
// them; scripts never run inline.
const policy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
	"connect-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'self'"

// Register adds the dashboard's routes to r, and their descriptions to
// docs: the page at /_sandbox/ui and its files at /_sandbox/ui/{file}.
// Register them ahead of the control API: they need no admin token (the
// page asks for it and sends it on every call it makes).
func Register(r *mux.Router, docs *openapi.Registry) {
	describe(docs)
	web.Route(r, web.Gen2, http.MethodGet, "/_sandbox/ui", "sandbox.ui", page)
	web.Route(r, web.Gen2, http.MethodGet, "/_sandbox/ui/{file}", "sandbox.ui.file", serveFile)
}

func page(r *http.Request) (any, error) {
	return serve(r, "index.html")
}

func serveFile(r *http.Request) (any, error) {
	return serve(r, mux.Vars(r)["file"])
}

// serve answers a file with its validator: a request that already holds
// this version gets 304 and no body.
func serve(r *http.Request, name string) (any, error) {
	f, ok := files[name]
	if !ok {
		return nil, kernel.NotFound("dashboard file", "file", name)
	}
	h := http.Header{"Etag": {f.etag}, "Cache-Control": {"no-cache"}, "X-Content-Type-Options": {"nosniff"}}
	if strings.HasPrefix(f.ctype, "text/html") {
		h.Set("Content-Security-Policy", policy)
		h.Set("Referrer-Policy", "no-referrer")
	}
	if match := r.Header.Get("If-None-Match"); match != "" && strings.Contains(match, f.etag) {
		return &web.Response{Status: http.StatusNotModified, Header: h, Raw: []byte{}}, nil
	}
	return &web.Response{Status: http.StatusOK, Header: h, Raw: f.body, ContentType: f.ctype}, nil
}
