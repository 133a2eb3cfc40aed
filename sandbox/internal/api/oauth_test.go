package api_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/slash-sandbox/slash-sandbox/sandbox/internal/apitest"
)

type devApp struct {
	ID, DeveloperAccountID, Name, Status, Type, Timestamp string
	OAuthClientID                                         string `json:"oauthClientId"`
	OAuthClientSecret                                     string `json:"oauthClientSecret"`
	Data                                                  struct{ Description string }
}

// createApp registers an application for le_acme.
func createApp(t *testing.T, e *apitest.Env) devApp {
	t.Helper()
	var app devApp
	e.Do(apitest.Req{Method: http.MethodPost, Path: "/developer-account/le_acme/application", Key: "sk_sandbox_acme",
		Body: map[string]any{
			"name": "Books",
			"type": "service",
			"data": apitest.AppData,
		}}).Status(t, 200).Decode(t, &app)
	return app
}

func TestDeveloperApplications(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	app := createApp(t, e)
	t.Run("created with a client id and secret", func(t *testing.T) {
		if app.DeveloperAccountID != "le_acme" || app.Name != "Books" || app.Status != "test" || app.Type != "service" ||
			app.OAuthClientID == "" ||
			app.OAuthClientSecret == "" ||
			app.Data.Description != "Books expenses" {
			t.Fatalf("app = %+v", app)
		}
	})
	t.Run("get hides the secret", func(t *testing.T) {
		m := e.Get("/developer-application/"+app.ID, "sk_sandbox_acme", "").Status(t, 200).JSON(t)
		if m["oauthClientSecret"] != nil || m["oauthClientId"] != app.OAuthClientID {
			t.Fatalf("app = %v", m)
		}
		e.Get("/developer-application/"+app.ID, "sk_sandbox_globex", "").Gen1(t, 404, "not_found")
	})
	t.Run("patch renames and keeps data", func(t *testing.T) {
		var got devApp
		e.Do(apitest.Req{Method: http.MethodPatch, Path: "/developer-application/" + app.ID, Key: "sk_sandbox_acme",
			Body: map[string]string{"name": "Books 2"}}).
			Status(t, 200).
			Decode(t, &got)
		if got.Name != "Books 2" || got.Data.Description != "Books expenses" {
			t.Fatalf("patched = %+v", got)
		}
		e.Do(apitest.Req{Method: http.MethodPatch, Path: "/developer-application/" + app.ID, Key: "sk_sandbox_acme",
			Body: map[string]any{"name": ""}}).
			Gen1(t, 400, "invalid_request")
		e.Do(apitest.Req{Method: http.MethodPatch, Path: "/developer-application/" + app.ID, Key: "sk_sandbox_acme",
			Body: map[string]any{"data": map[string]any{"type": "service"}}}).
			Gen1(t, 400, "invalid_request")
	})
	t.Run("rotating the secret", func(t *testing.T) {
		var rotated devApp
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/developer-application/" + app.ID + "/secret",
			Key: "sk_sandbox_acme"}).
			Status(t, 200).
			Decode(t, &rotated)
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
		).Gen1(t, 401, "unauthorized")
	})
	t.Run("bad input", func(t *testing.T) {
		post := func(path string, body any) *apitest.Resp {
			return e.Do(apitest.Req{Method: http.MethodPost, Path: path, Key: "sk_sandbox_acme", Body: body})
		}
		post("/developer-account/le_globex/application",
			map[string]any{"name": "X", "type": "service", "data": apitest.AppData}).Gen1(t, 404, "not_found")
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
		).Gen1(t, 400, "invalid_request")
		details := d["meta"].(map[string]any)["details"].(map[string]any)
		for _, k := range []string{"/data/description", "/data/type", "/data/scopes", "/data/redirectUris"} {
			if details[k] == nil {
				t.Errorf("details lack %s: %v", k, details)
			}
		}
	})
	t.Run("api keys only", func(t *testing.T) {
		access := bearerFor(t, e, createApp(t, e), "u_bob")
		e.Do(apitest.Req{Path: "/developer-application/" + app.ID,
			Header: map[string]string{"Authorization": "Bearer " + access}}).
			Gen1(t, 401, "unauthorized")
		e.Do(apitest.Req{Path: "/agent-request", Header: map[string]string{"Authorization": "Bearer " + access}}).
			Gen1(t, 401, "unauthorized")
		e.Do(apitest.Req{Path: "/card-product", Header: map[string]string{"Authorization": "Bearer " + access}}).
			Gen1(t, 401, "unauthorized")
	})
	t.Run("a read-only key's create is deferred", func(t *testing.T) {
		apitest.Deferred(
			t,
			e.Do(
				apitest.Req{
					Method: http.MethodPost,
					Path:   "/developer-account/le_acme/application",
					Key:    "sk_sandbox_acme_readonly",
					Body:   map[string]any{"name": "Deferred", "type": "service", "data": apitest.AppData},
				},
			),
		)
	})
}

