package server_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

var appData = map[string]any{
	"description":    "Books expenses",
	"type":           "service",
	"scopes":         []string{"legal_entity.view", "slash_accounts.transactions.view"},
	"allowedOrigins": []string{"https://books.test"},
	"redirectUris":   []string{"https://books.test/callback"},
	"testUserEmails": []string{"carol@acme.test"},
}

type devApp struct {
	ID, DeveloperAccountID, Name, Status, Type, Timestamp string
	OAuthClientID                                         string `json:"oauthClientId"`
	OAuthClientSecret                                     string `json:"oauthClientSecret"`
	Data                                                  struct{ Description string }
}

// createApp registers an application for le_acme.
func createApp(t *testing.T, e *env) devApp {
	t.Helper()
	var app devApp
	e.do(req{method: http.MethodPost, path: "/developer-account/le_acme/application", key: "sk_sandbox_acme",
		body: map[string]any{"name": "Books", "type": "service", "data": appData}}).status(t, 200).decode(t, &app)
	return app
}

func TestDeveloperApplications(t *testing.T) {
	e := newEnv(t, options{})
	app := createApp(t, e)
	t.Run("created with a client id and secret", func(t *testing.T) {
		if app.DeveloperAccountID != "le_acme" || app.Name != "Books" || app.Status != "test" || app.Type != "service" ||
			app.OAuthClientID == "" || app.OAuthClientSecret == "" || app.Data.Description != "Books expenses" {
			t.Fatalf("app = %+v", app)
		}
	})
	t.Run("get hides the secret", func(t *testing.T) {
		m := e.get("/developer-application/"+app.ID, "sk_sandbox_acme", "").status(t, 200).json(t)
		if m["oauthClientSecret"] != nil || m["oauthClientId"] != app.OAuthClientID {
			t.Fatalf("app = %v", m)
		}
		e.get("/developer-application/"+app.ID, "sk_sandbox_globex", "").gen1(t, 404, "not_found")
	})
	t.Run("patch renames and keeps data", func(t *testing.T) {
		var got devApp
		e.do(req{method: http.MethodPatch, path: "/developer-application/" + app.ID, key: "sk_sandbox_acme",
			body: map[string]string{"name": "Books 2"}}).
			status(t, 200).
			decode(t, &got)
		if got.Name != "Books 2" || got.Data.Description != "Books expenses" {
			t.Fatalf("patched = %+v", got)
		}
		e.do(req{method: http.MethodPatch, path: "/developer-application/" + app.ID, key: "sk_sandbox_acme",
			body: map[string]any{"name": ""}}).
			gen1(t, 400, "invalid_request")
		e.do(req{method: http.MethodPatch, path: "/developer-application/" + app.ID, key: "sk_sandbox_acme",
			body: map[string]any{"data": map[string]any{"type": "service"}}}).
			gen1(t, 400, "invalid_request")
	})
	t.Run("rotating the secret", func(t *testing.T) {
		var rotated devApp
		e.do(req{method: http.MethodPost, path: "/developer-application/" + app.ID + "/secret", key: "sk_sandbox_acme"}).
			status(t, 200).
			decode(t, &rotated)
		if rotated.OAuthClientSecret == "" || rotated.OAuthClientSecret == app.OAuthClientSecret ||
			rotated.OAuthClientID != app.OAuthClientID {
			t.Fatalf("rotated = %+v", rotated)
		}
		code := authorizeCode(t, e, rotated.OAuthClientID, "u_alice", "", "")
		tokenRequest(
			t,
			e,
			app.OAuthClientID,
			app.OAuthClientSecret,
			url.Values{"grant_type": {"authorization_code"}, "code": {code},
				"redirect_uri": {"https://books.test/callback"}},
		).gen1(t, 401, "unauthorized")
	})
	t.Run("bad input", func(t *testing.T) {
		post := func(path string, body any) *resp {
			return e.do(req{method: http.MethodPost, path: path, key: "sk_sandbox_acme", body: body})
		}
		post("/developer-account/le_globex/application",
			map[string]any{"name": "X", "type": "service", "data": appData}).gen1(t, 404, "not_found")
		bad := map[string]any{
			"description":    "",
			"type":           "web",
			"scopes":         []string{"root"},
			"allowedOrigins": []string{},
			"redirectUris":   []string{"/relative"},
		}
		d := post(
			"/developer-account/le_acme/application",
			map[string]any{"name": "X", "type": "service", "data": bad},
		).gen1(t, 400, "invalid_request")
		details := d["meta"].(map[string]any)["details"].(map[string]any)
		for _, k := range []string{"/data/description", "/data/type", "/data/scopes", "/data/redirectUris"} {
			if details[k] == nil {
				t.Errorf("details lack %s: %v", k, details)
			}
		}
	})
	t.Run("api keys only", func(t *testing.T) {
		access := bearerFor(t, e, createApp(t, e), "u_bob")
		e.do(req{path: "/developer-application/" + app.ID, header: map[string]string{"Authorization": "Bearer " + access}}).
			gen1(t, 401, "unauthorized")
		e.do(req{path: "/agent-request", header: map[string]string{"Authorization": "Bearer " + access}}).
			gen1(t, 401, "unauthorized")
		e.do(req{path: "/card-product", header: map[string]string{"Authorization": "Bearer " + access}}).
			gen1(t, 401, "unauthorized")
	})
	t.Run("a read-only key's create is deferred", func(t *testing.T) {
		deferred(
			t,
			e.do(req{method: http.MethodPost, path: "/developer-account/le_acme/application", key: "sk_sandbox_acme_readonly",
				body: map[string]any{"name": "Deferred", "type": "service", "data": appData}}),
		)
	})
}

