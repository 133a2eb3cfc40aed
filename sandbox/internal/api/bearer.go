package api

import (
	"net/http"
	"strings"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/devapps"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/web"
)

// bearerToken reads "Authorization: Bearer <token>".
func bearerToken(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	token = strings.TrimSpace(token)
	return token, ok && strings.EqualFold(scheme, "Bearer") && token != ""
}

// worldForToken finds the world that issued an OAuth token: every token
// carries its world's tag after the prefix.
func (a *API) worldForToken(token string) (*kernel.World, bool) {
	_, rest, ok := strings.Cut(token, "_")
	if !ok {
		return nil, false
	}
	tag, _, _ := strings.Cut(rest, "_")
	for _, w := range a.Engine.Worlds() {
		if devapps.WorldTag(w.ID) == tag {
			return w, true
		}
	}
	return nil, false
}

// authBearer authenticates an OAuth access token. It acts for the token's
// user like a user-scoped key, except that the legal entity may also come
// from filter:legalEntityId, and may be left out when the user can reach
// only one. The api_key-only operations and the second generation refuse
// bearer tokens.
func (a *API) authBearer(r *http.Request, o authOpts, token string) (*call, error) {
	if o.apiKeyOnly || o.gen == web.Gen2 {
		return nil, kernel.Errorf(kernel.CodeUnauthorized,
			"this operation accepts an API key (X-API-Key) only, not a bearer token")
	}
	w, ok := a.worldForToken(token)
	if !ok {
		return nil, kernel.Errorf(kernel.CodeUnauthorized, "the access token is missing, invalid or expired")
	}
	info := web.InfoOf(r)
	info.World, info.Reference = w.ID, w.ReferenceID
	c := &call{W: w}
	err := w.View(func(op *kernel.Op) error {
		p, err := devapps.BearerPrincipal(op, token)
		if err != nil {
			return err
		}
		c.P, info.Key = p, p.Key.Name
		le := r.Header.Get("x-legal-entity")
		if le == "" {
			le = r.URL.Query().Get("filter:legalEntityId")
		}
		if ids := p.LegalEntityIDs(); le == "" && len(ids) == 1 {
			le = ids[0]
		}
		if le == "" && !o.headerOptional {
			return kernel.InvalidField(
				"filter:legalEntityId",
				"required: the token's user can act for several legal entities (or none); send filter:legalEntityId or"+
					" x-legal-entity",
			)
		}
		c.Actor, err = op.Act(p, le, o.headerOptional)
		return err
	})
	if err != nil {
		return nil, err
	}
	if c.Actor.LegalEntity.ID != "" {
		info.LegalEntity = c.Actor.LegalEntity.ID
	}
	return c, nil
}
