package ui

import "github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"

// describe adds the descriptions of the dashboard's routes to docs.
func describe(docs *openapi.Registry) {
	text := openapi.Schema{"type": "string"}
	notModified := map[int]any{304: openapi.Content{}}
	docs.Describe("sandbox.ui", openapi.Op{Summary: "The dashboard: a web console over the control and public APIs",
		Description: "Needs no admin token itself; the page asks for it (or takes ?token= once) and sends it on its calls.",
		Security:    openapi.Public, Extension: true, Content: openapi.Content{"text/html": text}, Extra: notModified})
	docs.Describe("sandbox.ui.file", openapi.Op{Summary: "A file of the dashboard: its scripts and styles",
		Security: openapi.Public, Extension: true, Extra: notModified,
		Content: openapi.Content{"text/html": text, "text/javascript": text, "text/css": text, "image/svg+xml": text}})
}