// authorizeCode runs the sandbox's auto-approving authorization.
func authorizeCode(t *testing.T, e *env, clientID, user, challenge, method string) string {
	t.Helper()
	q := url.Values{"client_id": {clientID}, "redirect_uri": {"https://books.test/callback"}, "response_type": {"code"},
		"login_hint": {user}, "scope": {"openid email offline_access"}, "state": {"xyz"}, "nonce": {"n-1"}}
	if challenge != "" {
		q.Set("code_challenge", challenge)
		q.Set("code_challenge_method", method)
	}
	r := e.do(req{path: "/oauth2/authorize?" + q.Encode()}).status(t, 302)
	to, err := url.Parse(r.Header.Get("Location"))
	if err != nil || to.Host != "books.test" || to.Query().Get("state") != "xyz" || to.Query().Get("code") == "" {
		t.Fatalf("redirect to %q", r.Header.Get("Location"))
	}
	return to.Query().Get("code")
}

func tokenRequest(t *testing.T, e *env, id, secret string, form url.Values) *resp {
	t.Helper()
	basic := base64.StdEncoding.EncodeToString([]byte(id + ":" + secret))
	return e.do(req{method: http.MethodPost, path: "/oauth2/token", body: form.Encode(),
		header: map[string]string{"Authorization": "Basic " + basic, "Content-Type": "application/x-www-form-urlencoded"}})
}

type tokens struct {
	AccessToken  string `json:"access_token"`
	ExpiresIn    int    `json:"expires_in"`
	IDToken      string `json:"id_token"`
	RefreshToken string `json:"refresh_token"`
}

// bearerFor gets an access token for a user through the whole flow.
func bearerFor(t *testing.T, e *env, app devApp, user string) string {
	t.Helper()
	code := authorizeCode(t, e, app.OAuthClientID, user, "", "")
	var tk tokens
	tokenRequest(
		t,
		e,
		app.OAuthClientID,
		app.OAuthClientSecret,
		url.Values{"grant_type": {"authorization_code"}, "code": {code},
			"redirect_uri": {"https://books.test/callback"}},
	).status(t, 200).
		decode(t, &tk)
	return tk.AccessToken
}