// authorizeCode runs the sandbox's auto-approving authorization.
func authorizeCode(t *testing.T, e *apitest.Env, clientID, user, challenge, method string) string {
	t.Helper()
	q := url.Values{"client_id": {clientID}, "redirect_uri": {"https://books.test/callback"}, "response_type": {"code"},
		"login_hint": {user}, "scope": {"openid email offline_access"}, "state": {"xyz"}, "nonce": {"n-1"}}
	if challenge != "" {
		q.Set("code_challenge", challenge)
		q.Set("code_challenge_method", method)
	}
	r := e.Do(apitest.Req{Path: "/oauth2/authorize?" + q.Encode()}).Status(t, 302)
	to, err := url.Parse(r.Header.Get("Location"))
	if err != nil || to.Host != "books.test" || to.Query().Get("state") != "xyz" || to.Query().Get("code") == "" {
		t.Fatalf("redirect to %q", r.Header.Get("Location"))
	}
	return to.Query().Get("code")
}

func tokenRequest(t *testing.T, e *apitest.Env, id, secret string, form url.Values) *apitest.Resp {
	t.Helper()
	basic := base64.StdEncoding.EncodeToString([]byte(id + ":" + secret))
	return e.Do(apitest.Req{Method: http.MethodPost, Path: "/oauth2/token", Body: form.Encode(),
		Header: map[string]string{
			"Authorization": "Basic " + basic,
			"Content-Type":  "application/x-www-form-urlencoded",
		}})
}

type tokens struct {
	AccessToken  string `json:"access_token"`
	ExpiresIn    int    `json:"expires_in"`
	IDToken      string `json:"id_token"`
	RefreshToken string `json:"refresh_token"`
}

// bearerFor gets an access token for a user through the whole flow.
func bearerFor(t *testing.T, e *apitest.Env, app devApp, user string) string {
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
	).Status(t, 200).
		Decode(t, &tk)
	return tk.AccessToken
}

