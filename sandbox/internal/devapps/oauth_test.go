package devapps_test

import (
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/devapps"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/enginetest"
	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/kernel"
)

// The verifier and challenge of RFC 7636, appendix B.
const (
	verifier  = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
	challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
	redirect  = "http://127.0.0.1:3000/callback"
)

// wantInvalid fails unless err is invalid_request at field, its problem
// starting with prefix.
func wantInvalid(t *testing.T, err error, field, prefix string) {
	t.Helper()
	e, ok := kernel.AsError(err)
	if !ok || e.Code != kernel.CodeInvalidRequest || !strings.HasPrefix(e.Details[field], prefix) {
		t.Errorf("got %v, want invalid_request at %s: %q…", err, field, prefix)
	}
}

// newApp registers an application of the key's legal entity that
// redirects to redirect.
func newApp(t *testing.T, w *kernel.World, key, legalEntityID string, testUsers ...string) *devapps.DeveloperApp {
	t.Helper()
	var app *devapps.DeveloperApp
	enginetest.Must(t, w.Update(func(op *kernel.Op) error {
		var err error
		app, err = devapps.CreateDeveloperApp(op, enginetest.ActorInOp(t, op, key), legalEntityID, "Books sync",
			devapps.DeveloperAppData{Type: "service", RedirectURIs: []string{redirect}, TestUserEmails: testUsers})
		return err
	}))
	return app
}

// authorize asks for a code and returns it with the error.
func authorize(w *kernel.World, req devapps.AuthorizeRequest) (string, error) {
	var code string
	err := w.Update(func(op *kernel.Op) error {
		var err error
		code, err = devapps.Authorize(op, req)
		return err
	})
	return code, err
}

// exchange trades a code for tokens.
func exchange(w *kernel.World, app *devapps.DeveloperApp, code, uri, verifier string) (*devapps.TokenSet, error) {
	var ts *devapps.TokenSet
	err := w.Update(func(op *kernel.Op) error {
		var err error
		ts, err = devapps.ExchangeCode(op, app, code, uri, verifier)
		return err
	})
	return ts, err
}

// bearer resolves an access token now.
func bearer(w *kernel.World, token string) (*kernel.Principal, error) {
	var p *kernel.Principal
	err := w.View(func(op *kernel.Op) error {
		var err error
		p, err = devapps.BearerPrincipal(op, token)
		return err
	})
	return p, err
}

// The authorization-code flow with PKCE: a code for a user of the legal
// entity, exchanged once with its verifier, gives an access token that
// acts as the user for an hour on the world's clock.
func TestAuthorizationCodeFlow(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	app := newApp(t, w, "sk_sandbox_acme", "le_acme")
	req := devapps.AuthorizeRequest{ClientID: app.ClientID, RedirectURI: redirect, Scope: "openid email",
		Challenge: challenge, ChallengeMethod: "S256", User: "carol@acme.test", Nonce: "n-1"}

	for name, c := range map[string]struct {
		change        func(r *devapps.AuthorizeRequest)
		field, prefix string
	}{
		"an unknown client": {func(r *devapps.AuthorizeRequest) { r.ClientID = "client_x" }, "client_id", "is not"},
		"another redirect":  {func(r *devapps.AuthorizeRequest) { r.RedirectURI += "/" }, "redirect_uri", "is not one"},
		"an unknown scope": {func(r *devapps.AuthorizeRequest) { r.Scope = "openid cards.write" }, "scope",
			"unknown scope"},
		"plain PKCE in caps": {func(r *devapps.AuthorizeRequest) { r.ChallengeMethod = "PLAIN" },
			"code_challenge_method", "must be S256 or plain"},
		"a user of no world": {func(r *devapps.AuthorizeRequest) { r.User = "eve@evil.test" }, "login_hint", "must name"},
		"no user at all":     {func(r *devapps.AuthorizeRequest) { r.User = "" }, "login_hint", "must name"},
	} {
		t.Run(name, func(t *testing.T) {
			r := req
			c.change(&r)
			_, err := authorize(w, r)
			wantInvalid(t, err, c.field, c.prefix)
		})
	}

	code, err := authorize(w, req)
	enginetest.Must(t, err)
	_, err = exchange(w, app, code, redirect, "wrong-verifier")
	wantInvalid(t, err, "code_verifier", "invalid_grant")
	_, err = exchange(w, app, code, redirect+"/", verifier)
	wantInvalid(t, err, "redirect_uri", "invalid_grant")
	ts, err := exchange(w, app, code, redirect, verifier)
	enginetest.Must(t, err)
	if ts.User.ID != "u_carol" || ts.Nonce != "n-1" || ts.Scope != "openid email" || ts.ExpiresIn != 3600 {
		t.Errorf("tokens for %s, nonce %q, scope %q, expiring in %d", ts.User.ID, ts.Nonce, ts.Scope, ts.ExpiresIn)
	}
	if !strings.HasPrefix(ts.AccessToken, "slat_"+devapps.WorldTag(w.ID)+"_") {
		t.Errorf("access token %q does not name its world", ts.AccessToken)
	}
	_, err = exchange(w, app, code, redirect, verifier)
	wantInvalid(t, err, "code", "invalid_grant: the code was already used")

	p, err := bearer(w, ts.AccessToken)
	enginetest.Must(t, err)
	if p.User.ID != "u_carol" || p.Key.Kind != kernel.KeyUser {
		t.Errorf("the token acts as %s with a %s key, want u_carol as a user", p.User.ID, p.Key.Kind)
	}
	if _, err := bearer(w, ts.RefreshToken); err == nil {
		t.Error("a refresh token is accepted as an access token")
	}
	_, err = w.Advance(ts.IssuedAt.Add(devapps.AccessTokenTTL))
	enginetest.Must(t, err)
	_, err = bearer(w, ts.AccessToken)
	if e, ok := kernel.AsError(err); !ok || e.Code != kernel.CodeUnauthorized {
		t.Errorf("an hour on the access token gives %v, want unauthorized", err)
	}
}