func TestOAuth(t *testing.T) {
	e := newEnv(t, options{})
	app := createApp(t, e)
	redirect := "https://books.test/callback"
	t.Run("discovery", func(t *testing.T) {
		m := e.get("/.well-known/openid-configuration", "", "").status(t, 200).json(t)
		if m["token_endpoint"] != e.srv.URL+"/oauth2/token" || m["authorization_endpoint"] != e.srv.URL+"/oauth2/authorize" {
			t.Fatalf("discovery = %v", m)
		}
	})
	verifier := "dBjftJeZ4CVP-mJ92K27uhbUJU1p1r_wW1gFWFOEjXk"
	sum := sha256.Sum256([]byte(verifier))
	challenge := base64.RawURLEncoding.EncodeToString(sum[:])
	var tk tokens
	t.Run("code with PKCE S256", func(t *testing.T) {
		code := authorizeCode(t, e, app.OAuthClientID, "alice@acme.test", challenge, "S256")
		form := url.Values{
			"grant_type":    {"authorization_code"},
			"code":          {code},
			"redirect_uri":  {redirect},
			"code_verifier": {"wrong"},
		}
		tokenRequest(t, e, app.OAuthClientID, app.OAuthClientSecret, form).gen1(t, 400, "invalid_request")
		code = authorizeCode(t, e, app.OAuthClientID, "alice@acme.test", challenge, "S256")
		form.Set("code", code)
		form.Set("code_verifier", verifier)
		tokenRequest(t, e, app.OAuthClientID, app.OAuthClientSecret, form).status(t, 200).decode(t, &tk)
		if tk.AccessToken == "" || tk.RefreshToken == "" || tk.ExpiresIn != 3600 {
			t.Fatalf("tokens = %+v", tk)
		}
		parts := strings.Split(tk.IDToken, ".")
		claims, _ := base64.RawURLEncoding.DecodeString(parts[1])
		var c map[string]any
		if len(parts) != 3 || json.Unmarshal(claims, &c) != nil || c["sub"] != "u_alice" || c["aud"] != app.OAuthClientID ||
			c["nonce"] != "n-1" {
			t.Fatalf("id_token claims %s", claims)
		}
		tokenRequest(t, e, app.OAuthClientID, app.OAuthClientSecret, form).gen1(t, 400, "invalid_request") // used twice
	})
	t.Run("code with PKCE plain", func(t *testing.T) {
		code := authorizeCode(t, e, app.OAuthClientID, "u_bob", "plain-verifier-plain-verifier-plain-verifier", "plain")
		tokenRequest(
			t,
			e,
			app.OAuthClientID,
			app.OAuthClientSecret,
			url.Values{"grant_type": {"authorization_code"}, "code": {code},
				"redirect_uri": {redirect}, "code_verifier": {"plain-verifier-plain-verifier-plain-verifier"}},
		).status(t, 200)
	})
	t.Run("userinfo", func(t *testing.T) {
		for _, m := range []string{http.MethodGet, http.MethodPost} {
			u := e.do(req{method: m, path: "/oauth2/userinfo",
				header: map[string]string{"Authorization": "Bearer " + tk.AccessToken}}).
				status(t, 200).
				json(t)
			if u["sub"] != "u_alice" || u["email"] != "alice@acme.test" || u["name"] != "Alice Chen" {
				t.Fatalf("userinfo = %v", u)
			}
		}
		e.do(req{path: "/oauth2/userinfo", key: "sk_sandbox_alice"}).gen1(t, 401, "unauthorized")
	})
	t.Run("bearer acts for the user", func(t *testing.T) {
		h := map[string]string{"Authorization": "Bearer " + tk.AccessToken}
		e.do(req{path: "/account", header: h}).gen1(t, 400, "invalid_request") // alice reaches two entities
		var accs struct{ Items []struct{ ID string } }
		e.do(req{path: "/account?filter:legalEntityId=le_globex", header: h}).status(t, 200).decode(t, &accs)
		if len(accs.Items) != 1 || accs.Items[0].ID != "sa_group_globexmain" {
			t.Fatalf("accounts = %+v", accs)
		}
		e.do(req{path: "/account", le: "le_acme", header: h}).status(t, 200)
		e.do(req{path: "/legal-entity", header: h}).status(t, 200)
		bob := bearerFor(t, e, app, "u_bob")
		e.do(req{path: "/transaction/none", header: map[string]string{"Authorization": "Bearer " + bob}}).
			gen1(t, 404, "not_found")
		e.do(req{path: "/account?filter:legalEntityId=le_globex",
			header: map[string]string{"Authorization": "Bearer " + bob}}).
			gen1(t, 403, "forbidden")
		e.do(req{path: "/v2/contacts", le: "le_acme", header: h}).gen2(t, 401, "unauthorized")
		e.do(req{path: "/account", header: map[string]string{"Authorization": "Bearer slat_nope"}}).
			gen1(t, 401, "unauthorized")
	})
	t.Run("refresh rotates and tokens expire", func(t *testing.T) {
		var next tokens
		tokenRequest(t, e, app.OAuthClientID, app.OAuthClientSecret,
			url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tk.RefreshToken}}).
			status(t, 200).
			decode(t, &next)
		if next.AccessToken == tk.AccessToken || next.RefreshToken == tk.RefreshToken {
			t.Fatal("refresh returned the same tokens")
		}
		tokenRequest(t, e, app.OAuthClientID, app.OAuthClientSecret,
			url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tk.RefreshToken}}).
			gen1(t, 400, "invalid_request")
		advance(t, e, `{"by":"61m"}`)
		e.do(req{path: "/oauth2/userinfo", header: map[string]string{"Authorization": "Bearer " + next.AccessToken}}).
			gen1(t, 401, "unauthorized")
	})
	t.Run("authorization errors do not redirect", func(t *testing.T) {
		base := url.Values{
			"client_id":     {app.OAuthClientID},
			"redirect_uri":  {redirect},
			"response_type": {"code"},
			"login_hint":    {"u_alice"},
		}
		for name, change := range map[string][2]string{
			"unregistered redirect": {"redirect_uri", "https://evil.test/cb"},
			"unknown client":        {"client_id", "client_nope"},
			"unknown user":          {"login_hint", "nobody@nowhere.test"},
			"scope":                 {"scope", "root"},
			"response type":         {"response_type", "token"},
		} {
			q := url.Values{}
			for k, v := range base {
				q[k] = v
			}
			q.Set(change[0], change[1])
			if r := e.do(req{path: "/oauth2/authorize?" + q.Encode()}); r.StatusCode != 400 || r.Header.Get("Location") != "" {
				t.Errorf("%s: status %d, location %q", name, r.StatusCode, r.Header.Get("Location"))
			}
		}
	})
	t.Run("token endpoint errors", func(t *testing.T) {
		e.do(req{method: http.MethodPost, path: "/oauth2/token", body: "grant_type=refresh_token",
			header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}).gen1(t, 401, "unauthorized")
		tokenRequest(t, e, app.OAuthClientID, "wrong",
			url.Values{"grant_type": {"refresh_token"}}).gen1(t, 401, "unauthorized")
		tokenRequest(
			t,
			e,
			app.OAuthClientID,
			app.OAuthClientSecret,
			url.Values{"grant_type": {"password"}},
		).gen1(t, 400, "invalid_request")
		basic := base64.StdEncoding.EncodeToString([]byte(app.OAuthClientID + ":" + app.OAuthClientSecret))
		e.do(req{method: http.MethodPost, path: "/oauth2/token", body: `{"grant_type":"refresh_token"}`,
			header: map[string]string{"Authorization": "Basic " + basic}}).gen1(t, 415, "unsupported_media_type")
	})
}