func TestOAuth(t *testing.T) {
	t.Parallel()
	e := apitest.New(t, apitest.Options{})
	app := createApp(t, e)
	redirect := "https://books.test/callback"
	t.Run("discovery", func(t *testing.T) {
		m := e.Get("/.well-known/openid-configuration", "", "").Status(t, 200).JSON(t)
		if m["token_endpoint"] != e.Server.URL+"/oauth2/token" ||
			m["authorization_endpoint"] != e.Server.URL+"/oauth2/authorize" {
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
		tokenRequest(t, e, app.OAuthClientID, app.OAuthClientSecret, form).Gen1(t, 400, "invalid_request")
		code = authorizeCode(t, e, app.OAuthClientID, "alice@acme.test", challenge, "S256")
		form.Set("code", code)
		form.Set("code_verifier", verifier)
		tokenRequest(t, e, app.OAuthClientID, app.OAuthClientSecret, form).Status(t, 200).Decode(t, &tk)
		if tk.AccessToken == "" || tk.RefreshToken == "" || tk.ExpiresIn != 3600 {
			t.Fatalf("tokens = %+v", tk)
		}
		parts := strings.Split(tk.IDToken, ".")
		claims, _ := base64.RawURLEncoding.DecodeString(parts[1])
		var c map[string]any
		if len(parts) != 3 || json.Unmarshal(claims, &c) != nil || c["sub"] != "u_alice" ||
			c["aud"] != app.OAuthClientID ||
			c["nonce"] != "n-1" {
			t.Fatalf("id_token claims %s", claims)
		}
		tokenRequest(t, e, app.OAuthClientID, app.OAuthClientSecret, form).Gen1(t, 400, "invalid_request") // used twice
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
		).Status(t, 200)
	})
	t.Run("userinfo", func(t *testing.T) {
		for _, m := range []string{http.MethodGet, http.MethodPost} {
			u := e.Do(apitest.Req{Method: m, Path: "/oauth2/userinfo",
				Header: map[string]string{"Authorization": "Bearer " + tk.AccessToken}}).
				Status(t, 200).
				JSON(t)
			if u["sub"] != "u_alice" || u["email"] != "alice@acme.test" || u["name"] != "Alice Chen" {
				t.Fatalf("userinfo = %v", u)
			}
		}
		e.Do(apitest.Req{Path: "/oauth2/userinfo", Key: "sk_sandbox_alice"}).Gen1(t, 401, "unauthorized")
	})
	t.Run("bearer acts for the user", func(t *testing.T) {
		h := map[string]string{"Authorization": "Bearer " + tk.AccessToken}
		e.Do(apitest.Req{Path: "/account", Header: h}).Gen1(t, 400, "invalid_request") // alice reaches two entities
		var accs struct{ Items []struct{ ID string } }
		e.Do(apitest.Req{Path: "/account?filter:legalEntityId=le_globex", Header: h}).Status(t, 200).Decode(t, &accs)
		if len(accs.Items) != 1 || accs.Items[0].ID != "sa_group_globexmain" {
			t.Fatalf("accounts = %+v", accs)
		}
		e.Do(apitest.Req{Path: "/account", LE: "le_acme", Header: h}).Status(t, 200)
		e.Do(apitest.Req{Path: "/legal-entity", Header: h}).Status(t, 200)
		bob := bearerFor(t, e, app, "u_bob")
		e.Do(apitest.Req{Path: "/transaction/none", Header: map[string]string{"Authorization": "Bearer " + bob}}).
			Gen1(t, 404, "not_found")
		e.Do(apitest.Req{Path: "/account?filter:legalEntityId=le_globex",
			Header: map[string]string{"Authorization": "Bearer " + bob}}).
			Gen1(t, 403, "forbidden")
		e.Do(apitest.Req{Path: "/v2/contacts", LE: "le_acme", Header: h}).Gen2(t, 401, "unauthorized")
		e.Do(apitest.Req{Path: "/account", Header: map[string]string{"Authorization": "Bearer slat_nope"}}).
			Gen1(t, 401, "unauthorized")
	})
	t.Run("refresh rotates and tokens expire", func(t *testing.T) {
		var next tokens
		tokenRequest(t, e, app.OAuthClientID, app.OAuthClientSecret,
			url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tk.RefreshToken}}).
			Status(t, 200).
			Decode(t, &next)
		if next.AccessToken == tk.AccessToken || next.RefreshToken == tk.RefreshToken {
			t.Fatal("refresh returned the same tokens")
		}
		tokenRequest(t, e, app.OAuthClientID, app.OAuthClientSecret,
			url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tk.RefreshToken}}).
			Gen1(t, 400, "invalid_request")
		apitest.Advance(t, e, `{"by":"61m"}`)
		e.Do(apitest.Req{Path: "/oauth2/userinfo",
			Header: map[string]string{"Authorization": "Bearer " + next.AccessToken}}).
			Gen1(t, 401, "unauthorized")
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
			if r := e.Do(apitest.Req{Path: "/oauth2/authorize?" + q.Encode()}); r.StatusCode != 400 ||
				r.Header.Get("Location") != "" {
				t.Errorf("%s: status %d, location %q", name, r.StatusCode, r.Header.Get("Location"))
			}
		}
	})
	t.Run("token endpoint errors", func(t *testing.T) {
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/oauth2/token", Body: "grant_type=refresh_token",
			Header: map[string]string{
				"Content-Type": "application/x-www-form-urlencoded",
			}}).Gen1(t, 401, "unauthorized")
		tokenRequest(t, e, app.OAuthClientID, "wrong",
			url.Values{"grant_type": {"refresh_token"}}).Gen1(t, 401, "unauthorized")
		tokenRequest(
			t,
			e,
			app.OAuthClientID,
			app.OAuthClientSecret,
			url.Values{"grant_type": {"password"}},
		).Gen1(t, 400, "invalid_request")
		basic := base64.StdEncoding.EncodeToString([]byte(app.OAuthClientID + ":" + app.OAuthClientSecret))
		e.Do(apitest.Req{Method: http.MethodPost, Path: "/oauth2/token", Body: `{"grant_type":"refresh_token"}`,
			Header: map[string]string{"Authorization": "Basic " + basic}}).Gen1(t, 415, "unsupported_media_type")
	})
}