// A refresh token works once: it gives new tokens and is revoked.
func TestRefreshTokenWorksOnce(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	app := newApp(t, w, "sk_sandbox_acme", "le_acme")
	code, err := authorize(w, devapps.AuthorizeRequest{ClientID: app.ClientID, RedirectURI: redirect,
		Scope: "offline_access", User: "u_alice"})
	enginetest.Must(t, err)
	ts, err := exchange(w, app, code, redirect, "")
	enginetest.Must(t, err)
	refresh := func() (*devapps.TokenSet, error) {
		var out *devapps.TokenSet
		err := w.Update(func(op *kernel.Op) error {
			var err error
			out, err = devapps.Refresh(op, app, ts.RefreshToken)
			return err
		})
		return out, err
	}
	next, err := refresh()
	enginetest.Must(t, err)
	if next.AccessToken == ts.AccessToken || next.RefreshToken == ts.RefreshToken || next.User.ID != "u_alice" {
		t.Errorf("refreshed tokens %+v: want new ones for u_alice", next)
	}
	if _, err := bearer(w, next.AccessToken); err != nil {
		t.Errorf("the new access token: %v", err)
	}
	_, err = refresh()
	wantInvalid(t, err, "refresh_token", "invalid_grant")
}

// A user without a role on the application's legal entity is refused
// unless the application lists them as a test user.
func TestAuthorizeOnlyForUsersOfTheLegalEntity(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	// Bob's role on Globex is inactive.
	app := newApp(t, w, "sk_sandbox_globex", "le_globex")
	_, err := authorize(w, devapps.AuthorizeRequest{ClientID: app.ClientID, RedirectURI: redirect, User: "u_bob"})
	wantInvalid(t, err, "login_hint", "the user may not act")
	tester := newApp(t, w, "sk_sandbox_globex", "le_globex", "BOB@acme.test")
	if _, err := authorize(w, devapps.AuthorizeRequest{ClientID: tester.ClientID, RedirectURI: redirect,
		User: "bob@acme.test"}); err != nil {
		t.Errorf("a listed test user: %v", err)
	}
}

// An application belongs to its developer account: another legal entity
// neither registers for it nor finds it, and a rotated secret replaces the
// old one at once.
func TestDeveloperAppsAndSecrets(t *testing.T) {
	w := enginetest.MustWorld(t, enginetest.MustScenario(t, "demo"))
	err := w.Update(func(op *kernel.Op) error {
		_, err := devapps.CreateDeveloperApp(op, enginetest.ActorInOp(t, op, "sk_sandbox_globex"), "le_acme", "Mine",
			devapps.DeveloperAppData{})
		return err
	})
	if e, ok := kernel.AsError(err); !ok || e.Code != kernel.CodeNotFound {
		t.Errorf("Globex registering for Acme: %v, want not_found", err)
	}
	app := newApp(t, w, "sk_sandbox_acme", "le_acme")
	err = w.View(func(op *kernel.Op) error {
		_, err := devapps.DeveloperAppOf(op, enginetest.ActorInOp(t, op, "sk_sandbox_globex"), app.ID)
		return err
	})
	if e, ok := kernel.AsError(err); !ok || e.Code != kernel.CodeNotFound {
		t.Errorf("Globex reading Acme's application: %v, want not_found", err)
	}

	var rotated *devapps.DeveloperApp
	enginetest.Must(t, w.Update(func(op *kernel.Op) error {
		var err error
		rotated, err = devapps.RotateDeveloperAppSecret(op, enginetest.ActorInOp(t, op, "sk_sandbox_acme"), app.ID)
		return err
	}))
	enginetest.Must(t, w.View(func(op *kernel.Op) error {
		if _, err := devapps.AuthenticateClient(op, app.ClientID, app.ClientSecret); err == nil {
			t.Error("the old secret still authenticates")
		}
		_, err := devapps.AuthenticateClient(op, app.ClientID, rotated.ClientSecret)
		return err
	}))
	if rotated.ClientID != app.ClientID || rotated.ClientSecret == app.ClientSecret {
		t.Errorf("rotation changed the client id or kept the secret")
	}
}
