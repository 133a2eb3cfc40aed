package server

import (
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/openapi"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// Document is the OpenAPI document a sandbox assembled with cfg answers GET
// /openapi.json with, built without serving: over an engine without worlds,
// which it closes.
func Document(cfg Config) ([]byte, error) {
	eng, err := newEngine(cfg)
	if err != nil {
		return nil, err
	}
	defer eng.Close()
	r, docs := Router(eng, cfg)
	return web.Encode(openapi.Build(r, docs, openapi.Info{Title: "slash-sandbox", Version: Version}))
}
